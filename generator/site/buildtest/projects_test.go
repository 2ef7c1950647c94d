package buildtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/generator/verify"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestBuildEscapes builds a project whose evidence title, environment,
// source, raw lines and page titles hold markup and quotes: every place
// the site shows them (popovers, viewer, set and index pages, citations,
// hreflang links) escapes them, and the links still resolve.
func TestBuildEscapes(t *testing.T) {
	t.Parallel() // a project of its own
	dir := builtProject(t, "escape.txtar", site.BuildOptions{})
	public := filepath.Join(dir, "public")
	seen := map[string]bool{}
	err := filepath.WalkDir(public, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		page := sitetest.WithPopovers(public, "/", string(b)) // the page as evdoc.js leaves it
		for _, bad := range []string{"<script>alert", "<b>bold", "<i>x", "<img src=x", "ZgotmplZ"} {
			if strings.Contains(page, bad) {
				i := strings.Index(page, bad)
				t.Errorf("%s: unescaped %q: %q", p, bad, page[max(0, i-120):min(len(page), i+60)])
			}
		}
		for _, good := range []string{"&lt;script&gt;alert(&#34;raw&#34;)&lt;/script&gt;", "&lt;script&gt;alert(&#34;set&#34;)&lt;/script&gt;", "&lt;b&gt;bold&lt;/b&gt;",
			"&lt;i&gt;x&lt;/i&gt;", "&lt;img src=x", "after − before = 15 − 5 = &#43;10", "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"} {
			if strings.Contains(page, good) {
				seen[good] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, good := range []string{"&lt;script&gt;alert(&#34;raw&#34;)&lt;/script&gt;", "&lt;script&gt;alert(&#34;set&#34;)&lt;/script&gt;", "&lt;b&gt;bold&lt;/b&gt;",
		"&lt;i&gt;x&lt;/i&gt;", "&lt;img src=x", "after − before = 15 − 5 = &#43;10", "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"} {
		if !seen[good] {
			b, _ := os.ReadFile(filepath.Join(public, "docs", "p", "index.html"))
			t.Errorf("no page shows %q; the ko page:\n%s", good, b)
		}
	}
	problems, _ := sitetest.WalkLinks(t, public, sitetest.Localhost())
	for _, p := range problems {
		t.Error(p)
	}

	// The evtable shortcode: rows s1 and s2 in file order, each cell
	// linked to its raw token (#LINE-COL, the anchor the viewer marks),
	// and the AFTER − BEFORE column exact.
	b, err := os.ReadFile(filepath.Join(public, "docs", "p", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	table := regexp.MustCompile(`(?s)<table class="evtable">.*?</table>`).FindString(string(b))
	cells := regexp.MustCompile(`<t[hd][^>]*>(.*?)</t[hd]>`).FindAllStringSubmatch(table, -1)
	var got []string
	for _, c := range cells {
		got = append(got, regexp.MustCompile(`<[^>]*>`).ReplaceAllString(c[1], ""))
	}
	want := []string{"r", "BEFORE", "AFTER", "AFTER − BEFORE", "s1", "5", "15", "+10", "s2", "1.25", "3.5", "+2.25"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("evtable cells %q, want %q\n%s", got, want, table)
	}
	if !strings.Contains(table, `<a href="/evidence/run/result-txt/#L2-25">15</a>`) || !strings.Contains(table, `<a href="/evidence/run/result-txt/#L4-19">3.5</a>`) {
		t.Errorf("evtable cells are not linked to their raw tokens:\n%s", table)
	}
	viewer, err := os.ReadFile(filepath.Join(public, "evidence", "run", "result-txt", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"L2-25", "L4-19"} {
		if !strings.Contains(string(viewer), `<mark class="ev-token" id="`+id+`">`) {
			t.Errorf("the viewer has no marked token %s for its evtable cell", id)
		}
	}
}

// TestBuildUnpublished builds testdata/unpublished.txtar, whose
// claims on a future page and on a page a section's cascade hides Hugo
// does not render: the output check expects none of them, the citation
// table names those pages without a link, and no page or fallback of
// theirs is published in either language.
func TestBuildUnpublished(t *testing.T) {
	t.Parallel() // a project of its own
	dir := builtProject(t, "unpublished.txtar", site.BuildOptions{})
	public := filepath.Join(dir, "public")
	for _, p := range []string{"docs/future", "docs/hid", "docs/hid/c", "ja/docs/future", "ja/docs/hid", "ja/docs/hid/c"} {
		if _, err := os.Stat(filepath.Join(public, p, "index.html")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s/index.html published (%v)", p, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(public, "evidence", "run", "result-txt", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<li><a href="/docs/p/">쪽</a>: <q>4건</q></li>`, `<li>/docs/future: <q>4건</q></li>`, `<li>/docs/hid/c: <q>4건</q></li>`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the citation table has no %s", want)
		}
	}
	problems, _ := sitetest.WalkLinks(t, public, sitetest.Localhost())
	for _, p := range problems {
		t.Error(p)
	}
}

// TestLinkForms builds testdata/links.txtar, whose pages link with
// every form of destination, and checks both ends of link resolution:
// evdoc check's link-missing-page findings and the href each link is
// built with ("span" for the missing-page span the render hook makes of
// a link that names no page). The two must agree: a link check reports
// is exactly a link the hook could not resolve.
func TestLinkForms(t *testing.T) {
	t.Parallel() // a project of its own
	dir := txtartest.WriteFile(t, filepath.Join("testdata", "links.txtar"))
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, ds := checker.Check(s, check.DefaultOptions())
	var findings []string
	for _, d := range ds {
		findings = append(findings, fmt.Sprintf("%s:%d:%d %s", d.Pos.File, d.Pos.Line, d.Pos.Column, d.Rule))
	}
	wantFindings := []string{
		// x.md from the Japanese fallback at /ja/docs/moved-ja/ (the
		// translation with front matter only, shown with this text)
		"content/ko/docs/guide/moved.md:6:6 link-missing-page",
		"content/ko/docs/guide/p.md:13:11 link-missing-page", // ../nope/
		"content/ko/docs/guide/p.md:13:33 link-missing-page", // nope.md
		"content/ko/docs/guide/p.md:13:55 link-missing-page", // ./nope
		"content/ko/docs/guide/p.md:13:77 link-missing-page", // /docs/nope/
		// pages GetPage does not find (draft, future, expired) or that have
		// no URL (headless, build.render never)
		"content/ko/docs/guide/p.md:14:9 link-missing-page",
		"content/ko/docs/guide/p.md:14:28 link-missing-page",
		"content/ko/docs/guide/p.md:14:59 link-missing-page",
		"content/ko/docs/guide/p.md:14:81 link-missing-page",
		"content/ko/docs/guide/p.md:14:94 link-missing-page",
		"content/ko/docs/guide/p.md:15:45 link-missing-page", // /files/nope.txt: no page, no static file
		// pages a section's cascade hides (build.render never, a draft)
		"content/ko/docs/guide/p.md:16:13 link-missing-page",
		"content/ko/docs/guide/p.md:16:35 link-missing-page",
		"content/ko/docs/guide/p.md:16:65 link-missing-page",
	}
	if got, want := strings.Join(findings, "\n"), strings.Join(wantFindings, "\n"); got != want {
		t.Errorf("check findings:\n%s\nwant:\n%s", got, want)
	}
	if testing.Short() {
		t.Skip("the build runs Hugo")
	}
	sitetest.AddEvdocTheme(t, dir)
	// The build fails on the links its output check finds broken: the
	// file links the hook leaves as written that name no file (nope.png
	// in both languages, a relative link to a static file, which a page
	// under /ja/ resolves under /ja/, and a page with build.render "link",
	// which has a URL but no file, and a root-relative link to a static
	// file the site does not have) and nothing else: the Japanese
	// fallback of the bundle has its resource (stageBundleResources).
	err = tryBuild(t, dir, site.BuildOptions{})
	var oe *verify.OutputError
	if !errors.As(err, &oe) {
		t.Fatalf("build: %v, want an OutputError", err)
	}
	wantBroken := []string{
		"docs/guide/p/index.html:62:335: link to nope.png: the built site has no such file (a 404)",
		"docs/guide/p/index.html:63:207: link to /docs/guide/linkonly/: the built site has no such file (a 404)",
		"docs/guide/p/index.html:64:43: link to /files/nope.txt: the built site has no such file (a 404)",
		"ja/docs/guide/p/index.html:63:65: link to ../../../files/a.txt: the built site has no such file (a 404)",
		"ja/docs/guide/p/index.html:66:342: link to nope.png: the built site has no such file (a 404)",
		"ja/docs/guide/p/index.html:67:207: link to /ja/docs/guide/linkonly/: the built site has no such file (a 404)",
		"ja/docs/guide/p/index.html:68:43: link to /files/nope.txt: the built site has no such file (a 404)",
	}
	if got, want := strings.Join(oe.Problems, "\n"), strings.Join(wantBroken, "\n"); got != want {
		t.Errorf("output check:\n%s\nwant:\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed build published public/ (%v)", err)
	}
	// link-output-missing set lower in evdoc.toml: as a warning the
	// build lists the same links on its log and publishes (unless
	// strict), off publishes silently. The last case's site, built with
	// the links the output check finds broken, is the one whose hrefs
	// are read below.
	for _, tc := range []struct {
		sev       string
		strict    bool
		published bool
	}{{"warning", false, true}, {"note", false, true}, {"warning", true, false}, {"off", false, true}} {
		if err := os.WriteFile(filepath.Join(dir, "evdoc.toml"), []byte("[rules]\nlink-output-missing = \""+tc.sev+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dir, "public"))
		var log strings.Builder
		err := tryBuild(t, dir, site.BuildOptions{Log: &log, Strict: tc.strict})
		if tc.strict {
			// under --strict a warning fails: from the check's warning
			// findings or, failing those, the output check
			if err == nil {
				t.Errorf("%s, strict: built, want an error", tc.sev)
			}
			if _, err := os.Stat(filepath.Join(dir, "public")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s, strict: a failed build published public/ (%v)", tc.sev, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.sev, err)
			continue
		}
		var logged []string
		for _, l := range strings.Split(log.String(), "\n") {
			if strings.HasSuffix(l, "[link-output-missing]") {
				logged = append(logged, l)
			}
		}
		var want []string
		if tc.sev != "off" {
			for _, b := range wantBroken {
				want = append(want, "evdoc: "+tc.sev+": public/"+b+" [link-output-missing]")
			}
		}
		if got, want := strings.Join(logged, "\n"), strings.Join(want, "\n"); got != want {
			t.Errorf("%s: logged:\n%s\nwant:\n%s", tc.sev, got, want)
		}
	}
	// The site built with link-output-missing off, for the hrefs.
	public := filepath.Join(dir, "public")
	tests := []struct {
		page, text, href string
	}{
		// a regular page, docs/guide/p.md (URL /docs/guide/p/)
		{"docs/guide/p", "root", "/docs/guide/x/"},
		{"docs/guide/p", "rootmd", "/docs/guide/x/"},
		{"docs/guide/p", "up", "/docs/guide/x/"}, // not /docs/x (GetPage): from the page's URL
		{"docs/guide/p", "md", "/docs/guide/x/"},
		{"docs/guide/p", "dot", "/docs/guide/x/"},
		{"docs/guide/p", "sec", "/docs/guide/"},
		{"docs/guide/p", "upsec", "/docs/"},
		{"docs/guide/p", "static", "../../../files/a.txt"},
		{"docs/guide/p", "frag", "/docs/guide/x/#section-one"},
		{"docs/guide/p", "kofrag", "/docs/guide/x/#%ea%b0%9c%ec%9a%94"},
		{"docs/guide/p", "q", "/docs/guide/x/?tab=2#section-one"},
		{"docs/guide/p", "ext", "https://example.com/a"},
		{"docs/guide/p", "mail", "mailto:a@example.com"},
		{"docs/guide/p", "hash", "#local"},
		{"docs/guide/p", "case", "/docs/guide/x/"},
		{"docs/guide/p", "leaf", "/docs/guide/bundle/"},
		{"docs/guide/p", "rootlang", "/ja/docs/guide/x/"},
		{"docs/guide/p", "html", "/docs/guide/x/"},
		{"docs/guide/p", "missing", "span"},
		{"docs/guide/p", "missingmd", "span"},
		{"docs/guide/p", "missingrel", "span"},
		{"docs/guide/p", "missingroot", "span"},
		{"docs/guide/p", "missingfile", "nope.png"}, // a file link: left as written
		{"docs/guide/p", "draft", "span"},
		{"docs/guide/p", "future", "span"},
		{"docs/guide/p", "expired", "span"},
		{"docs/guide/p", "headless", "span"},
		{"docs/guide/p", "never", "span"},
		{"docs/guide/p", "linkonly", "/docs/guide/linkonly/"}, // a URL but no file: the output check's 404
		{"docs/guide/p", "staticroot", "/files/a.txt?v=1"},
		{"docs/guide/p", "staticnope", "/files/nope.txt"},
		{"docs/guide/p", "bundleroot", "/docs/guide/bundle/img.png"}, // a bundle's resource: no finding either
		{"ja/docs/guide/p", "staticroot", "/files/a.txt?v=1"},
		{"ja/docs/guide/p", "bundleroot", "/docs/guide/bundle/img.png"},
		{"docs/guide/p", "cascnever", "span"},
		{"docs/guide/p", "cascdraft", "span"},
		{"docs/guide/p", "cascsec", "span"},
		// a page whose Japanese fallback is at another path: its relative
		// links resolve from there
		{"docs/guide/moved", "mx", "/docs/guide/x/"},
		{"ja/docs/moved-ja", "mx", "span"},
		{"ja/docs/moved-ja", "mup", "/ja/docs/guide/x/"},
		// the same page in Japanese, built from the Korean source
		{"ja/docs/guide/p", "up", "/ja/docs/guide/x/"},
		{"ja/docs/guide/p", "md", "/ja/docs/guide/x/"},
		{"ja/docs/guide/p", "missing", "span"},
		// a section, docs/guide/_index.md (URL /docs/guide/)
		{"docs/guide", "child", "/docs/guide/x/"},
		{"docs/guide", "childmd", "/docs/guide/x/"},
		{"docs/guide", "parent", "/docs/other/"},
		{"docs/guide", "leaf", "/docs/guide/bundle/"},
		{"docs/guide", "self", "/docs/guide/"},
		// a leaf bundle, docs/guide/bundle/index.md (URL /docs/guide/bundle/)
		{"docs/guide/bundle", "res", "/docs/guide/bundle/img.png"}, // a resource: its URL, as Hugo's own hook links it
		{"docs/guide/bundle", "sib", "/docs/guide/x/"},
		{"docs/guide/bundle", "sibmd", "/docs/guide/x/"},
		{"docs/guide/bundle", "top", "/docs/other/"},
		// a page and its Japanese translation with the same relative
		// links (translation-structure compares them equal)
		{"docs/other", "엑스", "/docs/guide/x/"},
		{"docs/other", "안내", "/docs/guide/x/#section-one"},
		{"ja/docs/other", "エックス", "/ja/docs/guide/x/"},
		{"ja/docs/other", "案内", "/ja/docs/guide/x/#section-one"},
	}
	linkRe := regexp.MustCompile(`<a href="([^"]*)"[^>]*>([^<]*)</a>|<span class="missing-page"[^>]*>([^<]*)</span>`)
	built := map[string]map[string]string{}
	for _, tt := range tests {
		links, ok := built[tt.page]
		if !ok {
			b, err := os.ReadFile(filepath.Join(public, tt.page, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			links = map[string]string{}
			for _, m := range linkRe.FindAllStringSubmatch(string(b), -1) {
				if m[3] != "" {
					links[m[3]] = "span"
				} else {
					links[m[2]] = html.UnescapeString(m[1])
				}
			}
			built[tt.page] = links
		}
		if got := links[tt.text]; got != tt.href {
			t.Errorf("%s: [%s] built as %q, want %q", tt.page, tt.text, got, tt.href)
		}
	}
	// The test's own link walk finds the same 404s as the output check.
	problems, _ := sitetest.WalkLinks(t, public, sitetest.Localhost())
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	if want := "docs/guide/p/index.html: nope.png: 404\ndocs/guide/p/index.html: /docs/guide/linkonly/: 404\ndocs/guide/p/index.html: /files/nope.txt: 404\nja/docs/guide/p/index.html: ../../../files/a.txt: 404\nja/docs/guide/p/index.html: nope.png: 404\nja/docs/guide/p/index.html: /ja/docs/guide/linkonly/: 404\nja/docs/guide/p/index.html: /files/nope.txt: 404"; strings.Join(got, "\n") != want {
		t.Errorf("link walk:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestBuildStrictFileLinks builds testdata/strictlinks.txtar under
// --strict: a root-relative link to a static file must not make Hugo warn
// (which --panicOnWarning fails), and under uglyURLs a leaf bundle's
// relative link to its resource must link to the resource's URL, as
// Hugo's own link render hook does, in both languages.
func TestBuildStrictFileLinks(t *testing.T) {
	t.Parallel() // a project of its own
	dir := builtProject(t, "strictlinks.txtar", site.BuildOptions{Strict: true})
	for _, tc := range []struct{ file, want string }{
		{"docs/b.html", `<a href="/files/a.txt">자료</a> <a href="/docs/b/img.png">그림</a> <a href="/docs/b/img.png#top">조각</a>`},
		// the Japanese bundle has no copy of img.png: Hugo shares the Korean one
		{"ja/docs/b.html", `<a href="/files/a.txt">資料</a> <a href="/docs/b/img.png">図</a> <a href="/docs/b/img.png#top">断片</a>`},
	} {
		b, err := os.ReadFile(filepath.Join(dir, "public", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("%s has no %s", tc.file, tc.want)
		}
	}
}

// TestBuildListPageIDs: a section page rendering its pages' content
// shows two claims of one destination at the same LINE:COL of two
// pages; their popover ids differ by the page's part, so each id names
// one element and each claim is described by its own popover.
func TestBuildListPageIDs(t *testing.T) {
	t.Parallel() // a project of its own
	skipShort(t)
	dir := sitetest.ThemedProject(t, filepath.Join("testdata", "listids.txtar"))
	list := `{{ define "main" }}{{ if .Params.evdoc_index }}{{ .Content }}{{ end }}{{ range .Pages }}<section>{{ .Content }}</section>{{ end }}{{ end }}`
	if err := os.WriteFile(filepath.Join(dir, "layouts", "section.html"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	build(t, dir, site.BuildOptions{})
	b, err := os.ReadFile(filepath.Join(dir, "public", "docs", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	ids := regexp.MustCompile(`<span class="ev-pop" id="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(ids) != 2 {
		t.Fatalf("docs/index.html: %d described claims, want 2 (one per page)", len(ids))
	}
	if ids[0][1] == ids[1][1] {
		t.Errorf("the two pages' claims share the popover id %q", ids[0][1])
	}
	for _, id := range ids {
		if n := strings.Count(page, ` id="`+id[1]+`"`); n != 1 {
			t.Errorf("%d elements with id %q, want 1", n, id[1])
		}
	}
}

// TestPopoverPrecisionPerClaim: claims of one value written at several
// precisions ([약 52%], [51.72%], [51.7241%]) each get a popover showing
// the value at their own precision, not at the first claim's; on a page
// with shortcodes (positions pinned) and on a page falling back to the
// source language too.
func TestPopoverPrecisionPerClaim(t *testing.T) {
	t.Parallel() // a project of its own
	skipShort(t)
	dir := sitetest.ThemedProject(t, filepath.Join("..", "..", "checker", "testdata", "check", "clean.txtar"))
	sitetest.Write(t, dir, "content/ko/docs/prec.md", "---\ntitle: 정밀도\n---\n\n계산값은 [약 52%](ev:d3/d3.a.pct), 자세히는 [51.72%](ev:d3/d3.a.pct)다.\n\n{{< details >}}\n[51.7241%](ev:d3/d3.a.pct)\n{{< /details >}}\n")
	sitetest.Write(t, dir, "layouts/_shortcodes/details.html", "<div>{{ .Inner | .Page.RenderString }}</div>\n")
	sitetest.Write(t, dir, "evidence/lat/evidence.toml", "id = \"lat\"\ntitle = \"t\"\ndate = \"2026-07-09\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n[[transcript]]\nfile = \"t.txt\"\nname = \"r\"\n")
	sitetest.Write(t, dir, "evidence/lat/t.txt", "p99=0.00712s\n")
	sitetest.Write(t, dir, "content/ko/docs/units.md", "---\ntitle: 단위\n---\n\np99는 [7.12ms](ev:lat/r.p99), [7ms](ev:lat/r.p99), [0.01초](ev:lat/r.p99), [0.00712초](ev:lat/r.p99), [7120us](ev:lat/r.p99)다.\n")
	build(t, dir, site.BuildOptions{})
	// The popover's HTML is its key's body in the popover file of its
	// set (data-ev-s), which evdoc.js puts into the page.
	public := filepath.Join(dir, "public")
	valueRe := regexp.MustCompile(`<span class="?ev-value"?(?:\s[^>]*)?>([^<]*)</span>`)
	popovers := func(b []byte) map[string]string {
		got := map[string]string{}
		for lit, body := range popoverBodies(t, public, string(b)) {
			if v := valueRe.FindStringSubmatch(body); v != nil {
				got[lit] = v[1]
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
	// A claim written in another unit than its value's is shown in the
	// unit it writes, at its precision: [7.12ms] of 0.00712 s is 7.12 ms,
	// not 0.00712 s rounded to two places (0.01 s); [0.01초] of the same
	// value, at the same number of places in s, keeps its own popover.
	b, err := os.ReadFile(filepath.Join(dir, "public", "docs", "units", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	got := popovers(b)
	for lit, want := range map[string]string{"7.12ms": "7.12 ms", "7ms": "7 ms", "0.01초": "0.01 s", "0.00712초": "0.00712 s", "7120us": "7120 us"} {
		if got[lit] != want {
			t.Errorf("docs/units: the popover of [%s] shows %q; want %q (all: %v)", lit, got[lit], want, got)
		}
	}
}

// popoverBodies returns, for each claim of page (an HTML file of the
// site built in public, served at "/"), by its link text, the body
// evdoc.js puts into its popover: its data key's body in the popover
// file of its set, at the URL the page's <meta name="evdoc-popovers">
// gives ("" where there is none).
func popoverBodies(t *testing.T, public, page string) map[string]string {
	t.Helper()
	claimRe := regexp.MustCompile(`<a class="ev-claim[^"]*"[^>]*\sdata-ev="([^"]*)"[^>]*>([^<]*)</a><span class="ev-pop" id="[^"]*" data-ev-s="([^"]*)"(?: data-ev-k="([^"]*)")?>`)
	meta := regexp.MustCompile(`<meta name="evdoc-popovers" content="([^"]*)"`).FindStringSubmatch(page)
	files := map[string]string{}
	if meta != nil {
		if err := json.Unmarshal([]byte(html.UnescapeString(meta[1])), &files); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	for _, m := range claimRe.FindAllStringSubmatch(page, -1) {
		set := html.UnescapeString(m[3])
		got[m[2]] = ""
		u, ok := files[set]
		if !ok {
			continue
		}
		u, _, _ = strings.Cut(u, "?") // the file's version (?v=…)
		b, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(strings.TrimPrefix(u, "/"))))
		if err != nil {
			continue
		}
		s, bodies := sitetest.ParsePopoverFile(b)
		if s == set {
			got[m[2]] = bodies[html.UnescapeString(m[1])+html.UnescapeString(m[4])]
		}
	}
	return got
}

// TestBuildPopoverFiles: a page's claims write no popover body: each
// popover names its evidence set (data-ev-s), whose popover file holds
// each data key's body once, and a page citing one value twice gets the
// same body for both. A list page showing any part of a page's content
// builds (each claim's body is in the file, not in the first claim); a
// page whose layout leaves out evdoc's head partial (so its claims have
// no popover file) fails the output check (link-output-popover), naming
// the file and the claim, and as a warning in evdoc.toml it builds and
// says so.
func TestBuildPopoverFiles(t *testing.T) {
	t.Parallel() // projects of their own
	skipShort(t)
	page := "---\ntitle: 반복\n---\n\n계산값은 [약 52%](ev:d3/d3.a.pct)다.\n\n<!--more-->\n\n다시, 계산값은 [약 52%](ev:d3/d3.a.pct)다.\n"
	project := func(layout string) string {
		dir := sitetest.ThemedProject(t, filepath.Join("..", "..", "checker", "testdata", "check", "clean.txtar"))
		sitetest.Write(t, dir, "content/ko/docs/_index.md", "---\ntitle: 문서\n---\n")
		sitetest.Write(t, dir, "content/ko/docs/rep.md", page)
		sitetest.Write(t, dir, "layouts/docs/section.html", layout)
		return dir
	}
	dir := project(`{{ define "main" }}{{ range .Pages }}<section>{{ with split .Content "</p>" }}{{ if gt (len .) 1 }}{{ index . 1 | safeHTML }}{{ end }}{{ end }}</section>{{ end }}{{ end }}` + "\n")
	build(t, dir, site.BuildOptions{})
	public := filepath.Join(dir, "public")
	b, err := os.ReadFile(filepath.Join(public, "docs", "rep", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "ev-val") || strings.Contains(string(b), "ev-desc") || strings.Count(string(b), `data-ev-s="d3"`) != 2 {
		t.Errorf("docs/rep: the page holds popover bodies, or its two claims do not name set d3:\n%s", b)
	}
	bodies := popoverBodies(t, public, string(b))
	if body := bodies["약 52%"]; !strings.Contains(body, "ev-val") || !strings.Contains(body, "ev-desc") {
		t.Errorf("docs/rep: the claim's popover file holds no body for it: %q", body)
	}
	f, err := os.ReadFile(filepath.Join(public, "evidence", "d3", "popovers.js"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(f), `"ev:d3/d3.a.pct":`); n != 1 {
		t.Errorf("evidence/d3/popovers.js holds the key %d times, want 1", n)
	}
	// the list page showing the second paragraph only
	b, err = os.ReadFile(filepath.Join(public, "docs", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if body := popoverBodies(t, public, string(b))["약 52%"]; !strings.Contains(body, "ev-val") {
		t.Errorf("docs: the repeated claim shown alone has no body: %q", body)
	}
	dir = project(`<!DOCTYPE html><html><head><link rel="stylesheet" href="{{ "evdoc/css/site.css" | relURL }}"></head><body>{{ range .Pages }}{{ .Content }}{{ end }}</body></html>` + "\n")
	err = tryBuild(t, dir, site.BuildOptions{})
	if err == nil || !strings.Contains(err.Error(), "public/docs/index.html: the popover of the claim at ko:docs/rep.md:") || !strings.Contains(err.Error(), "[link-output-popover]") {
		t.Fatalf("a page without evdoc's head partial built: %v", err)
	}
	sitetest.Write(t, dir, "evdoc.toml", "[rules]\nlink-output-popover = \"warning\"\n")
	var log bytes.Buffer
	if err := tryBuild(t, dir, site.BuildOptions{Log: &log}); err != nil {
		t.Fatalf("as a warning: %v", err)
	}
	if !strings.Contains(log.String(), "evdoc: warning: public/docs/index.html: the popover of the claim at ko:docs/rep.md:") {
		t.Errorf("as a warning the build does not list the file:\n%s", log.String())
	}
}
