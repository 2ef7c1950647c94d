package serve

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// fsModel applies random file operations to a project and says which
// paths the file watcher reports for each, as it reports them: a file
// created, written, removed or renamed is named (both names for a
// rename); a directory moved out, renamed or removed is one event naming
// the directory alone; a directory created or moved in is every file
// under it (watcher.event).
type fsModel struct {
	t        *testing.T
	rng      *rand.Rand
	root     string
	outside  string // where directories moved out of content/ go
	n        int    // names made so far
	outDirs  []string
	pagesDir string
}

func (m *fsModel) abs(rel string) string { return filepath.Join(m.root, filepath.FromSlash(rel)) }

// pages lists the pages under content/ko/docs; dirs its subdirectories.
func (m *fsModel) pages() (pages, dirs []string) {
	filepath.WalkDir(m.abs(m.pagesDir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(m.root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && rel != m.pagesDir:
			dirs = append(dirs, rel)
		case !d.IsDir() && strings.HasSuffix(rel, ".md"):
			pages = append(pages, rel)
		}
		return nil
	})
	return pages, dirs
}

// pageLines are what a page of the model holds: claims on the values
// the evidence operations change, right or wrong, on values that come and
// go, on a set that comes and goes, a mistyped reference (its suggestion
// depends on the names), evtables, a link.
var pageLines = []string{
	"실패는 [15건](ev:d3/d3.a.failed).",
	"실패는 [16건](ev:d3/d3.a.failed).",
	"실패는 [6건](ev:d3/d3.b.failed).",
	"실패는 [15건](ev:d3/d3.c.failed).",
	"실패는 [15건](ev:d3/d3.a.faild).",
	"실패는 [15건](ev:d4/d4.a.failed).",
	"실패는 [4건](ev:other/t.a.n).",
	`{{< evtable set="other" prefix="t" columns="n" >}}`,
	`{{< evtable set="d4" prefix="d4" columns="failed" >}}`,
	"[p](/docs/p/) 글.",
}

// page is a page of one to three of pageLines.
func (m *fsModel) page() string {
	var b strings.Builder
	b.WriteString("---\ntitle: g\n---\n")
	for range 1 + m.rng.IntN(3) {
		b.WriteString("\n" + pageLines[m.rng.IntN(len(pageLines))] + "\n")
	}
	return b.String()
}

// evidence rewrites a file of an evidence set, or adds or removes the
// set d4, and returns what the watcher reports: values change (in place,
// or moved down a line), rows come and go, a cell holds no number, a
// manifest names more rows or is broken, a raw file is missing.
func (m *fsModel) evidence() ([]string, string) {
	pick := func(l ...string) string { return l[m.rng.IntN(len(l))] }
	table := func(set, heading string) string {
		var b strings.Builder
		b.WriteString(pick("", "\n", "intro\n\n") + "## " + heading + "\n\n| stage | failed |\n|---|---:|\n")
		b.WriteString("| A | " + pick("15", "16", "15.0", "N/A") + " |\n")
		b.WriteString("| B | " + pick("6", "7") + " |\n")
		if m.rng.IntN(2) == 0 {
			b.WriteString("| C | " + pick("15", "1") + " |\n")
		}
		return b.String()
	}
	manifest := func(id, heading, name string) string {
		rows := pick(`{ "A" = "a", "B" = "b" }`, `{ "A" = "a", "B" = "b", "C" = "c" }`, `{ "A" = "a" }`)
		return "id = \"" + id + "\"\ntitle = \"t\"\ndate = \"2026-07-09\"\nenvironment = \"lab\"\nreport = \"docs/test-reports/lab.md\"\norigin = \"raw\"\n\n" +
			"[[table]]\nfile = \"report.md\"\nheading = \"" + heading + "\"\nname = \"" + name + "\"\nrows = " + rows + "\ncolumns = { \"failed\" = \"failed\" }\n" +
			pick("", "\n[derived]\n\"sum\" = \""+name+".a.failed + "+name+".b.failed\"\n")
	}
	switch m.rng.IntN(6) {
	case 0, 1:
		m.write("evidence/d3/report.md", table("d3", "D-3"))
		return []string{"evidence/d3/report.md"}, "rewrite evidence/d3/report.md"
	case 2:
		f := "evidence/d3/evidence.toml"
		if m.rng.IntN(4) == 0 {
			m.write(f, "id = \"d3\"\n[[table]\n") // broken
		} else {
			m.write(f, manifest("d3", "D-3", "d3"))
		}
		return []string{f}, "rewrite " + f
	case 3:
		f := "evidence/other/report.md"
		if m.rng.IntN(3) == 0 {
			os.Remove(m.abs(f))
			return []string{f}, "delete " + f
		}
		m.write(f, "## T\n\n| row | n |\n|---|---:|\n| A | "+pick("4", "5")+" |\n")
		return []string{f}, "rewrite " + f
	case 4:
		if _, err := os.Stat(m.abs("evidence/d4")); err == nil {
			if err := os.RemoveAll(m.abs("evidence/d4")); err != nil {
				m.t.Fatal(err)
			}
			return []string{"evidence/d4"}, "remove evidence/d4"
		}
		m.write("evidence/d4/report.md", table("d4", "D-4"))
		m.write("evidence/d4/evidence.toml", manifest("d4", "D-4", "d4"))
		return m.filesUnder("evidence/d4"), "add evidence/d4"
	}
	if _, err := os.Stat(m.abs("evidence/d4")); err != nil {
		return nil, "nothing"
	}
	m.write("evidence/d4/report.md", table("d4", "D-4"))
	return []string{"evidence/d4/report.md"}, "rewrite evidence/d4/report.md"
}

