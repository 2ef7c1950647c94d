package serve

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// serve's cache of drawn figures, kept from save to save: it starts
	// with the project's figures drawn, as serve's first staging leaves it
	figs := drawnFigures(t, st.Site)
	claims := &staging.ClaimCache{}
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
	served := whole(st)
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
		wrote := treeFiles(t, edit)
		maps.Copy(served, wrote)
		if !(claims.EditComplete() && onlyEdits(next.Site.Config, changed)) {
			t.Logf("save %d: edit staging not complete; whole staging", i)
			served = whole(next)
			// the claim data and the edited pages the edit's staging
			// wrote are the whole staging's (but where a page edited
			// is a fallback's place now)
			for f, w := range wrote {
				if !strings.HasPrefix(f, "data/evdoc/") && !(slices.Contains(pages, f) && !strings.Contains(served[f], "\nevdoc_fallback:")) {
					continue
				}
				if served[f] != w {
					t.Errorf("save %d: the edit's staging wrote %s:\n%s\nthe whole staging\n%s", i, f, clip(w), clip(served[f]))
				}
			}
			st = next
			continue
		}
		t.Logf("save %d: the edit staging is called complete: no whole staging", i)
		all, err := freshWholeStaging(t, dir)
		if err != nil {
			t.Fatal(err)
		}
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

