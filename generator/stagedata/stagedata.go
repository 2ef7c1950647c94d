package stagedata

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
	"github.com/shopspring/decimal"
)

// StageData is what staging (staging.Stage) and the check of the built
// site (verify.VerifyOutput) need of the verdicts on a site's claims, without
// the verdicts themselves: for each claim destination the bindings of
// the claims that may give the render hook its data, for each raw line
// the claims citing it, and for each page the number of claims the
// render hook must render. It is kept per page, in page order, then
// the figure specs' claims: the order of Checker.Results, which decides
// which claim of a destination gives its data and the order of each
// line's citations. Build it with a Checker (CheckerOptions.Stage,
// Checker.StageData) or from results (StageDataOf). A StageData is not
// modified after it is made, so it is safe to read concurrently.
type StageData struct {
	Units []*ClaimStage
}

// StageDataOf returns the StageData of results, in the order of
// checker.Check's results.
func StageDataOf(results []check.Result) *StageData {
	var b StageBuilder
	return &StageData{Units: []*ClaimStage{b.Unit(results)}}
}

// ClaimStage is the StageData of one page's claims (or of the figure
// specs' claims), in the order of its results.
type ClaimStage struct {
	// Dests are, in order, the distinct claims with at least one binding
	// to a value of the evidence: each destination's candidates for its
	// render hook data (viewer.claims takes the first that yields a
	// value). Identical candidates are shared between pages.
	Dests []*DestClaim
	// Runs are the citations of raw lines, each (page, file, line,
	// text) once, in order, in runs of one page.
	Runs []citeRun
	// Want counts, per page (Claim.Page), the claims the render hook
	// must render: bound claims of an "ev:" destination not exempt.
	Want []pageCount
	// marks are the claims with a candidate, per page, in order: where
	// a destination's claims write it at several precisions, each
	// claim's staged destination names its own (precisionMarks).
	marks []pageMarks
}

// pageMarks are the claims of one page with their candidates.
type pageMarks struct {
	page  string
	marks []claimMark
}

// claimMark is a claim (its literal's offset in its page, and its
// destination's, -1 where the destination is not written as goldmark
// read it) and its destination's candidate.
type claimMark struct {
	off, dest int32
	d         *DestClaim
}

// DestClaim is one claim of a destination as viewer.claims reads it:
// its bindings to a value of the evidence.
type DestClaim struct {
	Dest     string
	Bindings []stageBinding
}

// stageBinding is one binding of a claim to an evidence value: the
// value's reference, the raw line the claim links to (the value's own
// line, or its first input's for a derived value), the number of
// decimal places the claim's number is written with, and the unit it is
// written in when that is another unit the value's converts to ("ms"
// for [7.12ms] of a value in s; "" when the same or none).
type stageBinding struct {
	Ref    string
	File   string
	Line   int
	Places int
	Unit   string
}

// citeRun is a run of citations from the claims of one page: texts
// holds the literals of its claims one after the other, each citation
// the bounds of its claim's.
type citeRun struct {
	Page  string
	Texts string
	Cites []stageCite
}

// stageCite is the claim whose literal (as written) is texts[start:end]
// of its run citing line of file. It is 32 bytes: a build holds one for
// each claim and raw line it cites (9.4 million at 4,000 pages).
type stageCite struct {
	File       string // the evidence store's
	Line       int32
	Start, End uint32
}

// pageCount is a number of claims of a page.
type pageCount struct {
	Page string
	N    int
}

// StageBuilder makes claimStages, sharing identical destClaims between
// them. It is safe for concurrent use.
type StageBuilder struct {
	mu    sync.Mutex
	dests map[string]*DestClaim
}

// Unit returns the claimStage of rs, the verdicts on the claims of one
// page in order. It keeps no reference into rs (strings are copied).
func (b *StageBuilder) Unit(rs []check.Result) *ClaimStage {
	ub := b.NewUnit()
	for i := range rs {
		ub.Add(&rs[i].Claim, rs[i].Bindings)
	}
	return ub.Done()
}

