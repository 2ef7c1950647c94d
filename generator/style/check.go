package style

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/tomlpos"
)

// Rules returns the rules this package reports.
func Rules() []diag.RuleID {
	return []diag.RuleID{diag.TermGlossary, diag.PageQuotePair, diag.PageParticleSpace, diag.PageHeadingSplit}
}

// CheckPage reports the findings of page p, written in language lang:
// glossary variants in its prose (term-glossary; none when g is nil; the
// text of a shortcode call counts only where a reader sees it, in a text
// argument such as a figure's caption),
// straight double quotes Hugo's typographer leaves next to curly ones
// (page-quote-pair) and, in Korean, particles written apart from the code
// span they belong to (page-particle-space), and headings whose closing
// punctuation was written on the line below (page-heading-split).
func CheckPage(g *Glossary, p *claim.Page, lang string) diag.List {
	var ds diag.List
	// the page as a string, copied once for the glossary's search of
	// each text run (none without a glossary)
	var src string
	var unseen [][2]int
	if g != nil {
		src = string(p.Source)
		unseen = p.Unseen()
	}
	for i, b := range p.Blocks {
		if b.Kind == claim.BlockHeading && i+1 < len(p.Blocks) {
			ds = append(ds, headingSplit(p, b, p.Blocks[i+1])...)
		}
		if b.Kind == claim.BlockCode {
			continue
		}
		if g != nil {
			for _, r := range cutRuns(textRuns(b), unseen) {
				for _, m := range g.find(lang, src[r[0]:r[1]]) {
					ds = append(ds, g.finding(p.Index, r[0], lang, m))
				}
			}
		}
		ds = append(ds, quotePairs(p, b)...)
		if isKorean(lang) {
			ds = append(ds, particleSpaces(p, b)...)
		}
	}
	return ds
}

// closers are the characters that end a heading (a question, a sentence,
// a parenthesis) and never start a line of prose.
const closers = "？?！!。．、，）)」』】〕"

// headingSplit reports an ATX heading b whose next block, next, is a
// paragraph starting at the very next line with closing punctuation: the
// heading's own end, cut off by a line break (Markdown ends an ATX heading
// at its line). The fix moves the punctuation back onto the heading line,
// which leaves a blank line between the heading and the paragraph.
func headingSplit(p *claim.Page, b, next claim.Block) diag.List {
	src := p.Source
	if next.Kind != claim.BlockText || len(next.Inlines) == 0 || next.Inlines[0].Kind != claim.InlineText {
		return nil
	}
	bol := bytes.LastIndexByte(src[:b.Start], '\n') + 1
	if !bytes.HasPrefix(bytes.TrimLeft(src[bol:b.Start], " "), []byte("#")) {
		return nil // a setext heading (its underline is the next line), or one inside a container
	}
	nl := bytes.IndexByte(src[b.Start:], '\n')
	if nl < 0 {
		return nil
	}
	eol := b.Start + nl
	at := next.Inlines[0].Start
	if at != eol+1 {
		return nil
	}
	r, w := utf8.DecodeRune(src[at:])
	if !strings.ContainsRune(closers, r) {
		return nil
	}
	end := eol
	if end > b.Start && src[end-1] == '\r' {
		end--
	}
	pos, stop := p.Index.Span(at, at+w)
	return diag.List{{Pos: pos, End: stop, Severity: diag.Warning, Rule: diag.PageHeadingSplit,
		Message: fmt.Sprintf("%q starts the line under a heading: Markdown ends the heading at its line, so the heading loses it and the paragraph starts with it; expected it at the end of the heading", string(r)),
		Related: []diag.Related{{Pos: p.Index.Pos(b.Start), Message: "the heading"}},
		Fixes: []diag.SuggestedFix{{Message: "move " + string(r) + " to the end of the heading", Edits: []diag.TextEdit{
			{Pos: p.Index.Pos(end), End: end, NewText: string(r)},
			{Pos: pos, End: at + w, NewText: ""},
		}}}}}
}

