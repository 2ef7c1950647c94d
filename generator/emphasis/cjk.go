package emphasis

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// MarkdownOptions are the goldmark settings of hugo.toml that decide how
// CJK text renders (markup.goldmark.extensions.cjk).
type MarkdownOptions struct {
	// EastAsianLineBreaks is cjk.eastAsianLineBreaks: Hugo drops soft line
	// breaks between East Asian wide characters.
	EastAsianLineBreaks bool
	// Markdown is the site's goldmark configuration: the page is read as
	// check reads it (a passthrough formula is not emphasis).
	Markdown claim.MarkdownConfig
}

// An emphasis delimiter run such as "**" whose closing run follows
// punctuation and precedes a Hangul, kana or Han letter ("**「強調」**する")
// is not right-flanking under CommonMark's rules, so goldmark (Hugo) leaves
// it as literal "**" or pairs it with the wrong run. HugoMarkdown inserts
// an escaped space ("\ ") between such a run and the letter: with
// goldmark's cjk.escapedSpace (which evdoc enables in the staged
// hugo.toml) the escaped space counts as whitespace for flanking and
// renders as nothing, so the emphasis renders where the author meant it.

// Insertion is one change HugoMarkdown makes: Text inserted before byte
// Offset of the page.
type Insertion struct {
	Offset int
	Text   string
}

var shortcodeCallRe = regexp.MustCompile(`(?s)\{\{[<%].*?[%>]\}\}`)

// isEastAsianLetter reports whether r is a Hangul, kana or Han letter (or
// a long vowel mark): the letters next to which authors write emphasis
// without spaces.
func isEastAsianLetter(r rune) bool {
	return unicode.In(r, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Han) || r == 'ー'
}

// isEastAsianWide reports whether r is a character between which Hugo's
// eastAsianLineBreaks drops a soft line break without harm: kana, Han and
// full-width punctuation; Hangul is written with spaces between words.
func isEastAsianWide(r rune) bool {
	if unicode.Is(unicode.Hangul, r) {
		return false
	}
	return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff01 && r <= 0xff60 || r == 'ー'
}

func isPunct(r rune) bool { return util.IsPunctRune(r) }
func isSpace(r rune) bool { return util.IsSpaceRune(r) }

// delimRun is a run of '*' (or '_') in the source of an inline block.
type delimRun struct {
	start, end   int
	before, next rune
}

// inlineBlocks returns the source lines of every block whose lines are
// parsed as inline Markdown (paragraphs, headings, table cells), with the
// ranges inside them that are not Markdown text (code spans, raw HTML,
// autolinks).
func inlineBlocks(doc ast.Node, src []byte) (blocks [][]text.Segment, skip [][2]int) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.CodeSpan:
			if t.FirstChild() != nil {
				a, b := segRange(t)
				skip = append(skip, [2]int{a, b})
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				sg := t.Segments.At(i)
				skip = append(skip, [2]int{sg.Start, sg.Stop})
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			u := t.URL(src)
			if i := bytes.Index(src, u); i >= 0 {
				skip = append(skip, [2]int{i, i + len(u)})
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		}
		if n.Type() == ast.TypeBlock && n.Lines() != nil && n.Lines().Len() > 0 {
			if _, isPara := n.(*ast.Paragraph); isPara || isInlineBlock(n) {
				var segs []text.Segment
				for i := 0; i < n.Lines().Len(); i++ {
					segs = append(segs, n.Lines().At(i))
				}
				blocks = append(blocks, segs)
			}
		}
		return ast.WalkContinue, nil
	})
	return blocks, skip
}

func isInlineBlock(n ast.Node) bool {
	switch n.(type) {
	case *ast.Heading, *ast.TextBlock:
		return true
	}
	return n.Kind().String() == "TableCell"
}

// segRange is the byte range of a code span's text children.
func segRange(n ast.Node) (int, int) {
	a, b := -1, -1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			if a < 0 || t.Segment.Start < a {
				a = t.Segment.Start
			}
			if t.Segment.Stop > b {
				b = t.Segment.Stop
			}
		}
	}
	return a, b
}

