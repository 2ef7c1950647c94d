package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestBuildFailsWithoutEvdocTemplates: a site whose own theme renders the
// claims and evidence pages instead of evdoc's theme component (evdoc not
// in the theme list; the site's theme first with its own link render
// hook) fails evdoc build --strict with a message naming the page and
// what is missing and why (evdoc not in the theme list; the file that
// replaces evdoc's render hook), and public/ keeps the site built before.
func TestBuildFailsWithoutEvdocTemplates(t *testing.T) {
	hugo := buildHugo(t)
	for _, tc := range []struct {
		overlay string
		want    []string
	}{
		{"testdata/foreign-hook-theme-only.txtar", []string{
			"docs/cb.md (ko): none of its 1 claims is in the built site",
			"docs/cb.md (ja):",
			`does not name evdoc's component: add "evdoc" before your theme`,
			"evidence pages were not rendered by evdoc's evidence shortcode",
			"public left as it was",
		}},
		{"testdata/foreign-hook-shadowed.txtar", []string{
			"docs/cb/index.html: contains #ZgotmplZ",
			"docs/cb.md (ko): none of its 1 claims is in the built site",
			"themes/mytheme/layouts/_markup/render-link.html replace(s) evdoc's claim render hook",
			"public left as it was",
		}},
		{"testdata/markdownify-callout.txtar", []string{
			"docs/cb.md (ko): 1 of its 2 claims were not rendered",
			"content/ko/docs/cb.md:9:12: [1000건](ev:cb/r.durationhistogram.count) was rendered for the page without a content file at / (ko) instead of this page; it is inside {{< callout >}} (line 8), whose template themes/mytheme/layouts/_shortcodes/callout.html renders its inner content with markdownify",
			"Copy the template to layouts/_shortcodes/callout.html and in the copy render the inner content with .Page.RenderString",
			"content/ja/docs/cb.md:9:",
			"public left as it was",
		}},
	} {
		t.Run(filepath.Base(tc.overlay), func(t *testing.T) {
			dir := extract(t, "testdata/own-theme.txtar")
			if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
				t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
			}
			if code, out, stderr := evdoc("build", "--hugo", hugo, "--root", dir); code != 0 {
				t.Fatalf("first build: exit %d\n%s%s", code, out, stderr)
			}
			page := filepath.Join(dir, "public", "docs", "cb", "index.html")
			before, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			ar, err := txtar.ParseFile(tc.overlay)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, out, stderr := evdoc("build", "--strict", "--hugo", hugo, "--root", dir)
			if code != 1 {
				t.Fatalf("build: exit %d, want 1\n%s%s", code, out, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("build's error lacks %q:\n%s", w, stderr)
				}
			}
			if after, _ := os.ReadFile(page); string(after) != string(before) {
				t.Errorf("public/docs/cb/index.html changed by the failed build:\n%s", after)
			}
		})
	}
}
