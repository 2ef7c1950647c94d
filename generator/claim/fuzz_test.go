package claim

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
)

// FuzzParse: no page makes Parse report a position outside the file, a
// claim whose bytes do not map into the file (or a number whose source
// range is not its own bytes: 2^10^ is never 210), or a prose number
// outside it, or a claim whose literal reads otherwise than alone, with Hugo's defaults or the extras extension's tags on. Its seeds are the reference pages cut into pieces of about 1 KiB at
// blank lines (pageSeeds): whole pages (up to 67 KB) made each execution
// cost tens of milliseconds under the fuzzer's instrumentation, so it
// barely ran past its seeds.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../content/*/docs/istio/*/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			for _, s := range pageSeeds(b, 1024) {
				f.Add(s)
			}
		}
	}
	f.Add([]byte("---\nt: 1\n---\n[86/86](ev:s/a,b) [x](/y/)\n"))
	f.Add([]byte("{{< figure caption=\"실패 15건\" >}} ![a 6](x.png \"t 7\") [l](<u v> (8))\n"))
	f.Add([]byte("응답은 &#52;&#48;초, &#x34;0ms, \\&#52; &nbsp;1만 2천 건[^1]\n\n[^1]: 41초 &amp; 1万2000件\n"))
	f.Add([]byte("[104035637&nbsp;ms](ev:e/a) [86&percnt;](ev:e/b)\\% [86\\%](ev:e/c)&percnt; [&#56;6&#x202F;%](ev:e/d) [86 &foo;](ev:e/f)\n"))
	f.Add([]byte("[==13==건](ev:a/b) [++4++](ev:a/c) [2^10^ B](ev:a/d) H~2~O ~~12~~ [~1~3](ev:a/e)\n"))
	// Hugo's defaults, and the extras extension's inline tags on with
	// strikethrough off (so that "~" is a subscript, as Hugo reads it then)
	mds := []goldmark.Markdown{NewMarkdown(), NewMarkdownWith(MarkdownConfig{Delete: true, Insert: true, Mark: true, Subscript: true, Superscript: true, NoStrikethrough: true})}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, md := range mds {
			checkParse(t, md, src)
		}
		// every literal written twice: the second claim of each is
		// read once, as it reads alone
		twice := append(append(append([]byte(nil), src...), "\n\n"...), src...)
		p, _ := Parse(mds[0], "f.md", twice)
		literalOracle(t, p)
	})
}

// checkParse holds the invariants of FuzzParse for src read by md.
func checkParse(t *testing.T, md goldmark.Markdown, src []byte) {
	p, errs := Parse(md, "f.md", src)
	literalOracle(t, p)        // a literal written again reads as it does alone
	textSpanOracle(t, md, src) // a link's text as a walk of it reads it
	for _, e := range errs {
		if e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
			t.Fatalf("error position %v outside file", e.Pos)
		}
	}
	for _, c := range p.Claims {
		if c.Pos.Offset < 0 || c.End > len(src) || c.Pos.Offset > c.End {
			t.Fatalf("claim span [%d,%d) outside file of %d bytes", c.Pos.Offset, c.End, len(src))
		}
		_, _ = literal.ParseLiteral(c.Literal)
		// every byte of the literal maps into the file; a range
		// SourceRange accepts is the literal's own bytes, and
		// SourceEnd lies within the file
		if len(c.Offsets) != len(c.Literal) {
			t.Fatalf("claim %q has %d offsets", c.Literal, len(c.Offsets))
		}
		for i, o := range c.Offsets {
			if o < -1 || o >= len(src) {
				t.Fatalf("claim %q: byte %d maps to %d, outside the file", c.Literal, i, o)
			}
			if e := c.SourceEnd(src, i+1); e > len(src) || o >= 0 && e <= o {
				t.Fatalf("claim %q: SourceEnd(%d) = %d for offset %d", c.Literal, i+1, e, o)
			}
		}
		for _, q := range c.Parsed.Quantities {
			if a, b, ok := c.SourceRange(src, q.NumStart, q.NumEnd); ok && string(src[a:b]) != c.Literal[q.NumStart:q.NumEnd] {
				t.Fatalf("claim %q: number source %q", c.Literal, src[a:b])
			}
		}
	}
	for _, n := range append(p.Prose, p.Unchecked...) {
		if n.Pos.Offset < 0 || n.End > len(src) || n.Pos.Offset >= n.End {
			t.Fatalf("prose number %q at [%d,%d) outside file of %d bytes", n.Text, n.Pos.Offset, n.End, len(src))
		}
	}
}

// pageSeeds cuts page into pieces of at least size bytes (the last may be
// shorter), each ending at a blank line, so a seed holds whole
// paragraphs, tables and code blocks; the first keeps the front matter.
func pageSeeds(page []byte, size int) [][]byte {
	var out [][]byte
	for len(page) > 0 {
		end := len(page)
		if size < len(page) {
			if i := bytes.Index(page[size:], []byte("\n\n")); i >= 0 {
				end = size + i + 2
			}
		}
		out = append(out, page[:end])
		page = page[end:]
	}
	return out
}
