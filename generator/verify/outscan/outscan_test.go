package outscan

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestScanOutput: the scan finds evdoc's claim and evidence markers in
// quoted and minified (unquoted) attributes, counts an evidence window's
// line spans, and finds #ZgotmplZ wherever it lies, across the forced
// split of a long run without '>' too.
func TestScanOutput(t *testing.T) {
	long := strings.Repeat("x", 256<<10-4) + "#ZgotmplZ" // straddles the forced split
	tests := []struct {
		name     string
		html     string
		claims   map[PageKey]map[string]bool
		windows  map[WindowKey]int
		problems int
	}{
		{"quoted claim", `<p><span class="ev"><a class="ev-claim" href="/e/#L3" aria-describedby="ev-1" data-ev-at="ko:docs/p.md:7:8" data-ev="ev:s/a">1</a></span></p>`,
			map[PageKey]map[string]bool{{"ko", "docs/p.md"}: {"7:8|ev:s/a": true}}, map[WindowKey]int{}, 0},
		{"minified claim, same claim twice", `<a class=ev-claim href=/e/#L3 data-ev-at=ja:docs/p.ja.md:1:2 data-ev=ev:s/a>1</a><a data-ev-at=ja:docs/p.ja.md:1:2 data-ev=ev:s/a>1</a>`,
			map[PageKey]map[string]bool{{"ja", "docs/p.ja.md"}: {"1:2|ev:s/a": true}}, map[WindowKey]int{}, 0},
		{"escaped path", `<a data-ev-at="ko:docs/a&amp;b.md:1:2" data-ev="ev:s/a">1</a>`,
			map[PageKey]map[string]bool{{"ko", "docs/a&b.md"}: {"1:2|ev:s/a": true}}, map[WindowKey]int{}, 0},
		{"evidence window", `<div class="evidence-raw" data-ev-window="ko:2:evidence/s/r.txt"><pre><code><span class="line" id="L5"><a class="ln" href="#L5">5</a></span><span class="line hl" id="L6">x</span><span class=line id=L7>y</span></code></pre></div>`,
			map[PageKey]map[string]bool{}, map[WindowKey]int{{"ko", 2, "evidence/s/r.txt"}: 3}, 0},
		{"empty article", `<article></article>`, map[PageKey]map[string]bool{}, map[WindowKey]int{}, 0},
		{"ZgotmplZ", `<a href="#ZgotmplZ">1,250건</a>`, map[PageKey]map[string]bool{}, map[WindowKey]int{}, 1},
		{"ZgotmplZ across a split", long, map[PageKey]map[string]bool{}, map[WindowKey]int{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(tt.html), 0o644); err != nil {
				t.Fatal(err)
			}
			sc, err := Dir(context.Background(), dir, "/")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sc.Claims, tt.claims) {
				t.Errorf("claims = %v, want %v", sc.Claims, tt.claims)
			}
			if !reflect.DeepEqual(sc.Windows, tt.windows) {
				t.Errorf("windows = %v, want %v", sc.Windows, tt.windows)
			}
			if len(sc.Problems) != tt.problems {
				t.Errorf("problems = %q, want %d", sc.Problems, tt.problems)
			}
		})
	}
}