// emphasisInsertions finds the escaped spaces that make the emphasis of
// src (a page with its front matter blanked, doc its goldmark document)
// render as written.
func emphasisInsertions(doc ast.Node, src []byte) []Insertion {
	blocks, skip := inlineBlocks(doc, src)
	for _, m := range shortcodeCallRe.FindAllIndex(src, -1) {
		skip = append(skip, [2]int{m[0], m[1]})
	}
	skipped := func(i int) bool {
		for _, r := range skip {
			if i >= r[0] && i < r[1] {
				return true
			}
		}
		return false
	}
	var out []Insertion
	for _, segs := range blocks {
		var runs []delimRun
		for li, sg := range segs {
			line := src[sg.Start:sg.Stop]
			for i := 0; i < len(line); i++ {
				c := line[i]
				switch {
				case c == '\\':
					i++ // an escaped character
					continue
				case c == ']' && i+1 < len(line) && line[i+1] == '(':
					// skip a link destination
					if j := bytes.IndexByte(line[i:], ')'); j > 0 {
						i += j
					}
					continue
				case c != '*':
					continue
				}
				if skipped(sg.Start + i) {
					continue
				}
				j := i
				for j < len(line) && line[j] == '*' {
					j++
				}
				r := delimRun{start: sg.Start + i, end: sg.Start + j, before: ' ', next: ' '}
				if i > 0 {
					r.before, _ = utf8.DecodeLastRune(line[:i])
				} else if li > 0 {
					r.before = '\n'
				}
				if j < len(line) {
					r.next, _ = utf8.DecodeRune(line[j:])
				}
				runs = append(runs, r)
				i = j - 1
			}
		}
		// Runs that can never be delimiters (whitespace on both sides) are
		// literal; the others alternate opener, closer per run length.
		open := map[int]bool{}
		for _, r := range runs {
			if isSpace(r.before) && isSpace(r.next) {
				continue
			}
			n := r.end - r.start
			if !open[n] {
				open[n] = true
				// intended opener: must be left-flanking
				if isEastAsianLetter(r.before) && isPunct(r.next) {
					out = append(out, Insertion{Offset: r.start, Text: `\ `})
				}
			} else {
				open[n] = false
				// intended closer: must be right-flanking
				if isPunct(r.before) && isEastAsianLetter(r.next) {
					out = append(out, Insertion{Offset: r.end, Text: `\ `})
				}
			}
		}
	}
	return out
}

// lineBreakInsertions returns the changes that keep Hugo's
// eastAsianLineBreaks from losing a space: a soft line break between two
// characters that are not both East Asian wide (Korean, Latin), looking
// through inline markup ("[", "`", "*") to the letters it joins, becomes
// a space.
func lineBreakInsertions(doc ast.Node, src []byte) []Insertion {
	blocks, _ := inlineBlocks(doc, src)
	var out []Insertion
	for _, segs := range blocks {
		for li := 0; li+1 < len(segs); li++ {
			end := segs[li].Stop
			if end == 0 || src[end-1] != '\n' {
				continue
			}
			line := src[segs[li].Start:end]
			if bytes.HasSuffix(line, []byte("  \n")) || bytes.HasSuffix(line, []byte("\\\n")) {
				continue // a hard line break
			}
			before := lastLetter(src[segs[li].Start : end-1])
			after := firstLetter(src[segs[li+1].Start:segs[li+1].Stop])
			if before == 0 || after == 0 || isEastAsianWide(before) && isEastAsianWide(after) {
				continue
			}
			if before == ' ' || after == ' ' {
				continue
			}
			out = append(out, Insertion{Offset: end - 1, Text: " "})
		}
	}
	return out
}

// markupChars are the inline Markdown characters looked through to find
// the letter a line break joins.
const markupChars = "[]()`*_~!<>"

func lastLetter(b []byte) rune {
	for len(b) > 0 {
		r, n := utf8.DecodeLastRune(b)
		if r == ' ' || r == '\t' {
			return ' '
		}
		if !bytes.ContainsRune([]byte(markupChars), r) {
			return r
		}
		b = b[:len(b)-n]
	}
	return 0
}

func firstLetter(b []byte) rune {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == ' ' || r == '\t' {
			return ' '
		}
		if !bytes.ContainsRune([]byte(markupChars), r) {
			return r
		}
		b = b[n:]
	}
	return 0
}

