package staging

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTemplatesSafe tells templates that only write a page's .Content
// from those that read its text otherwise.
func TestTemplatesSafe(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		safe       bool
	}{
		{"content", `<main>{{ .Content }}</main>{{- .Content -}}{{ .Summary }}`, true},
		{"plain text of a heading", `{{ .PlainText }} {{ .ContentWithoutSummary }}`, true},
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
