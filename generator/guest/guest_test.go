package guest

import (
	"strings"
	"testing"
)

const inj = "<link rel=\"stylesheet\" href=\"/b/evdoc/css/chroma.css\">\n<link rel=\"stylesheet\" href=\"/b/evdoc/css/site.css\">\n<script src=\"/b/evdoc/js/evdoc.js\" defer></script>\n"

func TestComparePage(t *testing.T) {
	claim := `<span class="ev"><a class="ev-claim" href="/e/#L1">4</a><span class="ev-pop" id="p" data-ev-pop="&lt;span&gt;x&lt;/span&gt;"></span></span>`
	for _, tc := range []struct {
		name, without, with string
		same                bool
		off                 int
	}{
		{"identical", "<p>a</p>", "<p>a</p>", true, 0},
		{"head injection", "<head><title>t</title></head>", "<head><title>t</title>" + inj + "</head>", true, 0},
		{"two injections", "<head></head>", "<head>" + inj + inj + "</head>", true, 0},
		{"injection with the popover files", "<head></head>", "<head>" + strings.Replace(inj, "defer></script>\n", `defer></script><meta name="evdoc-popovers" content="{&#34;s&#34;:&#34;/b/evidence/s/popovers.js&#34;}" data-ev-fail="x">`+"\n", 1) + "</head>", true, 0},
		{"another meta after the injection", "<head></head>", "<head>" + strings.Replace(inj, "defer></script>\n", `defer></script><meta name="description" content="x">`+"\n", 1) + "</head>", false, 7},
		{"minified injection", "<head></head>", `<head><link rel=stylesheet href=/evdoc/css/chroma.css><link rel=stylesheet href=/evdoc/css/site.css><script src=/evdoc/js/evdoc.js defer></script></head>`, true, 0},
		// a stylesheet of the theme's own is not evdoc's injection
		{"theme css", "<head></head>", `<head><link rel="stylesheet" href="/css/site.css"></head>`, false, 7},
		{"claim", `<p>sent <a href="ev:r/x" target="_blank">4</a> requests</p>`, "<p>sent " + claim + " requests</p>", true, 0},
		{"plain claim", `<p>sent <a href="ev:r/x">4</a>.</p>`, `<p>sent <span class="ev-claim-plain">4</span>.</p>`, true, 0},
		{"two claims", `<p><a href="ev:a">4</a> and <a href="ev:b">5</a></p>`, "<p>" + claim + " and " + claim + "</p>", true, 0},
		{"claim at the end", `<a href="ev:a">4</a>`, claim, true, 0},
		// a difference outside the claim: the link after it lost its target
		{"after claim", `<p><a href="ev:a">4</a> <a href="https://x" target="_blank">x</a></p>`, "<p>" + claim + ` <a href="https://x">x</a></p>`, false, -1},
		{"before claim", `<div class="w"><p><a href="ev:a">4</a></p></div>`, "<div><p>" + claim + "</p></div>", false, 4},
		{"table wrapper lost", `<div class="table-wrapper"><table>`, `<div class="table-wrap" role="region"><table>`, false, 22},
		{"longer without", "<p>a</p>\n", "<p>a</p>", false, 8},
		// a hook called only when it exists: whitespace around the call
		{"hook whitespace", "<head><title>t</title>\n  \n</head><body><p>a</p>\n</body>", "<head><title>t</title>\n    " + inj + "\n  \n</head><body><p>a</p>\n  \n    \n</body>", true, 0},
		// whitespace inside text is compared
		{"text whitespace", "<p>a b</p>", "<p>a  b</p>", false, 5},
		{"whitespace and a change", "<p>a</p>\n<p>b</p>", "<p>a</p><p>c</p>", false, 8},
		{"not a claim span", `<p><a href="ev:a">4</a></p>`, `<p><span class="eval">4</span></p>`, false, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ComparePage([]byte(tc.without), []byte(tc.with))
			if tc.same {
				if d != nil {
					t.Fatalf("differ: %v", d)
				}
				return
			}
			if d == nil {
				t.Fatal("same, want a difference")
			}
			if tc.off >= 0 && d.Offset != tc.off {
				t.Errorf("offset %d, want %d (%v)", d.Offset, tc.off, d)
			}
		})
	}
}

func TestClaimElements(t *testing.T) {
	page := `a<span class="ev"><a>4</a><span class="ev-pop"></span></span>b<span class="ev-exempt" title="x">5</span>c`
	got := ClaimElements([]byte(page))
	var parts []string
	for _, r := range got {
		parts = append(parts, page[r[0]:r[1]])
	}
	want := []string{`<span class="ev"><a>4</a><span class="ev-pop"></span></span>`, `<span class="ev-exempt" title="x">5</span>`}
	if strings.Join(parts, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", parts, want)
	}
}

// FuzzComparePage: a page compared with itself is the same, also with
// evdoc's head injection added to the build with evdoc; no input panics.
func FuzzComparePage(f *testing.F) {
	f.Add("<p>a</p>", "<p>b</p>")
	f.Add(`<p><a href="ev:a">4</a></p>`, `<p><span class="ev"><a>4</a><span class="ev-pop"></span></span></p>`)
	f.Add(`<span class="ev"><span>`, `</span></span><span class="ev-exempt">`)
	f.Fuzz(func(t *testing.T, a, b string) {
		_ = ComparePage([]byte(a), []byte(b))
		_ = ClaimElements([]byte(b))
		if headInjection.MatchString(a) {
			return
		}
		if d := ComparePage([]byte(a), []byte(a)); d != nil {
			t.Fatalf("a page differs from itself: %v", d)
		}
		if d := ComparePage([]byte(a), []byte(inj+a)); d != nil {
			t.Fatalf("a page differs from itself with evdoc's injection: %v", d)
		}
	})
}
