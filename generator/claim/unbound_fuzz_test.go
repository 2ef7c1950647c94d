package claim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// FuzzProseDigits holds evdoc's promise on any page: every decimal digit
// of any script (unicode.Nd), every vulgar fraction and every other
// numeric symbol (unicode.No, Nl: ², ③, Ⅻ; not 〇, the Han zero, a
// number word as 一 and 二 are) in text a reader
// sees is inside a claim or an exemption marker, or inside a number Parse
// lists (Prose: unbound, or exempt by a named rule; Unchecked), never
// skipped. The text a reader sees is read here from goldmark's tree, apart
// from Parse: its text nodes outside code, raw HTML, autolinks and
// links to ev:. And a number with a decimal fraction or digit groups is
// never an identifier unless letters (or D-, HTTP/) come right before it.
func FuzzProseDigits(f *testing.F) {
	files, _ := filepath.Glob("../../content/*/docs/istio/*/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			for _, s := range pageSeeds(b, 1024) {
				f.Add(s)
			}
		}
	}
	for _, s := range []string{
		"1.2k 요청, 10k rps, 3M, 60fps, 1.5Gbps, 40dB, 5req/s, 1_000\n",
		"p99 L7 2FA 5G 64bit 3rd h2 x86_64 4K p99.9 D-1.5\n",
		"½ 𝟒𝟎초 ٣ 1½ ⅔ ४२ &frac12; &#x1D7D2;\n",
		"10² 10^3 ③ Ⅻ m² ¹ 𐄇 二〇二六年 응답 코드 0\n",
		"[5건](ev: hy/hy.total) [열 번](ev:exempt \"예\") `7` **8**9 [a 3](/x)\n",
		"# 1. 개요\n\n| a | 4 |\n|---|---|\n| 5% | ٣ |\n\n[^1]: 6건\n",
	} {
		f.Add([]byte(s))
	}
	md := NewMarkdown()
	f.Fuzz(func(t *testing.T, src []byte) {
		p, errs := Parse(md, "f.md", src)
		for _, e := range errs {
			if e.Rule == "page-front-matter" {
				return // the page is not read
			}
		}
		covered := make([]bool, len(src)+1)
		mark := func(a, b int) {
			for i := max(a, 0); i < min(b, len(src)); i++ {
				covered[i] = true
			}
		}
		for _, c := range p.Claims {
			mark(c.Pos.Offset, c.End)
		}
		for _, n := range append(p.Prose, p.Unchecked...) {
			mark(n.Pos.Offset, n.End)
			if n.Rule == "identifier" && strings.ContainsAny(n.Text, ".,_") {
				prev := byte(0)
				if n.Pos.Offset > 0 {
					prev = src[n.Pos.Offset-1]
				}
				if !isASCIILetter(prev) && prev != '-' && prev != '/' {
					t.Fatalf("%q at %s is an identifier: a fraction or digit groups with no letters before", n.Text, n.Pos)
				}
			}
		}
		body := blankFrontMatter(src, p.BodyStart)
		doc := md.Parser().Parse(text.NewReader(body))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch x := n.(type) {
			case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.RawHTML, *ast.HTMLBlock, *ast.AutoLink:
				return ast.WalkSkipChildren, nil
			case *ast.Link:
				if strings.HasPrefix(string(x.Destination), Scheme) {
					return ast.WalkSkipChildren, nil
				}
			case *ast.Image:
				if strings.HasPrefix(string(x.Destination), Scheme) {
					return ast.WalkSkipChildren, nil
				}
			case *ast.Text:
				for i := x.Segment.Start; i < x.Segment.Stop; {
					r, w := utf8.DecodeRune(body[i:])
					if unicode.IsNumber(r) && r != '〇' && !covered[i] {
						t.Fatalf("%q at offset %d of text %q is in no claim and no listed number", r, i, body[x.Segment.Start:x.Segment.Stop])
					}
					i += w
				}
			}
			return ast.WalkContinue, nil
		})
	})
}

// isASCIILetter is the letter test of package prose's classification
// (an ASCII letter or "_").
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
