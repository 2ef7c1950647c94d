package outscan

import (
	"context"
	"encoding/json"
	"html"
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
			sc, err := Dir(context.Background(), dir, nil)
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
		{`<span class="ev-pop" id="ev-a-3-4" data-ev-s="s1" data-ev-k=" ~1">`, evTag{id: []byte("ev-a-3-4"), setRaw: []byte("s1"), hasSet: true, keyTail: " ~1"}},
		{`<span title="data-ev-s=x" data-ev-s=y>`, evTag{setRaw: []byte("y"), hasSet: true}},
		{`<meta name="evdoc-popovers" content="{&#34;s&#34;:&#34;/e/s/popovers.js&#34;}" data-ev-fail="x">`, evTag{popMeta: true, content: `{"s":"/e/s/popovers.js"}`}},
		{`<meta name="description" content="x">`, evTag{}},
		{`<span name="evdoc-popovers" content="x">`, evTag{}},
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
		got := missingTargets(dir, PathSite(tt.base), tt.file, []siteLink{{href: tt.href}}, map[string]bool{})
		if (len(got) > 0) != tt.missing {
			t.Errorf("base %s, %s: %q: missing %v, want %v", tt.base, tt.file, tt.href, len(got) > 0, tt.missing)
		}
	}
	for _, tt := range []struct {
		href string
		ok   bool
	}{
		{"/docs/#x", true}, {"x?q=1", true}, {"#top", false}, {"?q", false}, {"", false},
		{"https://example.org/", true}, {"HTTP://example.org/x", true}, {"//cdn.example.org/x", true},
		{"mailto:a@b", false}, {"javascript:void(0)", false}, {"data:image/png;base64,AA==", false},
		{"a/b:c", true},
	} {
		if _, ok := linkHref(tt.href); ok != tt.ok {
			t.Errorf("linkHref(%q) = %v, want %v", tt.href, ok, tt.ok)
		}
	}
}

// TestScanOutputLinks: the output scan reports an empty href and a link
// inside the site to a missing file, once per file, and nothing for the
// links that resolve, leave the site or have a scheme; the links of a
// claim's popover, held in its evidence set's popover file, count too
// (reported once, for the popover file).
func TestScanOutputLinks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":        `<a href="docs/">d</a><A HREF='nope/'>n</A><a href="nope/#x">n</a><a href="">e</a><a href="a&amp;b/">r</a><a href=https://example.org/>x</a><a href="mailto:a@b">m</a><a id=top>t</a>`,
		"docs/index.html":   `<a href="../">h</a><a href="/sub/">s</a><a data-ev="ev:x" href="../nope.png">c</a>`,
		"docs/feed.xml":     `<link>x</link>`,
		"docs/other/x.html": `<a href="../">ok</a>`,
		"pop/index.html":    `<meta name="evdoc-popovers" content="{&#34;s&#34;:&#34;/e/s/popovers.js&#34;}"><span class="ev"><a class="ev-claim" href="../docs/" data-ev-at="ko:p.md:1:2" data-ev="ev:s/a">4</a><span class="ev-pop" id="ev-1" data-ev-s="s"></span></span>`,
		"pop2/index.html":   `<meta name="evdoc-popovers" content="{&#34;s&#34;:&#34;/e/s/popovers.js&#34;}"><span class="ev"><a class="ev-claim" href="../docs/" data-ev-at="ko:q.md:1:2" data-ev="ev:s/a">4</a><span class="ev-pop" id="ev-1" data-ev-s="s"></span></span>`,
		"e/s/popovers.js":   "evdocPopovers(\"s\",{\n\"ev:s/a\":\"\\u003cspan class=ev-src\\u003e\\u003ca href=\\\"/docs/other/x.html#L3\\\"\\u003ex:3\\u003c/a\\u003e \\u003ca href=\\\"/gone/#L9\\\"\\u003egone:9\\u003c/a\\u003e\\u003c/span\\u003e\"\n});\n",
		"img/index.html":    `<img src="../docs/other/x.html" alt=a><IMG SRC=nope.png><img src=""><img src="data:image/png;base64,AA=="><link rel=stylesheet href="/css/nope.css"><link rel="icon" href="/favicon.ico"><link rel="apple-touch-icon" href="/apple-touch-icon.png"><link rel="preconnect" href="//cdn.example.org"><script src="../docs/"></script><script>var a = "<a href='x'>"</script><iframe src="nope/"></iframe><imgx src="nope2.png"><video poster="nope3.png" src="/docs/other/x.html"></video><!-- <a href="gone/">old</a> --><STYLE>a[href="x"]::after{content:"<img src=y>"}</style><!----><a href="after/">a</a><!--><img src="after2.png">`,
	}
	for f, b := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := Dir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docs/index.html:1:20: link to /sub/: the built site has no such file (a 404)",
		"docs/index.html:1:41: link to ../nope.png: the built site has no such file (a 404)",
		"img/index.html:1:39: link to nope.png: the built site has no such file (a 404)",
		"img/index.html:1:107: link to /css/nope.css: the built site has no such file (a 404)",
		"img/index.html:1:363: link to nope/: the built site has no such file (a 404)",
		"img/index.html:1:568: link to after/: the built site has no such file (a 404)",
		"img/index.html:1:595: link to after2.png: the built site has no such file (a 404)",
		"index.html:1:66: a link with an empty href (a link to nothing)",
		"index.html:1:22: link to nope/: the built site has no such file (a 404)",
		"index.html:1:82: link to a&b/: the built site has no such file (a 404)",
		"e/s/popovers.js:2:10: link to /gone/: the built site has no such file (a 404)",
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
	sc, err := Dir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"p/index.html": {"https://example.org/edit/main/content/ko/evidence/run/r-md.md", "/docs/notes.md"}}
	if !reflect.DeepEqual(sc.MDLinks, want) {
		t.Errorf("MDLinks = %q, want %q", sc.MDLinks, want)
	}
}