func (m *fsModel) name(ext string) string { m.n++; return fmt.Sprintf("g%d%s", m.n, ext) }

func (m *fsModel) write(rel, s string) {
	if err := os.MkdirAll(filepath.Dir(m.abs(rel)), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(m.abs(rel), []byte(s), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

func (m *fsModel) rename(from, to string) {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		m.t.Fatal(err)
	}
}

// filesUnder lists the files under the project directory rel.
func (m *fsModel) filesUnder(rel string) []string {
	var out []string
	filepath.WalkDir(m.abs(rel), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			r, _ := filepath.Rel(m.root, p)
			out = append(out, filepath.ToSlash(r))
		}
		return nil
	})
	return out
}

// step applies one random operation and returns what the watcher reports
// and a description.
func (m *fsModel) step() ([]string, string) {
	pages, dirs := m.pages()
	pick := func(l []string) string { return l[m.rng.IntN(len(l))] }
	dirOrTop := func() string {
		if len(dirs) > 0 && m.rng.IntN(2) == 0 {
			return pick(dirs)
		}
		return m.pagesDir
	}
	switch op := m.rng.IntN(13); {
	case op == 0 || len(pages) == 0: // create a page
		f := path.Join(dirOrTop(), m.name(".md"))
		m.write(f, m.page())
		return []string{f}, "create " + f
	case op == 1: // write a page
		f := pick(pages)
		m.write(f, m.page())
		return []string{f}, "write " + f
	case op == 2: // rename a page
		f := pick(pages)
		to := path.Join(dirOrTop(), m.name(".md"))
		m.rename(m.abs(f), m.abs(to))
		return []string{f, to}, "rename " + f + " " + to
	case op == 3: // delete a page
		f := pick(pages)
		os.Remove(m.abs(f))
		return []string{f}, "delete " + f
	case op == 4: // rewrite by rename (sed -i), then delete, in one burst
		f := pick(pages)
		tmp := path.Join(path.Dir(f), m.name(""))
		m.write(tmp, m.page())
		m.rename(m.abs(tmp), m.abs(f))
		os.Remove(m.abs(f))
		return []string{tmp, f, f}, "sed -i and delete " + f
	case op == 5: // a new directory of pages
		d := path.Join(dirOrTop(), m.name(""))
		for range 1 + m.rng.IntN(3) {
			m.write(path.Join(d, m.name(".md")), m.page())
		}
		return m.filesUnder(d), "mkdir " + d
	case op == 6 && len(dirs) > 0: // move a directory out of content/
		d := pick(dirs)
		to := filepath.Join(m.outside, m.name(""))
		m.rename(m.abs(d), to)
		m.outDirs = append(m.outDirs, to)
		return []string{d}, "move out " + d
	case op == 7 && len(m.outDirs) > 0: // move a directory back in
		i := m.rng.IntN(len(m.outDirs))
		from := m.outDirs[i]
		m.outDirs = slices.Delete(m.outDirs, i, i+1)
		d := path.Join(dirOrTop(), m.name(""))
		m.rename(from, m.abs(d))
		return m.filesUnder(d), "move in " + d
	case op == 8 && len(dirs) > 0: // rename a directory inside content/
		d := pick(dirs)
		to := path.Join(path.Dir(d), m.name(""))
		if strings.HasPrefix(to+"/", d+"/") {
			return nil, "nothing"
		}
		m.rename(m.abs(d), m.abs(to))
		return append([]string{d}, m.filesUnder(to)...), "rename dir " + d + " " + to
	case op >= 9:
		return m.evidence()
	}
	f := path.Join(dirOrTop(), m.name(".md"))
	m.write(f, m.page())
	return []string{f}, "create " + f
}

