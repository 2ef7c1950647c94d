package project

import (
	"strings"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
)

func TestMainSections(t *testing.T) {
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	page := func(lang, rel string, fm map[string]any) *Page {
		return &Page{Lang: lang, Rel: rel, Section: isIndexName(rel), FrontMatter: fm}
	}
	s := &Site{Config: &hugoconf.Config{Languages: map[string]hugoconf.Language{"ko": {}, "ja": {}, "en": {}}}, Pages: []*Page{
		// ko: posts has 2 built pages; docs has a bundle (1 page, its
		// resource page left out), a draft and a future page.
		page("ko", "posts/a.md", nil),
		page("ko", "posts/b.md", nil),
		page("ko", "posts/_index.md", nil),
		page("ko", "docs/bundle/index.md", nil),
		page("ko", "docs/bundle/part.md", nil),
		page("ko", "docs/d.md", map[string]any{"draft": true}),
		page("ko", "docs/f.md", map[string]any{"date": "2099-01-01"}),
		page("ko", "root.md", nil),
		page("ko", "other.md", nil),
		// ja: a tie between b and a.
		page("ja", "b/x.md", nil),
		page("ja", "a/y.md", nil),
		// en: root pages only.
		page("en", "about.md", nil),
	}}
	main, tie := s.MainSections(now)
	want := map[string]string{"ko": "posts", "ja": "a", "en": ""}
	for code, w := range want {
		if main[code] != w {
			t.Errorf("%s: main section %q, want %q", code, main[code], w)
		}
	}
	if tie["ko"] || !tie["ja"] {
		t.Errorf("ties %v, want ja only", tie)
	}
	s.Config.Files = []string{"hugo.toml"}
	if n := s.MainSectionTies(now); len(n) != 1 || !strings.Contains(n[0], `in ja two or more top-level sections have as many pages as "a"`) {
		t.Errorf("tie notes %q, want one for ja", n)
	}
	s.Config.BuildDrafts, s.Config.BuildFuture = true, true
	if main, _ := s.MainSections(now); main["ko"] != "docs" {
		t.Errorf("with drafts and future pages built: ko main section %q, want docs (3 pages)", main["ko"])
	}
}

func isIndexName(rel string) bool { return len(rel) >= 9 && rel[len(rel)-9:] == "_index.md" }

// TestSiteDefaultsEnv: a mainSections the configuration sets, for every
// language or for one, is not set again in Hugo's environment.
func TestSiteDefaultsEnv(t *testing.T) {
	s := &Site{Config: &hugoconf.Config{MainSectionsSet: map[string]bool{"": true}, Languages: map[string]hugoconf.Language{"ko": {}, "ja": {}}}}
	if env := s.SiteDefaultsEnv(time.Now()); env != nil {
		t.Errorf("mainSections set in the configuration: env %q, want none", env)
	}
	s.Config.MainSectionsSet = map[string]bool{"ja": true}
	if env := s.SiteDefaultsEnv(time.Now()); len(env) != 1 || env[0] != "HUGO_LANGUAGES_KO_MAINSECTIONS=" {
		t.Errorf("env %q, want HUGO_LANGUAGES_KO_MAINSECTIONS= only (ja sets its own; no section: Hugo's [\"\"])", env)
	}
}
