package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnknownThemeAdvice: for a theme evdoc does not know that calls an
// empty head hook partial (as Ananke's head-additions.html), init names
// the exact file to create and what it holds; for one without a hook it
// asks for the page template to be copied.
func TestUnknownThemeAdvice(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("themes/anan/layouts/baseof.html", `<head>{{ partial "head-additions.html" . }}</head><body>{{ block "main" . }}{{ end }}</body>`)
	write("themes/anan/layouts/partials/head-additions.html", "{{/* site head content */}}\n")
	write("themes/plain/layouts/baseof.html", `<head><title>{{ .Title }}</title></head>`)
	got := unknownThemeAdvice(root, "anan")
	for _, want := range []string{"create layouts/partials/head-additions.html containing {{ partial \"evdoc/head.html\" . }}", "(from themes/anan/layouts/baseof.html)"} {
		if !strings.Contains(got, want) {
			t.Errorf("advice for anan:\n%s\nwant it to contain %q", got, want)
		}
	}
	if got := unknownThemeAdvice(root, "plain"); !strings.Contains(got, "copy it into your layouts/") || strings.Contains(got, "create layouts/") {
		t.Errorf("advice for a theme without a hook:\n%s", got)
	}
}

// TestKnownThemeAdvice: for the themes whose hooks the site creates
// (Stack: the component must not take head/custom.html for every site)
// init names each file and its call; for FixIt, the configuration that
// names evdoc's partials; for Ananke, the head hook the component fills
// and no body hook; for Congo, that no supported Hugo builds it.
func TestKnownThemeAdvice(t *testing.T) {
	for _, tc := range []struct {
		theme, detect string
		want, not     []string
	}{
		{"hugo-theme-stack", "layouts/_partials/article-list/tile.html", []string{
			`ADD      create layouts/_partials/head/custom.html containing {{ partial "evdoc/head.html" . }}`,
			`ADD      create layouts/_partials/footer/custom.html containing {{ partial "evdoc/serve-banner.html" page }}`,
		}, []string{"wired", "copy it into your layouts/", "WARN"}},
		{"FixIt", "layouts/_partials/function/camel-case-keys.html", []string{
			`ADD      to hugo.toml: [params.custom_partials] head = ["evdoc/head.html"], footer = ["evdoc/serve-banner.html"]`,
		}, []string{"wired", "create layouts/"}},
		{"ananke", "layouts/_partials/menu-contextual.html", []string{
			"wired    Ananke's hook layouts/_partials/head-additions.html",
		}, []string{"fills it with evdoc serve's findings banner", "ADD      create"}},
		{"congo", "layouts/partials/header/hamburger/hamburger-content.html", []string{
			"WARN     Congo: its templates",
			"no Hugo evdoc supports builds a Congo site (evdoc supports Hugo " + hugoRange() + ")",
		}, []string{"ADD      create"}},
	} {
		t.Run(tc.theme, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "themes", tc.theme, filepath.FromSlash(tc.detect))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("<p></p>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := "baseURL = \"/\"\ntitle = \"t\"\ntheme = [\"evdoc\", \"" + tc.theme + "\"]\ndefaultContentLanguage = \"ko\"\n[languages.ko]\n  weight = 1\n  contentDir = \"content/ko\"\n[languages.ja]\n  weight = 2\n  contentDir = \"content/ja\"\n"
			if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := evdoc("init", "--root", dir)
			if code != 0 {
				t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+stderr, w) {
					t.Errorf("init output lacks %q:\n%s%s", w, out, stderr)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out+stderr, n) {
					t.Errorf("init output has %q:\n%s%s", n, out, stderr)
				}
			}
		})
	}
}