// UnitBuilder makes the ClaimStage of one page's claims (or of the
// figure specs' claims) claim by claim, for a caller that builds no
// check.Result (check.Visit): Add each claim in order, then Done. It
// keeps no reference into a claim or its bindings (strings are copied),
// so the page's parse may be reused once Done returned. It is not safe
// for concurrent use; its StageBuilder is.
type UnitBuilder struct {
	b *StageBuilder
	u *ClaimStage
	// the room a unit is built in, reused by the next (unitRooms): the
	// sets of the destinations and citations taken, the last run's
	// literals and citations, the last page's marks, the destinations
	*unitRoom
}

// unitRoom is a UnitBuilder's room, all empty between two units.
type unitRoom struct {
	seenDest map[*DestClaim]bool
	seenCite map[citeKey]bool
	texts    []byte
	cites    []stageCite
	marks    []claimMark
	dests    []*DestClaim
	key      []byte
	bs       []stageBinding
}

// unitRooms holds the rooms of the UnitBuilders done.
var unitRooms = sync.Pool{New: func() any {
	return &unitRoom{seenDest: map[*DestClaim]bool{}, seenCite: map[citeKey]bool{}}
}}

// citeKey is a citation of a raw line by a claim's literal on a page:
// each is kept once.
type citeKey struct {
	page, file, text string
	line             int
}

// NewUnit returns a UnitBuilder for one page's claims.
func (b *StageBuilder) NewUnit() *UnitBuilder {
	return &UnitBuilder{b: b, u: &ClaimStage{}, unitRoom: unitRooms.Get().(*unitRoom)}
}

// flushRun completes the last run with its literals and citations.
func (ub *UnitBuilder) flushRun() {
	if n := len(ub.u.Runs); n > 0 {
		ub.u.Runs[n-1].Texts = string(ub.texts)
		ub.u.Runs[n-1].Cites = slices.Clone(ub.cites)
	}
	ub.texts, ub.cites = ub.texts[:0], ub.cites[:0]
}

// flushMarks completes the last page's marks.
func (ub *UnitBuilder) flushMarks() {
	if n := len(ub.u.marks); n > 0 {
		ub.u.marks[n-1].marks = slices.Clone(ub.marks)
	}
	ub.marks = ub.marks[:0]
}

// Add adds claim c, whose bindings are bs (check.Result.Bindings; a
// binding's Value is not read).
func (ub *UnitBuilder) Add(c *claim.Claim, bs []check.Binding) {
	u := ub.u
	if !c.Exempt && strings.HasPrefix(c.Destination, "ev:") && len(bs) > 0 {
		if n := len(u.Want); n > 0 && u.Want[n-1].Page == c.Page {
			u.Want[n-1].N++
		} else {
			u.Want = append(u.Want, pageCount{Page: strings.Clone(c.Page), N: 1})
		}
	}
	if len(bs) == 0 {
		return
	}
	// The destination's candidate: its bindings with an evidence
	// position. A claim with none gives viewer.claims nothing.
	sbs := ub.bs[:0]
	key := append(ub.key[:0], c.Destination...)
	for i, bd := range bs {
		if bd.Evidence == nil {
			continue
		}
		at := *bd.Evidence
		if len(bd.Inputs) > 0 {
			at = bd.Inputs[0]
		}
		sb := stageBinding{Ref: bd.Ref, File: at.File, Line: at.Line, Places: WrittenPlaces(bd.Number), Unit: WrittenUnit(*c, i, bd.Unit)}
		sbs = append(sbs, sb)
		key = append(append(key, 0), sb.Ref...)
		key = append(append(key, 0), sb.File...)
		key = strconv.AppendInt(append(key, 0), int64(sb.Line), 10)
		key = strconv.AppendInt(append(key, 0), int64(sb.Places), 10)
		key = append(append(key, 0), sb.Unit...)
	}
	ub.key, ub.bs = key, sbs
	if len(sbs) > 0 {
		d := ub.b.intern(key, c.Destination, sbs)
		if !ub.seenDest[d] {
			ub.seenDest[d] = true
			ub.dests = append(ub.dests, d)
		}
		if n := len(u.marks); n == 0 || u.marks[n-1].page != c.Page {
			ub.flushMarks()
			u.marks = append(u.marks, pageMarks{page: pageName(u, c.Page)})
		}
		dest := int32(-1)
		if c.DestEnd.Offset-c.RefPos.Offset == len(c.Destination) && c.DestEnd.Offset <= math.MaxInt32 {
			dest = int32(c.RefPos.Offset)
		}
		ub.marks = append(ub.marks, claimMark{off: int32(min(c.Pos.Offset, math.MaxInt32)), dest: dest, d: d})
	}
	// The raw lines the claim cites.
	start := -1
	for _, bd := range bs {
		if bd.Evidence == nil {
			continue
		}
		ps := bd.Inputs
		if len(ps) == 0 {
			ps = []diag.Position{*bd.Evidence}
		}
		for _, p := range ps {
			k := citeKey{c.Page, p.File, c.Literal, p.Line}
			if ub.seenCite[k] {
				continue
			}
			ub.seenCite[k] = true
			if n := len(u.Runs); n == 0 || u.Runs[n-1].Page != c.Page {
				ub.flushRun()
				u.Runs = append(u.Runs, citeRun{Page: pageName(u, c.Page)})
			}
			if start < 0 {
				start = len(ub.texts)
				ub.texts = append(ub.texts, c.Literal...)
			}
			ub.cites = append(ub.cites, stageCite{File: p.File, Line: int32(p.Line), Start: uint32(start), End: uint32(start + len(c.Literal))})
		}
	}
}

