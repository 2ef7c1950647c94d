package buildtest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

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
// children after its own, all but its description; the popovers' links
// get tabindex=-1; each claim's link (a.ev-claim, a child of .ev) gets
// aria-expanded=false, aria-details naming its popover and
// aria-describedby naming its popover's description, and
// data-ev-origin from its class ev-ORIGIN where it has none; the root gets
// data-evdoc-js. Markup that already carries what the script sets
// (evdoc's claim markup up to 2026-12-07 wrote the aria attributes and
// the description's id itself) reads the same.
func readerDOM(page []byte) ([]byte, error) {
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
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dom, err := readerDOM(b)
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
		d, err := readerDOM([]byte(fmt.Sprintf(page, a, b)))
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
	if !strings.Contains(base, `aria-details="ev-k-p"`) || !strings.Contains(base, `<span class="ev-desc" id="ev-x-p-5-1-d">`) || strings.Count(base, `class="ev-val"`) != 2 || !strings.Contains(base, `tabindex="-1"`) || strings.Count(base, `data-ev-origin="raw"`) != 2 {
		t.Errorf("the load step was not applied: %s", base)
	}
}
