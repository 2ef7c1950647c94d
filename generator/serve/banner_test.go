package serve

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBannerReachable: the "no layout calls the banner" notice is true.
// The component's hook partials call the banner, but they run only when a
// template outside the component calls the hook; the notice fires exactly
// when no template Hugo runs reaches the banner.
func TestBannerReachable(t *testing.T) {
	component := map[string]string{
		"themes/evdoc/layouts/_partials/evdoc/serve-banner.html": `<div class="evdoc-banner"></div>`,
		"themes/evdoc/layouts/_partials/docs/inject/body.html":   `{{ partial "evdoc/serve-banner.html" . }}`,
		"themes/evdoc/layouts/_partials/extend_footer.html":      `{{ partial "evdoc/serve-banner.html" . }}`,
	}
	tests := []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"unknown theme, no call", map[string]string{"themes/plain/layouts/baseof.html": `<body>{{ block "main" . }}{{ end }}</body>`}, false},
		{"project baseof calls the banner", map[string]string{"layouts/baseof.html": `<body>{{ partial "evdoc/serve-banner.html" . }}`}, true},
		{"theme calls the component's hook", map[string]string{"themes/book/layouts/baseof.html": `<body>{{ partial "docs/inject/body" . }}</body>`}, true},
		{"theme calls a hook with .html", map[string]string{"themes/papermod/layouts/_partials/footer.html": `{{- partial "extend_footer.html" . -}}`}, true},
		{"vendored theme calls the hook", map[string]string{"_vendor/github.com/x/book/layouts/baseof.html": `{{ partial "docs/inject/body" . }}`}, true},
		{"a hook the theme does not call", map[string]string{"themes/other/layouts/baseof.html": `{{ partial "footer.html" . }}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, files := range []map[string]string{component, tt.files} {
				for p, body := range files {
					f := filepath.Join(dir, filepath.FromSlash(p))
					if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if got := bannerReachable(dir); got != tt.want {
				t.Errorf("bannerReachable = %v, want %v", got, tt.want)
			}
		})
	}
}