// Done returns the ClaimStage of the claims added. The UnitBuilder is
// not used after.
func (ub *UnitBuilder) Done() *ClaimStage {
	u := ub.u
	ub.flushRun()
	ub.flushMarks()
	u.Dests = slices.Clone(ub.dests)
	u.marks = slices.Clone(u.marks)
	// the room keeps no string of the claims added: the rest points to
	// evidence files and destinations the StageBuilder holds anyway
	r := ub.unitRoom
	clear(r.seenDest)
	clear(r.seenCite)
	clear(r.bs[:cap(r.bs)])
	clear(r.dests)
	r.dests = r.dests[:0]
	unitRooms.Put(r)
	ub.u, ub.unitRoom = nil, nil
	return u
}

// Precision is the precision a candidate's claim writes its numbers
// at, as the render hook's data key names it: the decimal places of each
// binding, and the unit written when it is not the value's ("1" for
// [40.3초], "0,1" for [86 (99.5%)](ev:a,b), "2ms" for [7.12ms] of a value
// in s).
func (d *DestClaim) Precision() string {
	var b []byte
	for i, bd := range d.Bindings {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(bd.Places), 10)
		b = append(b, bd.Unit...)
	}
	return string(b)
}

// WrittenUnit is the unit claim c writes its i-th number in when that is
// another unit than val, the unit of the value it binds, and converts to
// it: "ms" for [7.12ms] of a value in s, so that its popover shows 7.12 ms
// rather than the value rounded to two places in s (0.01 s). It is ""
// for the value's own unit, no unit, a unit that does not convert, and a
// range bound to one value.
func WrittenUnit(c claim.Claim, i int, val string) string {
	qs := c.Parsed.Quantities
	if c.ParseErr != nil || c.Parsed.Range || len(qs) != len(c.Refs) || i >= len(qs) || val == "" {
		return ""
	}
	u := unit.Resolve(qs[i].Unit, val)
	if u == "" || u == val {
		return ""
	}
	if _, ok := unit.Convert(decimal.NewFromInt(1), val, u); !ok {
		return ""
	}
	return u
}

// PrecisionKey is the render hook's data key of a claim written at
// precision p of a destination written at several ("ev:s/a ~1"); the
// staged page writes it as the claim's destination (markClaims).
func PrecisionKey(dest, p string) string { return dest + " ~" + p }

// PrecisionMarks returns the destinations whose claims write them at
// more than one precision (a popover shows the value at its claim's
// precision: [40초] and [40.3초] of one value need two), and for each
// page (Claim.Page) the precision of each of its claims of those
// destinations, by the offset of the claim's literal in the page.
func (sd *StageData) PrecisionMarks() (multi map[string]bool, marks map[string]map[int]string) {
	return sd.PrecisionMarksOf(nil)
}

// PrecisionMarksOf is PrecisionMarks with the marks of only the pages
// of only (every page's when only is nil); multi is the whole site's.
func (sd *StageData) PrecisionMarksOf(only map[string]bool) (multi map[string]bool, marks map[string]map[int]string) {
	multi = sd.precisionMulti()
	return multi, sd.MarksOf(multi, only)
}

