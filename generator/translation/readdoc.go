package translation

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// shortcodeCallRe finds a shortcode call ({{< … >}}, {{% … %}}), which
// is not prose.
var shortcodeCallRe = regexp.MustCompile(`(?s)\{\{[<%].*?[%>]\}\}`)

var evfigureCallRe = regexp.MustCompile(`\{\{[<%]\s*evfigure\s+name\s*=\s*"([^"]*)"`)

// readDoc reads the page's blocks, as claim.Parse listed them; units
// gives the unit of the evidence value a claim's reference names (nil:
// unknown).
func readDoc(p *Page, units ValueUnits) *doc {
	return readDocIn(p, units, nil)
}

// docRoom is the room of a doc read by readDocIn and dropped, for the
// next doc to reuse: its blocks, its claims, their numbers and the
// claims' cache. The room is all zero while a docRoom holds it.
type docRoom struct {
	blocks  []block
	claims  []pageClaim
	blockOf []int
	sl      numscan.Slab
	cache   numscan.ClaimCache
}

// docRooms holds the rooms parity recycles.
var docRooms = sync.Pool{New: func() any { return new(docRoom) }}

// recycle takes back the room of d, read by readDocIn(…, r), once
// nothing reads d, its blocks, claims or their numbers any longer.
func (r *docRoom) recycle(d *doc) {
	if cap(d.blocks) > cap(r.blocks) {
		clear(d.blocks[:cap(d.blocks)])
		r.blocks = d.blocks[:0]
	}
	if cap(d.claims) > cap(r.claims) {
		clear(d.claims[:cap(d.claims)])
		r.claims = d.claims[:0]
	}
	r.sl.Reset()
	r.cache.Reset()
	d.blocks, d.claims = nil, nil
}

