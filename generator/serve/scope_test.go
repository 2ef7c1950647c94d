package serve

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

func loadTestSite(t *testing.T, dir string) *project.Site {
	t.Helper()
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestClassify(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	cfg := loadTestSite(t, dir).Config
	for _, tc := range []struct {
		file string
		kind Kind
		key  string
	}{
		{"content/ko/docs/p.md", KindPage, ""},
		{"content/ja/docs/p.md", KindPage, ""},
		{"content/ko/docs/img.png", KindOther, ""},
		{"evidence/d3/report.md", KindEvidence, "d3"},
		{"evidence/d3/evidence.toml", KindEvidence, "d3"},
		{"evidence/d3", KindEvidence, "d3"},
		{"figures/fig.toml", KindFigure, "fig"},
		{"figures/notes.txt", KindIgnored, ""},
		{"hugo.toml", KindConfig, ""},
		{"evdoc.toml", KindConfig, ""},
		{"config/_default/params.toml", KindConfig, ""},
		{"assets/fonts/NotoSansKR.ttf", KindConfig, ""},
		{"layouts/baseof.html", KindSite, ""},
		{"i18n/ko.toml", KindSite, ""},
		{"themes/x/layouts/page.html", KindSite, ""},
		{"static/css/site.css", KindOther, ""},
		{"data/x.json", KindOther, ""},
		{"README.md", KindIgnored, ""},
		{"content/ko/docs/.#p.md", KindIgnored, ""},
		{"content/ko/docs/p.md~", KindIgnored, ""},
		{"content/ko/docs/.p.md.swp", KindIgnored, ""},
		{"content/ko/docs/4913", KindIgnored, ""},
	} {
		kind, key := Classify(cfg, tc.file)
		if kind != tc.kind || key != tc.key {
			t.Errorf("Classify(%q) = %v %q, want %v %q", tc.file, kind, key, tc.kind, tc.key)
		}
	}
}

func TestAffected(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	// old has content/ko/docs/gone.md; cur has content/ko/docs/new.md instead.
	page := []byte("---\ntitle: x\n---\n\n글.\n")
	gone, added := filepath.Join(dir, "content/ko/docs/gone.md"), filepath.Join(dir, "content/ko/docs/new.md")
	if err := os.WriteFile(gone, page, 0o644); err != nil {
		t.Fatal(err)
	}
	old := loadTestSite(t, dir)
	if err := os.Rename(gone, added); err != nil {
		t.Fatal(err)
	}
	cur := loadTestSite(t, dir)

	for _, tc := range []struct {
		name    string
		changed []string
		want    Scope
	}{
		{"page and its translation", []string{"content/ko/docs/p.md"},
			Scope{Pages: []string{"content/ja/docs/p.md", "content/ko/docs/p.md"}, Files: []string{"content/ko/docs/p.md"}, Restage: true}},
		{"translation and its source", []string{"content/ja/docs/s.md"},
			Scope{Pages: []string{"content/ja/docs/s.md", "content/ko/docs/s.md"}, Files: []string{"content/ja/docs/s.md"}, Restage: true}},
		{"untranslated page", []string{"content/ko/docs/t.md"},
			Scope{Pages: []string{"content/ko/docs/t.md"}, Files: []string{"content/ko/docs/t.md"}, Restage: true}},
		{"evidence: claims and figure", []string{"evidence/d3/report.md"},
			Scope{Pages: []string{"content/ja/docs/p.md", "content/ko/docs/p.md", "content/ko/docs/r.md"}, Files: []string{"evidence/d3/report.md"}, Prefixes: []string{"evidence/d3/"}, Restage: true}},
		{"evidence: evtable", []string{"evidence/other/evidence.toml"},
			Scope{Pages: []string{"content/ko/docs/q.md"}, Files: []string{"evidence/other/evidence.toml"}, Prefixes: []string{"evidence/other/"}, Restage: true}},
		{"evidence set bound by no page", []string{"evidence/unused/x.txt"},
			Scope{Pages: []string{}, Files: []string{"evidence/unused/x.txt"}, Prefixes: []string{"evidence/unused/"}, Restage: true}},
		{"figure spec", []string{"figures/fig.toml"},
			Scope{Pages: []string{"content/ko/docs/r.md"}, Files: []string{"figures/fig.toml"}, Restage: true}},
		{"layout", []string{"layouts/baseof.html"},
			Scope{Pages: []string{}, Files: []string{"layouts/baseof.html"}, Site: true, Restage: true}},
		{"static file: restage only", []string{"static/css/site.css"},
			Scope{Pages: []string{}, Files: []string{}, Restage: true}},
		{"ignored only", []string{"content/ko/docs/p.md~", "README.md"},
			Scope{Pages: []string{}, Files: []string{}}},
		{"configuration", []string{"hugo.toml"},
			Scope{All: true, Site: true, Pages: []string{}, Files: []string{}, Restage: true}},
		{"burst: page and evidence", []string{"content/ko/docs/s.md", "evidence/other/report.md"},
			Scope{Pages: []string{"content/ja/docs/s.md", "content/ko/docs/q.md", "content/ko/docs/s.md"}, Files: []string{"content/ko/docs/s.md", "evidence/other/report.md"}, Prefixes: []string{"evidence/other/"}, Restage: true}},
		{"page added", []string{"content/ko/docs/new.md"},
			Scope{All: true, Site: true, Pages: []string{"content/ko/docs/new.md"}, Files: []string{"content/ko/docs/new.md"}, Restage: true}},
		{"page removed", []string{"content/ko/docs/gone.md"},
			Scope{All: true, Site: true, Pages: []string{"content/ko/docs/gone.md"}, Files: []string{"content/ko/docs/gone.md"}, Restage: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Affected(old, cur, tc.changed)
			if len(tc.want.Prefixes) == 0 {
				tc.want.Prefixes = []string{}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Affected(%q) =\n %+v\nwant\n %+v", tc.changed, got, tc.want)
			}
		})
	}
}

func TestScopeIncludes(t *testing.T) {
	pages := map[string]bool{"content/ko/a.md": true, "content/ko/b.md": true}
	sc := Scope{Pages: []string{"content/ko/a.md"}, Files: []string{"figures/f.toml"}, Prefixes: []string{"evidence/s/"}}
	for file, want := range map[string]bool{
		"content/ko/a.md": true, "content/ko/b.md": false, "figures/f.toml": true,
		"evidence/s/evidence.toml": true, "evidence/t/evidence.toml": false, "i18n/ko.toml": false,
	} {
		if got := sc.Includes(file, pages); got != want {
			t.Errorf("Includes(%q) = %v, want %v", file, got, want)
		}
	}
	sc.Site = true
	if !sc.Includes("i18n/ko.toml", pages) || sc.Includes("content/ko/b.md", pages) {
		t.Error("Site scope: want site-wide findings and no other page's")
	}
	if !(Scope{All: true}).Includes("content/ko/b.md", pages) {
		t.Error("All scope excludes a page")
	}
}