// textRuns returns the byte ranges of block b's prose text, joining text
// nodes that follow each other in the page (goldmark splits a run of text
// where an autolink could start).
func textRuns(b claim.Block) [][2]int {
	var out [][2]int
	for _, in := range b.Inlines {
		if in.Kind != claim.InlineText {
			continue
		}
		if n := len(out); n > 0 && out[n-1][1] == in.Start {
			out[n-1][1] = in.Stop
			continue
		}
		out = append(out, [2]int{in.Start, in.Stop})
	}
	return out
}

// cutRuns returns runs (byte ranges in order) without the ranges of
// unseen (in order): the parts of a shortcode call a reader never sees
// (claim.Page.Unseen) are not prose, and a term is not read across one.
func cutRuns(runs, unseen [][2]int) [][2]int {
	if len(unseen) == 0 {
		return runs
	}
	out := make([][2]int, 0, len(runs))
	k := 0
	for _, r := range runs {
		for k < len(unseen) && unseen[k][1] <= r[0] {
			k++ // ends before this run (and every later one)
		}
		at := r[0]
		for j := k; j < len(unseen) && unseen[j][0] < r[1]; j++ {
			if unseen[j][0] > at {
				out = append(out, [2]int{at, unseen[j][0]})
			}
			at = max(at, unseen[j][1])
		}
		if at < r[1] {
			out = append(out, [2]int{at, r[1]})
		}
	}
	return out
}

func isKorean(lang string) bool { return lang == "ko" || strings.HasPrefix(lang, "ko-") }

// quotePairs reports each straight double quote of block b that Hugo's
// typographer leaves as it is while it turns other quotes of the block
// into curly ones: a reader sees “…" (a closing quote glued to a Hangul
// particle, 낸다"는, is one the typographer cannot place). The fix writes
// the curly quote the position needs.
func quotePairs(p *claim.Page, b claim.Block) diag.List {
	// a shortcode call is not in the page Hugo's typographer reads:
	// Hugo replaces it before Markdown, quotes of its arguments too
	inCall := func(off int) bool {
		for _, c := range p.Shortcodes {
			if off >= c.Pos.Offset && off < c.End.Offset {
				return true
			}
		}
		return false
	}
	curly := false
	for _, in := range b.Inlines {
		if in.Kind == claim.InlineString && isDoubleQuote(in.Value) && !inCall(in.Start) {
			curly = true
			break
		}
	}
	if !curly {
		return nil
	}
	var ds diag.List
	open := false // a “ is open
	for _, in := range b.Inlines {
		switch in.Kind {
		case claim.InlineString:
			if inCall(in.Start) {
				continue
			}
			switch in.Value {
			case "&ldquo;", "\u201c":
				open = true
			case "&rdquo;", "\u201d":
				open = false
			}
		case claim.InlineText:
			src := p.Source[in.Start:in.Stop]
			for i := 0; i < len(src); i++ {
				if src[i] != '"' || i > 0 && src[i-1] == '\\' || inCall(in.Start+i) {
					continue
				}
				want := "\u201d"
				what := "closing"
				if !open {
					want, what = "\u201c", "opening"
				}
				open = !open
				pos, end := p.Index.Span(in.Start+i, in.Start+i+1)
				ds = append(ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Warning, Rule: diag.PageQuotePair,
					Message: fmt.Sprintf("this \" stays straight in the built page while Hugo's typographer curls the other quotes of the %s; expected the %s quote %s written out", blockName(b), what, want),
					Fixes:   []diag.SuggestedFix{{Message: "write " + want, Edits: []diag.TextEdit{{Pos: pos, End: end.Offset, NewText: want}}}}})
			}
		}
	}
	return ds
}

func isDoubleQuote(v string) bool {
	switch v {
	case "&ldquo;", "&rdquo;", "\u201c", "\u201d":
		return true
	}
	return false
}

