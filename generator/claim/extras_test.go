package claim

import (
	"bytes"
	"strings"
	"testing"
)

// TestExtrasInlineTags: with an inline tag of Hugo's extras extension
// enabled (MarkdownConfig.Mark …), goldmark renders it as Hugo does and a
// claim's literal is the text a reader sees (==13==건 reads 13건, mapped
// to the digits in the source); without it the delimiters are text, as
// Hugo renders them then, and the claim grammar reports them. A
// superscript's or subscript's digits run into the literal's: every
// number keeps the source range it was read from, so check can tell a
// number split by the markup (2^10^ is not 210).
func TestExtrasInlineTags(t *testing.T) {
	on := MarkdownConfig{Delete: true, Insert: true, Mark: true, Subscript: true, Superscript: true, NoStrikethrough: true}
	for _, tc := range []struct {
		src     string
		md      MarkdownConfig
		html    string // in the rendered paragraph
		literal string // the claim's
		ok      bool   // the literal parses
		number  string // the source bytes of its first number, "" when split
	}{
		{"[==13==건](ev:a/b.c)", MarkdownConfig{Mark: true}, "<mark>13</mark>건", "13건", true, "13"},
		{"[==13==건](ev:a/b.c)", MarkdownConfig{}, "==13==건", "==13==건", false, ""},
		{"[++13++건](ev:a/b.c)", MarkdownConfig{Insert: true}, "<ins>13</ins>건", "13건", true, "13"},
		{"[++13++건](ev:a/b.c)", MarkdownConfig{}, "++13++건", "++13++건", false, ""},
		{"[13건](ev:a/b.c) H~2~O", on, "H<sub>2</sub>O", "13건", true, "13"},
		{"[13건](ev:a/b.c) H~2~O", MarkdownConfig{Subscript: true}, "H<del>2</del>O", "13건", true, "13"}, // strikethrough reads "~" first, as in Hugo
		{"[13건](ev:a/b.c) ~~x~~", on, "<del>x</del>", "13건", true, "13"},
		{"[2^10^ B](ev:a/b.c)", on, "2<sup>10</sup> B", "210 B", true, ""},
		{"[2^10^ B](ev:a/b.c)", MarkdownConfig{}, "2^10^ B", "2^10^ B", false, ""},
	} {
		md := NewMarkdownWith(tc.md)
		var html bytes.Buffer
		if err := md.Convert([]byte(tc.src), &html); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(html.String(), tc.html) {
			t.Errorf("%q %+v: renders %q; want %q in it", tc.src, tc.md, html.String(), tc.html)
		}
		p, _ := Parse(md, "p.md", []byte(tc.src+"\n"))
		if len(p.Claims) != 1 {
			t.Fatalf("%q: %d claims", tc.src, len(p.Claims))
		}
		c := p.Claims[0]
		if c.Literal != tc.literal || (c.ParseErr == nil) != tc.ok {
			t.Errorf("%q %+v: literal %q (error %v); want %q, parses %v", tc.src, tc.md, c.Literal, c.ParseErr, tc.literal, tc.ok)
		}
		if !tc.ok || len(c.Parsed.Quantities) == 0 {
			continue
		}
		q := c.Parsed.Quantities[0]
		a, b, contiguous := c.SourceRange(p.Source, q.NumStart, q.NumEnd)
		got := ""
		if contiguous {
			got = string(p.Source[a:b])
		}
		if got != tc.number {
			t.Errorf("%q %+v: number read from %q; want %q", tc.src, tc.md, got, tc.number)
		}
	}
}
