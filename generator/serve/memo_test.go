package serve

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/figure/output"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// The package's tests stage the same few projects again and again: each
// case of TestEditCompleteServesWholeStaging starts from
// testdata/affected.txtar, and many saves return a project to a state an
// earlier save or case had. Under -race, drawing a figure is most of
// what a whole staging costs. The memos below do each such piece of work
// once per project state in the test binary, keyed by the bytes of the
// project's files (not by the production code's own cache keys, so a
// key that missed an input would not hide a stale result here).

// treeHash returns a digest of the paths and bytes of the regular files
// under root, leaving out the top-level directories skip names.
func treeHash(t testing.TB, root string, skip ...string) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return nil // no such directory: no file
			}
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			for _, s := range skip {
				if rel == s {
					return filepath.SkipDir
				}
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h.Write([]byte(rel))
		h.Write([]byte{0})
		h.Write([]byte{byte(len(b) >> 24), byte(len(b) >> 16), byte(len(b) >> 8), byte(len(b))})
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// figureMemo holds the drawings output.Project.Files made, by figure
// name and the state of the project's files outside content/: the
// figure specs, the evidence, hugo.toml and the fonts, which are all a
// drawing reads (a page does not change a figure).
var figureMemo = struct {
	sync.Mutex
	m map[figureMemoKey]*drawnFigure
}{m: map[figureMemoKey]*drawnFigure{}}

type figureMemoKey struct {
	state [32]byte
	name  string
}

type drawnFigure struct {
	once  sync.Once
	files []output.File
	rec   *output.Record
	err   error
}

// drawnFigures returns a new FigureCache holding each figure of site as
// output.Project.Files draws it from the project's present files (a
// cache that had drawn them all): a Stage with it writes what a Stage
// with an empty cache writes, without drawing again a figure drawn
// before from the same files. A figure that cannot be drawn is left out
// (Stage draws it and reports the error).
func drawnFigures(t testing.TB, site *project.Site) *project.FigureCache {
	t.Helper()
	c := &project.FigureCache{}
	if len(site.Figures) == 0 {
		return c
	}
	proj, err := site.FigureProject()
	if err != nil {
		return c
	}
	state := treeHash(t, site.Root, "content")
	for _, f := range site.Figures {
		k := figureMemoKey{state, f.Name}
		figureMemo.Lock()
		d := figureMemo.m[k]
		if d == nil {
			d = &drawnFigure{}
			figureMemo.m[k] = d
		}
		figureMemo.Unlock()
		d.once.Do(func() { d.files, d.rec, d.err = proj.Files(f) })
		if d.err == nil {
			c.Put(proj, f, d.files, d.rec)
		}
	}
	return c
}

// sharedDrawings holds drawings by figure name, output.Project.InputKey
// and the state of the project's fonts directory (which the key leaves
// out): what a project.FigureCache keeps, shared by the caches of every
// test that calls shareFigures.
var sharedDrawings = struct {
	sync.Mutex
	m map[sharedKey]*drawnFigure
}{m: map[sharedKey]*drawnFigure{}}

type sharedKey struct {
	input, fonts [32]byte
	name         string
}

// shareFigures makes c, a FigureCache kept from staging to staging as
// serve keeps one, hold each figure of site at its present inputs, taking
// a drawing another test's cache made of the same inputs: c then holds
// what it would hold had it drawn them itself, and the Stage after
// draws nothing again. A figure drawn by none is drawn by c.
func shareFigures(t testing.TB, c *project.FigureCache, site *project.Site) {
	t.Helper()
	if len(site.Figures) == 0 {
		return
	}
	proj, err := site.FigureProject()
	if err != nil {
		return
	}
	fonts := treeHash(t, filepath.Join(site.Root, filepath.FromSlash(project.FontsDir)))
	for _, f := range site.Figures {
		input, ok := proj.InputKey(f)
		if !ok {
			continue
		}
		k := sharedKey{input, fonts, f.Name}
		sharedDrawings.Lock()
		d := sharedDrawings.m[k]
		if d == nil {
			d = &drawnFigure{}
			sharedDrawings.m[k] = d
		}
		sharedDrawings.Unlock()
		drew := false
		d.once.Do(func() { drew = true; d.files, d.rec, d.err = c.Files(proj, f) })
		if !drew && d.err == nil {
			c.Put(proj, f, d.files, d.rec)
		}
	}
}

// wholeMemo holds fresh whole stagings (a fresh load and check of the
// project, then staging.Stage) by the state of all the project's files.
var wholeMemo = struct {
	sync.Mutex
	m map[[32]byte]*freshStaging
}{m: map[[32]byte]*freshStaging{}}

type freshStaging struct {
	once  sync.Once
	files map[string]string
	err   error
}

// freshWholeStaging returns the files a whole staging of a fresh load
// and check of the project at root writes, by slash path: what
// FullRechecker and staging.Stage give, done once per state of the
// project's files.
func freshWholeStaging(t testing.TB, root string) (map[string]string, error) {
	t.Helper()
	state := treeHash(t, root)
	wholeMemo.Lock()
	w := wholeMemo.m[state]
	if w == nil {
		w = &freshStaging{}
		wholeMemo.m[state] = w
	}
	wholeMemo.Unlock()
	w.once.Do(func() {
		ctx := context.Background()
		st, err := FullRechecker{Root: root, Check: check.DefaultOptions()}.Recheck(ctx, nil, nil)
		if err != nil {
			w.err = err
			return
		}
		st.Site.FigureCache = drawnFigures(t, st.Site)
		dir, err := os.MkdirTemp("", "evdoc-serve-whole-")
		if err != nil {
			w.err = err
			return
		}
		defer os.RemoveAll(dir)
		if _, err := staging.Stage(ctx, st.Site, dir, st.Stage, nil); err != nil {
			w.err = err
			return
		}
		w.files, w.err = readTree(dir)
	})
	return w.files, w.err
}

// readTree returns the regular files under dir by slash path.
func readTree(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	return out, err
}

// TestMemosAreFresh: what the memos hand a test of one project directory
// after another directory of the same files filled them is what a fresh
// load, check and staging with an empty figure cache writes there, file
// for file (the drawings hold no path of the directory that drew them);
// and a project whose evidence changed gets figures drawn anew.
func TestMemosAreFresh(t *testing.T) {
	t.Parallel() // projects of its own
	ctx := context.Background()
	first := txtartest.WriteFile(t, "testdata/affected.txtar")
	if _, err := freshWholeStaging(t, first); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ name, file, text string }{
		{"as written", "", ""},
		{"evidence value changed", "evidence/d3/report.md", "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 16 |\n| B | 6 |\n"},
	} {
		t.Run(step.name, func(t *testing.T) {
			dir := txtartest.WriteFile(t, "testdata/affected.txtar")
			if step.file != "" {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(step.file)), []byte(step.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st, err := FullRechecker{Root: dir, Check: check.DefaultOptions()}.Recheck(ctx, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Site.Figures) == 0 {
				t.Fatal("the project has no figure; the test needs one")
			}
			st.Site.FigureCache = &project.FigureCache{}
			fresh := t.TempDir()
			if _, err := staging.Stage(ctx, st.Site, fresh, st.Stage, nil); err != nil {
				t.Fatal(err)
			}
			want := treeFiles(t, fresh)
			st.Site.FigureCache = drawnFigures(t, st.Site)
			primed := t.TempDir()
			if _, err := staging.Stage(ctx, st.Site, primed, st.Stage, nil); err != nil {
				t.Fatal(err)
			}
			memo, err := freshWholeStaging(t, dir)
			if err != nil {
				t.Fatal(err)
			}
			for what, got := range map[string]map[string]string{"a Stage with drawnFigures": treeFiles(t, primed), "freshWholeStaging": memo} {
				if !reflect.DeepEqual(got, want) {
					for f, w := range want {
						if got[f] != w {
							t.Errorf("%s: %s differs from a fresh staging's:\n%s\nwant\n%s", what, f, clip(got[f]), clip(w))
						}
					}
					for f := range got {
						if _, ok := want[f]; !ok {
							t.Errorf("%s wrote %s, which a fresh staging does not", what, f)
						}
					}
				}
			}
		})
	}
}
