package evdoc

import (
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
)

// TestReferenceSiteUsesComponent: the reference site takes evdoc's
// layouts, i18n strings and static files from the theme component through
// its theme setting, as an adopter does, and has no second copy of a
// component file at the project level (one would shadow the component and
// drift from what `evdoc init` writes).
func TestReferenceSiteUsesComponent(t *testing.T) {
	cfg, err := hugoconf.LoadConfig(".")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cfg.Themes, path.Base(ComponentDir)) {
		t.Fatalf("hugo.toml theme = %q; want it to list %q", cfg.Themes, path.Base(ComponentDir))
	}
	n := 0
	err = fs.WalkDir(Files(), ComponentDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		rel := p[len(ComponentDir)+1:]
		if slices.Contains(hugoconf.RootConfigFiles, rel) {
			// the component's own configuration (its output formats),
			// which Hugo merges into the project's: not a copy of it
			return nil
		}
		if _, err := os.Stat(rel); err == nil {
			t.Errorf("%s shadows the component's %s", rel, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 15 {
		t.Errorf("the component has %d files; want its layouts, i18n and static files", n)
	}
	for _, p := range SiteLayouts() {
		if _, err := fs.Stat(Files(), p); err != nil {
			t.Errorf("site layout %s is not embedded: %v", p, err)
		}
	}
}

// TestNoWithPartial: no template of the component or the site layouts
// opens {{ with partial … }} (or partialCached): Hugo reads that form as
// a partial decorator, which fails with "… is nil" where a theme renders
// page text outside the page's own rendering (a search index built from
// .Plain through resources.ExecuteAsTemplate | resources.Minify), so one
// claim on a page would break both `evdoc build` and plain `hugo`.
// A partial's result goes through a variable first.
func TestNoWithPartial(t *testing.T) {
	re := regexp.MustCompile(`\{\{-?\s*with\s+\(?\s*partial(Cached)?\b`)
	err := fs.WalkDir(Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".html" {
			return err
		}
		b, err := fs.ReadFile(Files(), p)
		if err != nil {
			return err
		}
		for _, loc := range re.FindAllIndex(b, -1) {
			t.Errorf("%s:%d: {{ with partial … }}; assign the partial's result to a variable and test that", p, 1+strings.Count(string(b[:loc[0]]), "\n"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestThemeHooksFilled: the component fills the head and body hook of
// every theme hosttheme knows, each with the call a site's own copy of
// the hook would need (what init and the output check tell a site to
// add), so the table and the files cannot drift apart.
func TestThemeHooksFilled(t *testing.T) {
	for _, th := range hosttheme.Known() {
		if th.Site || th.Config != "" {
			continue // the site's own files or configuration
		}
		for _, h := range []struct{ file, call string }{{th.Head, hosttheme.HeadCall}, {th.Body, hosttheme.BodyCall}} {
			if h.file == "" {
				continue
			}
			p := path.Join(ComponentDir, "layouts", h.file)
			b, err := fs.ReadFile(Files(), p)
			if err != nil {
				t.Errorf("%s: %v", th.Name, err)
				continue
			}
			call := strings.NewReplacer("{{ ", "{{- ", " }}", " -}}").Replace(h.call)
			if !strings.Contains(string(b), call) {
				t.Errorf("%s: %s does not call %s", th.Name, p, h.call)
			}
		}
	}
}

// TestComponentStringsNamespaced: every i18n key of the component starts
// with evdoc_, and every string a component or site layout asks for (T,
// i18n) is one of them, so that a host theme's string of the same name
// (Hextra's skipToContent, a theme's footer) is never replaced by
// evdoc's, listed first in the theme list.
func TestComponentStringsNamespaced(t *testing.T) {
	keys := map[string]bool{}
	keyRe := regexp.MustCompile(`(?m)^\s*([A-Za-z0-9_.]+)\s*=`)
	for _, lang := range []string{"ko", "ja"} {
		b, err := fs.ReadFile(Files(), "themes/evdoc/i18n/"+lang+".toml")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyRe.FindAllSubmatch(b, -1) {
			k := string(m[1])
			if !strings.HasPrefix(k, "evdoc_") {
				t.Errorf("themes/evdoc/i18n/%s.toml: key %q does not start with evdoc_", lang, k)
			}
			keys[k] = true
		}
	}
	callRe := regexp.MustCompile(`\b(?:T|i18n)\s+(?:"([^"]+)"|\(printf?\s+"([^"]+)")`)
	var calls int
	err := fs.WalkDir(Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := fs.ReadFile(Files(), p)
		if err != nil {
			return err
		}
		for _, m := range callRe.FindAllSubmatch(b, -1) {
			calls++
			k := string(m[1])
			if k == "" {
				k = string(m[2])
			}
			if !strings.HasPrefix(k, "evdoc_") {
				t.Errorf("%s: asks for i18n string %q, not one of the component's evdoc_ keys", p, k)
			} else if m[1] != nil && !keys[k] {
				t.Errorf("%s: asks for i18n string %q, which the component does not define", p, k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 40 {
		t.Errorf("found %d i18n calls in the embedded layouts; the pattern no longer finds them", calls)
	}
}