// precisionMulti is PrecisionMarks's multi.
func (sd *StageData) precisionMulti() (multi map[string]bool) {
	seen := map[string]string{}
	for _, u := range sd.Units {
		for _, d := range u.Dests {
			p := d.Precision()
			if q, ok := seen[d.Dest]; !ok {
				seen[d.Dest] = p
			} else if q != p {
				if multi == nil {
					multi = map[string]bool{}
				}
				multi[d.Dest] = true
			}
		}
	}
	return multi
}

// MarksOf is PrecisionMarksOf's marks with multi, the destinations
// written at several precisions (PrecisionMarks's or
// PrecisionIndex.Multi's of sd): the precision of each claim of those
// destinations of the pages of only (every page's when only is nil).
func (sd *StageData) MarksOf(multi map[string]bool, only map[string]bool) (marks map[string]map[int]string) {
	if len(multi) == 0 {
		return nil
	}
	marks = map[string]map[int]string{}
	for _, u := range sd.Units {
		for _, pm := range u.marks {
			if only != nil && !only[pm.page] {
				continue
			}
			for _, m := range pm.marks {
				if !multi[m.d.Dest] {
					continue
				}
				if marks[pm.page] == nil {
					marks[pm.page] = map[int]string{}
				}
				marks[pm.page][int(m.off)] = m.d.Precision()
			}
		}
	}
	return marks
}

// PrecisionIndex keeps, from one StageData to the next, the precisions
// each unit (ClaimStage) writes its destinations at: Multi then reads
// only the units new since the last call, not every claim of the site.
// A unit is the same while it is the same pointer (a re-check makes the
// units of the pages it judges again anew). The zero PrecisionIndex is
// empty.
type PrecisionIndex struct {
	units map[*ClaimStage][]destPrecision
	count map[destPrecision]int // units writing the destination at the precision
	precs map[string]int        // destination → its precisions written
	multi map[string]bool       // destinations of precs with more than one
	names map[string]string     // each precision's string, once
}

type destPrecision struct{ dest, prec string }

// Multi returns PrecisionMarks's multi of sd (a new map; nil when no
// destination is written at several precisions), reading the
// destinations of the units of sd the last call's StageData did not
// have.
func (x *PrecisionIndex) Multi(sd *StageData) map[string]bool {
	if x.units == nil {
		x.units = map[*ClaimStage][]destPrecision{}
		x.count = map[destPrecision]int{}
		x.precs = map[string]int{}
		x.multi = map[string]bool{}
		x.names = map[string]string{}
	}
	cur := make(map[*ClaimStage]bool, len(sd.Units))
	for _, u := range sd.Units {
		cur[u] = true
	}
	var touched []string
	seen := map[destPrecision]bool{}
	for u, dps := range x.units {
		if cur[u] {
			continue
		}
		for _, dp := range dps {
			if x.count[dp]--; x.count[dp] == 0 {
				delete(x.count, dp)
				if x.precs[dp.dest]--; x.precs[dp.dest] == 0 {
					delete(x.precs, dp.dest)
				}
				touched = append(touched, dp.dest)
			}
		}
		delete(x.units, u)
	}
	for _, u := range sd.Units {
		if _, ok := x.units[u]; ok {
			continue
		}
		var dps []destPrecision
		clear(seen)
		for _, d := range u.Dests {
			p := d.Precision()
			if q, ok := x.names[p]; ok {
				p = q
			} else {
				x.names[p] = p
			}
			dp := destPrecision{d.Dest, p}
			if !seen[dp] {
				seen[dp] = true
				dps = append(dps, dp)
			}
		}
		for _, dp := range dps {
			if x.count[dp]++; x.count[dp] == 1 {
				x.precs[dp.dest]++
				touched = append(touched, dp.dest)
			}
		}
		x.units[u] = dps
	}
	for _, d := range touched {
		if x.precs[d] > 1 {
			x.multi[d] = true
		} else {
			delete(x.multi, d)
		}
	}
	if len(x.multi) == 0 {
		return nil
	}
	return maps.Clone(x.multi)
}

// Repeat is a claim of a page whose render hook data key (its
// destination, or PrecisionKey's where multi holds the destination)
// another claim of the page has too: the offsets of its literal (Lit)
// and of its destination (At) in the page, its destination and data
// key.
type Repeat struct {
	Lit, At   int
	Dest, Key string
}

