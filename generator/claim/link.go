package claim

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// span is a link's text: its byte range in the source, the text with
// inline markup removed and backslash escapes and character references
// decoded (as CommonMark gives a text node's value; a code span's text
// stays as written), the source offset of each byte of that text (see
// DecodeInline; -1 for bytes goldmark made up, such as typographer quotes;
// a soft line break maps to the line ending), and whether the text holds
// a code span or an image.
type span struct {
	start, end int
	// literal is the text, in the page's literal buffer (see slab); it
	// is valid until the next textSpan
	literal []byte
	offsets []int
	code    bool
	image   bool
}

// slab holds, for one page, the text and offsets of its links' literals
// one after another: a claim's Literal and Offsets are parts of it, not
// two allocations each.
type slab struct {
	lit  []byte                // literal bytes
	offs chunks[int]           // offsets
	refs chunks[string]        // references
	pos  chunks[diag.Position] // reference positions
}

// reset makes the slab's room free for another page, zeroed (see
// Scratch): nothing may read what it handed out after.
func (sl *slab) reset() {
	clear(sl.lit[:cap(sl.lit)])
	sl.lit = sl.lit[:0]
	sl.offs.reset()
	sl.refs.reset()
	sl.pos.reset()
}

// chunks hands out slices of Ts from chunks of many.
type chunks[T any] struct {
	cur []T
	// used are the chunks filled before cur; free those reset gave
	// back, all zero.
	used, free [][]T
}

// take returns an empty slice of capacity n from the current chunk (the
// next free chunk, or a new one of max(n, size) when it is full).
// Appending beyond n does not write into the chunk.
func (c *chunks[T]) take(n, size int) []T {
	if cap(c.cur)-len(c.cur) < n {
		if c.cur != nil {
			c.used = append(c.used, c.cur)
		}
		if k := len(c.free); k > 0 && cap(c.free[k-1]) >= n {
			c.cur, c.free = c.free[k-1], c.free[:k-1]
		} else {
			c.cur = make([]T, 0, max(n, size))
		}
	}
	at := len(c.cur)
	c.cur = c.cur[:at+n]
	return c.cur[at : at : at+n]
}

// reset gives every chunk back, zeroed, to be handed out again.
func (c *chunks[T]) reset() {
	if c.cur != nil {
		c.used = append(c.used, c.cur)
		c.cur = nil
	}
	for _, ch := range c.used {
		clear(ch[:cap(ch)])
		c.free = append(c.free, ch[:0])
	}
	clear(c.used)
	c.used = c.used[:0]
}

// positions returns an empty slice of capacity n from the slab's chunk
// of positions, as ints does.
func (sl *slab) positions(n int) []diag.Position { return sl.pos.take(n, 256) }

// strings returns an empty slice of capacity n from the slab's chunk of
// references, as ints does.
func (sl *slab) strings(n int) []string { return sl.refs.take(n, 256) }

// ints returns an empty slice of capacity n from the slab's chunk of
// offsets (a new chunk when it is full). Appending beyond n does not
// write into the slab.
func (sl *slab) ints(n int) []int { return sl.offs.take(n, 1024) }

// textSpan collects the text of a link (or image) node, appending it to
// sl.lit. start is -1 for a link without text. A link whose one child is
// a text node (most claims: [7.12ms](ev:…)) is read without walking it,
// as textSpanWalk reads it (TestTextSpanEqualsWalk).
func textSpan(link ast.Node, src []byte, sl *slab) span {
	t, ok := link.FirstChild().(*ast.Text)
	if !ok || t.NextSibling() != nil {
		return textSpanWalk(link, src, sl)
	}
	n := t.Segment.Len()
	if t.SoftLineBreak() {
		n++
	}
	c := newTextCollector(src, sl, n)
	c.text(t)
	return c.done(sl)
}

// textCollector gathers a link's text for textSpan and textSpanWalk.
type textCollector struct {
	sp  span
	at  int // where the text starts in sl.lit
	b   []byte
	src []byte
}

// newTextCollector starts collecting text of n bytes (textSpanLen) at
// the end of sl.lit.
func newTextCollector(src []byte, sl *slab, n int) textCollector {
	c := textCollector{sp: span{start: -1, end: -1}, at: len(sl.lit), b: sl.lit, src: src}
	if n > 0 {
		c.b = slices.Grow(c.b, n)
		c.sp.offsets = sl.ints(n)
	}
	return c
}

func (c *textCollector) addSeg(seg text.Segment) {
	if c.sp.start < 0 || seg.Start < c.sp.start {
		c.sp.start = seg.Start
	}
	if seg.Stop > c.sp.end {
		c.sp.end = seg.Stop
	}
	c.b = append(c.b, seg.Value(c.src)...)
	for i := seg.Start; i < seg.Stop; i++ {
		c.sp.offsets = append(c.sp.offsets, i)
	}
}