// TestEditCompleteServesWholeStaging: after each save whose edit
// staging ClaimCache.EditComplete calls complete, the served tree is a
// whole staging of a fresh check, file for file.
func TestEditCompleteServesWholeStaging(t *testing.T) {
	t.Parallel() // projects of its own
	for name, saves := range map[string][]map[string]string{
		"evidence value a fallback page cites": {
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 16 |\n| B | 6 |\n"},
		},
		"derived value": {
			{"evidence/d3/evidence.toml": "id = \"d3\"\ntitle = \"outlier detection\"\ndate = \"2026-07-09\"\nenvironment = \"lab\"\nreport = \"docs/test-reports/lab.md\"\norigin = \"raw\"\n\n[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"d3\"\nrows = { \"A\" = \"a\", \"B\" = \"b\" }\ncolumns = { \"failed\" = \"failed\" }\n\n[derived]\n\"sum\" = \"d3.a.failed + d3.b.failed\"\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n합은 [21건](ev:d3/sum).\n"},
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 15 |\n| B | 7 |\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n합은 [22건](ev:d3/sum).\n"},
		},
		"claim exempt, reference link, code span": {
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n[15건](ev:exempt) [15건][r] `[15건](ev:d3/d3.a.failed)`\n\n[r]: ev:d3/d3.a.failed\n"},
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n[15건][r] [15건](ev:d3/d3.a.failed)\n\n[r]: ev:d3/d3.a.failed\n"},
		},
		"repeated claims on a page": {
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n[15건](ev:d3/d3.a.failed) [15건](ev:d3/d3.a.failed)\n"},
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n[15건](ev:d3/d3.a.failed) 글 [15.0건](ev:d3/d3.a.failed)\n"},
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n[15건](ev:d3/d3.a.failed)\n"},
		},
		"claim in a shortcode": {
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n{{% details title=\"x\" %}}\n[15건](ev:d3/d3.a.failed)\n{{% /details %}}\n"},
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 16 |\n| B | 6 |\n"},
		},
		"fallback source made a draft": {
			{"content/ko/docs/t.md": "---\ntitle: t\ndraft: true\n---\n\n글.\n"},
		},
		"fallback source given a translationKey of no page": {
			{"content/ko/docs/t.md": "---\ntitle: t\ntranslationKey: s\n---\n\n글.\n"},
		},
		"fallback gone: its source paired by translationKey, then unpaired": {
			{"content/ja/docs/u.md": "---\ntitle: u\ntranslationKey: k\n---\n\n文。\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\ntranslationKey: k\n---\n\n글.\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n글.\n"},
		},
		"section page's cascade, in the fallbacks under it": {
			{"content/ko/docs/_index.md": "---\ntitle: docs\n---\n"},
			{"content/ko/docs/_index.md": "---\ntitle: docs\ncascade:\n  params:\n    note: n\n---\n"},
		},

		"title of a citing page": {
			{"content/ko/docs/p.md": "---\ntitle: pp\ntranslationKey: p\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"evtable added": {
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n{{< evtable set=\"d3\" prefix=\"d3\" columns=\"failed\" >}}\n"},
		},
		"both languages": {
			{"content/ko/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n실패는 [6건](ev:d3/d3.b.failed).\n",
				"content/ja/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n失敗は[16件](ev:d3/d3.a.failed)。\n"},
			{"content/ko/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n",
				"content/ja/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n失敗は[15件](ev:d3/d3.a.failed)。\n"},
		},
		"fallback page cites": {
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [6건](ev:d3/d3.b.failed).\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [6.0건](ev:d3/d3.b.failed) [15건](ev:d3/d3.a.failed).\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n글.\n"},
		},
		"precision": {
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [15.0건](ev:d3/d3.a.failed).\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"precision of a value a page not edited writes, then an evidence edit": {
			// p writes 15건: t's 15.0건 makes d3.a.failed a destination
			// written at two precisions (PrecisionIndex), the evidence
			// edits re-check p and t, and t's 15건 makes it one again
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [15.0건](ev:d3/d3.a.failed).\n"},
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 16 |\n| B | 6 |\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [16건](ev:d3/d3.a.failed).\n"},
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 15 |\n| B | 6 |\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [15.0건](ev:d3/d3.a.failed) [15건](ev:d3/d3.a.failed).\n"},
		},
		"date": {
			{"content/ko/docs/t.md": "---\ntitle: t\ndate: 2030-01-01\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\ndate: 2020-01-01\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"draft citing": {
			{"content/ko/docs/t.md": "---\ntitle: t\ndraft: true\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
			{"content/ko/docs/t.md": "---\ntitle: t\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"evidence value": {
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 16 |\n| B | 6 |\n"},
			{"evidence/d3/report.md": "## D-3\n\n| stage | failed |\n|---|---:|\n| A | 15 |\n| B | 6 |\n"},
		},

		"ko page created, its fallback made": {
			{"content/ko/docs/new.md": "---\ntitle: new\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"ja page unpaired by its translationKey": {
			{"content/ja/docs/s.md": "---\ntitle: s\ntranslationKey: zz\n---\n\n文。\n"},
			{"content/ja/docs/s.md": "---\ntitle: s\n---\n\n文。\n"},
		},
		"slug of linked page": {
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n[p](/docs/p/) 글.\n"},
			{"content/ko/docs/p.md": "---\ntitle: p\nslug: pp\ntranslationKey: p\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"url of fallback source": {
			{"content/ko/docs/t.md": "---\ntitle: t\nurl: /x/t/\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"lastmod of translated page": {
			{"content/ko/docs/p.md": "---\ntitle: p\nlastmod: 2031-01-01\ntranslationKey: p\n---\n\n실패는 [15건](ev:d3/d3.a.failed). 더.\n"},
		},
		"ja page edited, ko unchanged": {
			{"content/ja/docs/p.md": "---\ntitle: p\ntranslationKey: p\ndate: 2031-01-01\n---\n\n失敗は[6件](ev:d3/d3.b.failed)。\n"},
		},
		"claim moved between lines same page": {
			{"content/ko/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n실패는 [6건](ev:d3/d3.b.failed).\n"},
		},
		"evidence row moved": {
			{"evidence/d3/report.md": "intro\n\n## D-3\n\n| stage | failed |\n|---|---:|\n| A | 15 |\n| B | 6 |\n"},
		},
		"other evidence value": {
			{"evidence/other/report.md": "## T\n\n| row | n |\n|---|---:|\n| A | 5 |\n"},
		},
		"other evidence manifest": {
			{"evidence/other/evidence.toml": "id = \"other\"\ntitle = \"other2\"\ndate = \"2026-07-10\"\nenvironment = \"lab\"\nreport = \"docs/test-reports/lab.md\"\norigin = \"raw\"\n\n[[table]]\nfile = \"report.md\"\nheading = \"T\"\nname = \"t\"\nrows = { \"A\" = \"a\" }\ncolumns = { \"n\" = \"n\" }\n"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // a project of its own
			editServedTree(t, saves)
		})
	}
}

// TestEditCompleteLeavesNoCitesFile: a save that takes the last claim
// citing a raw file's window in a language away would leave that
// window's citations file (.evdoc/viewer/LANG/….cites) in the served
// tree, which a whole staging does not write: such a save is not
// complete, and the whole staging that follows removes the file.
func TestEditCompleteLeavesNoCitesFile(t *testing.T) {
	t.Parallel() // projects of its own
	for name, saves := range map[string][]map[string]string{
		"a claim made an error: its line cited no more": {
			{"content/ko/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n실패는 [15건](ev:d3/d3.a.faild).\n"},
			{"content/ko/docs/p.md": "---\ntitle: p\ntranslationKey: p\n---\n\n실패는 [15건](ev:d3/d3.a.failed).\n"},
		},
		"the only claim citing a set added, then removed": {
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n글 [4건](ev:other/t.a.n).\n"},
			{"content/ko/docs/s.md": "---\ntitle: s\n---\n\n글.\n"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // a project of its own
			editServedTree(t, saves)
		})
	}
}
