package staging

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestClaimCacheWarm: after a whole staging (Staged), Warm makes the
// data of every claim, so the first edit's StageEditCached makes none
// for an edit of a page's number (its destination and bindings the
// same) where a cache not warmed makes every claim's; the files the edit
// writes (pages, claim data, viewer pages) are the same bytes either way,
// and so are those of an evidence edit after it.
func TestClaimCacheWarm(t *testing.T) {
	ctx := context.Background()
	type result struct {
		files     []map[string]string
		warmMade  int
		firstMade int
	}
	run := func(warm bool) result {
		dir := txtartest.WriteFile(t, "../serve/testdata/stageedit.txtar")
		s, err := project.LoadWith(dir, project.LoadOptions{Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		c := checker.NewCheckerWith(s, checker.CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: true, CitesIndex: true})
		staged, err := Stage(ctx, s, t.TempDir(), c.StageData(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cache := &ClaimCache{}
		cache.Staged(s, c.StageData(), staged.Viewer)
		var r result
		if warm {
			cache.Warm(s, c.StageData())
			r.warmMade = cache.made
		}
		for i, e := range []struct{ file, old, new string }{
			{"content/ko/docs/p.md", "대략 [12]", "대략 [13]"},
			{"evidence/d/report.md", "| A | 12.34 |", "| A | 13.34 |"},
		} {
			p := filepath.Join(dir, filepath.FromSlash(e.file))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(e.old)) {
				t.Fatalf("%s lacks %q", e.file, e.old)
			}
			if err := os.WriteFile(p, bytes.Replace(b, []byte(e.old), []byte(e.new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			var pages []string
			if i == 0 {
				if err := c.Recheck(e.file); err != nil {
					t.Fatal(err)
				}
				pages = []string{e.file}
			} else {
				c.RecheckEvidence()
			}
			before := cache.made
			out := t.TempDir()
			if err := StageEditCached(ctx, c.Site(), out, c.StageData(), pages, staged.Evtables, cache); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				r.firstMade = cache.made - before
			}
			files := map[string]string{}
			filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(path)
					rel, _ := filepath.Rel(out, path)
					files[filepath.ToSlash(rel)] = string(b)
				}
				return nil
			})
			r.files = append(r.files, files)
		}
		return r
	}
	cold, warm := run(false), run(true)
	if warm.warmMade == 0 || cold.firstMade == 0 {
		t.Fatalf("Warm made %d claims' data, the first edit without it %d: the test needs both", warm.warmMade, cold.firstMade)
	}
	if warm.firstMade != 0 {
		t.Errorf("the first edit after Warm made %d claims' data, want 0 (without Warm: %d)", warm.firstMade, cold.firstMade)
	}
	for i := range cold.files {
		if len(cold.files[i]) == 0 || !reflect.DeepEqual(warm.files[i], cold.files[i]) {
			t.Errorf("edit %d: the files written after Warm differ from those without it (%d and %d files)", i, len(warm.files[i]), len(cold.files[i]))
		}
	}
}
