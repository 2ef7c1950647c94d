package claim

import "testing"

// TestShortcodeArgumentIsNotRawHTML: a "<" inside a shortcode call's
// argument is the shortcode's to escape, not raw HTML of the page; the
// same tag outside a call is.
func TestShortcodeArgumentIsNotRawHTML(t *testing.T) {
	md := NewMarkdown()
	for src, want := range map[string]int{
		"---\ntitle: x\n---\n\n{{< evtable set=\"s\" caption=\"a <b> c\" >}}\n":       0,
		"---\ntitle: x\n---\n\nText {{< evtable caption=\"<i>x</i>\" >}} more.\n":     0,
		"---\ntitle: x\n---\n\n{{< evtable caption=\"<div>\" >}}\n\n<div>raw</div>\n": 1,
		"---\ntitle: x\n---\n\nA <b>raw</b> tag.\n":                                   2,
	} {
		p, _ := Parse(md, "p.md", []byte(src))
		if len(p.RawHTML) != want {
			t.Errorf("%q: %d raw HTML extents %v, want %d", src, len(p.RawHTML), p.RawHTML, want)
		}
	}
}
