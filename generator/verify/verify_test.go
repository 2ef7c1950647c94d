package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
)

// TestRenderedByHugo: drafts, headless bundles and pages Hugo is told
// not to render are not expected in the output.
func TestRenderedByHugo(t *testing.T) {
	tests := []struct {
		fm   map[string]any
		want bool
	}{
		{nil, true},
		{map[string]any{"draft": false}, true},
		{map[string]any{"draft": true}, false},
		{map[string]any{"headless": true}, false},
		{map[string]any{"build": map[string]any{"render": "never"}}, false},
		{map[string]any{"build": map[string]any{"render": "link"}}, false},
		{map[string]any{"build": map[string]any{"render": "always"}}, true},
		{map[string]any{"_build": map[string]any{"render": false}}, false},
	}
	for _, tt := range tests {
		if got := renderedByHugo(tt.fm); got != tt.want {
			t.Errorf("renderedByHugo(%v) = %v, want %v", tt.fm, got, tt.want)
		}
	}
}

// TestStageFileLinks: the output check names a link whose path ends in
// the path of a page file only the stage has (in the project, or within
// its content directory when no page of the repository has that path
// within its own), and no other link.
func TestStageFileLinks(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"content/ko/docs/q.md", "evidence/run/r.md"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &project.Site{Root: root, Config: &hugoconf.Config{Languages: map[string]hugoconf.Language{
		"ko": {Code: "ko", ContentDir: "content/ko"}, "ja": {Code: "ja", ContentDir: "content/ja"}}}}
	generated := []staging.GeneratedPage{
		{Project: "content/ja/docs/q.md", Content: "docs/q.md"},
		{Project: "content/ko/evidence/run/r-md.md", Content: "evidence/run/r-md.md"},
		{Project: "content/ja/evidence/run/r-md.md", Content: "evidence/run/r-md.md"},
	}
	for _, tc := range []struct {
		name, href, want string
	}{
		{"fallback's file", "https://example.org/edit/main/content/ja/docs/q.md", "whose path ends in content/ja/docs/q.md,"},
		{"fallback's source", "https://example.org/edit/main/content/ko/docs/q.md", ""},
		{"fallback's path within its content directory", "https://example.org/edit/main/content/docs/q.md", ""},
		{"evidence page's file", "https://example.org/edit/main/content/ja/evidence/run/r-md.md", "whose path ends in content/ja/evidence/run/r-md.md,"},
		{"evidence page within its content directory", "https://example.org/edit/main/content/evidence/run/r-md.md?plain=1", "whose path ends in evidence/run/r-md.md, the path of content/ko/evidence/run/r-md.md within its content directory"},
		{"evidence page, site-relative", "/content/ko/evidence/run/r-md.md", "whose path ends in content/ko/evidence/run/r-md.md,"},
		{"raw file", "https://example.org/edit/main/evidence/run/r.md", ""},
		{"a longer name", "https://example.org/edit/main/content/ja/evidence/run/xr-md.md", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := stageFileLinks(s, map[string][]string{"p/index.html": {tc.href}}, generated)
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("got %q, want nothing", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.HasPrefix(got[0], "p/index.html: links to "+tc.href)):
				t.Errorf("got %q, want one problem containing %q", got, tc.want)
			}
		})
	}
}
