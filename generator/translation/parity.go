package translation

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// block is one aligned unit of a page: a heading, paragraph, list item
// paragraph, table cell or code block, with the section (count of
// headings before it) it is in.
type block struct {
	kind    string // "heading", "text", "cell", "code"
	level   int    // heading level
	section int
	start   int // byte offset in the page
	numbers []numscan.Number
	code    []byte // code block content
	table   int    // index of the table a cell belongs to, -1 otherwise
	row     int
	trans   []transition
	// spans are the block's code spans that hold a digit, compared as
	// text (see compareCodeSpans); prose is the block's text (when it
	// holds a digit) and back the page offset of each of its bytes (-1
	// for none).
	spans []codeSpan
	prose string
	back  []int
}

// codeSpan is the text of a code span, literally (its lines joined by a
// space), and its page offsets.
type codeSpan struct {
	text       string
	start, end int
}

// transition is two numbers of a block joined by an arrow or by 에서/から
// (51.7%→0.21%, 51.7%에서 0.21%로, [a](ev:x)→[b](ev:y)): the order is
// part of what the text says. from and to are the numbers' normal forms,
// or "ev:" and the references for a claim.
type transition struct {
	from, to         string
	fromText, toText string
	start, end       int // page offsets of the first number's start, the second's end
	claims           bool
}

// tableInfo is one GFM table: its section, rows and position.
type tableInfo struct {
	section, rows, start int
}

// doc is a page's structure as parity compares it.
type doc struct {
	page    *Page
	blocks  []block
	tables  []tableInfo
	claims  []pageClaim
	figures []figureUse
	links   []linkUse
}

// pageClaim is a claim of the page (not a copy: a claim is 400 bytes)
// with the references it is compared by: all of the claim's, or one of
// them when the claim is split (see readDoc).
type pageClaim struct {
	*claim.Claim
	Refs    []string
	numbers []numscan.Number
	block   int // index into blocks, -1 if none
	section int
	label   string // the statistic written right before it (see itemLabels)
}

type figureUse struct {
	name  string
	start int
}

type linkUse struct {
	dest  string
	start int
}

var evfigureCallRe = regexp.MustCompile(`\{\{[<%]\s*evfigure\s+name\s*=\s*"([^"]*)"`)