// text adds a text node's value, as CommonMark reads it: escapes and
// character references decoded (86\%, 86&percnt;, 40&nbsp;ms).
func (c *textCollector) text(t *ast.Text) {
	seg := t.Segment
	if bytes.IndexByte(seg.Value(c.src), '\\') < 0 && bytes.IndexByte(seg.Value(c.src), '&') < 0 {
		c.addSeg(seg) // the common case: nothing to decode
	} else {
		if c.sp.start < 0 || seg.Start < c.sp.start {
			c.sp.start = seg.Start
		}
		c.sp.end = max(c.sp.end, seg.Stop)
		dec, offs := DecodeInline(c.src, seg.Start, seg.Stop)
		c.b = append(c.b, dec...)
		c.sp.offsets = append(c.sp.offsets, offs[:len(dec)]...)
	}
	if t.SoftLineBreak() {
		c.b = append(c.b, ' ')
		c.sp.offsets = append(c.sp.offsets, t.Segment.Stop)
	}
}

// done stores the text collected in sl.lit and returns its span.
func (c *textCollector) done(sl *slab) span {
	sl.lit = c.b
	c.sp.literal = c.b[c.at:]
	return c.sp
}

// textSpanWalk is textSpan for any link: it walks the link's inlines.
func textSpanWalk(link ast.Node, src []byte, sl *slab) span {
	c := newTextCollector(src, sl, textSpanLen(link))
	_ = ast.Walk(link, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Text:
			c.text(t)
		case *ast.String:
			c.b = append(c.b, t.Value...)
			for range t.Value {
				c.sp.offsets = append(c.sp.offsets, -1)
			}
		case *ast.CodeSpan:
			c.sp.code = true
			for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
				if tx, ok := ch.(*ast.Text); ok {
					c.addSeg(tx.Segment)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			if n != link {
				c.sp.image = true
			}
		}
		return ast.WalkContinue, nil
	})
	return c.done(sl)
}

