package site

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
)

// TestPopoverPrecisionPerClaim: claims of one value written at several
// precisions ([약 52%], [51.72%], [51.7241%]) each get a popover showing
// the value at their own precision, not at the first claim's; on a page
// with shortcodes (positions pinned) and on a page falling back to the
// source language too.
func TestPopoverPrecisionPerClaim(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	dir := themedProject(t, filepath.Join("testdata", "check", "clean.txtar"))
	write(t, dir, "content/ko/docs/prec.md", "---\ntitle: 정밀도\n---\n\n계산값은 [약 52%](ev:d3/d3.a.pct), 자세히는 [51.72%](ev:d3/d3.a.pct)다.\n\n{{< details >}}\n[51.7241%](ev:d3/d3.a.pct)\n{{< /details >}}\n")
	write(t, dir, "layouts/_shortcodes/details.html", "<div>{{ .Inner | .Page.RenderString }}</div>\n")
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Build(context.Background(), BuildOptions{Out: "public", Hugo: hugoCommand(t), Check: check.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	// The popover's HTML is escaped in its data-ev-pop attribute
	// (evdoc.js moves it into the page).
	claimRe := regexp.MustCompile(`<a class="ev-claim[^"]*"[^>]*>([^<]*)</a><span class="ev-pop"[^>]*data-ev-pop="([^"]*)"`)
	valueRe := regexp.MustCompile(`<span class="ev-value"[^>]*>([^<]*)</span>`)
	popovers := func(b []byte) map[string]string {
		got := map[string]string{}
		for _, m := range claimRe.FindAllStringSubmatch(string(b), -1) {
			if v := valueRe.FindStringSubmatch(html.UnescapeString(m[2])); v != nil {
				got[m[1]] = v[1]
			}
		}
		return got
	}
	for _, page := range []string{"docs/prec/index.html", "ja/docs/prec/index.html"} {
		b, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		got := popovers(b)
		for lit, want := range map[string]string{"약 52%": "52%", "51.72%": "51.72%", "51.7241%": "51.7241%"} {
			if got[lit] != want {
				t.Errorf("%s: the popover of [%s] shows %q; want %q (all: %v)", page, lit, got[lit], want, got)
			}
		}
	}
	// The ja page's own claim of the value ([約52%]) keeps its precision.
	b, _ := os.ReadFile(filepath.Join(dir, "public", "ja", "docs", "p", "index.html"))
	if got := popovers(b); got["約52%"] != "52%" {
		t.Errorf("ja/docs/p: the popover of [約52%%] does not show 52%%")
	}
}
