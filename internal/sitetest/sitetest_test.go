package sitetest

import (
	"net/url"
	"strings"
	"testing"
)

// TestWalkLinksFindsBrokenLinks makes sure the link walk can fail: a
// link outside the base path, a 404, a missing fragment and escaper
// output are each reported.
func TestWalkLinksFindsBrokenLinks(t *testing.T) {
	pub := t.TempDir()
	Write(t, pub, "index.html", `<a href="/evdoc/a/">ok</a><a href="/evidence/x/">no prefix</a><a href="/evdoc/missing/">404</a><a href="a/#L9">frag</a><a href="#ZgotmplZ">z</a><a href="https://other.example/">ext</a>`)
	Write(t, pub, "a/index.html", `<p id="L1">x</p>`)
	base, _ := url.Parse("https://example.github.io/evdoc/")
	problems, checked := WalkLinks(t, pub, base)
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"/evidence/x/: outside the base path", "/evdoc/missing/: 404", "a/#L9: no element with id L9", "ZgotmplZ"} {
		if !strings.Contains(all, want) {
			t.Errorf("walk did not report %q; got:\n%s", want, all)
		}
	}
	if checked != 5 {
		t.Errorf("checked %d internal links, want 5", checked)
	}
}
