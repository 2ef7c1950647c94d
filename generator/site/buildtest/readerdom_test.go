package buildtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// readerDOM returns the document a reader's browser holds once
// evdoc.js has run its load step on page (one HTML file of the built
// site), serialised with every element's attributes sorted by name, so
// that two forms of a claim's markup that give a reader the same text,
// links, accessible names and descriptions and popovers give the same
// bytes. It does what evdoc.js does when the page loads: each claim
// popover's data-ev-pop is parsed as HTML into the popover and removed,
// and its description (its first .ev-desc) gets the popover's id with
// "-d"; a popover with data-ev-ref gets a copy of the named popover's
// children after its own, all but its description, and loses the
// attribute; the popovers' links
// get tabindex=-1; each claim's link (a.ev-claim, a child of .ev) gets
// aria-expanded=false, aria-details naming its popover and
// aria-describedby naming its popover's description, and
// data-ev-origin from its class ev-ORIGIN where it has none; the root gets
// data-evdoc-js. Markup that already carries what the script sets
// (evdoc's claim markup up to 2026-12-07 wrote the aria attributes and
// the description's id itself) reads the same.
//
// Popover bodies in popover files (evdoc's markup after 2026-12-07): the
// page's <meta name="evdoc-popovers"> is read and removed; each popover
// with data-ev-s gets, as its children, the body its set's popover file
// (load: the file's set and bodies at a URL of the page's map, nil when
// it cannot be loaded) holds for its claim's data key (the link's data-ev
// and the popover's data-ev-k), or, when none, a description saying it
// could not be loaded (the meta's data-ev-fail) and the class
// ev-pop-failed; data-ev-s and data-ev-k are removed. Then as above.
func readerDOM(page []byte, load func(url string) (string, map[string]string)) ([]byte, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var all []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			all = append(all, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	byID := map[string]*html.Node{}
	var pops, refs []*html.Node
	for _, n := range all {
		if id, ok := attr(n, "id"); ok {
			if _, seen := byID[id]; !seen {
				byID[id] = n
			}
		}
		if !hasClass(n, "ev-pop") {
			continue
		}
		if _, ok := attr(n, "data-ev-pop"); ok {
			pops = append(pops, n)
		}
		if _, ok := attr(n, "data-ev-ref"); ok {
			refs = append(refs, n)
		}
	}
	if err := loadPopovers(all, load); err != nil {
		return nil, err
	}
	for _, pop := range pops {
		v, _ := attr(pop, "data-ev-pop")
		kids, err := html.ParseFragment(strings.NewReader(v), pop)
		if err != nil {
			return nil, err
		}
		for _, k := range kids {
			pop.AppendChild(k)
		}
		delAttr(pop, "data-ev-pop")
		id, _ := attr(pop, "id")
		for c := pop.FirstChild; c != nil; c = c.NextSibling {
			if hasClass(c, "ev-desc") {
				setAttr(c, "id", id+"-d")
				break
			}
		}
	}
	for _, pop := range refs {
		ref, _ := attr(pop, "data-ev-ref")
		// the one difference the popover files make to the reader's
		// page: a repeat's popover no longer carries data-ev-ref (an
		// attribute no reader, browser or assistive technology reads;
		// evdoc.js before 2026-12-07 left it after copying the body)
		delAttr(pop, "data-ev-ref")
		first := byID[ref]
		if first == nil || first == pop || !hasClass(first, "ev-pop") {
			continue
		}
		for c := first.FirstChild; c != nil; c = c.NextSibling {
			if hasClass(c, "ev-desc") {
				continue
			}
			pop.AppendChild(clone(c))
		}
	}
	var fix func(n *html.Node)
	fix = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if hasClass(n, "ev-pop") {
				var links func(m *html.Node)
				links = func(m *html.Node) {
					if m.Type == html.ElementNode && m.DataAtom == atom.A {
						if _, ok := attr(m, "href"); ok {
							setAttr(m, "tabindex", "-1")
						}
					}
					for c := m.FirstChild; c != nil; c = c.NextSibling {
						links(c)
					}
				}
				links(n)
			}
			if hasClass(n, "ev") {
				var a, pop *html.Node
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if a == nil && c.DataAtom == atom.A && hasClass(c, "ev-claim") {
						a = c
					}
					if pop == nil && hasClass(c, "ev-pop") {
						pop = c
					}
				}
				if a != nil {
					setAttr(a, "aria-expanded", "false")
					if _, ok := attr(a, "data-ev-origin"); !ok {
						cls, _ := attr(a, "class")
						for _, c := range strings.Fields(cls) {
							if c != "ev-claim" && strings.HasPrefix(c, "ev-") {
								setAttr(a, "data-ev-origin", strings.TrimPrefix(c, "ev-"))
								break
							}
						}
					}
					if pop != nil {
						id, _ := attr(pop, "id")
						setAttr(a, "aria-details", id)
						setAttr(a, "aria-describedby", id+"-d")
					}
				}
			}
			if n.DataAtom == atom.Html {
				setAttr(n, "data-evdoc-js", "")
			}
			sort.SliceStable(n.Attr, func(i, j int) bool { return n.Attr[i].Key < n.Attr[j].Key })
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			fix(c)
		}
	}
	fix(doc)
	var b bytes.Buffer
	if err := html.Render(&b, doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// loadPopovers is evdoc.js's loadPopovers on the elements all of a
// parsed page (readerDOM).
func loadPopovers(all []*html.Node, load func(url string) (string, map[string]string)) error {
	files := map[string]string{}
	fail := "The explanation of this value could not be loaded; the link leads to its raw line."
	for _, n := range all {
		if n.DataAtom != atom.Meta {
			continue
		}
		if name, _ := attr(n, "name"); name != "evdoc-popovers" {
			continue
		}
		c, _ := attr(n, "content")
		var m map[string]string
		if json.Unmarshal([]byte(c), &m) == nil {
			for k, v := range m {
				files[k] = v
			}
		}
		if f, _ := attr(n, "data-ev-fail"); f != "" {
			fail = f
		}
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	type loaded struct {
		ok     bool
		bodies map[string]string
	}
	sets := map[string]loaded{}
	for _, pop := range all {
		set, ok := attr(pop, "data-ev-s")
		if !ok || !hasClass(pop, "ev-pop") {
			continue
		}
		l, seen := sets[set]
		if !seen {
			if u, ok := files[set]; ok && load != nil {
				if s, b := load(u); b != nil && s == set {
					l = loaded{true, b}
				}
			}
			sets[set] = l
		}
		key := ""
		if pop.Parent != nil {
			for c := pop.Parent.FirstChild; c != nil; c = c.NextSibling {
				if c.DataAtom == atom.A && hasClass(c, "ev-claim") {
					key, _ = attr(c, "data-ev")
					break
				}
			}
		}
		k, _ := attr(pop, "data-ev-k")
		key += k
		delAttr(pop, "data-ev-s")
		delAttr(pop, "data-ev-k")
		for pop.FirstChild != nil {
			pop.RemoveChild(pop.FirstChild)
		}
		if body, ok := l.bodies[key]; ok {
			kids, err := html.ParseFragment(strings.NewReader(body), pop)
			if err != nil {
				return err
			}
			for _, k := range kids {
				pop.AppendChild(k)
			}
		} else {
			d := &html.Node{Type: html.ElementNode, DataAtom: atom.Span, Data: "span", Attr: []html.Attribute{{Key: "class", Val: "ev-desc"}}}
			d.AppendChild(&html.Node{Type: html.TextNode, Data: fail})
			pop.AppendChild(d)
			c, _ := attr(pop, "class")
			setAttr(pop, "class", c+" ev-pop-failed")
		}
		id, _ := attr(pop, "id")
		for c := pop.FirstChild; c != nil; c = c.NextSibling {
			if hasClass(c, "ev-desc") {
				if id != "" {
					setAttr(c, "id", id+"-d")
				}
				break
			}
		}
	}
	return nil
}

// popoverLoader returns readerDOM's load for the built site in dir,
// served at "/": the set and bodies of the popover file at a URL.
func popoverLoader(dir string) func(url string) (string, map[string]string) {
	cache := map[string]struct {
		set    string
		bodies map[string]string
	}{}
	return func(u string) (string, map[string]string) {
		if c, ok := cache[u]; ok {
			return c.set, c.bodies
		}
		var set string
		var bodies map[string]string
		if strings.HasPrefix(u, "/") {
			path, _, _ := strings.Cut(u, "?") // the file's version (?v=…)
			if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path))); err == nil {
				set, bodies = sitetest.ParsePopoverFile(b)
			}
		}
		cache[u] = struct {
			set    string
			bodies map[string]string
		}{set, bodies}
		return set, bodies
	}
}

