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
