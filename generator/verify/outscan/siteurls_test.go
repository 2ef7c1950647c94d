package outscan

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestURLForms scans the built sites of testdata/urls/*.txtar, each its
// output (public/) and where its trees are served (roots: "DIR URL" a
// line, "." for the whole output), for the URL forms Hugo writes: from
// the root under a baseURL path, full URLs on the baseURL
// (canonifyURLs), relative to the file (relativeURLs) and per language
// on its own host (multihost). The want member lists what the scan
// reports (broken links at FILE:LINE:COL, pages shown unstyled, popovers
// without a body) and the claims it found per page.
func TestURLForms(t *testing.T) {
	txtartest.Run(t, "testdata/urls/*.txtar", func(t *testing.T, dir string, ar *txtar.Archive) []byte {
		var roots []Root
		for _, f := range ar.Files {
			if f.Name != "roots" {
				continue
			}
			for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				d, u, _ := strings.Cut(l, " ")
				if d == "." {
					d = ""
				}
				roots = append(roots, Root{Dir: d, URL: u})
			}
		}
		site, err := NewSite(roots)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := Dir(context.Background(), filepath.Join(dir, "public"), site)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, l := range sc.Broken {
			fmt.Fprintf(&b, "broken: %s\n", l)
		}
		for _, l := range sc.Unstyled {
			fmt.Fprintf(&b, "unstyled: %s\n", l)
		}
		for _, l := range sc.Unresolved {
			fmt.Fprintf(&b, "unresolved: %s\n", l)
		}
		var pages []string
		for k, cs := range sc.Claims {
			pages = append(pages, fmt.Sprintf("claims: %s:%s %d", k.Lang, k.Rel, len(cs)))
		}
		sort.Strings(pages)
		for _, p := range pages {
			fmt.Fprintln(&b, p)
		}
		return b.Bytes()
	})
}

// TestSiteTarget resolves links as a browser does from a file's URL
// and finds the tree and file they name, or that they leave the site.
func TestSiteTarget(t *testing.T) {
	multi, err := NewSite([]Root{{Dir: "ko/", URL: "https://ko.example.org/"}, {Dir: "ja/", URL: "https://example.org/ja/"}, {Dir: "en/", URL: "https://example.org/"}})
	if err != nil {
		t.Fatal(err)
	}
	canon, err := NewSite([]Root{{URL: "https://example.org/lab/"}})
	if err != nil {
		t.Fatal(err)
	}
	schemeless, err := NewSite([]Root{{URL: "//example.org/lab/"}})
	if err != nil {
		t.Fatal(err)
	}
	port443, err := NewSite([]Root{{URL: "https://example.org:443/lab/"}})
	if err != nil {
		t.Fatal(err)
	}
	port80, err := NewSite([]Root{{URL: "HTTP://Example.org:80/lab/"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		site       *Site
		rel, href  string
		target     string
		inside, ok bool // ok: mayName
	}{
		{canon, "docs/p/index.html", "https://example.org/lab/docs/q/", "docs/q/", true, true},
		{canon, "docs/p/index.html", "HTTPS://Example.ORG/lab/x.css", "x.css", true, true},
		{canon, "docs/p/index.html", "https://example.org/lab", "", true, true},
		{canon, "docs/p/index.html", "//example.org/lab/a", "a", true, true},
		{canon, "docs/p/index.html", "http://example.org/lab/a", "", false, true},
		{canon, "docs/p/index.html", "https://example.org:8443/lab/a", "", false, true},
		{canon, "docs/p/index.html", "https://example.org/labs/a", "", false, true},
		// the scheme's default port is the host without one
		{canon, "docs/p/index.html", "https://example.org:443/lab/a", "a", true, true},
		{canon, "docs/p/index.html", "https://EXAMPLE.org:443/lab/", "", true, true},
		{canon, "docs/p/index.html", "https://example.org:80/lab/a", "", false, true},
		{canon, "docs/p/index.html", "https://example.org:/lab/a", "a", true, true},
		{port443, "docs/p/index.html", "https://example.org/lab/a", "a", true, true},
		{port443, "docs/p/index.html", "../../a", "a", true, true},
		{port80, "docs/p/index.html", "http://example.org/lab/a", "a", true, true},
		{port80, "docs/p/index.html", "http://example.org:80/lab/a", "a", true, true},
		{port80, "docs/p/index.html", "http://example.org:8080/lab/a", "", false, true},
		{schemeless, "docs/p/index.html", "https://example.org:443/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "http://example.org:80/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "http://example.org:443/lab/a", "", false, true},
		{canon, "docs/p/index.html", "../../a", "a", true, true},
		{canon, "docs/p/index.html", "../../../a", "", false, true},           // /a: outside /lab/
		{canon, "docs/p/index.html", "../../../../../lab/a", "a", true, true}, // ".." stops at the root
		{canon, "docs/p/index.html", "mailto:a@b", "", false, false},
		{PathSite("/lab/"), "docs/p/index.html", "https://example.org/lab/a", "", false, false},
		{PathSite("/lab/"), "docs/p/index.html", "/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "//example.org/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "https://example.org/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "http://example.org/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "/lab/a", "a", true, true},
		{schemeless, "docs/p/index.html", "//other.example/lab/a", "", false, true},
		{schemeless, "docs/p/index.html", "ftp://example.org/lab/a", "", false, false},
		{multi, "ko/docs/p/index.html", "/docs/q/", "ko/docs/q/", true, true},
		{multi, "ko/docs/p/index.html", "/ja/docs/q/", "ko/ja/docs/q/", true, true},
		{multi, "ko/docs/p/index.html", "https://example.org/ja/docs/q/", "ja/docs/q/", true, true},
		{multi, "ko/docs/p/index.html", "https://example.org/docs/q/", "en/docs/q/", true, true},
		{multi, "ja/docs/p/index.html", "/docs/q/", "en/docs/q/", true, true},
		{multi, "ja/docs/p/index.html", "../../", "ja/", true, true},
		{multi, "ja/index.html", "../", "en/", true, true},
		{multi, "en/index.html", "ja/", "ja/", true, true},
	} {
		ok := tc.site.mayName(tc.href)
		target, inside, err := tc.site.target(tc.rel, tc.href)
		if err != nil {
			t.Errorf("%s: %s: %v", tc.rel, tc.href, err)
			continue
		}
		if !ok {
			inside, target = false, ""
		}
		if ok != tc.ok || inside != tc.inside || target != tc.target {
			t.Errorf("%s: %s: mayName %v, target %q inside %v; want %v, %q, %v", tc.rel, tc.href, ok, target, inside, tc.ok, tc.target, tc.inside)
		}
	}
}

// FuzzSiteTarget: resolving any link from any file of a multihost site
// never panics, and a link inside the site names a path in the output
// without "." or ".." segments, in the tree whose full URL for it
// resolves to the same path from any other file.
func FuzzSiteTarget(f *testing.F) {
	site, err := NewSite([]Root{{Dir: "ko/", URL: "https://ko.example.org/"}, {Dir: "ja/", URL: "https://example.org/ja/"}, {Dir: "en/", URL: "https://example.org/lab/"}})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range [][2]string{{"ko/docs/p/index.html", "../../x"}, {"ja/index.html", "/ja/docs/"}, {"en/a/b.html", "https://example.org/lab/a"}, {"ko/x", "//example.org/ja/%41"}, {"en/", "../../.."}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rel, href string) {
		h, ok := linkHref(href)
		if !ok || !site.mayName(h) {
			return
		}
		target, inside, err := site.target(rel, h)
		if err != nil || !inside {
			return
		}
		r := site.rootOf(target)
		if !strings.HasPrefix(target, r.dir) {
			t.Fatalf("%s from %s: target %q in no tree", h, rel, target)
		}
		for _, seg := range strings.Split(strings.TrimPrefix(target, r.dir), "/") {
			if seg == "." || seg == ".." {
				t.Fatalf("%s from %s: target %q has a dot segment", h, rel, target)
			}
		}
		full := (&url.URL{Scheme: r.scheme, Host: r.host, Path: r.path + strings.TrimPrefix(target, r.dir)}).String()
		again, in, err := site.target("ja/other/index.html", full)
		if err != nil || !in || again != target {
			t.Fatalf("%s from %s: target %q; its URL %s names %q (inside %v, %v)", h, rel, target, full, again, in, err)
		}
	})
}

// FuzzScanPositions: every link offset the scan records is the place
// of a '<' in the file, and placesOf names that byte.
func FuzzScanPositions(f *testing.F) {
	for _, s := range []string{"<a href=x>\n<img src=y>", "<!-- <a href=z> -->\n\n  <A HREF='q'>", "<p>\r\n<script src=s></script><a href=>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		res, err := scanReader(strings.NewReader(doc))
		if err != nil {
			return
		}
		var offs []int
		for _, l := range res.hrefs {
			offs = append(offs, l.at)
		}
		if res.emptyHref {
			offs = append(offs, res.emptyAt)
		}
		lines := strings.SplitAfter(doc, "\n")
		for i, p := range placesOf([]byte(doc), offs) {
			if offs[i] < 0 || offs[i] >= len(doc) || doc[offs[i]] != '<' {
				t.Fatalf("%q: offset %d is not a '<'", doc, offs[i])
			}
			if p.line < 1 || p.line > len(lines) || p.col < 1 || p.col > len(lines[p.line-1]) || lines[p.line-1][p.col-1] != '<' {
				t.Fatalf("%q: position %s is not a '<'", doc, p)
			}
		}
	})
}

// FuzzBodyPositions: of a popover file that parses, every body's
// position is the place of a '"' in the file.
func FuzzBodyPositions(f *testing.F) {
	for _, s := range []string{"evdocPopovers(\"s\",{\n\"ev:s/a\":\"x\",\n\"ev:s/b\":\"\\u003ca href=/x\\u003e\"\n});\n", " evdocPopovers(\"s\" , {\"k\" : \"v\"});", "evdocPopovers(\"s\",{});", "\v\u0085evdocPopovers(\"s\",{\"k\":\"v\"});"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		pf, err := parsePopFile([]byte(doc))
		at := bodyPositions([]byte(doc))
		if err != nil {
			return
		}
		lines := strings.SplitAfter(doc, "\n")
		for k := range pf.bodies {
			p, ok := at[k]
			if !ok {
				t.Fatalf("%q: no position for %q", doc, k)
			}
			if p.line < 1 || p.line > len(lines) || p.col < 1 || p.col > len(lines[p.line-1]) || lines[p.line-1][p.col-1] != '"' {
				t.Fatalf("%q: position %s of %q is not a '\"'", doc, p, k)
			}
		}
	})
}