// readDocIn is readDoc with the doc's blocks, claims and their numbers
// placed in r's room when r is not nil (see docRoom).
func readDocIn(p *Page, units ValueUnits, r *docRoom) *doc {
	if r == nil {
		r = &docRoom{}
	}
	d := &doc{page: p}
	src := p.Parsed.Source
	section := 0
	table, row := -1, 0
	claimAt := claimIndex(p.Parsed.Claims) // claim literal offset → index in p.Parsed.Claims
	// claim index → block, -1 for none
	blockOf := r.blockOf
	if cap(blockOf) < len(p.Parsed.Claims) {
		blockOf = make([]int, len(p.Parsed.Claims))
		r.blockOf = blockOf
	}
	blockOf = blockOf[:len(p.Parsed.Claims)]
	for i := range blockOf {
		blockOf[i] = -1
	}
	// claim index → the label written right before it (see itemLabels)
	claimLabel := map[int]string{}
	// text reads a block's inlines as text (blockText), with the page
	// offset of each of its bytes, its code spans with a digit and its
	// claims. The offsets are valid until the next call.
	var back []int
	type claimAtText struct{ ci, at int }
	var claimsIn []claimAtText // the claims of the block text() read last, by offset there
	var spans []codeSpan       // the code spans with a digit of the block text() read last
	onClaim := func(start, at int) {
		if ci, ok := claimAt.at(start); ok {
			blockOf[ci] = len(d.blocks)
			claimsIn = append(claimsIn, claimAtText{ci, at})
		}
	}
	text := func(in []claim.Inline) (string, []int) {
		claimsIn = claimsIn[:0]
		spans = nil
		var span []byte // the code span being read
		spanStart, spanEnd := -1, -1
		endSpan := func() {
			if spanStart >= 0 && hasNumberRune(span) {
				spans = append(spans, codeSpan{text: string(span), start: spanStart, end: spanEnd})
			}
			span, spanStart = span[:0], -1
		}
		for _, x := range in {
			if x.Kind == claim.InlineCode {
				// a code span: its numbers are read as the prose's, and
				// its text is compared as text too (compareCodeSpans)
				if spanStart >= 0 && bytes.IndexByte(src[spanEnd:x.Start], '`') >= 0 {
					endSpan()
				}
				if spanStart < 0 {
					spanStart = x.Start
				} else {
					span = append(span, ' ')
				}
				span = append(span, src[x.Start:x.Stop]...)
				spanEnd = x.Stop
			} else if x.Kind != claim.InlineBreak {
				endSpan()
			}
			if x.Kind == claim.InlineLink {
				d.links = append(d.links, linkUse{dest: x.Value, start: x.Start})
			}
		}
		endSpan()
		var txt string
		txt, back = blockText(src, in, back[:0], onClaim)
		return txt, back
	}
	var items []orderItem // reused from block to block
	addText := func(in claim.Block, kind string) {
		txt, back := text(in.Inlines)
		bl := block{kind: kind, level: in.Level, section: section, table: -1, start: in.Start, spans: spans}
		if kind == "cell" {
			bl.table, bl.row = table, row
		}
		txt = blankShortcodes(txt)
		if hasNumberRuneString(txt) {
			// the source's code span may be written here as prose: its
			// text is read again when asked (blockProse)
			bl.inlines = in.Inlines
		}
		// the items of the block in order, for transitions: its numbers
		// and its claims, at their offsets in txt
		items = items[:0]
		nums := numscan.ScanLang(txt, p.Lang)
		ki := 0
		for _, num := range nums {
			for ki < len(claimsIn) && claimsIn[ki].at < num.Start {
				items = appendClaimItems(items, p, claimsIn[ki].ci, claimsIn[ki].at)
				ki++
			}
			if num.Kind != "id" {
				items = append(items, orderItem{key: num.Key, text: num.Text, start: num.Start, end: num.End, claim: -1, ref: -1})
			}
		}
		for ; ki < len(claimsIn); ki++ {
			items = appendClaimItems(items, p, claimsIn[ki].ci, claimsIn[ki].at)
		}
		pageOff := func(i int, end bool) int {
			if end {
				if i > 0 && i-1 < len(back) && back[i-1] >= 0 {
					return back[i-1] + 1
				}
			} else if i < len(back) && back[i] >= 0 {
				return back[i]
			}
			return bl.start
		}
		for k := 1; k < len(items); k++ {
			a, b := items[k-1], items[k]
			if a.claim >= 0 && a.claim == b.claim || isTransitionGap(txt[min(a.end, b.start):b.start]) {
				t := transition{claims: a.claim >= 0 || b.claim >= 0}
				t.from, t.fromText = itemKey(p, a)
				t.to, t.toText = itemKey(p, b)
				if a.claim >= 0 {
					t.start = p.Parsed.Claims[a.claim].Pos.Offset
				} else {
					t.start = pageOff(a.start, false)
				}
				if b.claim >= 0 {
					t.end = p.Parsed.Claims[b.claim].End
				} else {
					t.end = pageOff(b.end, true)
				}
				bl.trans = append(bl.trans, t)
			}
		}
		numLabel := itemLabels(txt, items, claimLabel)
		for _, num := range nums {
			if num.Kind == "id" {
				continue // a name such as p99, L7 or MID1, not a number
			}
			num.Label = numLabel[num.Start]
			// Start and End become page offsets (End: just past the
			// number's last byte when it maps, else the block's start
			// line's end, so a finding still spans the number's line).
			end := -1
			if num.End > 0 && num.End-1 < len(back) && back[num.End-1] >= 0 {
				end = back[num.End-1] + 1
			}
			if num.Start < len(back) && back[num.Start] >= 0 {
				num.Start = back[num.Start]
			} else {
				num.Start = bl.start
			}
			if end < num.Start {
				end = d.page.Parsed.Index.LineEnd(num.Start).Offset
			}
			num.End = end
			if num.Word && inExempt(p.Parsed.Claims, num.Start) {
				// an exemption marker's number is written on purpose: a
				// word is compared as its digits are ([열 번] vs [九回])
				num.Word = false
			}
			bl.numbers = append(bl.numbers, num)
		}
		d.blocks = append(d.blocks, bl)
	}
	nb := 0 // the blocks kept: not a table or a row
	for i := range p.Parsed.Blocks {
		if k := p.Parsed.Blocks[i].Kind; k != claim.BlockTable && k != claim.BlockRow {
			nb++
		}
	}
	if cap(r.blocks) >= nb {
		d.blocks, r.blocks = r.blocks[:0], nil
	} else {
		d.blocks = make([]block, 0, nb)
	}
	for _, b := range p.Parsed.Blocks {
		switch b.Kind {
		case claim.BlockHeading:
			section++
			addText(b, "heading")
		case claim.BlockText:
			addText(b, "text")
		case claim.BlockTable:
			d.tables = append(d.tables, tableInfo{section: section, start: b.Start})
			table, row = len(d.tables)-1, 0
		case claim.BlockRow:
			d.tables[table].rows++
			row++
		case claim.BlockCell:
			addText(b, "cell")
		case claim.BlockCode:
			var code bytes.Buffer
			for _, x := range b.Inlines {
				code.Write(src[x.Start:x.Stop])
			}
			d.blocks = append(d.blocks, block{kind: "code", section: section, start: b.Start, code: code.Bytes(), table: -1})
		}
	}
	body := src[p.Parsed.BodyStart:]
	for _, m := range evfigureCallRe.FindAllSubmatchIndex(body, -1) {
		at := p.Parsed.BodyStart
		d.figures = append(d.figures, figureUse{name: string(body[m[2]:m[3]]), start: at + m[0]})
	}
	// one pageClaim a claim, or one a reference for a claim read as one
	// number a reference (below)
	size := 0
	for i := range p.Parsed.Claims {
		size += max(1, len(p.Parsed.Claims[i].Refs))
	}
	if cap(r.claims) >= size {
		d.claims, r.claims = r.claims[:0], nil
	} else {
		d.claims = make([]pageClaim, 0, size)
	}
	// the page as a string, copied once for the text around its claims
	srcText := string(src)
	sl := &r.sl
	cache := &r.cache // a literal quoted again with the same words around it
	cache.Grow(len(p.Parsed.Claims))
	for i := range p.Parsed.Claims {
		c := &p.Parsed.Claims[i]
		if c.Exempt {
			continue
		}
		pc := pageClaim{Claim: c, Refs: c.Refs, block: -1}
		if bi := blockOf[i]; bi >= 0 {
			pc.block = bi
			pc.section = d.blocks[bi].section
		}
		nums := numscan.ClaimNumbersCached(srcText, c, p.Lang, sl, units, cache)
		if len(nums) == len(c.Refs) && len(nums) > 1 {
			// [18 (+1)](ev:a,b) says what [18](ev:a) … [+1](ev:b) says:
			// compare one reference with its number at a time
			for k := range c.Refs {
				one := pc
				// views of one element each, capped: never written
				one.Refs = c.Refs[k : k+1 : k+1]
				one.numbers = nums[k : k+1 : k+1]
				if k == 0 {
					one.label = claimLabel[i] // the label names the first
				}
				d.claims = append(d.claims, one)
			}
			continue
		}
		pc.numbers = nums
		pc.label = claimLabel[i]
		d.claims = append(d.claims, pc)
	}
	return d
}