// readDoc reads the page's blocks, as claim.Parse listed them; units
// gives the unit of the evidence value a claim's reference names (nil:
// unknown).
func readDoc(p *Page, units ValueUnits) *doc {
	d := &doc{page: p}
	src := p.Parsed.Source
	section := 0
	table, row := -1, 0
	claimAt := make(map[int]int, len(p.Parsed.Claims)) // claim literal offset → index in p.Parsed.Claims
	for i, c := range p.Parsed.Claims {
		claimAt[c.Pos.Offset] = i
	}
	blockOf := make(map[int]int, len(p.Parsed.Claims)) // claim index → block
	// claim index → the label written right before it (see itemLabels)
	claimLabel := map[int]string{}
	// text reads a block's inlines as text, with the page offset of each
	// of its bytes (-1 for bytes not in the page). The offsets are valid
	// until the next call.
	var back []int
	type claimAtText struct{ ci, at int }
	var claimsIn []claimAtText // the claims of the block text() read last, by offset there
	var spans []codeSpan       // the code spans with a digit of the block text() read last
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
		back = back[:0]
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
				if ci, ok := claimAt[x.Start]; ok {
					blockOf[ci] = len(d.blocks)
					claimsIn = append(claimsIn, claimAtText{ci, b.Len()})
				}
				b.WriteString(" ")
				back = append(back, -1)
			case claim.InlineLink:
				d.links = append(d.links, linkUse{dest: x.Value, start: x.Start})
			}
		}
		endSpan()
		return b.String(), back
	}
	var items []orderItem // reused from block to block
	addText := func(in claim.Block, kind string) {
		txt, back := text(in.Inlines)
		bl := block{kind: kind, level: in.Level, section: section, table: -1, start: in.Start, spans: spans}
		if kind == "cell" {
			bl.table, bl.row = table, row
		}
		// shortcode calls are not prose
		for _, m := range shortcodeCallRe.FindAllStringIndex(txt, -1) {
			txt = txt[:m[0]] + strings.Repeat(" ", m[1]-m[0]) + txt[m[1]:]
		}
		if hasNumberRune([]byte(txt)) {
			// the source's code span may be written here as prose
			bl.prose, bl.back = txt, slices.Clone(back)
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
	d.claims = make([]pageClaim, 0, len(p.Parsed.Claims))
	// the page as a string, copied once for the text around its claims
	srcText := string(src)
	var sl numscan.Slab
	for i := range p.Parsed.Claims {
		c := &p.Parsed.Claims[i]
		if c.Exempt {
			continue
		}
		pc := pageClaim{Claim: c, Refs: c.Refs, block: -1}
		if bi, ok := blockOf[i]; ok {
			pc.block = bi
			pc.section = d.blocks[bi].section
		}
		nums := numscan.ClaimNumbers(srcText, c, p.Lang, &sl, units)
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
	t := strings.Trim(gap, " \t\u00a0")
	switch t {
	case "→", "->", "⇒", "=>", "➡", "➔", "⟶", "에서", "から":
		return true
	}
	return false
}

// parity compares a translation t with its source s and reports every
// difference on t's line, with s's line as a related position; units
// gives the unit of the evidence value a claim's reference names (nil:
// unknown), in which a claim's number written without a unit is
// compared.
func parity(s, t *Page, units ValueUnits) diag.List {
	ds, dt := readDoc(s, units), readDoc(t, units)
	var out diag.List
	rel := func(off int, msg string) []diag.Related {
		return []diag.Related{{Pos: s.Parsed.Index.Pos(off), Message: msg}}
	}
	at := func(off int) diag.Position { return t.Parsed.Index.Pos(off) }
	srcName := fmt.Sprintf("the %s source", s.Lang)

	// Structure: headings.
	hs, ht := headings(ds), headings(dt)
	sectionsAlign := len(hs) == len(ht)
	for i := 0; i < len(hs) && i < len(ht); i++ {
		if hs[i].level != ht[i].level {
			out = append(out, diag.Diagnostic{Pos: at(ht[i].start), End: dt.page.Parsed.Index.LineEnd(ht[i].start), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("heading level %d where %s has level %d", ht[i].level, srcName, hs[i].level), Related: rel(hs[i].start, "the source heading")})
			sectionsAlign = false
			break
		}
	}
	if len(hs) != len(ht) {
		pos, r := at(0), rel(0, "the source page")
		if n := min(len(hs), len(ht)); n < len(hs) {
			r = rel(hs[n].start, "the first source heading without a counterpart")
			if n > 0 {
				pos = at(ht[n-1].start)
			}
		} else if n < len(ht) {
			pos = at(ht[n].start)
		}
		out = append(out, diag.Diagnostic{Pos: pos, End: dt.page.Parsed.Index.LineEnd(pos.Offset), Severity: diag.Error, Rule: diag.TranslationStructure,
			Message: fmt.Sprintf("%d headings where %s has %d", len(ht), srcName, len(hs)), Related: r})
	}
	// sectionOf maps a translation section to the source's (identity when aligned, else everything is section 0).
	sec := func(n int) int {
		if sectionsAlign {
			return n
		}
		return 0
	}

	// Tables: per section, in order.
	out = append(out, compareTables(ds, dt, sec, at, rel, srcName)...)

	// Code blocks: byte for byte, in order.
	cs, ct := codeBlocks(ds), codeBlocks(dt)
	for i := 0; i < len(cs) || i < len(ct); i++ {
		switch {
		case i >= len(ct):
			out = append(out, diag.Diagnostic{Pos: at(lastStart(dt)), End: dt.page.Parsed.Index.LineEnd(lastStart(dt)), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("%s has a code block with no counterpart here", srcName), Related: rel(cs[i].start, "the source code block")})
		case i >= len(cs):
			out = append(out, diag.Diagnostic{Pos: at(ct[i].start), End: dt.page.Parsed.Index.LineEnd(ct[i].start), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("code block with no counterpart in %s", srcName), Related: rel(0, "the source page")})
		case !bytes.Equal(cs[i].code, ct[i].code):
			out = append(out, diag.Diagnostic{Pos: at(ct[i].start), End: dt.page.Parsed.Index.LineEnd(ct[i].start), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("code block differs from %s's; code is not translated (expected the same bytes)", srcName), Related: rel(cs[i].start, "the source code block")})
		}
	}

	// Figures and internal link targets.
	fs, ft := map[string]int{}, map[string]int{}
	for _, f := range ds.figures {
		fs[f.name] = f.start
	}
	for _, f := range dt.figures {
		ft[f.name] = f.start
		if _, ok := fs[f.name]; !ok {
			out = append(out, diag.Diagnostic{Pos: at(f.start), End: dt.page.Parsed.Index.LineEnd(f.start), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("figure %q is not in %s", f.name, srcName), Related: rel(0, "the source page")})
		}
	}
	for _, f := range ds.figures {
		if _, ok := ft[f.name]; !ok {
			out = append(out, diag.Diagnostic{Pos: at(0), End: dt.page.Parsed.Index.LineEnd(0), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("figure %q of %s is missing here", f.name, srcName), Related: rel(f.start, "the source figure")})
		}
	}
	ls, lt := map[string]int{}, map[string]int{}
	for _, l := range ds.links {
		if _, ok := ls[linkTarget(l.dest)]; !ok {
			ls[linkTarget(l.dest)] = l.start
		}
	}
	for _, l := range dt.links {
		if _, ok := lt[linkTarget(l.dest)]; !ok {
			lt[linkTarget(l.dest)] = l.start
			if _, ok := ls[linkTarget(l.dest)]; !ok {
				out = append(out, diag.Diagnostic{Pos: at(l.start), End: dt.page.Parsed.Index.LineEnd(l.start), Severity: diag.Error, Rule: diag.TranslationStructure,
					Message: fmt.Sprintf("link to %s, which %s does not link to", l.dest, srcName), Related: rel(0, "the source page")})
			}
		}
	}
	for _, l := range ds.links {
		if _, ok := lt[linkTarget(l.dest)]; !ok {
			lt[linkTarget(l.dest)] = -1
			out = append(out, diag.Diagnostic{Pos: at(0), End: dt.page.Parsed.Index.LineEnd(0), Severity: diag.Error, Rule: diag.TranslationStructure,
				Message: fmt.Sprintf("%s links to %s; this page does not", srcName, l.dest), Related: rel(l.start, "the source link")})
		}
	}

	peer := alignBlocks(ds, dt, sectionsAlign)
	note := syncNote(s, t)
	out = append(out, compareClaims(ds, dt, sec, peer, at, rel, srcName, note)...)
	out = append(out, compareNumbers(ds, dt, sectionsAlign, at, rel, srcName)...)
	return out
}

// linkTarget is a link destination as far as it names a target: without
// its fragment and trailing slash, and, for a path (no scheme), in the
// form the theme's render hook hands Hugo's GetPage, so two spellings
// GetPage resolves alike from any page compare equal: a leading "./" is
// dropped ("./x" is "x"), and a ".md" extension too ("x.md" is "x"),
// except after "../", where GetPage reads "../x.md" from the file's
// directory and "../x" from a leaf bundle's container.
func linkTarget(d string) string {
	if i := strings.IndexByte(d, '#'); i >= 0 {
		d = d[:i]
	}
	d = strings.TrimSuffix(d, "/")
	if i := strings.IndexAny(d, ":/?"); i >= 0 && d[i] == ':' {
		return d // a URL with a scheme
	}
	if strings.HasPrefix(d, "//") {
		return d
	}
	d = strings.TrimPrefix(d, "./")
	if !strings.HasPrefix(d, "../") && !strings.Contains(d, "?") {
		d = strings.TrimSuffix(d, ".md")
	}
	return d
}

func headings(d *doc) []block {
	var out []block
	for _, b := range d.blocks {
		if b.kind == "heading" {
			out = append(out, b)
		}
	}
	return out
}

func codeBlocks(d *doc) []block {
	var out []block
	for _, b := range d.blocks {
		if b.kind == "code" {
			out = append(out, b)
		}
	}
	return out
}

func lastStart(d *doc) int {
	if len(d.blocks) == 0 {
		return 0
	}
	return d.blocks[len(d.blocks)-1].start
}

// unitBlocks is blocks of a page compared as one unit with blocks of
// the other page (see compareNumbers), and where the first starts.
type unitBlocks struct {
	start  int
	blocks []int
}

type posFn func(int) diag.Position
type relFn func(int, string) []diag.Related

// compareTables pairs the tables of each section in order: a table in one
// language only, another row count, or numeric cells that differ are
// findings.
func compareTables(ds, dt *doc, sec func(int) int, at posFn, rel relFn, srcName string) diag.List {
	var out diag.List
	bySec := func(d *doc) map[int][]int {
		m := map[int][]int{}
		for i, tb := range d.tables {
			m[sec(tb.section)] = append(m[sec(tb.section)], i)
		}
		return m
	}
	ss, st := bySec(ds), bySec(dt)
	secs := map[int]bool{}
	for k := range ss {
		secs[k] = true
	}
	for k := range st {
		secs[k] = true
	}
	for k := range secs {
		a, b := ss[k], st[k]
		for i := 0; i < len(a) || i < len(b); i++ {
			switch {
			case i >= len(b):
				tb := ds.tables[a[i]]
				pos := at(sectionStart(dt, k))
				out = append(out, diag.Diagnostic{Pos: pos, End: dt.page.Parsed.Index.LineEnd(pos.Offset), Severity: diag.Error, Rule: diag.TranslationStructure,
					Message: fmt.Sprintf("%s has a table (%d rows) in this section that this page lacks", srcName, tb.rows), Related: rel(tb.start, "the source table")})
			case i >= len(a):
				tb := dt.tables[b[i]]
				out = append(out, diag.Diagnostic{Pos: at(tb.start), End: dt.page.Parsed.Index.LineEnd(tb.start), Severity: diag.Error, Rule: diag.TranslationStructure,
					Message: fmt.Sprintf("table (%d rows) with no counterpart in %s", tb.rows, srcName), Related: rel(sectionStart(ds, k), "the source section")})
			default:
				ta, tbb := ds.tables[a[i]], dt.tables[b[i]]
				if ta.rows != tbb.rows {
					out = append(out, diag.Diagnostic{Pos: at(tbb.start), End: dt.page.Parsed.Index.LineEnd(tbb.start), Severity: diag.Error, Rule: diag.TranslationStructure,
						Message: fmt.Sprintf("table has %d rows where %s's has %d", tbb.rows, srcName, ta.rows), Related: rel(ta.start, "the source table")})
				}
			}
		}
	}
	return out
}

// sectionStart is the offset of the heading opening section n (0: page start).
func sectionStart(d *doc, n int) int {
	for _, b := range d.blocks {
		if b.kind == "heading" && b.section == n {
			return b.start
		}
	}
	return 0
}

// compareClaims pairs each claim of the source with one of the
// translation and compares their numbers. Where a section has as many
// blocks in both pages, blocks align in order (peer) and a claim's
// counterpart is in the aligned block: first one quoting the same
// references, else the one at the same place among the block's claims
// left, so a claim bound to other evidence is reported on its own line,
// against its own source claim (not on a line of another paragraph that
// happens to quote that evidence); a claim that agrees may be found in
// another block of its section (a cell moved within a table row). The
// rest pair by their references, in passes: in the same section at the same
// ordinal and agreeing; in the same section agreeing (sentences
// reordered in translation); in the same section at the same ordinal; in
// the same section; anywhere agreeing; anywhere. Claims left over are
// paired within a section as a different binding, else reported alone.
func compareClaims(ds, dt *doc, sec func(int) int, peer map[int]int, at posFn, rel relFn, srcName string, note func(srcOff int) string) diag.List {
	var out diag.List
	key := func(c pageClaim) string { return strings.Join(c.Refs, ",") }
	used := make([]bool, len(dt.claims))
	peerT := make(map[int]bool, len(peer))
	for _, tb := range peer {
		peerT[tb] = true
	}
	peered := func(tb int) bool { return peerT[tb] }
	verdict := func(a, b pageClaim) numscan.Verdict {
		if len(a.numbers) != len(b.numbers) {
			return numscan.Disagree
		}
		v := numscan.Agree
		for i := range a.numbers {
			v = max(v, numscan.Compare(numscan.ResolvedAgainst(a.numbers[i], b.numbers[i]), numscan.ResolvedAgainst(b.numbers[i], a.numbers[i])))
		}
		return v
	}
	// aligned reports whether source claim a's block has a peer, and
	// whether b is in it
	aligned := func(a, b pageClaim) (bool, bool) {
		if a.block < 0 {
			return false, false
		}
		pb, ok := peer[a.block]
		return ok, ok && b.block == pb
	}
	// ordinal numbers each claim among the claims of its page that quote
	// the same references in the same (aligned) section: the n-th such
	// claim of the source is most likely translated by the n-th of the
	// target, so a changed number is reported against its own source
	// claim rather than a later one that happens to agree.
	type secKey struct {
		sec int
		key string
	}
	ordinal := func(d *doc) []int {
		seen := make(map[secKey]int, len(d.claims))
		out := make([]int, len(d.claims))
		for i, c := range d.claims {
			k := secKey{sec(c.section), key(c)}
			out[i] = seen[k]
			seen[k]++
		}
		return out
	}
	ordS, ordT := ordinal(ds), ordinal(dt)
	match := make([]int, len(ds.claims))
	for i := range match {
		match[i] = -1
	}
	// byKey lists the target claims of each key in page order: a source
	// claim is paired only with claims quoting its references.
	byKey := map[string][]int{}
	for j, b := range dt.claims {
		k := key(b)
		byKey[k] = append(byKey[k], j)
	}
	keyS := make([]string, len(ds.claims))
	for i, a := range ds.claims {
		keyS[i] = key(a)
	}
	for pass := 0; pass < 8; pass++ {
		for i, a := range ds.claims {
			if match[i] >= 0 {
				continue
			}
			for _, j := range byKey[keyS[i]] {
				b := dt.claims[j]
				if used[j] {
					continue
				}
				hasPeer, inPeer := aligned(a, b)
				agree := verdict(a, b) != numscan.Disagree
				if hasPeer && !inPeer && !agree {
					// aligned blocks: a claim that differs is compared
					// with the one of the peer block (one that agrees may
					// have moved within its section)
					continue
				}
				sameSec := sec(a.section) == sec(b.section)
				sameOrd := sameSec && ordS[i] == ordT[j]
				ok := [8]bool{inPeer && agree, inPeer, sameOrd && agree, sameSec && agree, sameOrd, sameSec, agree, true}[pass]
				if !ok {
					continue
				}
				match[i], used[j] = j, true
				break
			}
		}
	}
	var lostS []pageClaim
	var lostSOff []int
	for i, a := range ds.claims {
		if match[i] < 0 {
			lostS = append(lostS, a)
			lostSOff = append(lostSOff, a.Pos.Offset)
			continue
		}
		b := dt.claims[match[i]]
		if d, ok := claimLabelFinding(a, b, dt, key(a), srcName); ok {
			out = append(out, d)
		}
		switch verdict(a, b) {
		case numscan.Disagree:
			msg := fmt.Sprintf("[%s] says %s where %s's [%s] says %s (same evidence %s)", b.Literal, describe(b.numbers), srcName, a.Literal, describe(a.numbers), key(a))
			if reversed(a.numbers, b.numbers) {
				msg = fmt.Sprintf("[%s] says %s where %s's [%s] says %s: the order is reversed (same evidence %s)", b.Literal, describe(b.numbers), srcName, a.Literal, describe(a.numbers), key(a))
			}
			out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
				Message: msg + signHint(a.numbers, b.numbers) + note(a.Pos.Offset),
				Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
		case numscan.Warn:
			out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Warning, Rule: diag.TranslationApprox,
				Message: fmt.Sprintf("[%s] says %s where %s's [%s] says %s: %s", b.Literal, describe(b.numbers), srcName, a.Literal, describe(a.numbers), approxDifference(a.numbers, b.numbers)) + note(a.Pos.Offset),
				Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
		}
	}
	var lostT []pageClaim
	for j, b := range dt.claims {
		if !used[j] {
			lostT = append(lostT, b)
		}
	}
	// A claim of each side in the aligned block, else in the same
	// section with the same count of references: one binding changed
	// (ja binds another run's value).
	usedT := make([]bool, len(lostT))
	for k, a := range lostS {
		match := -1
		if a.block >= 0 {
			if pb, ok := peer[a.block]; ok {
				for j, b := range lostT {
					if !usedT[j] && b.block == pb {
						match = j
						break
					}
				}
			}
		}
		for j, b := range lostT {
			if match >= 0 {
				break
			}
			if !usedT[j] && sec(b.section) == sec(a.section) && len(b.Refs) == len(a.Refs) && (b.block < 0 || !peered(b.block)) {
				match = j
			}
		}
		if match < 0 {
			pos := at(sectionStart(dt, sec(a.section)))
			out = append(out, diag.Diagnostic{Pos: pos, End: dt.page.Parsed.Index.LineEnd(pos.Offset), Severity: diag.Error, Rule: diag.TranslationClaims,
				Message: fmt.Sprintf("%s quotes %s as [%s] in this section; this page does not", srcName, key(a), a.Literal) + note(lostSOff[k]),
				Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
			continue
		}
		usedT[match] = true
		b := lostT[match]
		out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
			Message: fmt.Sprintf("[%s] quotes %s where %s's [%s] quotes %s", b.Literal, key(b), srcName, a.Literal, key(a)) + note(lostSOff[k]),
			Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
	}
	for j, b := range lostT {
		if usedT[j] {
			continue
		}
		out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
			Message: fmt.Sprintf("[%s] quotes %s, which %s does not quote", b.Literal, key(b), srcName),
			Related: []diag.Related{{Pos: ds.page.Parsed.Index.Pos(sectionStart(ds, sec(b.section))), Message: "the source section"}}})
	}
	return out
}

// alignBlocks pairs the blocks of the two pages where they align: when
// the headings align, the headings and text blocks of a section that has
// as many in both pages, in order, and the cells of the tables paired by
// section and order that have as many cells. It maps a source block to
// its peer in the translation.
func alignBlocks(ds, dt *doc, sectionsAlign bool) map[int]int {
	peer := map[int]int{}
	if !sectionsAlign {
		return peer
	}
	text := func(d *doc) map[int][]int {
		m := map[int][]int{}
		for i, b := range d.blocks {
			if b.kind == "heading" || b.kind == "text" {
				m[b.section] = append(m[b.section], i)
			}
		}
		return m
	}
	ts, tt := text(ds), text(dt)
	for sec, a := range ts {
		if b := tt[sec]; len(a) == len(b) {
			for i := range a {
				peer[a[i]] = b[i]
			}
		}
	}
	tables := func(d *doc) map[int][][]int {
		m := map[int][][]int{}
		for ti, tb := range d.tables {
			var cells []int
			for i, b := range d.blocks {
				if b.kind == "cell" && b.table == ti {
					cells = append(cells, i)
				}
			}
			m[tb.section] = append(m[tb.section], cells)
		}
		return m
	}
	cs, ct := tables(ds), tables(dt)
	for sec, a := range cs {
		b := ct[sec]
		for k := 0; k < len(a) && k < len(b); k++ {
			if len(a[k]) == len(b[k]) {
				for i := range a[k] {
					peer[a[k][i]] = b[k][i]
				}
			}
		}
	}
	return peer
}

// syncNote returns what a finding on translation t adds about the last
// time t was marked in sync with source s (evdoc i18n mark), for the
// source line at an offset: that the source changed there since, or that
// the source is as it was then (so the difference was made on t). It
// says nothing for a page never marked. The sync state is read once, on
// the first finding.
func syncNote(s, t *Page) func(srcOff int) string {
	var (
		read    bool
		state   State
		starts  []int
		changed map[int]bool
	)
	return func(srcOff int) string {
		if !read {
			read = true
			var ch []int
			state, ch = staleness(s, t)
			if state == StateStale {
				_, starts = blockHashes(s)
				changed = map[int]bool{}
				for _, c := range ch {
					changed[c] = true
				}
			}
		}
		switch state {
		case StateInSync:
			return fmt.Sprintf(" (%s is as it was when this page was marked in sync: the difference was made here)", s.Path)
		case StateStale:
			sec := -1
			for _, st := range starts {
				if st <= srcOff {
					sec = st
				}
			}
			if sec >= 0 && changed[sec] {
				return fmt.Sprintf(" (%s changed in this section since this page was marked in sync: update this line)", s.Path)
			}
		}
		return ""
	}
}

// reversed reports whether b holds a's numbers in reverse order (and
// not in a's): 0.21%→51.7% against 51.7%→0.21%.
func reversed(a, b []numscan.Number) bool {
	if len(a) < 2 || len(a) != len(b) {
		return false
	}
	for i := range a {
		if numscan.Compare(a[i], b[len(b)-1-i]) == numscan.Disagree {
			return false
		}
	}
	return true
}

// signHint explains a difference of sign only: a difference (+1, Δ1)
// against a level (1), or △, which a Japanese or Korean reader reads as a
// minus sign.
func signHint(a, b []numscan.Number) string {
	if len(a) != len(b) {
		return ""
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Sign == y.Sign || !x.Value.Abs().Equal(y.Value.Abs()) {
			continue
		}
		for _, n := range []numscan.Number{x, y} {
			if strings.ContainsAny(n.Text, "△▼") {
				return "; △ (and ▼) before a number is a minus sign to a Japanese or Korean reader: write Δ or + for a difference"
			}
		}
		return "; the sign differs: a difference (+, Δ) is not a level"
	}
	return ""
}

// approxDifference says how two lists of numbers that Compare warns
// about differ in approximation.
func approxDifference(a, b []numscan.Number) string {
	for i := range a {
		if i >= len(b) || numscan.ApproxAgree(a[i].Approx, b[i].Approx) {
			continue
		}
		if (a[i].Approx == literal.Exact) != (b[i].Approx == literal.Exact) {
			return "one is approximate, the other exact"
		}
		return "one says a little over, the other a little under"
	}
	return "they differ in approximation"
}

// describe prints numbers in their normal form: "<= 3", "≈ 40 s".
func describe(ns []numscan.Number) string {
	var parts []string
	for _, n := range ns {
		s := n.Value.String()
		switch {
		case n.Kind != "number":
			s = n.Text
		case n.Sign == "+" && !n.Value.IsNegative():
			s = "+" + s
		case n.Sign == "-" && n.Value.IsZero():
			s = "-" + s
		case n.Sign == "▲":
			s = "▲" + s
		case n.Spread:
			s = "± " + s
		}
		switch {
		case n.Unit == literal.ClockUnit && n.Kind == "number":
			s = clock24(n.Value) // 14:03, not 50580 tod
		case n.Unit != "":
			s += " " + n.Unit
		}
		if n.Cmp != "" {
			s = n.Cmp + " " + s
		}
		switch n.Approx {
		case literal.Exact:
		case literal.Over:
			s = "a little over " + s
		case literal.Under:
			s = "a little under " + s
		default:
			s = "≈ " + s
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no number"
	}
	return strings.Join(parts, ", ")
}

// clock24 writes a time of day (seconds since midnight) as a 24-hour
// clock: 14:03, 14:03:52, 14:03:52.713.
func clock24(v decimal.Decimal) string {
	secs := v.Mod(decimal.NewFromInt(60))
	mins := v.Sub(secs).Div(decimal.NewFromInt(60)).IntPart()
	s := fmt.Sprintf("%02d:%02d", mins/60, mins%60)
	if !secs.IsZero() {
		s += fmt.Sprintf(":%02d", secs.IntPart())
		if frac := secs.Sub(secs.Truncate(0)); !frac.IsZero() {
			s += strings.TrimPrefix(frac.String(), "0")
		}
	}
	return s
}

// compareNumbers compares the numbers that are not claims block by block
// when the two pages have the same blocks in each section, else section by
// section (or page by page when the headings differ). A number missing
// from one unit and extra in another is reported once, as a move.
func compareNumbers(ds, dt *doc, sectionsAlign bool, at posFn, rel relFn, srcName string) diag.List {
	type unit = unitBlocks
	// text blocks (headings, paragraphs, list items) per section
	group := func(d *doc) map[int][]int {
		m := map[int][]int{}
		for i, b := range d.blocks {
			if b.kind != "heading" && b.kind != "text" {
				continue
			}
			s := 0
			if sectionsAlign {
				s = b.section
			}
			m[s] = append(m[s], i)
		}
		return m
	}
	var us, ut []unit
	pair := func(a, b []int) {
		if len(a) == len(b) {
			for i := range a {
				us = append(us, unit{start: ds.blocks[a[i]].start, blocks: []int{a[i]}})
				ut = append(ut, unit{start: dt.blocks[b[i]].start, blocks: []int{b[i]}})
			}
			return
		}
		ua, ub := unit{blocks: a}, unit{blocks: b}
		if len(a) > 0 {
			ua.start = ds.blocks[a[0]].start
		}
		if len(b) > 0 {
			ub.start = dt.blocks[b[0]].start
		}
		us, ut = append(us, ua), append(ut, ub)
	}
	gs, gt := group(ds), group(dt)
	for k := 0; k <= len(ds.blocks)+len(dt.blocks); k++ {
		if len(gs[k]) > 0 || len(gt[k]) > 0 {
			pair(gs[k], gt[k])
		}
	}
	// cells of the tables paired by section and order (a table in one
	// language only is a structure finding of its own)
	tablesOf := func(d *doc) map[int][]int {
		m := map[int][]int{}
		for i, tb := range d.tables {
			s := 0
			if sectionsAlign {
				s = tb.section
			}
			m[s] = append(m[s], i)
		}
		return m
	}
	cellsOf := func(d *doc, table int) []int {
		var out []int
		for i, b := range d.blocks {
			if b.kind == "cell" && b.table == table {
				out = append(out, i)
			}
		}
		return out
	}
	ts, tt := tablesOf(ds), tablesOf(dt)
	for k := 0; k <= len(ds.blocks)+len(dt.blocks); k++ {
		for i := 0; i < len(ts[k]) && i < len(tt[k]); i++ {
			pair(cellsOf(ds, ts[k][i]), cellsOf(dt, tt[k][i]))
		}
	}
	type tok struct {
		n    numscan.Number
		unit int
	}
	var missing, extra []tok
	var out diag.List
	for i := range us {
		var na, nb []numscan.Number
		var ta, tb []transition
		for _, bi := range us[i].blocks {
			na = append(na, ds.blocks[bi].numbers...)
			ta = append(ta, ds.blocks[bi].trans...)
		}
		for _, bi := range ut[i].blocks {
			nb = append(nb, dt.blocks[bi].numbers...)
			tb = append(tb, dt.blocks[bi].trans...)
		}
		out = append(out, compareOrder(ta, tb, at, rel, srcName)...)
		// numbers of one key pair in order, digits before number words
		// (一度 must not take the 1 a digit of the other side matches); a
		// pair that differs in approximation only is a warning
		byKey := map[string][]int{}
		for j, n := range nb {
			byKey[n.Key] = append(byKey[n.Key], j)
		}
		taken := make([]bool, len(nb))
		for _, words := range []bool{false, true} {
			for _, n := range na {
				if n.Word != words {
					continue
				}
				l := byKey[n.Key]
				k := -1
				for x, j := range l {
					if k < 0 || !nb[j].Word && nb[l[k]].Word {
						k = x
					}
				}
				if k < 0 {
					missing = append(missing, tok{n, i})
					continue
				}
				m := nb[l[k]]
				taken[l[k]] = true
				byKey[n.Key] = append(l[:k:k], l[k+1:]...)
				if d, ok := numberLabelFinding(n, m, at, rel, srcName); ok {
					out = append(out, d)
				}
				if !numscan.ApproxAgree(n.Approx, m.Approx) {
					out = append(out, diag.Diagnostic{Pos: at(m.Start), End: at(m.End), Severity: diag.Warning, Rule: diag.TranslationApprox,
						Message: fmt.Sprintf("%q says %s where %s's %q says %s: %s", m.Text, describe([]numscan.Number{m}), srcName, n.Text, describe([]numscan.Number{n}), approxDifference([]numscan.Number{n}, []numscan.Number{m})),
						Related: rel(n.Start, "the source number")})
				}
			}
		}
		for j, n := range nb {
			if !taken[j] {
				extra = append(extra, tok{n, i})
			}
		}
	}
	out = append(out, compareCodeSpans(ds, dt, us, ut, at, rel, srcName)...)
	moved := make([]bool, len(extra))
	var lost []tok
	for _, m := range missing {
		found := -1
		for j, e := range extra {
			if !moved[j] && e.n.Key == m.n.Key && !e.n.Word && !m.n.Word {
				found = j
				break
			}
		}
		if found >= 0 {
			moved[found] = true
			e := extra[found]
			out = append(out, diag.Diagnostic{Pos: at(e.n.Start), End: at(e.n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
				Message: fmt.Sprintf("%q moved: %s writes it in another block", e.n.Text, srcName), Related: rel(m.n.Start, "where the source writes it")})
			continue
		}
		lost = append(lost, m)
	}
	for _, m := range lost {
		// the number of the same unit that differs in its sign only (+1건
		// and 1件, Δ0 and △0) is the one changed
		found := -1
		for j, e := range extra {
			if !moved[j] && e.unit == m.unit && e.n.Kind == "number" && m.n.Kind == "number" && e.n.Sign != m.n.Sign && e.n.Value.Abs().Equal(m.n.Value.Abs()) {
				found = j
				break
			}
		}
		if found >= 0 && numscan.Compare(m.n, extra[found].n) != numscan.Disagree {
			// +12s against 12秒の時点: the same point on a timeline
			moved[found] = true
			continue
		}
		for j, e := range extra {
			// a number written as a word stands against a number of the
			// same block left over, in digits or as a word (두 번 and 3回,
			// 두 차례 and 三回: see numscan.WordsPair); one left over alone is no
			// finding (네 단계 and もう一つ)
			if found < 0 && !moved[j] && e.unit == m.unit && (e.n.Word != m.n.Word || numscan.WordsPair(m.n, e.n)) {
				found = j
			}
		}
		if found < 0 && m.n.Word {
			continue
		}
		if found >= 0 {
			moved[found] = true
			e := extra[found]
			out = append(out, diag.Diagnostic{Pos: at(e.n.Start), End: at(e.n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
				Message: fmt.Sprintf("%q says %s where %s's %q says %s%s", e.n.Text, describe([]numscan.Number{e.n}), srcName, m.n.Text, describe([]numscan.Number{m.n}), signHint([]numscan.Number{m.n}, []numscan.Number{e.n})),
				Related: rel(m.n.Start, "the source number")})
			continue
		}
		out = append(out, diag.Diagnostic{Pos: at(ut[m.unit].start), End: dt.page.Parsed.Index.LineEnd(ut[m.unit].start), Severity: diag.Error, Rule: diag.TranslationNumbers,
			Message: fmt.Sprintf("%s writes %q (%s) in this block; this page does not", srcName, m.n.Text, describe([]numscan.Number{m.n})), Related: rel(m.n.Start, "the source number")})
	}
	for j, e := range extra {
		if moved[j] || e.n.Word {
			continue
		}
		out = append(out, diag.Diagnostic{Pos: at(e.n.Start), End: at(e.n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
			Message: fmt.Sprintf("%q (%s) is not in %s's block", e.n.Text, describe([]numscan.Number{e.n}), srcName), Related: rel(us[e.unit].start, "the source block")})
	}
	return out
}

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
		if unicode.IsNumber(r) {
			return true
		}
		i += n
	}
	return false
}

// compareCodeSpans compares the code spans that hold a number in the
// aligned units us and ut (see compareNumbers) as text: code is not
// translated. Their numbers are compared as the prose's are (another
// value, a move, a number missing); on top of that, a source span with
// no equal span in its unit is reported when the unit has a span that
// differs from it only in how its digits are written, which the prose
// comparison reads alike (`--retries=３` against `--retries=3`:
// full-width digits are read as ASCII in prose only, never in code;
// `http2` against `http3`, names it does not compare), or when the
// translation writes its text as prose (timeout: 30s without
// backticks). Spans joined, split or added (`a.md` `§1` and `a.md §1`)
// and spans without a digit (a UI label a translation translates) are
// not reported.
func compareCodeSpans(ds, dt *doc, us, ut []unitBlocks, at posFn, rel relFn, srcName string) diag.List {
	var out diag.List
	for i := range us {
		var sa, sb []codeSpan
		for _, bi := range us[i].blocks {
			sa = append(sa, ds.blocks[bi].spans...)
		}
		for _, bi := range ut[i].blocks {
			sb = append(sb, dt.blocks[bi].spans...)
		}
		if len(sa) == 0 && len(sb) == 0 {
			continue
		}
		taken := make([]bool, len(sb))
		used, usedRev := map[string]int{}, map[string]int{}
		var lost []codeSpan
		for _, a := range sa {
			k := -1
			for j, b := range sb {
				if !taken[j] && b.text == a.text {
					k = j
					break
				}
			}
			if k < 0 {
				lost = append(lost, a)
				continue
			}
			taken[k] = true
		}
		for _, a := range lost {
			shape := digitShape(a.text)
			k := -1
			for j, b := range sb {
				if !taken[j] && digitShape(b.text) == shape {
					k = j
					break
				}
			}
			if k >= 0 {
				taken[k] = true
				b := sb[k]
				if !sameNumberKeys(a.text, b.text) {
					continue // the numbers differ: reported as the prose's are
				}
				out = append(out, diag.Diagnostic{Pos: at(b.start), End: at(b.end), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("code span `%s` differs from %s's `%s`; code is not translated (expected the same text)", b.text, srcName, a.text), Related: rel(a.start, "the source code span")})
				continue
			}
			if pos, end, ok := proseSpan(dt, ut[i].blocks, a.text); ok {
				out = append(out, diag.Diagnostic{Pos: at(pos), End: at(end), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("%q is code in %s but prose here; code is not translated (expected `%s`, in a code span)", a.text, srcName, a.text), Related: rel(a.start, "the source code span")})
				continue
			}
			// the span's number written as prose here, its text reworded
			// (`maxRetries: 3` as maxRetriesを3に)
			if n, ok := proseOf(a, ds, us[i].blocks, dt, ut[i].blocks, used); ok {
				out = append(out, diag.Diagnostic{Pos: at(n.Start), End: at(n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("%q is prose here where %s quotes it in the code span `%s`; code is not translated (expected `%s`, in a code span)", n.Text, srcName, a.text, a.text),
					Related: rel(a.start, "the source code span")})
			}
		}
		// the other way: a span of the translation, equal to none of the
		// source's, quoting a number the source writes as prose
		for j, b := range sb {
			if taken[j] || slices.ContainsFunc(sa, func(a codeSpan) bool { return a.text == b.text }) {
				continue
			}
			if n, ok := proseOf(b, dt, ut[i].blocks, ds, us[i].blocks, usedRev); ok {
				out = append(out, diag.Diagnostic{Pos: at(b.start), End: at(b.end), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("code span `%s` quotes a number %s writes as prose (%q), not as code; code is not translated (expected the source's prose, or a code span the source has)", b.text, srcName, n.Text),
					Related: rel(n.Start, "the source number")})
			}
		}
	}
	return out
}

// inDigits reports whether n is written in digits (of any script): a
// number written as a word (세 번, 三回, ゼロ) says the number in the
// language's words, never a code span's text with its backticks lost.
func inDigits(n numscan.Number) bool {
	return strings.IndexFunc(n.Text, unicode.IsDigit) >= 0
}

// proseOf returns the number of span sp (a code span of page d, in
// blocks dBlocks) that page e writes as prose in blocks eBlocks: a
// number of e's prose, outside its code spans, of the same normal form
// as one of sp's, that d's prose does not account for (d writes it as
// prose fewer times than e does, counting the ones used before, which
// used records by normal form). Names (p99, http2) and numbers written
// as words (see inDigits) are not numbers here.
func proseOf(sp codeSpan, d *doc, dBlocks []int, e *doc, eBlocks []int, used map[string]int) (numscan.Number, bool) {
	inSpan := func(b *block, off int) bool {
		for _, s := range b.spans {
			if off >= s.start && off < s.end {
				return true
			}
		}
		return false
	}
	prose := func(doc *doc, blocks []int, key string) []numscan.Number {
		var out []numscan.Number
		for _, bi := range blocks {
			b := &doc.blocks[bi]
			for _, n := range b.numbers {
				if n.Key == key && n.Kind != "id" && inDigits(n) && !inSpan(b, n.Start) {
					out = append(out, n)
				}
			}
		}
		return out
	}
	for _, bi := range dBlocks {
		b := &d.blocks[bi]
		for _, n := range b.numbers {
			if n.Kind == "id" || !inDigits(n) || n.Start < sp.start || n.Start >= sp.end {
				continue
			}
			mine, other := prose(d, dBlocks, n.Key), prose(e, eBlocks, n.Key)
			if len(mine)+used[n.Key] >= len(other) {
				continue // each of e's is one of d's prose numbers
			}
			// the one at the span's place among d's numbers of that form
			k := used[n.Key]
			for _, m := range mine {
				if m.Start < n.Start {
					k++
				}
			}
			used[n.Key]++
			return other[min(k, len(other)-1)], true
		}
	}
	return numscan.Number{}, false
}

// sameNumberKeys reports whether two texts hold the same numbers as
// the prose comparison reads them: names such as p99 or http2 aside,
// which it does not compare.
func sameNumberKeys(a, b string) bool {
	keys := func(s string) []string {
		var out []string
		for _, n := range numscan.ScanNumbers(s) {
			if n.Kind != "id" {
				out = append(out, n.Key)
			}
		}
		return out
	}
	return slices.Equal(keys(a), keys(b))
}

// digitShape is a code span's text with its digits read as ASCII (as
// in prose) and each run of them replaced by one "#": the spans of one
// shape differ in their numbers only.
func digitShape(s string) string {
	norm, _ := numscan.NormalizeText(s)
	var b strings.Builder
	inRun := false
	for i := 0; i < len(norm); i++ {
		c := norm[i]
		if c >= '0' && c <= '9' {
			if !inRun {
				b.WriteByte('#')
			}
			inRun = true
			continue
		}
		inRun = false
		b.WriteByte(c)
	}
	return b.String()
}

// proseSpan finds text in the prose of blocks of d, outside their code
// spans, and returns its page offsets.
func proseSpan(d *doc, blocks []int, text string) (int, int, bool) {
	for _, bi := range blocks {
		b := &d.blocks[bi]
		for off := 0; off < len(b.prose); {
			k := strings.Index(b.prose[off:], text)
			if k < 0 {
				break
			}
			k += off
			off = k + 1
			start, end := b.back[k], b.back[k+len(text)-1]
			if start < 0 || end < start {
				continue
			}
			inCode := false
			for _, sp := range b.spans {
				inCode = inCode || start >= sp.start && start < sp.end
			}
			if !inCode {
				return start, end + 1, true
			}
		}
	}
	return 0, 0, false
}

// compareOrder reports the transitions of a translation's block that
// run the other way than the source block's (0.21%→51.7% where the
// source writes 51.7%→0.21%): the same numbers, read by a reader as the
// opposite change.
func compareOrder(ta, tb []transition, at posFn, rel relFn, srcName string) diag.List {
	var out diag.List
	for _, b := range tb {
		if b.from == b.to {
			continue
		}
		same, rev := -1, -1
		for i, a := range ta {
			switch {
			case a.from == b.from && a.to == b.to:
				same = i
			case a.from == b.to && a.to == b.from && rev < 0:
				rev = i
			}
		}
		if same >= 0 || rev < 0 {
			continue
		}
		a := ta[rev]
		rule := diag.TranslationNumbers
		if b.claims {
			rule = diag.TranslationClaims
		}
		out = append(out, diag.Diagnostic{Pos: at(b.start), End: at(b.end), Severity: diag.Error, Rule: rule,
			Message: fmt.Sprintf("goes from %s to %s where %s goes from %s to %s: the order is reversed", b.fromText, b.toText, srcName, a.fromText, a.toText),
			Related: rel(a.start, "the source change")})
	}
	return out
}
