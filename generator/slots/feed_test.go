package slots

import (
	"strings"
	"testing"
)

// TestFeedRewrite applies the URL rewrite of Hugo's rss output format
// to the markup filled into a feed: in each case « and » mark the bytes
// filled in (spans), and want is the file as Hugo would have written it
// with that markup in place (each case after "<rss><channel>" but the one at the
// file's start): every URL whose attribute name, quote,
// slash or the bytes read after them lie in a span rewritten, the rest
// as Hugo wrote it.
func TestFeedRewrite(t *testing.T) {
	for _, tc := range []struct {
		base, in, want, err string
	}{
		// the rule: src=, href=, url=, action=; an optional &#34; or
		// &#39;; a / not followed by /
		{"https://example.org/", `«&lt;a href=&#34;/e/x/#L9&#34;&gt;»`, `&lt;a href=&#34;https://example.org/e/x/#L9&#34;&gt;`, ""},
		{"https://example.org/", `«&lt;img src=&#39;/i.png&#39;&gt;»`, `&lt;img src=&#39;https://example.org/i.png&#39;&gt;`, ""},
		{"https://example.org/", `«url=/a action=/b»`, `url=https://example.org/a action=https://example.org/b`, ""},
		{"https://example.org/", `«data-src=&#34;/a&#34;»`, `data-src=&#34;https://example.org/a&#34;`, ""},
		// not a root-relative URL
		{"https://example.org/", `«href=&#34;//cdn.example.org/a&#34; href=&#34;https://x/&#34; href=&#34;e/x&#34; href=&#34;#L1&#34;»`, `href=&#34;//cdn.example.org/a&#34; href=&#34;https://x/&#34; href=&#34;e/x&#34; href=&#34;#L1&#34;`, ""},
		// HTML quotes are not skipped in a feed
		{"https://example.org/", `«<a href="/e/x">»`, `<a href="/e/x">`, ""},
		// other names
		{"https://example.org/", `«title=&#34;/a&#34; hrefx=&#34;/a&#34;»`, `title=&#34;/a&#34; hrefx=&#34;/a&#34;`, ""},
		// the baseURL's path: dropped when the URL goes on with it
		{"https://example.org/lab/", `«href=&#34;/lab/e/x&#34; href=&#34;/e/x&#34; href=&#34;/labs/x&#34;»`, `href=&#34;https://example.org/lab/e/x&#34; href=&#34;https://example.org/lab/e/x&#34; href=&#34;https://example.org/lab/labs/x&#34;`, ""},
		{"/lab/", `«href=&#34;/lab/e&#34; href=&#34;/e&#34;»`, `href=&#34;/lab/e&#34; href=&#34;/lab/e&#34;`, ""},
		{"/", `«href=&#34;/e&#34;»`, `href=&#34;/e&#34;`, ""},
		// outside the spans the bytes are as Hugo wrote them
		{"https://example.org/", `href=&#34;/kept&#34; «href=&#34;/e&#34;» src=&#34;/kept&#34;`, `href=&#34;/kept&#34; href=&#34;https://example.org/e&#34; src=&#34;/kept&#34;`, ""},
		// a link text Hugo already rewrote is not rewritten again
		{"https://example.org/lab/", `«&lt;a href=&#34;/e&#34;&gt;see src=&#34;https://example.org/lab/x&#34;&lt;/a&gt;»`, `&lt;a href=&#34;https://example.org/lab/e&#34;&gt;see src=&#34;https://example.org/lab/x&#34;&lt;/a&gt;`, ""},
		// an attribute before a span whose URL is in it, and a name
		// across a span's edge
		{"https://example.org/", `x href=&#34;«/e»`, `x href=&#34;https://example.org/e`, ""},
		{"https://example.org/", `x hr«ef=&#34;/e»`, `x href=&#34;https://example.org/e`, ""},
		{"https://example.org/", `«x href=»&#34;/e`, `x href=&#34;https://example.org/e`, ""},
		// a slash at the end of the file is left
		{"https://example.org/", `«href=/»`, `href=/`, ""},
		// several spans
		{"https://example.org/", `«href=/a» b «href=/c»`, `href=https://example.org/a b href=https://example.org/c`, ""},
		// a slash right before a span, which Hugo rewrote, whose
		// rewrite the span would have changed
		{"https://example.org/", `x src=https://example.org/«/a»`, "", "right after a root-relative URL's slash"},
		{"https://example.org/lab/", `x src=&#34;https://example.org/lab/«lab/a»`, "", "right after a root-relative URL's slash"},
		{"https://example.org/lab/", `x src=&#34;https://example.org/lab/«a/b»`, `x src=&#34;https://example.org/lab/a/b`, ""},
		// the start of the file
		{"https://example.org/", `«/a»`, "", "at the start"},
		// srcset is not reproduced
		{"https://example.org/", `«srcset=&#34;/a.png 2x&#34;»`, "", "srcset="},
		{"https://example.org/", `&lt;img srcset=&#34;/a.png 1x, «/b.png» 2x&#34;`, "", "srcset="},
		{"https://example.org/", `&lt;img srcset=&#34;/a.png 2x&#34;&gt; «href=/a»`, `&lt;img srcset=&#34;/a.png 2x&#34;&gt; href=https://example.org/a`, ""},
	} {
		var spans [][2]int
		var b strings.Builder
		if tc.err != "at the start" {
			// a feed starts with its XML declaration
			b.WriteString("<rss><channel>")
			if tc.want != "" {
				tc.want = "<rss><channel>" + tc.want
			}
		}
		for _, r := range tc.in {
			switch r {
			case '«':
				spans = append(spans, [2]int{b.Len(), -1})
			case '»':
				spans[len(spans)-1][1] = b.Len()
			default:
				b.WriteRune(r)
			}
		}
		f, err := NewFeed("index.xml", tc.base)
		if err != nil {
			t.Fatal(err)
		}
		got, ferr := f.rewrite([]byte(b.String()), spans)
		switch {
		case tc.err != "":
			if ferr == nil || !strings.Contains(ferr.msg, tc.err) {
				t.Errorf("%s %q: error %v, want one naming %q", tc.base, tc.in, ferr, tc.err)
			}
		case ferr != nil:
			t.Errorf("%s %q: %s", tc.base, tc.in, ferr.msg)
		case string(got) != tc.want:
			t.Errorf("%s %q:\n got %s\nwant %s", tc.base, tc.in, got, tc.want)
		}
	}
}

func TestNewFeed(t *testing.T) {
	for _, tc := range []struct{ in, base, root string }{
		{"https://example.org", "https://example.org/", ""},
		{"https://example.org/lab", "https://example.org/lab/", "lab/"},
		{"", "/", ""},
		{"/a/b/", "/a/b/", "a/b/"},
	} {
		f, err := NewFeed("index.xml", tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if f.Base != tc.base || f.root != tc.root {
			t.Errorf("NewFeed(%q) = %q, %q; want %q, %q", tc.in, f.Base, f.root, tc.base, tc.root)
		}
	}
	if _, err := NewFeed("index.xml", "https://example.org/?a=b"); err == nil {
		t.Error("a baseURL with = : no error")
	}
}