// Repeats returns, per page (Claim.Page), the claims with a candidate
// whose data key (multi: PrecisionMarks's destinations written at
// several precisions) at least two claims of the page have, in page
// order, each destination written as goldmark read it (a reference
// link's or an escaped one's claims are left out): the claims staging
// marks so that each popover body is written once a page.
func (sd *StageData) Repeats(multi map[string]bool) map[string][]Repeat {
	return sd.RepeatsOf(multi, nil)
}

// RepeatsOf is Repeats of only the pages of only (every page when only
// is nil).
func (sd *StageData) RepeatsOf(multi map[string]bool, only map[string]bool) map[string][]Repeat {
	out := map[string][]Repeat{}
	count := map[string]int{}
	for _, u := range sd.Units {
		for _, pm := range u.marks {
			if only != nil && !only[pm.page] {
				continue
			}
			clear(count)
			for _, m := range pm.marks {
				if m.dest >= 0 {
					count[markKey(m, multi)]++
				}
			}
			var rs []Repeat
			for _, m := range pm.marks {
				if m.dest < 0 {
					continue
				}
				if k := markKey(m, multi); count[k] > 1 {
					rs = append(rs, Repeat{Lit: int(m.off), At: int(m.dest), Dest: m.d.Dest, Key: k})
				}
			}
			if len(rs) > 0 {
				out[pm.page] = append(out[pm.page], rs...)
			}
		}
	}
	return out
}

// Candidate is a claim of a page with a candidate for its render hook
// data, as the check read it: the offsets of its literal (Lit) and of
// its destination (At, -1 where the destination is not written as
// goldmark read it) in the page, its destination and data key
// (PrecisionKey's where multi holds the destination).
type Candidate struct {
	Lit, At   int
	Dest, Key string
}

// Candidates returns, per page (Claim.Page), the claims with a
// candidate in page order (multi: PrecisionMarks's destinations written
// at several precisions): the claims evdoc build may give a slot
// (staging's slotted destinations).
func (sd *StageData) Candidates(multi map[string]bool) map[string][]Candidate {
	out := map[string][]Candidate{}
	for _, u := range sd.Units {
		for _, pm := range u.marks {
			cs := out[pm.page]
			for _, m := range pm.marks {
				cs = append(cs, Candidate{Lit: int(m.off), At: int(m.dest), Dest: m.d.Dest, Key: markKey(m, multi)})
			}
			out[pm.page] = cs
		}
	}
	return out
}

// markKey is the data key of claim m (see Repeat).
func markKey(m claimMark, multi map[string]bool) string {
	if multi[m.d.Dest] {
		return PrecisionKey(m.d.Dest, m.d.Precision())
	}
	return m.d.Dest
}

// pageName returns page as a string not sharing memory with a parse:
// the one u's counts hold when it is the same.
func pageName(u *ClaimStage, page string) string {
	if n := len(u.Want); n > 0 && u.Want[n-1].Page == page {
		return u.Want[n-1].Page
	}
	return strings.Clone(page)
}

// intern returns the destClaim of key, made of dest and bs the first
// time.
func (b *StageBuilder) intern(key []byte, dest string, bs []stageBinding) *DestClaim {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d, ok := b.dests[string(key)]; ok {
		return d
	}
	if b.dests == nil {
		b.dests = map[string]*DestClaim{}
	}
	bs = slices.Clone(bs)
	for i := range bs {
		// the file is the evidence store's; the reference and unit
		// may be the claim's, whose page is dropped
		bs[i].Ref, bs[i].Unit = strings.Clone(bs[i].Ref), strings.Clone(bs[i].Unit)
	}
	d := &DestClaim{Dest: strings.Clone(dest), Bindings: bs}
	b.dests[string(key)] = d
	return d
}

// WrittenPlaces returns the number of decimal places of a claim's written
// number ("56.1" → 1), 0 when it has none: the ASCII digits after the
// first "." or "．" that has one after it.
func WrittenPlaces(number string) int {
	for i := 0; i < len(number); i++ {
		var j int
		switch {
		case number[i] == '.':
			j = i + 1
		case strings.HasPrefix(number[i:], "．"):
			j = i + len("．")
		default:
			continue
		}
		k := j
		for k < len(number) && '0' <= number[k] && number[k] <= '9' {
			k++
		}
		if k > j {
			return k - j
		}
	}
	return 0
}