func blockName(b claim.Block) string {
	switch b.Kind {
	case claim.BlockHeading:
		return "heading"
	case claim.BlockCell:
		return "table cell"
	}
	return "paragraph"
}

// particles are the Korean particles (조사) and copula endings that attach
// to the word before them, longest first.
var particles = []string{
	"이라고", "이라는", "이라면", "이어서", "으로는", "으로서", "으로써", "에서는", "에서도", "에게서",
	"입니다", "이므로", "까지", "부터", "보다", "처럼", "에서", "에게", "으로", "이나", "이며", "이고", "이다", "이면",
	"라고", "라는", "라면", "로는", "로서", "로써", "에는", "에도", "와는", "과는", "만큼", "마다", "조차", "이든",
	"은", "는", "을", "를", "에", "의", "와", "과", "도", "로", "만", "가", "이", "나",
}

// particleSpaces reports a Korean particle written apart from the code
// span before it (`subset` 은): Korean attaches particles to their word,
// and the page reads `subset`은 elsewhere.
func particleSpaces(p *claim.Page, b claim.Block) diag.List {
	var ds diag.List
	for i, in := range b.Inlines {
		if in.Kind != claim.InlineText || i == 0 || b.Inlines[i-1].Kind != claim.InlineCode {
			continue
		}
		start := in.Start
		if start == 0 || in.Stop <= start+1 || p.Source[start-1] != '`' || p.Source[start] != ' ' {
			continue
		}
		rest := p.Source[start+1 : in.Stop]
		for _, w := range particles {
			if !strings.HasPrefix(string(rest), w) {
				continue
			}
			if r, _ := utf8.DecodeRune(rest[len(w):]); len(rest) > len(w) && isHangul(r) {
				continue // a longer word: 이 in 이번, 가 in 가장
			}
			pos, end := p.Index.Span(start, start+1+len(w))
			ds = append(ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Warning, Rule: diag.PageParticleSpace,
				Message: fmt.Sprintf("particle %q is written apart from the code span before it; expected it attached (`…`%s), as Korean writes particles", w, w),
				Fixes:   []diag.SuggestedFix{{Message: "attach " + w, Edits: []diag.TextEdit{{Pos: pos, End: pos.Offset + 1, NewText: ""}}}}})
			break
		}
	}
	return ds
}

func isHangul(r rune) bool {
	return r >= 0xAC00 && r <= 0xD7A3 || r >= 0x1100 && r <= 0x11FF || r >= 0x3130 && r <= 0x318F
}

// CheckStrings reports glossary variants in the strings of a TOML file
// (a figure spec, an i18n table). lang gives the language of a string
// from the keys leading to it: a figure spec's `title = { ko = "…" }`
// names its language in its last key, an i18n file ja.toml holds ja
// strings whatever the key; "" skips the string.
func CheckStrings(g *Glossary, file string, src []byte, lang func(keys []string) string) diag.List {
	if g == nil || len(g.Terms) == 0 {
		return nil
	}
	ix := diag.NewLineIndex(file, src)
	var ds diag.List
	var walk func(keys []string, v *unstable.Node)
	walk = func(keys []string, v *unstable.Node) {
		switch v.Kind {
		case unstable.String:
			l := lang(keys)
			if l == "" {
				return
			}
			s := string(v.Data)
			base, exact := stringBase(src, v, s)
			ds = append(ds, g.checkText(ix, Text{Lang: l, Text: s, Start: int(v.Raw.Offset), End: int(v.Raw.Offset + v.Raw.Length), Exact: exact, TextStart: base})...)
		case unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				kv := it.Node()
				walk(append(keys[:len(keys):len(keys)], tomlpos.KeyStrings(kv)...), kv.Value())
			}
		case unstable.Array:
			for it := v.Children(); it.Next(); {
				walk(keys, it.Node())
			}
		}
	}
	var p unstable.Parser
	p.Reset(src)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = tomlpos.KeyStrings(e)
		case unstable.KeyValue:
			walk(append(table[:len(table):len(table)], tomlpos.KeyStrings(e)...), e.Value())
		}
	}
	// a malformed file is reported by its own reader
	return ds
}