// blockText reads a block's inlines as text: a text node's bytes with
// their character references decoded (a code span's as written), a
// space for a hard or soft line break and for a claim, an inline
// string's value; with the page offset of each of its bytes appended to
// back (-1 for bytes not in the page). onClaim, when not nil, is told
// each claim's start in the page and its offset in the text.
func blockText(src []byte, in []claim.Inline, back []int, onClaim func(start, at int)) (string, []int) {
	var b strings.Builder
	size := 0
	for _, x := range in {
		switch x.Kind {
		case claim.InlineText, claim.InlineCode:
			size += x.Stop - x.Start
		default:
			size += len(x.Value) + 1
		}
	}
	b.Grow(size)
	for _, x := range in {
		switch x.Kind {
		case claim.InlineText, claim.InlineCode:
			// a text node's value has its character references
			// decoded (&#52;&#48; is 40), except in a code span
			var dec []byte
			var offs []int
			if x.Kind == claim.InlineText {
				dec, offs = prose.DecodeCharRefs(src[x.Start:x.Stop], x.Start, x.Stop)
			}
			if offs != nil {
				b.Write(dec)
				back = append(back, offs[:len(dec)]...)
			} else {
				b.Write(src[x.Start:x.Stop])
				for k := x.Start; k < x.Stop; k++ {
					back = append(back, k)
				}
			}
		case claim.InlineBreak:
			b.WriteByte(' ')
			back = append(back, x.Start)
		case claim.InlineString:
			b.WriteString(x.Value)
			for range len(x.Value) {
				back = append(back, -1)
			}
		case claim.InlineClaim:
			// a claim: its numbers are compared as claims
			if onClaim != nil {
				onClaim(x.Start, b.Len())
			}
			b.WriteString(" ")
			back = append(back, -1)
		}
	}
	return b.String(), back
}

