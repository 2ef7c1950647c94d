package hosttheme

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScanHooks: themes evdoc does not know, each reproducing how a
// theme lets a site add to its pages' head: an empty partial it ships
// (Ananke's head-additions.html), one it calls only when a site creates
// it (templates.Exists), and one with only a full head template (no
// hook: the site must copy it).
func TestScanHooks(t *testing.T) {
	for _, tc := range []struct {
		name       string
		files      map[string]string
		head, body string // "" for none
		headFrom   string
	}{
		{"shipped-empty", map[string]string{
			"layouts/baseof.html":                   `<head>{{ partial "head.html" . }}{{ partial "head-additions.html" . }}</head><body>{{ partial "site-header.html" . }}{{ block "main" . }}{{ end }}{{ partial "site-footer.html" . }}</body>`,
			"layouts/partials/head.html":            `<meta charset="utf-8"><title>{{ .Title }}</title>`,
			"layouts/partials/head-additions.html":  "{{/* a site's own head content */}}\n<!-- empty -->\n",
			"layouts/partials/site-header.html":     `<header>{{ site.Title }}</header>`,
			"layouts/partials/site-footer.html":     `<footer>{{ site.Copyright }}</footer>`,
			"layouts/partials/unused-head-add.html": "",
		}, "partials/head-additions.html", "", "themes/t/layouts/baseof.html"},
		{"guarded", map[string]string{
			"layouts/_default/baseof.html": `<head>{{ if templates.Exists "partials/extend-head.html" }}{{ partial "extend-head.html" . }}{{ end }}</head>` +
				`<body>{{ if templates.Exists "partials/extend-footer.html" }}{{ partialCached "extend-footer.html" . }}{{ end }}</body>`,
		}, "partials/extend-head.html", "partials/extend-footer.html", "themes/t/layouts/_default/baseof.html"},
		{"new-layout-dirs", map[string]string{
			"layouts/baseof.html":                     `<head>{{ partial "custom/head.html" . }}</head><body>{{ partial "hooks/body-end.html" . }}</body>`,
			"layouts/_partials/custom/head.html":      "  \n",
			"layouts/_partials/hooks/body-end.html":   "",
			"layouts/_partials/hooks/not-called.html": "",
		}, "_partials/custom/head.html", "_partials/hooks/body-end.html", "themes/t/layouts/baseof.html"},
		// a hook named by its directory, called from a partial the base
		// template calls (Stack's head/custom.html)
		{"nested", map[string]string{
			"layouts/baseof.html":                   `<head>{{ partial "head/head.html" . }}</head><body>{{ partial "footer/include.html" . }}</body>`,
			"layouts/_partials/head/head.html":      `<title>{{ .Title }}</title>{{ partial "head/style.html" . }}{{ partial "head/custom.html" . }}`,
			"layouts/_partials/head/style.html":     `<link rel="stylesheet" href="/s.css">`,
			"layouts/_partials/head/custom.html":    "",
			"layouts/_partials/header/custom.html":  "",
			"layouts/_partials/footer/include.html": `{{ partial "footer/custom.html" . }}{{ partial "header/custom.html" . }}`,
			"layouts/_partials/footer/custom.html":  "\n",
		}, "_partials/head/custom.html", "_partials/footer/custom.html", "themes/t/layouts/_partials/head/head.html"},
		{"no-hook", map[string]string{
			"layouts/baseof.html":        `<head>{{ partial "head.html" . }}</head>`,
			"layouts/partials/head.html": `<title>{{ .Title }}</title>`,
		}, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, src := range tc.files {
				p := filepath.Join(root, "themes", "t", filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			head, body, headOK, bodyOK := ScanHooks(root, "t")
			if headOK != (tc.head != "") || head.Layout != tc.head {
				t.Errorf("head hook %+v (found %v), want %q", head, headOK, tc.head)
			}
			if headOK && head.CalledFrom != tc.headFrom {
				t.Errorf("head hook called from %q, want %q", head.CalledFrom, tc.headFrom)
			}
			if bodyOK != (tc.body != "") || body.Layout != tc.body {
				t.Errorf("body hook %+v (found %v), want %q", body, bodyOK, tc.body)
			}
		})
	}
}