func attr(n *html.Node, key string) (string, bool) {
	if n.Type != html.ElementNode {
		return "", false
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

func delAttr(n *html.Node, key string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr = append(n.Attr[:i:i], n.Attr[i+1:]...)
			return
		}
	}
}

func hasClass(n *html.Node, class string) bool {
	v, ok := attr(n, "class")
	if !ok {
		return false
	}
	for _, c := range strings.Fields(v) {
		if c == class {
			return true
		}
	}
	return false
}

// clone returns a deep copy of n (evdoc.js's cloneNode(true)).
func clone(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace, Attr: append([]html.Attribute(nil), n.Attr...)}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(clone(k))
	}
	return c
}

// readerDOMTree returns, for every HTML file under dir, the hex SHA-256
// of its readerDOM and its slash path, sorted by path.
func readerDOMTree(dir string) ([][2]string, error) {
	var out [][2]string
	load := popoverLoader(dir)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dom, err := readerDOM(b, load)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, [2]string{fmt.Sprintf("%x", sha256.Sum256(dom)), filepath.ToSlash(rel)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i][1] < out[j][1] })
	return out, err
}

// TestReaderDOMDirs compares the reader's DOM (readerDOM) of every HTML
// file of two built sites, EVDOC_DOM_BEFORE and EVDOC_DOM_AFTER (two
// builds of one project by two versions of evdoc, to show that a change
// of the claims' markup leaves what a reader gets as it was); without
// both it is skipped.
func TestReaderDOMDirs(t *testing.T) {
	before, after := os.Getenv("EVDOC_DOM_BEFORE"), os.Getenv("EVDOC_DOM_AFTER")
	if before == "" || after == "" {
		t.Skip("EVDOC_DOM_BEFORE and EVDOC_DOM_AFTER name two built sites to compare")
	}
	a, err := readerDOMTree(before)
	if err != nil {
		t.Fatal(err)
	}
	b, err := readerDOMTree(after)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d HTML files before, %d after", len(a), len(b))
	}
	differ := 0
	for i := range a {
		if a[i][1] != b[i][1] {
			t.Fatalf("file %d: %s before, %s after", i, a[i][1], b[i][1])
		}
		if a[i][0] != b[i][0] {
			differ++
			if differ <= 10 {
				t.Errorf("%s: the reader's DOM differs", a[i][1])
			}
		}
	}
	t.Logf("%d HTML files compared, %d differ", len(a), differ)
}