// textSpanLen is the length of the text textSpan collects from link.
func textSpanLen(link ast.Node) int {
	n := 0
	_ = ast.Walk(link, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			n += t.Segment.Len()
			if t.SoftLineBreak() {
				n++
			}
		case *ast.String:
			n += len(t.Value)
		case *ast.CodeSpan:
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if tx, ok := c.(*ast.Text); ok {
					n += tx.Segment.Len()
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return n
}

// destinationRange returns the range of an inline link's destination in
// src, the link's text ending at textEnd, and whether it is dest's bytes
// as written. When it is not (escapes, entities, a reference link) the
// range runs from the "](" (or textEnd) to the end of that line.
func destinationRange(ix *diag.LineIndex, src []byte, textEnd int, dest []byte) (pos, end diag.Position, raw bool) {
	at := destinationAt(src, textEnd)
	if at >= 0 && bytes.HasPrefix(src[at:], dest) {
		pos, end = ix.Span(at, at+len(dest))
		return pos, end, true
	}
	if at < 0 {
		at = textEnd
	}
	return ix.Pos(at), ix.LineEnd(at), false
}

// appendTitleNumbers appends to ns the numbers of the title of the
// inline link or image whose text ends at textEnd (its "]"): the title a
// reader sees as a tooltip, where no claim can be written. in says where
// the title is. A title goldmark read from a reference definition, or
// whose source the destination's end does not lead to, is not read.
func appendTitleNumbers(ns []prose.Number, ix *diag.LineIndex, src []byte, textEnd int, dest, title []byte, in string) []prose.Number {
	if len(title) == 0 || !prose.HasDigit(title) {
		return ns
	}
	at := destinationAt(src, textEnd)
	if at < 0 || !bytes.HasPrefix(src[at:], dest) {
		return ns
	}
	i := at + len(dest)
	if at > 0 && src[at-1] == '<' && i < len(src) && src[i] == '>' {
		i++
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i >= len(src) {
		return ns
	}
	closer := src[i]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return ns
	}
	j := i + 1
	for j < len(src) && src[j] != closer {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(src) {
		return ns
	}
	for _, pn := range prose.ScanText(ix, src, i+1, j) {
		pn.In = in
		ns = append(ns, pn)
	}
	return ns
}

// nodeStart returns the source offset goldmark recorded for an inline
// node: the "[" of a link, the "![" of an image, the "<" of an autolink;
// 0 when it has none.
func nodeStart(n ast.Node) int {
	return max(n.Pos(), 0)
}

// destinationAt returns the offset of an inline link's destination: the
// byte after the "](" (and an optional "<") that closes the link text
// ending at textEnd, or -1 for a reference link ([text][label]).
func destinationAt(src []byte, textEnd int) int {
	i := textEnd
	for i < len(src) && (src[i] == '*' || src[i] == '_' || src[i] == '~' || src[i] == '`') {
		i++ // closing emphasis, strikethrough or code span marks
	}
	if i+1 >= len(src) || src[i] != ']' || src[i+1] != '(' {
		return -1
	}
	i += 2
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
		i++
	}
	if i < len(src) && src[i] == '<' {
		i++
	}
	return i
}

// ParseRefs splits a claim destination ("ev:SET/NAME,NAME,SET/NAME") into
// full references. It returns a message describing the first problem, or "".
func ParseRefs(dest string) ([]string, string) {
	return parseRefs(dest, nil)
}

// parseRefs is ParseRefs, taking the slice of references from sl when
// it is not nil.
func parseRefs(dest string, sl *slab) ([]string, string) {
	body := strings.TrimPrefix(dest, Scheme)
	if strings.TrimSpace(body) == "" {
		return nil, "empty evidence reference; expected ev:SET/NAME"
	}
	var refs []string // nil until the first reference, as callers expect
	add := func(ref string) {
		if refs == nil {
			if n := strings.Count(body, ",") + 1; sl != nil {
				refs = sl.strings(n)
			} else {
				refs = make([]string, 0, n)
			}
		}
		refs = append(refs, ref)
	}
	set := ""
	for rest, more := body, true; more; {
		var item string
		item, rest, more = strings.Cut(rest, ",")
		item = strings.TrimSpace(item)
		if item == "" {
			return refs, "empty item in evidence reference list; expected ev:SET/NAME[,NAME…]"
		}
		if i := strings.IndexByte(item, '/'); i >= 0 {
			set = item[:i]
			name := item[i+1:]
			if set == "" || name == "" || strings.Contains(name, "/") {
				return refs, "malformed evidence reference " + strings.TrimSpace(set+"/"+name) + "; expected SET/NAME"
			}
			add(item) // SET/NAME as written
			continue
		} else if set == "" {
			return refs, "evidence reference " + item + " has no set; expected SET/NAME first"
		}
		add(set + "/" + item)
	}
	return refs, ""
}

// brokenClaims reports each [text](ev:…) that CommonMark does not read as
// a link, so that its text is prose and its number no claim: an "ev:"
// in a text node (text, the byte ranges of the page's text nodes) right
// after "](" (spaces around the "(" and a "<" as an author may write
// them). The message says what keeps it from being a link, at the "ev:".
func brokenClaims(ix *diag.LineIndex, src []byte, text [][2]int) diag.List {
	var errs diag.List
	for _, t := range text {
		for off := t[0]; off < t[1]; {
			k := bytes.Index(src[off:t[1]], []byte(Scheme))
			if k < 0 {
				break
			}
			at := off + k
			off = at + len(Scheme)
			if d := brokenClaim(ix, src, at); d != nil {
				errs = append(errs, *d)
			}
		}
	}
	return errs
}

// brokenClaim returns the claim-syntax error of the "ev:" at src[at] in
// prose text when "](" comes before it, or nil.
func brokenClaim(ix *diag.LineIndex, src []byte, at int) *diag.Diagnostic {
	j := at
	if j > 0 && src[j-1] == '<' {
		j--
	}
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j == 0 || src[j-1] != '(' {
		return nil
	}
	paren := j - 1 // the "("
	for j = paren; j > 0 && (src[j-1] == ' ' || src[j-1] == '\t'); j-- {
	}
	if j == 0 || src[j-1] != ']' || j > 1 && src[j-2] == '\\' {
		return nil // no "](", or \](: the author keeps it text
	}
	bracket := j - 1 // the "]"
	lineEnd := ix.LineEnd(at)
	dest := src[at:lineEnd.Offset]
	if i := bytes.IndexByte(dest, ')'); i >= 0 {
		dest = dest[:i]
	}
	var msg string
	switch {
	case len(dest) > len(Scheme) && (dest[len(Scheme)] == ' ' || dest[len(Scheme)] == '\t'):
		msg = "ev: destination has a space after the scheme; write ev:SET/NAME"
	case paren > bracket+1:
		msg = "claim text and its (ev:…) destination are apart: a space between \"]\" and \"(\" makes the text prose; write [number](ev:SET/NAME)"
	case bytes.IndexByte(src[at:lineEnd.Offset], ')') < 0:
		msg = "ev: destination has no closing \")\" on its line; write [number](ev:SET/NAME)"
	case bytes.ContainsAny(dest, " \t"):
		msg = fmt.Sprintf("ev: destination %q holds a space; a destination ends at a space (only a quoted title may follow): write ev:SET/NAME[,NAME…] without spaces", string(dest))
	case !opensOnLine(src[ix.LineStart(ix.Pos(bracket).Line):bracket]):
		msg = fmt.Sprintf("\"](%s)\" closes no link text: no \"[\" opens it on its line, so its number is no claim; write [number](%s)", string(dest), string(dest))
	default:
		msg = fmt.Sprintf("[…](%s) is not read as a link, so its number is no claim; write [number](ev:SET/NAME)", string(dest))
	}
	d := diag.Errorf(ix.Pos(at), diag.ClaimSyntax, "%s", msg).Spanning(lineEnd)
	return &d
}

// opensOnLine reports whether the text of a line before a "]" holds a
// "[" that no "]" closes before it.
func opensOnLine(before []byte) bool {
	k := bytes.LastIndexByte(before, '[')
	return k >= 0 && bytes.IndexByte(before[k+1:], ']') < 0
}
