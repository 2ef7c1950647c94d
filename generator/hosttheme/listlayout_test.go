package hosttheme

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBreadcrumb: whether a theme draws a page's breadcrumb trail on
// the pages of type typ, so evdoc's evidence pages leave theirs out:
// Hextra's partial called from the page layout (not its list layout's,
// called with "enable" false), Docsy's from its base template under a
// setting that turns it off, Relearn's in its base template; not
// PaperMod's, which shows nothing unless params.ShowBreadCrumbs is set,
// nor a call under such a setting.
func TestBreadcrumb(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"hextra", map[string]string{
			"layouts/single.html":               `{{ define "main" }}{{ partial "breadcrumb.html" (dict "page" . "enable" true) }}{{ .Content }}{{ end }}`,
			"layouts/_partials/breadcrumb.html": `{{- if (default .enable .page.Params.breadcrumbs) -}}<nav>…</nav>{{ end }}`,
		}, true},
		{"hextra-list-off", map[string]string{
			"layouts/single.html": `{{ define "main" }}{{ partial "breadcrumb.html" (dict "page" . "enable" false) }}{{ .Content }}{{ end }}`,
		}, false},
		{"docsy-base", map[string]string{
			"layouts/baseof.html": `<main>{{ if not (.Param "ui.breadcrumb_disable") -}}{{ partial "breadcrumb.html" . -}}{{ end -}}{{ block "main" . }}{{ end }}</main>`,
			"layouts/single.html": `{{ define "main" }}{{ .Content }}{{ end }}`,
		}, true},
		{"papermod-opt-in-partial", map[string]string{
			"layouts/single.html":                `{{ define "main" }}{{ partial "breadcrumbs.html" . }}{{ .Content }}{{ end }}`,
			"layouts/_partials/breadcrumbs.html": `{{- if (.Param "ShowBreadCrumbs") -}}<nav class="breadcrumbs">…</nav>{{- end -}}`,
		}, false},
		{"relearn-disable-setting", map[string]string{
			"layouts/_default/baseof.html":      `<body>{{- if $.Params.crumbs }}<ol>{{- partial "breadcrumbs.html" (dict "page" . "schema" true) }}</ol>{{ end }}{{ block "body" . }}{{ end }}</body>`,
			"layouts/_default/single.html":      `{{ define "body" }}{{ .Content }}{{ end }}`,
			"layouts/partials/breadcrumbs.html": "{{- $depth := 2 }}\n{{- if and (eq $depth 1) site.Params.disableRootBreadcrumb }}{{ $depth = 0 }}{{ end }}<li>…</li>",
		}, true},
		{"blowfish-call", map[string]string{
			"layouts/_default/single.html": `{{ define "main" }}{{ if .Params.showBreadcrumbs | default (site.Params.article.showBreadcrumbs | default false) }}
        {{ partial "breadcrumbs.html" . }}{{ end }}{{ .Content }}{{ end }}`,
		}, false},
		{"fixit-lead", map[string]string{
			"layouts/baseof.html":                    `<body>{{- partial "base/breadcrumb.html" . -}}<main>{{ block "content" . }}{{ end }}</main></body>`,
			"layouts/page.html":                      `{{ define "content" }}{{ .Content }}{{ end }}`,
			"layouts/_partials/base/breadcrumb.html": "{{- /* docs */ -}}\n{{- if (gt (len .Ancestors.Reverse) 1) | and (eq .Site.Params.breadcrumb.enable true) -}}<nav>…</nav>{{ end }}",
		}, false},
		{"opt-in-call", map[string]string{
			"layouts/single.html": `{{ define "main" }}{{ if site.Params.crumbs }}{{ partial "crumbs/breadcrumb.html" . }}{{ end }}{{ .Content }}{{ end }}`,
		}, false},
		{"after-opt-in-closed", map[string]string{
			"layouts/single.html": `{{ define "main" }}{{ if site.Params.toc }}{{ .TableOfContents }}{{ end }}{{ partial "breadcrumb" . }}{{ .Content }}{{ end }}`,
		}, true},
		{"none", map[string]string{
			"layouts/single.html": `{{ define "main" }}<nav class="breadcrumb">inline</nav>{{ .Content }}{{ end }}`,
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, src := range tc.files {
				p := filepath.Join(root, "themes", "a", filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := SingleLayout(root, []string{"evdoc", "a"}, "evidence").Breadcrumb; got != tc.want {
				t.Errorf("Breadcrumb = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSectionLayout: the section template Hugo takes for the evidence
// section and whether it shows the page's content once. Each case is the
// mechanism of a theme: a list of tiles without .Content (Stack), the
// content through a partial, a pager (PaperMod, Ananke), the site's own
// layouts/evidence/section.html taking precedence, a docs type (Hextra,
// Docsy) and a theme listed after another whose list wins.
func TestSectionLayout(t *testing.T) {
	for _, tc := range []struct {
		name              string
		files             map[string]string // relative to the project
		themes            []string
		typ               string
		template          string
		content, paginate bool
		single            bool
	}{
		{"tiles", map[string]string{
			"themes/a/layouts/list.html":           `{{ define "main" }}{{ range .Pages }}{{ partial "tile" . }}{{ end }}{{ end }}`,
			"themes/a/layouts/_partials/tile.html": `<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{/* not .Content */}}`,
			"themes/a/layouts/single.html":         `{{ define "main" }}{{ .Content }}{{ end }}`,
		}, []string{"evdoc", "a"}, "evidence", "themes/a/layouts/list.html", false, false, true},
		{"content-in-partial", map[string]string{
			"themes/a/layouts/_default/list.html":       `{{ define "main" }}{{ partial "body.html" . }}{{ end }}`,
			"themes/a/layouts/partials/body.html":       `{{ partial "inner" . }}`,
			"themes/a/layouts/partials/inner.html":      `<div>{{ $.Content }}</div>`,
			"themes/a/layouts/_partials/unrelated.html": `{{ .Paginate .Pages }}`,
			"themes/a/layouts/_default/section.rss.xml": `{{ .Content }}`,
		}, []string{"evdoc", "a"}, "evidence", "themes/a/layouts/_default/list.html", true, false, false},
		{"pager", map[string]string{
			"themes/a/layouts/section.html": `{{ define "main" }}{{ .Content }}{{ range .Paginator.Pages }}{{ .Title }}{{ end }}{{ end }}`,
			"themes/a/layouts/list.html":    `{{ define "main" }}{{ .Content }}{{ end }}`,
		}, []string{"evdoc", "a"}, "evidence", "themes/a/layouts/section.html", true, true, true},
		{"summary-only", map[string]string{
			"themes/a/layouts/section.html": `{{ define "main" }}{{ .ContentWithoutSummary }}{{ end }}`,
		}, []string{"evdoc", "a"}, "evidence", "themes/a/layouts/section.html", false, false, true},
		{"site-section", map[string]string{
			"layouts/evidence/section.html":                   `{{ define "main" }}{{ partial "article/article.html" . }}{{ end }}`,
			"themes/a/layouts/_partials/article/article.html": `<article>{{ .Content }}</article>`,
			"themes/a/layouts/list.html":                      `{{ define "main" }}{{ range .Pages }}{{ .Title }}{{ end }}{{ end }}`,
		}, []string{"evdoc", "a"}, "evidence", "layouts/evidence/section.html", true, false, false},
		{"docs-type", map[string]string{
			"themes/a/layouts/docs/list.html": `{{ define "main" }}{{ .Content }}{{ end }}`,
			"themes/a/layouts/list.html":      `{{ define "main" }}{{ range .Pages }}{{ .Title }}{{ end }}{{ end }}`,
		}, []string{"evdoc", "a"}, "docs", "themes/a/layouts/docs/list.html", true, false, false},
		{"first-theme-wins", map[string]string{
			"themes/a/layouts/list.html": `{{ define "main" }}{{ range .Pages }}{{ .Title }}{{ end }}{{ end }}`,
			"themes/b/layouts/list.html": `{{ define "main" }}{{ .Content }}{{ end }}`,
		}, []string{"evdoc", "a", "b"}, "evidence", "themes/a/layouts/list.html", false, false, true},
		{"component-skipped", map[string]string{
			"themes/evdoc/layouts/list.html": `{{ .Content }}`,
			"themes/a/layouts/list.html":     `{{ define "main" }}{{ range .Pages }}{{ .Title }}{{ end }}{{ end }}`,
		}, []string{"evdoc", "a"}, "evidence", "themes/a/layouts/list.html", false, false, true},
		{"none", map[string]string{
			"themes/a/layouts/single.html": `{{ .Content }}`,
		}, []string{"evdoc", "a"}, "evidence", "", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, src := range tc.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := SectionLayout(root, tc.themes, tc.typ)
			want := Section{Template: tc.template, Content: tc.content, Paginate: tc.paginate}
			if got != want {
				t.Errorf("SectionLayout = %+v, want %+v", got, want)
			}
			if got.NeedsSingle() != tc.single {
				t.Errorf("NeedsSingle = %v, want %v", got.NeedsSingle(), tc.single)
			}
		})
	}
}