// TestReadEvTag: evdoc's markers are read as an HTML tokenizer reads
// attributes: quoted either way or unquoted, spaces around '=', names
// in any case, the first of a repeated attribute, and never a name
// inside another attribute's quoted value.
func TestReadEvTag(t *testing.T) {
	tests := []struct {
		tag  string
		want evTag
	}{
		{`<a data-ev-at="ko:p.md:1:2" data-ev="ev:s/a">`, evTag{at: "ko:p.md:1:2", dest: "ev:s/a", hasAt: true}},
		{`<a data-ev-at='ko:p.md:1:2' data-ev=ev:s/a>`, evTag{at: "ko:p.md:1:2", dest: "ev:s/a", hasAt: true}},
		{`<a DATA-EV-AT = "ko:p.md:1:2"data-ev=ev:s/a/>`, evTag{at: "ko:p.md:1:2", dest: "ev:s/a/", hasAt: true}},
		{`<a title="x data-ev-at=ko:p.md:1:2" data-ev="ev:s/a">`, evTag{dest: "ev:s/a"}},
		{`<a data-ev-at="ko:a&amp;b.md:1:2" data-ev-at="ko:other.md:1:2">`, evTag{at: "ko:a&b.md:1:2", hasAt: true}},
		{`<a data-ev-at>`, evTag{hasAt: true}},
		{`<a data-ev-at="unterminated>`, evTag{at: "unterminated>", hasAt: true}},
		{`<div class="evidence-raw" data-ev-window="ko:2:evidence/s/r.txt">`, evTag{window: "ko:2:evidence/s/r.txt", hasWindow: true}},
		{`<span class="line" id="L12">`, evTag{lineSpan: true, id: []byte("L12")}},
		{`<span class=" line hl" id=L12>`, evTag{lineSpan: true, id: []byte("L12")}},
		{`<SPAN id='L1' class="line">`, evTag{lineSpan: true, id: []byte("L1")}},
		{`<span class="lines" id="L12">`, evTag{id: []byte("L12")}},
		{`<span class="hl line" id="L12">`, evTag{id: []byte("L12")}},
		{`<span class="line" id="L12x">`, evTag{id: []byte("L12x")}},
		{`<span class="line" id="L">`, evTag{id: []byte("L")}},
		{`<span class="ev-pop" id="ev-a-3-4" data-ev-ref="ev-a-1-2" data-ev-pop="x">`, evTag{id: []byte("ev-a-3-4"), ref: "ev-a-1-2", hasRef: true, pop: []byte("x"), hasPop: true}},
		{`<span title="data-ev-ref=x" data-ev-pop=y>`, evTag{pop: []byte("y"), hasPop: true}},
		{`<span class="line" title="id=L12">`, evTag{}},
		{`<spanner class="line" id="L12">`, evTag{}},
		{`<p class="line" id="L12">`, evTag{}},
		{`<a href="/e/&amp;/#L1" HREF="/other/" data-ev="ev:s/a">`, evTag{dest: "ev:s/a", href: []byte("/e/&amp;/#L1"), hasHref: true}},
		{`<abbr href="/x/">`, evTag{}},
	}
	for _, tt := range tests {
		if got := readEvTag([]byte(tt.tag)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("readEvTag(%s) = %+v, want %+v", tt.tag, got, tt.want)
		}
	}
}

// FuzzTagAttrs: reading the attributes of any tag terminates, never
// panics, and yields names and values that lie within the tag.
func FuzzTagAttrs(f *testing.F) {
	for _, s := range []string{`<a data-ev-at="ko:p.md:1:2" data-ev=ev:s/a>`, `<span class=line id=L1>`, `<a =x 'y'="z" / >`, `<`, `<a b='`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		n := 0
		tagAttrs([]byte(tag), func(name, val []byte) bool {
			n++
			if len(name) == 0 || !strings.Contains(tag, string(name)) || !strings.Contains(tag, string(val)) {
				t.Fatalf("tagAttrs(%q): name %q value %q not from the tag", tag, name, val)
			}
			return n < len(tag)+1
		})
		if n > len(tag) {
			t.Fatalf("tagAttrs(%q): %d attributes", tag, n)
		}
		readEvTag([]byte(tag))
	})
}