// TestReaderDOM: two forms of a claim's markup give the same reader's
// DOM exactly when evdoc.js's load step makes them the same document.
func TestReaderDOM(t *testing.T) {
	const page = `<!DOCTYPE html><html><head></head><body><p>%s and %s</p></body></html>`
	// evdoc's claim markup as written up to 2026-12-07: the aria
	// attributes and the description's id in the HTML.
	first := `<span class="ev"><a class="ev-claim ev-raw" href="/e/#L3-5" aria-describedby="ev-k-p-d" aria-details="ev-k-p" aria-expanded="false" data-ev-at="ko:a.md:3:1" data-ev="ev:s/x" data-ev-origin="raw">4</a><span class="ev-pop" id="ev-k-p" data-ev-pop="&lt;span class=ev-desc id=ev-k-p-d&gt;4 — r.txt:3&lt;/span&gt;
&lt;span class=ev-val&gt;&lt;a class=ev-line href=&#34;/e/#L3-5&#34;&gt;r.txt:3&lt;/a&gt;&lt;/span&gt;"></span></span>`
	repeat := `<span class="ev"><a class="ev-claim ev-raw" href="/e/#L3-5" aria-describedby="ev-x-p-5-1-d" aria-details="ev-x-p-5-1" aria-expanded="false" data-ev-at="ko:a.md:5:1" data-ev="ev:s/x" data-ev-origin="raw">4</a><span class="ev-pop" id="ev-x-p-5-1" data-ev-ref="ev-k-p" data-ev-pop="&lt;span class=ev-desc id=ev-x-p-5-1-d&gt;4 — r.txt:3&lt;/span&gt;"></span></span>`
	// what the script sets, left to it
	short := strings.NewReplacer(` data-ev-origin="raw"`, "", ` aria-describedby="ev-k-p-d" aria-details="ev-k-p" aria-expanded="false"`, "", ` aria-describedby="ev-x-p-5-1-d" aria-details="ev-x-p-5-1" aria-expanded="false"`, "", " id=ev-k-p-d", "", " id=ev-x-p-5-1-d", "")
	dom := func(a, b string) string {
		t.Helper()
		d, err := readerDOM([]byte(fmt.Sprintf(page, a, b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return string(d)
	}
	base := dom(first, repeat)
	for _, tc := range []struct {
		name, a, b string
		same       bool
	}{
		{"aria and ids left to the script", short.Replace(first), short.Replace(repeat), true},
		{"a description's text changed", first, strings.Replace(repeat, "4 — r.txt:3&lt;/span&gt;", "4 — r.txt:4&lt;/span&gt;", 1), false},
		{"a popover link changed", strings.Replace(first, "&#34;/e/#L3-5&#34;", "&#34;/e/#L3-6&#34;", 1), repeat, false},
		{"the repeat names no popover", first, strings.Replace(repeat, `data-ev-ref="ev-k-p"`, `data-ev-ref="ev-q-p"`, 1), false},
		{"another origin", strings.Replace(short.Replace(first), "ev-claim ev-raw", "ev-claim ev-transcribed", 1), repeat, false},
		{"a popover id changed", strings.ReplaceAll(first, "ev-k-p", "ev-k-q"), strings.Replace(repeat, `"ev-k-p"`, `"ev-k-q"`, 1), false},
	} {
		if got := dom(tc.a, tc.b) == base; got != tc.same {
			t.Errorf("%s: same DOM %v, want %v", tc.name, got, tc.same)
		}
	}
	// evdoc's markup after 2026-12-07: each body in its set's popover
	// file, which the page's meta names
	filed := func(id, line string) string {
		return `<span class="ev"><a class="ev-claim ev-raw" href="/e/#L3-5" data-ev-at="ko:a.md:` + line + `" data-ev="ev:s/x">4</a><span class="ev-pop" id="` + id + `" data-ev-s="s"></span></span>`
	}
	const meta = `<!DOCTYPE html><html><head><meta name="evdoc-popovers" content="{&#34;s&#34;:&#34;/e/s/popovers.js&#34;}" data-ev-fail="no popover"></head><body><p>%s and %s</p></body></html>`
	body := "<span class=ev-desc>4 — r.txt:3</span>\n<span class=ev-val><a class=ev-line href=\"/e/#L3-5\">r.txt:3</a></span>"
	for _, tc := range []struct {
		name string
		set  string
		file map[string]string
		a, b string
		same bool
	}{
		{"bodies from the set's popover file", "s", map[string]string{"ev:s/x": body}, filed("ev-k-p", "3:1"), filed("ev-x-p-5-1", "5:1"), true},
		{"the file cannot be loaded", "s", nil, filed("ev-k-p", "3:1"), filed("ev-x-p-5-1", "5:1"), false},
		{"the file is another set's", "t", map[string]string{"ev:s/x": body}, filed("ev-k-p", "3:1"), filed("ev-x-p-5-1", "5:1"), false},
		{"the file lacks the key", "s", map[string]string{"ev:s/y": body}, filed("ev-k-p", "3:1"), filed("ev-x-p-5-1", "5:1"), false},
		{"another key (data-ev-k)", "s", map[string]string{"ev:s/x": body}, filed("ev-k-p", "3:1"), strings.Replace(filed("ev-x-p-5-1", "5:1"), `data-ev-s="s"`, `data-ev-s="s" data-ev-k=" ~1"`, 1), false},
	} {
		d, err := readerDOM([]byte(fmt.Sprintf(meta, tc.a, tc.b)), func(u string) (string, map[string]string) {
			if u != "/e/s/popovers.js" {
				t.Errorf("%s: loaded %s", tc.name, u)
			}
			return tc.set, tc.file
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(d) == base; got != tc.same {
			t.Errorf("%s: same DOM %v, want %v:\n%s\nbase:\n%s", tc.name, got, tc.same, d, base)
		}
		if !tc.same && tc.name == "the file cannot be loaded" && strings.Count(string(d), `<span class="ev-desc" id="ev-k-p-d">no popover</span>`) != 1 {
			t.Errorf("%s: the popover does not say it could not be loaded: %s", tc.name, d)
		}
	}
	if !strings.Contains(base, `aria-details="ev-k-p"`) || !strings.Contains(base, `<span class="ev-desc" id="ev-x-p-5-1-d">`) || strings.Count(base, `class="ev-val"`) != 2 || !strings.Contains(base, `tabindex="-1"`) || strings.Count(base, `data-ev-origin="raw"`) != 2 {
		t.Errorf("the load step was not applied: %s", base)
	}
}
