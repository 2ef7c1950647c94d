package serve

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// editServedTree plays saves (file → new text; "" removes it) on the
// project of testdata/affected.txtar as serve stages them: a whole
// staging first, then each save's edit staging written over the served
// tree, the whole staging left out when EditComplete and onlyEdits say
// so (else done). After each save whose whole staging is left out, the
// served tree must be a whole staging of a fresh check, file for file.
func editServedTree(t *testing.T, saves []map[string]string) {
	t.Helper()
	ctx := context.Background()
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	inc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	full := FullRechecker{Root: dir, Check: check.DefaultOptions()}
	figs := &project.FigureCache{}
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	claims := &staging.ClaimCache{}
	served := map[string]string{}
	whole := func(st *State) map[string]string {
		d := t.TempDir()
		st.Site.FigureCache = figs
		staged, err := staging.Stage(ctx, st.Site, d, st.Stage, nil)
		if err != nil {
			t.Fatal(err)
		}
		claims.Staged(st.Site, st.Stage, staged.Viewer)
		return treeFiles(t, d)
	}
	served = whole(st)
	for i, save := range saves {
		var changed []string
		for f, s := range save {
			changed = append(changed, f)
			p := filepath.Join(dir, filepath.FromSlash(f))
			if s == "" {
				os.Remove(p)
				continue
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(changed)
		next, err := inc.Recheck(ctx, st, changed)
		if err != nil {
			t.Fatal(err)
		}
		next.Site.FigureCache = figs
		pages, ok := editedPages(next, Scope{}, changed)
		if !ok {
			t.Logf("save %d: not an edit; whole staging", i)
			served = whole(next)
			st = next
			continue
		}
		edit := t.TempDir()
		if err := staging.StageEditCached(ctx, next.Site, edit, next.Stage, pages, nil, claims); err != nil {
			t.Fatal(err)
		}
		maps.Copy(served, treeFiles(t, edit))
		if !(claims.EditComplete() && onlyEdits(next.Site.Config, changed)) {
			t.Logf("save %d: edit staging not complete; whole staging", i)
			served = whole(next)
			st = next
			continue
		}
		t.Logf("save %d: edit staging called complete; no whole staging", i)
		want, err := full.Recheck(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want.Site.FigureCache = &project.FigureCache{}
		wd := t.TempDir()
		if _, err := staging.Stage(ctx, want.Site, wd, want.Stage, nil); err != nil {
			t.Fatal(err)
		}
		all := treeFiles(t, wd)
		for f, w := range all {
			if served[f] != w {
				t.Errorf("save %d (called complete): %s differs: served\n%s\nwhole staging\n%s", i, f, clip(served[f]), clip(w))
			}
		}
		for f := range served {
			if _, ok := all[f]; !ok {
				t.Errorf("save %d (called complete): served %s is not in a whole staging", i, f)
			}
		}
		st = next
	}
}

func TestBreakFallbackDraft(t *testing.T) {
	editServedTree(t, []map[string]string{
		{"content/ko/docs/t.md": "---\ntitle: t\ndraft: true\n---\n\n글.\n"},
	})
}

func TestBreakFallbackTranslationKey(t *testing.T) {
	editServedTree(t, []map[string]string{
		{"content/ko/docs/t.md": "---\ntitle: t\ntranslationKey: s\n---\n\n글.\n"},
	})
}

func TestBreakFallbackGone(t *testing.T) {
	editServedTree(t, []map[string]string{
		{"content/ja/docs/u.md": "---\ntitle: u\ntranslationKey: k\n---\n\n文。\n"},
		{"content/ko/docs/t.md": "---\ntitle: t\ntranslationKey: k\n---\n\n글.\n"},
		{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n글.\n"},
	})
}

func TestBreakCascadeToFallback(t *testing.T) {
	editServedTree(t, []map[string]string{
		{"content/ko/docs/_index.md": "---\ntitle: docs\n---\n"},
		{"content/ko/docs/_index.md": "---\ntitle: docs\ncascade:\n  params:\n    note: n\n---\n"},
	})
}