// TestMissingTargets resolves the hrefs of an output file as a browser
// does, under a baseURL path, and keeps those naming no file.
func TestMissingTargets(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"index.html", "docs/x/index.html", "files/a.txt", "한글/index.html"} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f)), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		base, file, href string
		missing          bool
	}{
		{"/sub/", "docs/x/index.html", "/sub/docs/x/", false},
		{"/sub/", "docs/x/index.html", "/sub/docs/x", false}, // a directory: its index.html
		{"/sub/", "docs/x/index.html", "/sub/", false},
		{"/sub/", "docs/x/index.html", "/sub", false},
		{"/sub/", "docs/x/index.html", "/docs/x/", false}, // outside the site: not checked
		{"/sub/", "docs/x/index.html", "../../files/a.txt", false},
		{"/sub/", "docs/x/index.html", "./", false},
		{"/sub/", "docs/x/index.html", "/sub/%ED%95%9C%EA%B8%80/", false},
		{"/sub/", "docs/x/index.html", "a.txt", true},
		{"/sub/", "docs/x/index.html", "../y/", true},
		{"/sub/", "docs/x/index.html", "/sub/files/", true}, // a directory without index.html
		{"/sub/", "docs/x/index.html", "/sub/nope.png", true},
		{"/", "docs/x/index.html", "/docs/x/", false},
		{"/", "docs/x/index.html", "/sub/docs/x/", true},
		{"/", "index.html", "docs/x/", false},
		{"/", "index.html", "files/a.txt/", true},
	}
	for _, tt := range tests {
		got := missingTargets(dir, tt.base, tt.file, []string{tt.href}, map[string]bool{})
		if (len(got) > 0) != tt.missing {
			t.Errorf("base %s, %s: %q: missing %v, want %v", tt.base, tt.file, tt.href, len(got) > 0, tt.missing)
		}
	}
	for _, tt := range []struct {
		href string
		ok   bool
	}{
		{"/docs/#x", true}, {"x?q=1", true}, {"#top", false}, {"?q", false}, {"", false},
		{"https://example.org/", false}, {"//cdn.example.org/x", false}, {"mailto:a@b", false}, {"javascript:void(0)", false},
		{"a/b:c", true},
	} {
		if _, ok := internalHref(tt.href); ok != tt.ok {
			t.Errorf("internalHref(%q) = %v, want %v", tt.href, ok, tt.ok)
		}
	}
}