// HugoMarkdown returns the page src as Hugo should receive it so that it
// renders as evdoc reads it: emphasis next to CJK punctuation gets escaped
// spaces (see above) and, with opt.EastAsianLineBreaks, soft line breaks
// that join Korean or Latin words become spaces. It returns src itself
// when nothing changes. Front matter is never changed.
func HugoMarkdown(src []byte, opt MarkdownOptions) ([]byte, []Insertion) {
	_, bodyStart, ok := claim.SplitFrontMatter(src)
	if !ok {
		return src, nil
	}
	if !opt.EastAsianLineBreaks && bytes.IndexByte(src[bodyStart:], '*') < 0 {
		return src, nil // only emphasis (a '*' run) gets an insertion: no parse needed
	}
	blanked := hugoText(blankFrontMatter(src, bodyStart), claim.HugoSyntax(src, bodyStart))
	doc := claim.NewMarkdownWith(opt.Markdown).Parser().Parse(text.NewReader(blanked))
	return applyInsertions(src, bodyStart, hugoInsertions(doc, blanked, opt))
}

// hugoInsertions returns the changes HugoMarkdown makes to a page: blanked
// is its source with the front matter blanked, doc what the site's
// goldmark (claim.NewMarkdownWith) reads from blanked.
func hugoInsertions(doc ast.Node, blanked []byte, opt MarkdownOptions) []Insertion {
	ins := emphasisInsertions(doc, blanked)
	if opt.EastAsianLineBreaks {
		ins = append(ins, lineBreakInsertions(doc, blanked)...)
	}
	return ins
}

// applyInsertions returns src with ins made (those before bodyStart, in
// the front matter, are not), and ins sorted by offset; src itself when
// ins is empty.
func applyInsertions(src []byte, bodyStart int, ins []Insertion) ([]byte, []Insertion) {
	if len(ins) == 0 {
		return src, nil
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].Offset < ins[j].Offset })
	var b bytes.Buffer
	last := 0
	for _, in := range ins {
		if in.Offset < bodyStart {
			continue
		}
		if in.Text == " " && in.Offset < len(src) && src[in.Offset] == '\n' {
			b.Write(src[last:in.Offset])
			b.WriteString(" ")
			last = in.Offset + 1
			continue
		}
		b.Write(src[last:in.Offset])
		b.WriteString(in.Text)
		last = in.Offset
	}
	b.Write(src[last:])
	return b.Bytes(), ins
}

// hugoText returns b, a page with its front matter blanked, as Hugo's
// goldmark reads it, byte for byte (offsets stay): each span of Hugo
// syntax (claim.Page.HugoSyntax) masked, a shortcode call as letters
// (Hugo's placeholder for it is a word), the "/*" and "*/" of a shortcode
// comment as spaces (Hugo drops them). A "*" or quote in a call's
// arguments is then no text, as it is not for Hugo.
func hugoText(b []byte, spans [][2]int) []byte {
	for _, sp := range spans {
		fill := byte('x')
		if m := string(b[sp[0]:sp[1]]); m == "/*" || m == "*/" {
			fill = ' '
		}
		for i := sp[0]; i < sp[1]; i++ {
			b[i] = fill
		}
	}
	return b
}

// shiftSpans returns spans of a page moved to where they lie in the page
// with ins (sorted by offset, none inside a span) made, as
// applyInsertions makes them to src.
func shiftSpans(spans [][2]int, src []byte, ins []Insertion) [][2]int {
	if len(ins) == 0 {
		return spans
	}
	out := make([][2]int, len(spans))
	for i, sp := range spans {
		shift := 0
		for _, in := range ins {
			if in.Offset > sp[0] {
				break
			}
			if in.Text != " " || in.Offset >= len(src) || src[in.Offset] != '\n' {
				shift += len(in.Text) // a space for a line break replaces it
			}
		}
		out[i] = [2]int{sp[0] + shift, sp[1] + shift}
	}
	return out
}

func blankFrontMatter(src []byte, bodyStart int) []byte {
	b := append([]byte(nil), src...)
	for i := 0; i < bodyStart; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return b
}