// Text is one string of a file that is neither Markdown nor TOML (an
// i18n string of a YAML or JSON file, as i18n.Strings reads
// it): its language, its text and where the file writes it.
type Text struct {
	Lang string
	Text string
	// Start and End are the byte range of the value as written, the
	// range of a finding when the file does not spell Text byte for byte.
	Start, End int
	// Exact reports whether the file spells Text byte for byte from
	// TextStart; a finding then covers the variant alone, with its fix.
	Exact     bool
	TextStart int
}

// CheckTexts reports glossary variants in texts, strings of the file
// named file whose bytes are src.
func CheckTexts(g *Glossary, file string, src []byte, texts []Text) diag.List {
	if g == nil || len(g.Terms) == 0 {
		return nil
	}
	ix := diag.NewLineIndex(file, src)
	var ds diag.List
	for _, t := range texts {
		ds = append(ds, g.checkText(ix, t)...)
	}
	return ds
}

// checkText reports the glossary variants of t.Lang in t.Text (link
// destinations blanked). A text the file spells byte for byte gets a
// finding on the variant with the preferred term as its fix; any other
// gets one on the whole value, without a fix.
func (g *Glossary) checkText(ix *diag.LineIndex, t Text) diag.List {
	if t.Lang == "" {
		return nil
	}
	var ds diag.List
	for _, m := range g.find(t.Lang, blankDestinations(t.Text)) {
		if t.Exact {
			ds = append(ds, g.finding(ix, t.TextStart, t.Lang, m))
			continue
		}
		d := g.finding(ix, 0, t.Lang, match{start: t.Start, end: t.End, term: m.term, variant: m.variant})
		d.Fixes = nil
		ds = append(ds, d)
	}
	return ds
}

// blankDestinations returns s with the destination of each Markdown link
// in it (the claims of a figure text: [+1](ev:set/name)) turned into
// spaces, offsets kept: a destination is not prose.
func blankDestinations(s string) string {
	b := []byte(s)
	for i := 0; i+1 < len(b); i++ {
		if b[i] != ']' || b[i+1] != '(' {
			continue
		}
		j := strings.IndexByte(s[i+2:], ')')
		if j < 0 {
			break
		}
		for k := i + 2; k < i+2+j; k++ {
			b[k] = ' '
		}
		i += 2 + j
	}
	return string(b)
}

// stringBase returns the offset in src of the first byte of string node
// v's value s, and whether s is spelled there byte for byte (a string
// without escapes or line-ending backslashes).
func stringBase(src []byte, v *unstable.Node, s string) (int, bool) {
	off := int(v.Raw.Offset)
	if v.Raw.Length == 0 || off >= len(src) {
		return off, false
	}
	q := 1
	if strings.HasPrefix(string(src[off:]), `"""`) || strings.HasPrefix(string(src[off:]), `'''`) {
		q = 3
	}
	start := off + q
	if start+len(s) <= len(src) && string(src[start:start+len(s)]) == s {
		return start, true
	}
	return off, false
}

// LastKeyLanguage returns a lang function for CheckStrings that reads a
// string's language from its last key when that key is one of langs.
func LastKeyLanguage(langs []string) func([]string) string {
	return func(keys []string) string {
		if len(keys) == 0 {
			return ""
		}
		last := keys[len(keys)-1]
		for _, l := range langs {
			if l == last {
				return l
			}
		}
		return ""
	}
}

// FileLanguage returns a lang function for CheckStrings that gives every
// string of an i18n file the language its name gives, in lower case as
// Hugo matches it (ja.toml, JA.yaml: ja).
func FileLanguage(file string) func([]string) string {
	l := strings.ToLower(strings.TrimSuffix(path.Base(file), path.Ext(file)))
	return func([]string) string { return l }
}