// TestScanOutputLinks: the output scan reports an empty href and a link
// inside the site to a missing file, once per file, and nothing for the
// links that resolve, leave the site or have a scheme; the links of a
// claim's popover, held in its data-ev-pop attribute, count too.
func TestScanOutputLinks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":        `<a href="docs/">d</a><A HREF='nope/'>n</A><a href="nope/#x">n</a><a href="">e</a><a href="a&amp;b/">r</a><a href=https://example.org/>x</a><a href="mailto:a@b">m</a><a id=top>t</a>`,
		"docs/index.html":   `<a href="../">h</a><a href="/sub/">s</a><a data-ev="ev:x" href="../nope.png">c</a>`,
		"docs/feed.xml":     `<link>x</link>`,
		"docs/other/x.html": `<a href="../">ok</a>`,
		"pop/index.html":    `<span class="ev"><a class="ev-claim" href="../docs/" data-ev-at="ko:p.md:1:2" data-ev="ev:s/a">4</a><span class="ev-pop" id="ev-1" data-ev-pop="&lt;span class=&#34;ev-src&#34;&gt;&lt;a href=&#34;../docs/other/x.html#L3&#34;&gt;x:3&lt;/a&gt; &lt;a href=&#34;../gone/#L9&#34;&gt;gone:9&lt;/a&gt;&lt;/span&gt;"></span></span>`,
		"img/index.html":    `<img src="../docs/other/x.html" alt=a><IMG SRC=nope.png><img src=""><img src="data:image/png;base64,AA=="><link rel=stylesheet href="/css/nope.css"><link rel="icon" href="/favicon.ico"><link rel="apple-touch-icon" href="/apple-touch-icon.png"><link rel="preconnect" href="//cdn.example.org"><script src="../docs/"></script><script>var a = "<a href='x'>"</script><iframe src="nope/"></iframe><imgx src="nope2.png"><video poster="nope3.png" src="/docs/other/x.html"></video><!-- <a href="gone/">old</a> --><STYLE>a[href="x"]::after{content:"<img src=y>"}</style><!----><a href="after/">a</a><!--><img src="after2.png">`,
	}
	for f, b := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := Dir(context.Background(), dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docs/index.html: link to /sub/: the built site has no such file (a 404)",
		"docs/index.html: link to ../nope.png: the built site has no such file (a 404)",
		"img/index.html: link to nope.png: the built site has no such file (a 404)",
		"img/index.html: link to /css/nope.css: the built site has no such file (a 404)",
		"img/index.html: link to nope/: the built site has no such file (a 404)",
		"img/index.html: link to after/: the built site has no such file (a 404)",
		"img/index.html: link to after2.png: the built site has no such file (a 404)",
		"index.html: a link with an empty href (a link to nothing)",
		"index.html: link to nope/: the built site has no such file (a 404)",
		"index.html: link to a&b/: the built site has no such file (a 404)",
		"pop/index.html: link to ../gone/: the built site has no such file (a 404)",
	}
	if got := strings.Join(sc.Broken, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("broken:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// writeFile writes b to p, creating its directory.
func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// TestScanMDLinks: the scan lists, per file, the distinct URLs of any kind
// whose path ends in ".md", without query and fragment, and not those in
// comments, scripts or other attributes.
func TestScanMDLinks(t *testing.T) {
	dir := t.TempDir()
	page := `<footer><a class="edit" href="https://example.org/edit/main/content/ko/evidence/run/r-md.md">edit</a>
<a href="https://example.org/edit/main/content/ko/evidence/run/r-md.md#top">again</a>
<a href="/docs/notes.md?plain=1">notes</a><a href="/docs/notes.mdx">mdx</a>
<!-- <a href="https://example.org/hidden.md"> --><script>var u = "<a href='/s.md'>";</script>
<img src="/x.png" alt="a.md"></footer>`
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<a href="/p/">p</a>`), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Dir(context.Background(), dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"p/index.html": {"https://example.org/edit/main/content/ko/evidence/run/r-md.md", "/docs/notes.md"}}
	if !reflect.DeepEqual(sc.MDLinks, want) {
		t.Errorf("MDLinks = %q, want %q", sc.MDLinks, want)
	}
}

// TestScanPopoverRefs: a repeated claim's popover names (data-ev-ref)
// the popover whose body it shows; the scan reports a file where no
// popover with a body has that id (a list page showing part of a page
// without its first claim), once per file with the number of such
// claims, and not a file showing the first claim after or before the
// repeat, nor a ref naming a popover that is itself a repeat's.
func TestScanPopoverRefs(t *testing.T) {
	dir := t.TempDir()
	claim := func(at, id, attrs string) string {
		// the claim's markup as the render hook writes it (its aria
		// attributes and its description's id are evdoc.js's)
		return `<span class="ev"><a class="ev-claim ev-raw" href="/e/#L1" data-ev-at="ko:p.md:` + at + `" data-ev="ev:s/a">4</a><span class="ev-pop" id="` + id + `"` + attrs + `></span></span>`
	}
	body := ` data-ev-pop="&lt;span class=ev-desc&gt;4&lt;/span&gt;&lt;span class=ev-val&gt;4&lt;/span&gt;"`
	ref := func(to string) string {
		return ` data-ev-ref="` + to + `" data-ev-pop="&lt;span class=ev-desc&gt;4&lt;/span&gt;"`
	}
	files := map[string]string{
		"page/index.html":  claim("1:2", "ev-a-1-2", body) + claim("3:4", "ev-a-3-4", ref("ev-a-1-2")),
		"later/index.html": claim("3:4", "ev-a-3-4", ref("ev-a-1-2")) + claim("1:2", "ev-a-1-2", body),
		"list/index.html":  `<section>` + claim("3:4", "ev-a-3-4", ref("ev-a-1-2")) + claim("5:6", "ev-a-5-6", ref("ev-a-1-2")) + `</section>`,
		"chain/index.html": claim("3:4", "ev-a-3-4", ref("ev-a-1-2")) + claim("5:6", "ev-a-5-6", ref("ev-a-3-4")),
	}
	for f, b := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := Dir(context.Background(), dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"chain/index.html: the popover of the claim at ko:p.md:3:4 names popover ev-a-1-2 for its body, which the file does not show (2 such claim(s))",
		"list/index.html: the popover of the claim at ko:p.md:3:4 names popover ev-a-1-2 for its body, which the file does not show (2 such claim(s))",
	}
	if got := strings.Join(sc.Unresolved, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("unresolved:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	// every claim is read, a repeat's as a first's
	if got, want := sc.Claims[PageKey{"ko", "p.md"}], map[string]bool{"1:2|ev:s/a": true, "3:4|ev:s/a": true, "5:6|ev:s/a": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("claims = %v, want %v", got, want)
	}
}
