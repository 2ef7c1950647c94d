package staging

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// TestTemplatesSafe tells templates that only write a page's .Content
// from those that read its text otherwise.
func TestTemplatesSafe(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		safe       bool
	}{
		{"content", `<main>{{ .Content }}</main>{{- .Content -}}{{ .Summary }}`, true},
		{"plain text of a heading", `{{ .PlainText }}`, true},
		{"plain", `{{ .Plain }}`, false},
		{"plain words", `{{ len .PlainWords }}`, false},
		{"word count", `{{ .WordCount }}`, false},
		{"fuzzy word count", `{{ .FuzzyWordCount }}`, false},
		{"reading time", `{{ .ReadingTime }} min`, false},
		{"truncated", `{{ if .Truncated }}…{{ end }}`, false},
		{"len", `{{ .Len }}`, false},
		{"schema", `{{ template "_internal/schema.html" . }}`, false},
		{"escaped", `{{ .Content | html }}`, false},
		{"a function", `{{ replaceRE "a" "b" .Content }}`, false},
		{"assigned", `{{ $c := .Content }}{{ $c }}`, false},
		{"of another page", `{{ .Page.Content }}`, false},
		{"content without summary", `{{ .ContentWithoutSummary }}{{- .ContentWithoutSummary -}}`, true},
		{"content without summary, a function", `{{ .ContentWithoutSummary | plainify }}`, false},
		{"braces in a pattern", `{{ .Content | replaceRE "\\s{2,}" " " | safeHTML }}`, false},
		{"braces in a string", `{{ replace .Content "<q>" "<q data-x=\"{q}\">" | safeHTML }}`, false},
		{"an action closed in a string", `{{ replace .Content "}}" "x" }}`, false},
		{"a resource's content", `{{ (resources.Get "a.css").Content | safeCSS }}`, false},
		{"content in text", `<p>.Content</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "_default"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "_default", "single.html"), []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := templatesSafe(dir); got != tc.safe {
				t.Errorf("templatesSafe: %v, want %v", got, tc.safe)
			}
		})
	}
	if !templatesSafe(filepath.Join(t.TempDir(), "missing")) {
		t.Error("a missing directory is not safe")
	}
}

// TestCiteSlotsSafe reads the project's layouts and assets and every
// layouts and assets directory under themes/ but evdoc's component's.
func TestCiteSlotsSafe(t *testing.T) {
	write := func(t *testing.T, root, rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		safe  bool
	}{
		{"content only", map[string]string{"layouts/_default/single.html": "{{ .Content }}", "themes/host/layouts/list.html": "{{ .Summary }}"}, true},
		{"the component's own", map[string]string{"themes/evdoc/layouts/x.html": "{{ .Plain }}"}, true},
		{"a theme's", map[string]string{"themes/host/layouts/single.html": "{{ .ReadingTime }}"}, false},
		{"a theme component of a theme", map[string]string{"themes/host/themes/sub/layouts/single.html": "{{ .WordCount }}"}, false},
		{"a vendored theme's", map[string]string{"_vendor/github.com/x/host/layouts/single.html": "{{ .Content | plainify }}"}, false},
		{"the project's", map[string]string{"layouts/index.json": "{{ .Plain | jsonify }}"}, false},
		{"prose outside layouts", map[string]string{"themes/host/README.md": "use .Plain"}, true},
		{"the project's asset template", map[string]string{"assets/search.json": "{{ range site.Pages }}{{ .Content | plainify | jsonify }}{{ end }}"}, false},
		{"a theme's asset template", map[string]string{"themes/host/assets/index.json": "{{ .Plain }}"}, false},
		{"assets without page text", map[string]string{"assets/site.css": "a { color: red }", "themes/host/assets/app.js": "let n = 1;"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, text := range tc.files {
				write(t, root, rel, text)
			}
			s := &project.Site{Root: root, Config: &hugoconf.Config{Themes: []string{"evdoc", "host"}}}
			if got := citeSlotsSafe(s); got != tc.safe {
				t.Errorf("citeSlotsSafe: %v, want %v", got, tc.safe)
			}
		})
	}
}
