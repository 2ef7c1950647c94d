package slots

import (
	"bytes"
	"testing"
)

// FuzzFillBytes checks the placeholder reader on any bytes: a fill
// that writes each placeholder back as it found it gives the input
// again (every byte outside the placeholders is kept, and they are
// whole spellings); a fill that writes each as one NUL leaves no raw
// evdoc-c tag (every placeholder is replaced or reported as an error
// at a position).
func FuzzFillBytes(f *testing.F) {
	for _, s := range []string{
		`<p>a <evdoc-c d="ev:#0-1">4건</evdoc-c> b</p>`,
		`<evdoc-c d=ev:#0-0---><em>5</em></evdoc-c>`,
		`&lt;evdoc-c d=&#34;ev:#1-2&#34;&gt;4&lt;/evdoc-c&gt;`,
		`\u003cevdoc-c d=\"ev:#a-b\"\u003e4\u003c/evdoc-c\u003e`,
		`<evdoc-c d="ev:#0-1">4`, `</evdoc-c>`, `evdoc-claim evdoc-c`, `&lt;evdoc-c d=&quot;x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := 0
		back := func(out []byte, whole, id, text []byte, fm form) ([]byte, error) {
			n++
			ok := false
			for _, s := range spellings {
				if s.form == fm && bytes.HasPrefix(whole, []byte(s.open)) && bytes.HasSuffix(whole, []byte(s.close)) &&
					bytes.Contains(whole, append(append([]byte(s.open), id...), s.openEnd...)) {
					ok = true
				}
			}
			if !ok || !bytes.HasSuffix(whole, append(append([]byte(nil), text...), closing(fm)...)) {
				t.Fatalf("placeholder %q (id %q, text %q) is no whole spelling", whole, id, text)
			}
			return append(out, whole...), nil
		}
		out, changed, err := fillBytes("f", b, back)
		if err != nil {
			if e, ok := err.(*PosError); !ok || e.Line < 1 || e.Col < 1 {
				t.Fatalf("error %v is no position error", err)
			}
			return
		}
		if changed != (n > 0) || !bytes.Equal(out, b) {
			t.Fatalf("writing each placeholder back changed the bytes (%d placeholders)", n)
		}
		nul, _, err := fillBytes("f", b, func(out []byte, _, _, _ []byte, _ form) ([]byte, error) {
			return append(out, 0), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := bytes.Index(nul, []byte(tagName)); i >= 0; i = nextName(nul, i+1) {
			if nameAt(nul, i) && (i > 0 && nul[i-1] == '<' || i > 1 && nul[i-2] == '<' && nul[i-1] == '/') {
				t.Fatalf("a raw evdoc-c tag is left at %d: %q", i, nul)
			}
		}
	})
}

// closing returns the closing of form f.
func closing(f form) string {
	for _, s := range spellings {
		if s.form == f {
			return s.close
		}
	}
	return ""
}

// FuzzFeedRewrite checks the feed rewrite on any bytes and spans: it
// does not fail otherwise than with an error at an offset in the file;
// with the baseURL "/" (a slash for a slash) it gives the input again;
// with another baseURL every byte before the first span and after the
// last span's reach (an attribute name, quote, slash and the
// baseURL's path after the span) is kept.
func FuzzFeedRewrite(f *testing.F) {
	for _, s := range []string{
		`<rss><channel>&lt;a href=&#34;/e/x&#34;&gt;4&lt;/a&gt;`,
		`<rss>src=&#39;/lab/i.png&#39; srcset=&#34;/a 2x&#34; url=/x action=//y`,
		`<rss><channel>href=/`,
	} {
		f.Add([]byte(s), uint16(14), uint16(30))
	}
	f.Fuzz(func(t *testing.T, b []byte, s0, s1 uint16) {
		start, end := int(s0), int(s1)
		if start > end || end > len(b) {
			return
		}
		spans := [][2]int{{start, end}}
		id, _ := NewFeed("index.xml", "/")
		out, ferr := id.rewrite(b, spans)
		if ferr != nil {
			if ferr.at < 0 || ferr.at > len(b) {
				t.Fatalf("error at %d of %d bytes", ferr.at, len(b))
			}
		} else if !bytes.Equal(out, b) {
			t.Fatalf("baseURL \"/\": %q became %q", b, out)
		}
		lab, _ := NewFeed("index.xml", "https://example.org/lab/")
		out, ferr = lab.rewrite(b, spans)
		if ferr != nil {
			return
		}
		keep := max(0, start-maxAttr-len(feedQuotes[0])-1)
		if !bytes.Equal(out[:keep], b[:keep]) {
			t.Fatalf("bytes before the span changed: %q became %q", b, out)
		}
		if tail := len(b) - min(len(b), end+maxAttr+len(feedQuotes[0])+1+len(lab.root)); !bytes.Equal(out[len(out)-tail:], b[len(b)-tail:]) {
			t.Fatalf("bytes after the span changed: %q became %q", b, out)
		}
	})
}