// blankShortcodes returns txt with each shortcode call in it replaced by
// as many spaces: a call is not prose.
func blankShortcodes(txt string) string {
	if !strings.Contains(txt, "{{") {
		return txt
	}
	for _, m := range shortcodeCallRe.FindAllStringIndex(txt, -1) {
		txt = txt[:m[0]] + strings.Repeat(" ", m[1]-m[0]) + txt[m[1]:]
	}
	return txt
}

// blockProse returns the prose of block bi of d (its text, as readDoc
// read it, when it holds a digit; "" otherwise) and the page offset of
// each of its bytes (-1 for none): read again from the block's inlines,
// as only a code span written as prose asks for it (see proseSpan).
func blockProse(d *doc, bi int) (string, []int) {
	b := &d.blocks[bi]
	if b.inlines == nil {
		return "", nil
	}
	txt, back := blockText(d.page.Parsed.Source, b.inlines, nil, nil)
	return blankShortcodes(txt), back
}

// claimOffsets finds a claim of a page by the offset of its literal: the
// last claim at that offset, as a map filled in page order would hold.
type claimOffsets struct {
	claims []claim.Claim
	byOff  map[int]int // when the claims are not in page order
}

// claimIndex indexes claims by the offset of their literal: a binary
// search when they are in page order (as claim.Parse lists them), a map
// otherwise.
func claimIndex(claims []claim.Claim) claimOffsets {
	for i := 1; i < len(claims); i++ {
		if claims[i].Pos.Offset < claims[i-1].Pos.Offset {
			m := make(map[int]int, len(claims))
			for k := range claims {
				m[claims[k].Pos.Offset] = k
			}
			return claimOffsets{byOff: m}
		}
	}
	return claimOffsets{claims: claims}
}

// at returns the index of the last claim whose literal starts at off.
func (c claimOffsets) at(off int) (int, bool) {
	if c.byOff != nil {
		i, ok := c.byOff[off]
		return i, ok
	}
	// the first claim starting after off; the one before it starts at
	// off or earlier
	i := sort.Search(len(c.claims), func(k int) bool { return c.claims[k].Pos.Offset > off })
	if i > 0 && c.claims[i-1].Pos.Offset == off {
		return i - 1, true
	}
	return 0, false
}

// inExempt reports whether the page offset at lies in the text of one
// of claims that is an exemption marker.
func inExempt(claims []claim.Claim, at int) bool {
	for i := range claims {
		if c := &claims[i]; c.Exempt && at >= c.Pos.Offset && at < c.End {
			return true
		}
	}
	return false
}

// orderItem is a number or a claim of a block, in the order the block
// writes them (see transition).
type orderItem struct {
	key, text  string // a number's normal form and text (a claim's: see itemKey)
	start, end int    // offsets in the block's text (a claim stands there as one byte)
	claim      int    // index of the claim in the page, -1 for a number of the prose
	ref        int    // the reference of a transition claim this item stands for, -1 for all
}