// TestRecheckEqualsFreshCheck: after any sequence of file operations —
// pages created, written, renamed, deleted, rewritten by rename and
// deleted within one burst, directories created, moved out of content/,
// moved back in, renamed; evidence values changed, moved, turned into
// text, rows and sets added and removed, manifests broken and mended,
// raw files removed — reported in bursts as the watcher reports them,
// evdoc serve's re-check holds exactly the pages, findings and staged
// claim data a fresh load and check of the project gives.
func TestRecheckEqualsFreshCheck(t *testing.T) {
	t.Parallel() // projects of its own
	ctx := context.Background()
	for seed := range uint64(6) { // each seed is a fresh random history of 8 bursts
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel() // its own project and model
			recheckEqualsFreshCheck(ctx, t, seed)
		})
	}
}

// recheckEqualsFreshCheck is TestRecheckEqualsFreshCheck for the random
// history of one seed.
func recheckEqualsFreshCheck(ctx context.Context, t *testing.T, seed uint64) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	m := &fsModel{t: t, rng: rand.New(rand.NewPCG(seed, 26)), root: dir, outside: t.TempDir(), pagesDir: "content/ko/docs"}
	inc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	full := FullRechecker{Root: dir, Check: check.DefaultOptions()}
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Figures are drawn once per seed and side (as serve does), their
	// drawings shared between seeds and sides (shareFigures).
	incFigures, fullFigures := &project.FigureCache{}, &project.FigureCache{}
	claims := &staging.ClaimCache{} // kept from burst to burst, as serve keeps it
	edited := 0                     // bursts staged with StageEdit
	viewerChecked := 0              // of them, bursts whose viewer pages were compared
	complete := 0                   // of them, bursts whose staging was complete
	var log []string
	// served is what serve's Hugo would read: a whole staging of the
	// re-checked state (claims.Staged), then the edits' stagings written
	// over it, with no whole staging between them (each superseded).
	served := map[string]string{}
	partial := false // a whole staging is due (serve's server.partial)
	stageWhole := func(st *State) {
		t.Helper()
		dir := t.TempDir()
		st.Site.FigureCache = incFigures
		shareFigures(t, incFigures, st.Site)
		staged, err := staging.Stage(ctx, st.Site, dir, st.Stage, nil)
		if err != nil {
			claims.Staged(nil, nil, nil) // serve keeps its last staging
			return
		}
		claims.Staged(st.Site, st.Stage, staged.Viewer)
		served = treeFiles(t, dir)
	}
	stageWhole(st)
	for range 8 {
		var changed []string
		for range 1 + m.rng.IntN(3) {
			c, what := m.step()
			changed = append(changed, c...)
			log = append(log, what)
		}
		slices.Sort(changed)
		changed = slices.Compact(changed)
		log = append(log, "-- recheck")
		next, err := inc.Recheck(ctx, st, changed)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, strings.Join(log, "\n"))
		}
		want, err := full.Recheck(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got, wantPages []string
		for _, p := range next.Site.Pages {
			got = append(got, p.Path)
		}
		for _, p := range want.Site.Pages {
			wantPages = append(wantPages, p.Path)
		}
		if !reflect.DeepEqual(got, wantPages) {
			t.Fatalf("seed %d: pages\n%q\nwant (fresh load)\n%q\nafter:\n%s", seed, got, wantPages, strings.Join(log, "\n"))
		}
		if !reflect.DeepEqual(next.Findings, want.Findings) {
			t.Fatalf("seed %d: findings\n%v\nwant (fresh check)\n%v\nafter:\n%s", seed, next.Findings, want.Findings, strings.Join(log, "\n"))
		}
		next.Site.FigureCache, want.Site.FigureCache = incFigures, fullFigures
		shareFigures(t, incFigures, next.Site)
		shareFigures(t, fullFigures, want.Site)
		staged, gotErr := stageClaimFiles(t, next)
		// one whole staging of the fresh check, for its claim data here
		// and for the edit's staging below
		var all map[string]string
		whole := t.TempDir()
		_, wantErr := staging.Stage(ctx, want.Site, whole, want.Stage, nil)
		var wantFiles map[string]string
		if wantErr == nil {
			all = treeFiles(t, whole)
			wantFiles = claimFiles(all)
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(staged, wantFiles) {
			t.Fatalf("seed %d: staged claim data\n%v (%v)\nwant (fresh check)\n%v (%v)\nafter:\n%s", seed, staged, gotErr, wantFiles, wantErr, strings.Join(log, "\n"))
		}
		// What serve stages first after an edit (the edited pages, the
		// claim and set data, with the claim data cached from burst to
		// burst) is what a whole staging of the fresh check writes.
		if pages, ok := editedPages(next, Scope{}, changed); ok {
			edit := t.TempDir()
			known := claims.ViewerKnown()
			if err := staging.StageEditCached(ctx, next.Site, edit, next.Stage, pages, nil, claims); err != nil {
				t.Fatalf("seed %d: StageEdit: %v\nafter:\n%s", seed, err, strings.Join(log, "\n"))
			}
			wrote := treeFiles(t, edit)
			maps.Copy(served, wrote)
			// a figure that cannot be drawn fails the whole staging
			// (serve then keeps what it staged last): nothing to compare
			if wantErr == nil {
				for f, b := range wrote {
					if w, ok := all[f]; !ok {
						t.Fatalf("seed %d: StageEdit wrote %s, which Stage does not\nafter:\n%s", seed, f, strings.Join(log, "\n"))
					} else if b != w {
						t.Fatalf("seed %d: %s: StageEdit wrote\n%s\nStage of a fresh check writes\n%s\nafter:\n%s", seed, f, clip(b), clip(w), strings.Join(log, "\n"))
					}
				}
				// When the cache knew the served viewer pages and still
				// does, the edit wrote every one of them that changed:
				// the whole staging after it writes none.
				if known && claims.ViewerKnown() {
					for f, w := range all {
						if viewerPage(f) && served[f] != w {
							t.Fatalf("seed %d: the viewer page %s the edit changed was not staged with it: served\n%s\nStage of a fresh check writes\n%s\nafter:\n%s", seed, f, clip(served[f]), clip(w), strings.Join(log, "\n"))
						}
					}
					viewerChecked++
					// When the edit's staging says it wrote all a whole
					// staging changes, serve stages no more: the served
					// project must be the whole staging, file for file.
					if !partial && claims.EditComplete() && onlyEdits(next.Site.Config, changed) {
						for f, w := range all {
							if served[f] != w {
								t.Fatalf("seed %d: the edit's staging is called complete, but %s differs: served\n%s\nStage of a fresh check writes\n%s\nafter:\n%s", seed, f, clip(served[f]), clip(w), strings.Join(log, "\n"))
							}
						}
						for f := range served {
							if _, ok := all[f]; !ok {
								t.Fatalf("seed %d: the edit's staging is called complete, but the served %s is not staged whole\nafter:\n%s", seed, f, strings.Join(log, "\n"))
							}
						}
						complete++
					}
				}
				edited++
			}
			switch {
			case !claims.ViewerKnown() || partial:
				// as serve stages the whole project after the edit (a
				// staging superseded before: at the next change)
				stageWhole(next)
				partial = false
			case !claims.EditComplete() || !onlyEdits(next.Site.Config, changed):
				// the whole staging serve does next is superseded by the
				// next burst (the served project keeps its older files
				// but for the edits' until then)
				partial = true
			}
		} else {
			stageWhole(next)
			partial = false
		}
		st = next
	}
	t.Logf("seed %d: %d of 8 bursts staged first as an edit and compared, %d of them with every viewer page, %d whole", seed, edited, viewerChecked, complete)
}

// viewerPage reports whether the staged file f is an evidence viewer
// page (a window of a raw file, in a content directory) or one of its
// lines and citations files.
func viewerPage(f string) bool {
	if strings.HasPrefix(f, staging.ViewerFilesDir+"/") {
		return true
	}
	_, rest, ok := strings.Cut(f, "/evidence/")
	return ok && strings.HasPrefix(f, "content/") && strings.Count(rest, "/") == 1 && !strings.HasSuffix(rest, "/_index.md")
}
