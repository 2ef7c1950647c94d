package translation

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
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
	// text (see compareCodeSpans); inlines are the block's inlines when
	// its text holds a digit (nil otherwise), from which blockProse reads
	// its prose again.
	spans   []codeSpan
	inlines []claim.Inline
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

// parity compares a translation t with its source s and reports every
// difference on t's line, with s's line as a related position; units
// gives the unit of the evidence value a claim's reference names (nil:
// unknown), in which a claim's number written without a unit is
// compared.
func parity(s, t *Page, units ValueUnits) diag.List {
	// the two docs are dropped when parity returns (its findings hold
	// none of their memory): their room goes to the next pair's
	rs, rt := docRooms.Get().(*docRoom), docRooms.Get().(*docRoom)
	ds, dt := readDocIn(s, units, rs), readDocIn(t, units, rt)
	defer func() {
		rs.recycle(ds)
		rt.recycle(dt)
		docRooms.Put(rs)
		docRooms.Put(rt)
	}()
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

func headings(d *doc) []*block {
	var out []*block
	for i := range d.blocks {
		if d.blocks[i].kind == "heading" {
			out = append(out, &d.blocks[i])
		}
	}
	return out
}

func codeBlocks(d *doc) []*block {
	var out []*block
	for i := range d.blocks {
		if d.blocks[i].kind == "code" {
			out = append(out, &d.blocks[i])
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

// alignBlocks pairs the blocks of the two pages where they align: when
// the headings align, the headings and text blocks of a section that has
// as many in both pages, in order, and the cells of the tables paired by
// section and order that have as many cells. It maps a source block to
// its peer in the translation.
func alignBlocks(ds, dt *doc, sectionsAlign bool) map[int]int {
	if !sectionsAlign {
		return map[int]int{}
	}
	peer := make(map[int]int, len(ds.blocks))
	text := func(d *doc) map[int][]int {
		m := make(map[int][]int, sections(d))
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

// sections returns how many sections d has: its headings and the part
// before the first, for a map of d's sections to be made with room for
// all of them.
func sections(d *doc) int {
	if len(d.blocks) == 0 {
		return 1
	}
	return d.blocks[len(d.blocks)-1].section + 1
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
