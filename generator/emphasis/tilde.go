package emphasis

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// strikethroughRanges reports each strikethrough of a page whose opening
// tilde stands between two digits (3~5초 … 10~20%): a range written
// with one ~ that Hugo's goldmark reads as the start of a strikethrough
// (GFM allows one tilde), closed by the next ~ of the paragraph. The
// reader sees the text between struck out and the numbers beside the
// tildes joined (35초, 1020%), which evdoc would read as written.
func strikethroughRanges(p *claim.Page, md claim.MarkdownConfig) diag.List {
	src := p.Source
	if md.NoStrikethrough || bytes.IndexByte(src[p.BodyStart:], '~') < 0 {
		return nil
	}
	if _, _, ok := claim.SplitFrontMatter(src); !ok {
		return nil
	}
	blanked := hugoText(blankFrontMatter(src, p.BodyStart), p.HugoSyntax)
	var ds diag.List
	// a strikethrough between digits, or false
	finding := func(start, stop int) bool {
		if start < 0 {
			return false
		}
		open := start
		for open > 0 && blanked[open-1] == '~' {
			open--
		}
		if start-open != 1 { // ~~ is a strikethrough meant as one
			return false
		}
		before, _ := utf8.DecodeLastRune(blanked[:open])
		after, _ := utf8.DecodeRune(blanked[start:])
		if !unicode.IsDigit(before) || !unicode.IsDigit(after) {
			return false
		}
		end := stop
		for end < len(blanked) && blanked[end] == '~' {
			end++
		}
		ds = append(ds, diag.Diagnostic{Pos: p.Index.Pos(open), End: p.Index.Pos(end), Severity: diag.Error, Rule: diag.PageStrikethrough,
			Message: fmt.Sprintf("the ~ of %q opens a strikethrough that the ~ at %s closes: Hugo's Markdown strikes %q out and drops both tildes; expected a range written with 〜 or ～, or an escaped \\~",
				excerpt(blanked, open-8, start+8), p.Index.Pos(stop), string(blanked[start:stop]))})
		return true
	}
	// The page's parse read the same text (no Hugo syntax blanked) with
	// the same configuration: its strikethroughs are these.
	if strikes, ok := p.Strikethroughs(md); ok && len(p.HugoSyntax) == 0 && !forceStrikeParse {
		skipped := make([]bool, len(strikes)) // a finding, or inside one
		for i, st := range strikes {
			if st.Parent >= 0 && skipped[st.Parent] || finding(st.Start, st.Stop) {
				skipped[i] = true
			}
		}
		return ds
	}
	doc := claim.NewMarkdownWith(md).Parser().Parse(text.NewReader(blanked))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if _, ok := n.(*extast.Strikethrough); !ok {
			return ast.WalkContinue, nil
		}
		if start, stop := textSpan(n); finding(start, stop) {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return ds
}

// forceStrikeParse makes strikethroughRanges parse the page itself even
// where the page's parse read its strikethroughs (the tests compare
// both).
var forceStrikeParse = false

// textSpan returns the offsets of the first and past the last byte of
// the text under n, or -1 when it has none.
func textSpan(n ast.Node) (start, stop int) {
	start, stop = -1, -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			if start < 0 {
				start = t.Segment.Start
			}
			stop = t.Segment.Stop
		}
		return ast.WalkContinue, nil
	})
	return start, stop
}

// excerpt returns b[from:to] widened to whole runes and clamped to b.
func excerpt(b []byte, from, to int) string {
	from, to = max(0, from), min(len(b), to)
	for from > 0 && !utf8.RuneStart(b[from]) {
		from--
	}
	for to < len(b) && !utf8.RuneStart(b[to]) {
		to++
	}
	return string(b[from:to])
}