// hasEscapedSpace reports whether src holds a backslash before a space or
// tab, which goldmark's escapedSpace option (parser.WithEscapedSpace)
// parses as an escaped space rather than text.
func hasEscapedSpace(src []byte) bool {
	for i := bytes.IndexByte(src, '\\'); i >= 0 && i+1 < len(src); {
		if c := src[i+1]; util.IsSpace(c) && c != '\n' && c != '\r' {
			return true
		}
		j := bytes.IndexByte(src[i+2:], '\\')
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return false
}

// Check reports emphasis delimiters of a page that would still
// render as literal "*" after HugoMarkdown: the page is read the way Hugo
// reads what evdoc stages (with the site's goldmark configuration md), and
// each "*" left in text is a finding at its position in the page.
func Check(p *claim.Page, md claim.MarkdownConfig) diag.List {
	return append(strikethroughRanges(p, md), literalStars(p, md)...)
}

// literalStars is Check for the "*" runs.
func literalStars(p *claim.Page, md claim.MarkdownConfig) diag.List {
	src := p.Source
	if bytes.IndexByte(src[p.BodyStart:], '*') < 0 {
		return nil // no "*" in the body, none can be left literal
	}
	if _, _, ok := claim.SplitFrontMatter(src); !ok {
		return nil
	}
	blanked := hugoText(blankFrontMatter(src, p.BodyStart), p.HugoSyntax)
	doc := claim.NewMarkdownWith(md).Parser().Parse(text.NewReader(blanked))
	ins := hugoInsertions(doc, blanked, MarkdownOptions{Markdown: md})
	if len(ins) > 0 || hasEscapedSpace(blanked) {
		// Hugo reads what HugoMarkdown stages with cjk.escapedSpace,
		// which parses "\ " otherwise than the page is read: read that
		// text as Hugo does. Without either, both read the page alike.
		return literalEmphasis(p, ins, md)
	}
	return literalEmphasisIn(p, doc, blanked, nil)
}

// literalEmphasis is Check reading what HugoMarkdown stages (the
// page with ins made) as Hugo does.
func literalEmphasis(p *claim.Page, ins []Insertion, md claim.MarkdownConfig) diag.List {
	out, ins := applyInsertions(p.Source, p.BodyStart, ins)
	blanked := hugoText(blankFrontMatter(out, p.BodyStart), shiftSpans(p.HugoSyntax, p.Source, ins))
	doc := claim.NewMarkdownWith(md.Staged()).Parser().Parse(text.NewReader(blanked))
	return literalEmphasisIn(p, doc, blanked, ins)
}

// literalEmphasisIn reports the "*" runs left in the text of doc, which
// goldmark read from blanked: the page with ins made (sorted by offset)
// and its front matter blanked.
func literalEmphasisIn(p *claim.Page, doc ast.Node, blanked []byte, ins []Insertion) diag.List {
	// back maps an offset of blanked to an offset of the page.
	back := func(off int) int {
		shift := 0
		for _, in := range ins {
			if in.Offset+shift < off {
				shift += len(in.Text)
			}
		}
		return off - shift
	}
	var ds diag.List
	seen := map[int]bool{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		}
		t, ok := n.(*ast.Text)
		if !ok {
			return ast.WalkContinue, nil
		}
		seg := blanked[t.Segment.Start:t.Segment.Stop]
		for i := 0; i < len(seg); i++ {
			if seg[i] != '*' || i == 0 && t.Segment.Start > 0 && blanked[t.Segment.Start-1] == '\\' {
				continue
			}
			j := i
			for j < len(seg) && seg[j] == '*' {
				j++
			}
			off := back(t.Segment.Start + i)
			if i > 0 && seg[i-1] == '\\' || seen[off] {
				i = j
				continue
			}
			seen[off] = true
			before, next := ' ', ' '
			if o := t.Segment.Start + i; o > 0 {
				before, _ = utf8.DecodeLastRune(blanked[:o])
			}
			if o := t.Segment.Start + j; o < len(blanked) {
				next, _ = utf8.DecodeRune(blanked[o:])
			}
			if !(isSpace(before) && isSpace(next)) {
				ds = append(ds, diag.Diagnostic{Pos: p.Index.Pos(off), End: p.Index.Pos(off + j - i), Severity: diag.Error, Rule: diag.PageEmphasis,
					Message: fmt.Sprintf("%q renders as literal text, not emphasis: Hugo's goldmark cannot pair it; expected a matching delimiter run, or escape it as \\%s", seg[i:j], seg[i:j])})
			}
			i = j
		}
		return ast.WalkContinue, nil
	})
	return ds
}
