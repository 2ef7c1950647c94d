package site

import (
	"sort"
	"strings"
	"testing"
	"time"
)

func TestMainSections(t *testing.T) {
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	page := func(lang, rel string, fm map[string]any) *Page {
		return &Page{Lang: lang, Rel: rel, Section: isIndexName(rel), FrontMatter: fm}
	}
	s := &Site{Config: &Config{Languages: map[string]Language{"ko": {}, "ja": {}, "en": {}}}, Pages: []*Page{
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
	if n := s.mainSectionTies(now); len(n) != 1 || !strings.Contains(n[0], `in ja two or more top-level sections have as many pages as "a"`) {
		t.Errorf("tie notes %q, want one for ja", n)
	}
	s.Config.BuildDrafts, s.Config.BuildFuture = true, true
	if main, _ := s.MainSections(now); main["ko"] != "docs" {
		t.Errorf("with drafts and future pages built: ko main section %q, want docs (3 pages)", main["ko"])
	}
}

func isIndexName(rel string) bool { return len(rel) >= 9 && rel[len(rel)-9:] == "_index.md" }

func TestMainSectionsKey(t *testing.T) {
	for _, c := range []struct {
		m    map[string]any
		want string // the languages set, sorted, "" for all
	}{
		{map[string]any{"title": "x"}, "-"},
		{map[string]any{"mainsections": []any{"posts"}}, ""},
		{map[string]any{"params": map[string]any{"mainsections": []any{"posts"}}}, ""},
		{map[string]any{"languages": map[string]any{"ko": map[string]any{"params": map[string]any{"mainsections": "posts"}}, "ja": map[string]any{}}}, "ko"},
		{map[string]any{"languages": map[string]any{"ko": map[string]any{"mainsections": "posts"}}}, "ko"},
		{map[string]any{"params": map[string]any{"main": "x"}}, "-"},
	} {
		got := "-"
		if set := mainSectionsKey(c.m); set != nil {
			var ls []string
			for l := range set {
				ls = append(ls, l)
			}
			sort.Strings(ls)
			got = strings.Join(ls, ",")
		}
		if got != c.want {
			t.Errorf("mainSectionsKey(%v) = %q, want %q", c.m, got, c.want)
		}
	}
	s := &Site{Config: &Config{MainSectionsSet: map[string]bool{"": true}, Languages: map[string]Language{"ko": {}, "ja": {}}}}
	if env := s.siteDefaultsEnv(time.Now()); env != nil {
		t.Errorf("mainSections set in the configuration: env %q, want none", env)
	}
	s.Config.MainSectionsSet = map[string]bool{"ja": true}
	if env := s.siteDefaultsEnv(time.Now()); len(env) != 1 || env[0] != "HUGO_LANGUAGES_KO_MAINSECTIONS=" {
		t.Errorf("env %q, want HUGO_LANGUAGES_KO_MAINSECTIONS= only (ja sets its own; no section: Hugo's [\"\"])", env)
	}
}

func TestExtendedAdvice(t *testing.T) {
	out := []byte(`ERROR TOCSS: failed to transform "scss/main.scss" (text/x-scss): this feature is not available in your current Hugo version, see https://goo.gl/YMrWcn for more information`)
	a := extendedAdvice(out, "/usr/bin/hugo")
	for _, want := range []string{"extended edition", "/usr/bin/hugo is the standard edition", "go install -tags extended", "--hugo PATH"} {
		if !strings.Contains(a, want) {
			t.Errorf("advice %q lacks %q", a, want)
		}
	}
	// FixIt's Dart Sass: no edition helps, the program sass does (Hugo
	// extended failed this way in a trial)
	dart := []byte(`ERROR error calling RelPermalink: TOCSS-DART: failed to transform "/scss/main.scss" (text/x-scss). You need to install Dart Sass, see https://gohugo.io//functions/css/sass/#dart-sass: this feature is not available in your current Hugo version, see https://goo.gl/YMrWcn for more information`)
	a = extendedAdvice(dart, "/usr/local/bin/hugo")
	if !strings.Contains(a, "Dart Sass") || !strings.Contains(a, "sass --version") || strings.Contains(a, "standard edition") || strings.Contains(a, "-tags extended") {
		t.Errorf("advice for Dart Sass: %q", a)
	}
	if a := extendedAdvice([]byte("ERROR template: home.html:3: unexpected EOF"), "hugo"); a != "" {
		t.Errorf("advice on an unrelated failure: %q", a)
	}
}

func TestSetEvidenceDate(t *testing.T) {
	limit := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		date string
		want any
	}{
		{"2026-07-09", "2026-07-09"},
		{"2026-08-01", "2026-08-01"},
		{"2026-08-02", nil}, // after the project's newest page: site.Lastmod would move
		{"unknown", nil},
		{"", nil},
	} {
		fm := map[string]any{}
		setEvidenceDate(fm, tc.date, limit)
		if fm["date"] != tc.want {
			t.Errorf("set date %q: front matter date %v, want %v", tc.date, fm["date"], tc.want)
		}
	}
	fm := map[string]any{}
	if setEvidenceDate(fm, "2026-07-09", time.Time{}); fm["date"] != nil {
		t.Errorf("a project without dated pages: date %v, want none", fm["date"])
	}
}