// TestScanPopovers: each claim's popover names its evidence set
// (data-ev-s); the scan reports, once per file with the number of such
// claims, a page whose claims' data keys (data-ev, and data-ev-k after
// it) have no body in the popover file its <meta name="evdoc-popovers">
// gives for the set: a key the file lacks, a set the meta lacks, a file
// the site lacks, another set's file, a file that is not a popover file,
// a page without the meta. Every claim is read as before.
func TestScanPopovers(t *testing.T) {
	dir := t.TempDir()
	claim := func(at, dest, attrs string) string {
		return `<span class="ev"><a class="ev-claim ev-raw" href="/e/#L1" data-ev-at="ko:p.md:` + at + `" data-ev="` + dest + `">4</a><span class="ev-pop" id="ev-` + at + `"` + attrs + `></span></span>`
	}
	meta := func(m string) string {
		return `<meta name="evdoc-popovers" content="` + html.EscapeString(m) + `" data-ev-fail="x">`
	}
	good := meta(`{"s":"/e/s/popovers.js","t":"/e/t/popovers.js"}`)
	files := map[string]string{
		"e/s/popovers.js":   "evdocPopovers(\"s\",{\n\"ev:s/a\":\"\\u003cspan class=ev-desc\\u003e4\\u003c/span\\u003e\",\n\"ev:s/a ~1\":\"b\"\n});\n",
		"e/t/popovers.js":   "evdocPopovers(\"t\",{});\n",
		"e/u/popovers.js":   "var x = 1;\n",
		"ok/index.html":     good + claim("1:2", "ev:s/a", ` data-ev-s="s"`) + claim("3:4", "ev:s/a", ` data-ev-s="s" data-ev-k=" ~1"`),
		"nokey/index.html":  good + claim("1:2", "ev:s/b", ` data-ev-s="s"`) + claim("3:4", "ev:s/a", ` data-ev-s="s" data-ev-k=" ~2"`),
		"noset/index.html":  good + claim("1:2", "ev:v/a", ` data-ev-s="v"`),
		"nofile/index.html": meta(`{"s":"/e/gone/popovers.js"}`) + claim("1:2", "ev:s/a", ` data-ev-s="s"`),
		"other/index.html":  meta(`{"s":"/e/t/popovers.js"}`) + claim("1:2", "ev:s/a", ` data-ev-s="s"`),
		"notpop/index.html": meta(`{"s":"/e/u/popovers.js"}`) + claim("1:2", "ev:s/a", ` data-ev-s="s"`),
		"nometa/index.html": claim("1:2", "ev:s/a", ` data-ev-s="s"`),
	}
	for f, b := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := Dir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`nofile/index.html: the popover of the claim at ko:p.md:1:2 has no body: its popover file /e/gone/popovers.js is not in the built site (1 such data key(s) in the file)`,
		`nokey/index.html: the popover of the claim at ko:p.md:1:2 has no body: its popover file /e/s/popovers.js has no body for "ev:s/b" (2 such data key(s) in the file)`,
		`nometa/index.html: the popover of the claim at ko:p.md:1:2 has no body: the page names no popover file for evidence set "s" (its <meta name="evdoc-popovers">, which evdoc's head partial writes) (1 such data key(s) in the file)`,
		`noset/index.html: the popover of the claim at ko:p.md:1:2 has no body: the page names no popover file for evidence set "v" (its <meta name="evdoc-popovers">, which evdoc's head partial writes) (1 such data key(s) in the file)`,
		`notpop/index.html: the popover of the claim at ko:p.md:1:2 has no body: its popover file /e/u/popovers.js: not a popover file (evdocPopovers(SET,{…});) (1 such data key(s) in the file)`,
		`other/index.html: the popover of the claim at ko:p.md:1:2 has no body: its popover file /e/t/popovers.js is set "t"'s, not "s"'s (1 such data key(s) in the file)`,
	}
	if got := strings.Join(sc.Unresolved, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("unresolved:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if got, want := sc.Claims[PageKey{"ko", "p.md"}], map[string]bool{"1:2|ev:s/a": true, "3:4|ev:s/a": true, "1:2|ev:s/b": true, "1:2|ev:v/a": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("claims = %v, want %v", got, want)
	}
}

// FuzzParsePopFile: reading any bytes as a popover file terminates
// without a panic, and a file it accepts gives back its set and bodies
// when written again as the component writes it.
func FuzzParsePopFile(f *testing.F) {
	for _, s := range []string{"evdocPopovers(\"s\",{\"ev:s/a\":\"\\u003ca href=/x/\\u003e\"});", "evdocPopovers(\"s\",{});\n", "evdocPopovers(", "evdocPopovers(1,2);", `evdocPopovers("s"{});`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		pf, err := parsePopFile(b)
		if err != nil {
			return
		}
		set, _ := json.Marshal(pf.set)
		bodies, _ := json.Marshal(pf.bodies)
		again, err := parsePopFile([]byte("evdocPopovers(" + string(set) + "," + string(bodies) + ");"))
		if err != nil {
			t.Fatalf("%q read, %q written: %v", b, set, err)
		}
		if again.set != pf.set || !reflect.DeepEqual(again.bodies, pf.bodies) && len(pf.bodies)+len(again.bodies) > 0 {
			t.Fatalf("%q: read back %q %v, want %q %v", b, again.set, again.bodies, pf.set, pf.bodies)
		}
	})
}