// appendClaimItems appends the items claim ci, at offset at of its
// block's text, stands for: one for all its references; or, for a
// transition that quotes one reference per number
// ([51.7%→0.21%](ev:a,b)), one per reference in the order written.
func appendClaimItems(items []orderItem, p *Page, ci, at int) []orderItem {
	c := &p.Parsed.Claims[ci]
	if c.Exempt {
		return items
	}
	it := orderItem{start: at, end: at + 1, claim: ci, ref: -1}
	if qs := c.Parsed.Quantities; c.ParseErr == nil && c.Parsed.Kind == literal.Transition && len(qs) == len(c.Refs) && len(qs) > 1 {
		for k := range c.Refs {
			it.ref = k
			items = append(items, it)
		}
		return items
	}
	return append(items, it)
}

// itemKey returns the key and text of an item: a claim's are "ev:" and
// its references (or the one it stands for) and its literal (or that
// reference's number); a number's, its normal form and text.
func itemKey(p *Page, it orderItem) (string, string) {
	if it.claim < 0 {
		return it.key, it.text
	}
	c := &p.Parsed.Claims[it.claim]
	if it.ref < 0 {
		return "ev:" + strings.Join(c.Refs, ","), c.Literal
	}
	text := c.Literal
	if q := c.Parsed.Quantities[it.ref]; q.Start >= 0 && q.End <= len(c.Literal) && q.Start <= q.End {
		text = c.Literal[q.Start:q.End]
	}
	return "ev:" + c.Refs[it.ref], text
}

// isTransitionGap reports whether the text between two numbers makes the
// first the start and the second the end of a change: an arrow, or
// 에서 / から (51.7%에서 0.21%로, 51.7%から0.21%に).
func isTransitionGap(gap string) bool {
	t := trimGap(gap)
	if len(t) > len("에서") {
		return false // longer than every word below
	}
	switch t {
	case "→", "->", "⇒", "=>", "➡", "➔", "⟶", "에서", "から":
		return true
	}
	return false
}

// trimGap is strings.Trim(gap, " \t\u00a0") read byte by byte: U+00A0
// is the two bytes C2 A0, and C2 is no continuation byte, so those two
// bytes at either end are that rune as strings.Trim decodes it
// (TestTrimGap).
func trimGap(gap string) string {
	for len(gap) > 0 {
		if c := gap[0]; c == ' ' || c == '\t' {
			gap = gap[1:]
		} else if c == 0xC2 && len(gap) > 1 && gap[1] == 0xA0 {
			gap = gap[2:]
		} else {
			break
		}
	}
	for len(gap) > 0 {
		if c := gap[len(gap)-1]; c == ' ' || c == '\t' {
			gap = gap[:len(gap)-1]
		} else if c == 0xA0 && len(gap) > 1 && gap[len(gap)-2] == 0xC2 {
			gap = gap[:len(gap)-2]
		} else {
			break
		}
	}
	return gap
}

// hasNumberRuneString is hasNumberRune of a string, without copying it:
// a rune of three bytes is decoded only when its block of 64 holds a
// number (numberBlock3), so Hangul, kana and Han are passed over by
// their first two bytes (TestHasNumberRuneStringEveryRune).
func hasNumberRuneString(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= '0' && c <= '9' {
				return true
			}
			i++
			continue
		}
		if c&0xF0 == 0xE0 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 && !numberBlock3[int(c&0x0F)<<6|int(s[i+1]&0x3F)] {
			// a lead byte and two continuation bytes: no rune of
			// this block is a number (and an invalid sequence, which
			// hasNumberRune reads as three errors, holds none either)
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsNumber(r) {
			return true
		}
		i += n
	}
	return false
}

// numberBlock3 tells, for each block of 64 runes from U+0800 to U+FFFF
// (a rune's value shifted right by 6: the low bits of its UTF-8 lead
// byte and of its second byte), whether one of them is a number
// (unicode.IsNumber).
var numberBlock3 = func() (t [1024]bool) {
	for r := rune(0x800); r <= 0xFFFF; r++ {
		if unicode.IsNumber(r) {
			t[r>>6] = true
		}
	}
	return t
}()

// hasNumberRune reports whether b holds a digit of any script or
// another numeric symbol (unicode.IsNumber).
func hasNumberRune(b []byte) bool {
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			if c >= '0' && c <= '9' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if prose.IsNumber(r) {
			return true
		}
		i += n
	}
	return false
}
