package site

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// StageData is what staging (Site.Stage) and the check of the built
// site (verifyOutput) need of the verdicts on a site's claims, without
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
	units []*claimStage
}

// StageDataOf returns the StageData of results, in the order of
// Site.Check's results.
func StageDataOf(results []check.Result) *StageData {
	var b stageBuilder
	return &StageData{units: []*claimStage{b.unit(results)}}
}

// claimStage is the StageData of one page's claims (or of the figure
// specs' claims), in the order of its results.
type claimStage struct {
	// dests are, in order, the distinct claims with at least one binding
	// to a value of the evidence: each destination's candidates for its
	// render hook data (viewer.claims takes the first that yields a
	// value). Identical candidates are shared between pages.
	dests []*destClaim
	// runs are the citations of raw lines, each (page, file, line,
	// text) once, in order, in runs of one page.
	runs []citeRun
	// want counts, per page (Claim.Page), the claims the render hook
	// must render: bound claims of an "ev:" destination not exempt.
	want []pageCount
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

// claimMark is a claim (its literal's offset in its page) and its
// destination's candidate.
type claimMark struct {
	off int
	d   *destClaim
}

// destClaim is one claim of a destination as viewer.claims reads it:
// its bindings to a value of the evidence.
type destClaim struct {
	dest     string
	bindings []stageBinding
}

// stageBinding is one binding of a claim to an evidence value: the
// value's reference, the raw line the claim links to (the value's own
// line, or its first input's for a derived value), the number of
// decimal places the claim's number is written with, and the unit it is
// written in when that is another unit the value's converts to ("ms"
// for [7.12ms] of a value in s; "" when the same or none).
type stageBinding struct {
	ref    string
	file   string
	line   int
	places int
	unit   string
}

// citeRun is a run of citations from the claims of one page: texts
// holds the literals of its claims one after the other, each citation
// the bounds of its claim's.
type citeRun struct {
	page  string
	texts string
	cites []stageCite
}

// stageCite is the claim whose literal (as written) is texts[start:end]
// of its run citing line of file. It is 32 bytes: a build holds one for
// each claim and raw line it cites (9.4 million at 4,000 pages).
type stageCite struct {
	file       string // the evidence store's
	line       int32
	start, end uint32
}

// pageCount is a number of claims of a page.
type pageCount struct {
	page string
	n    int
}

// stageBuilder makes claimStages, sharing identical destClaims between
// them. It is safe for concurrent use.
type stageBuilder struct {
	mu    sync.Mutex
	dests map[string]*destClaim
}

// unit returns the claimStage of rs, the verdicts on the claims of one
// page in order. It keeps no reference into rs (strings are copied).
func (b *stageBuilder) unit(rs []check.Result) *claimStage {
	u := &claimStage{}
	seenDest := map[*destClaim]bool{}
	type citeKey struct {
		page, file, text string
		line             int
	}
	seenCite := map[citeKey]bool{}
	// texts collects the literals of the last run.
	var texts strings.Builder
	flush := func() { // the last run is complete: trimmed to its size
		if n := len(u.runs); n > 0 {
			u.runs[n-1].texts = texts.String()
			u.runs[n-1].cites = slices.Clone(u.runs[n-1].cites)
			texts = strings.Builder{}
		}
	}
	var key []byte
	for _, r := range rs {
		c := r.Claim
		if !c.Exempt && strings.HasPrefix(c.Destination, "ev:") && len(r.Bindings) > 0 {
			if n := len(u.want); n > 0 && u.want[n-1].page == c.Page {
				u.want[n-1].n++
			} else {
				u.want = append(u.want, pageCount{page: strings.Clone(c.Page), n: 1})
			}
		}
		if len(r.Bindings) == 0 {
			continue
		}
		// The destination's candidate: its bindings with an evidence
		// position. A claim with none gives viewer.claims nothing.
		var bs []stageBinding
		key = append(key[:0], c.Destination...)
		for i, bd := range r.Bindings {
			if bd.Evidence == nil {
				continue
			}
			at := *bd.Evidence
			if len(bd.Inputs) > 0 {
				at = bd.Inputs[0]
			}
			sb := stageBinding{ref: bd.Ref, file: at.File, line: at.Line, places: writtenPlaces(bd.Number), unit: writtenUnit(c, i, bd.Unit)}
			bs = append(bs, sb)
			key = append(append(key, 0), sb.ref...)
			key = append(append(key, 0), sb.file...)
			key = strconv.AppendInt(append(key, 0), int64(sb.line), 10)
			key = strconv.AppendInt(append(key, 0), int64(sb.places), 10)
			key = append(append(key, 0), sb.unit...)
		}
		if len(bs) > 0 {
			d := b.intern(key, c.Destination, bs)
			if !seenDest[d] {
				seenDest[d] = true
				u.dests = append(u.dests, d)
			}
			if n := len(u.marks); n == 0 || u.marks[n-1].page != c.Page {
				u.marks = append(u.marks, pageMarks{page: pageName(u, c.Page)})
			}
			pm := &u.marks[len(u.marks)-1]
			pm.marks = append(pm.marks, claimMark{off: c.Pos.Offset, d: d})
		}
		// The raw lines the claim cites.
		start := -1
		for _, bd := range r.Bindings {
			if bd.Evidence == nil {
				continue
			}
			ps := bd.Inputs
			if len(ps) == 0 {
				ps = []diag.Position{*bd.Evidence}
			}
			for _, p := range ps {
				k := citeKey{c.Page, p.File, c.Literal, p.Line}
				if seenCite[k] {
					continue
				}
				seenCite[k] = true
				if n := len(u.runs); n == 0 || u.runs[n-1].page != c.Page {
					flush()
					u.runs = append(u.runs, citeRun{page: pageName(u, c.Page)})
				}
				if start < 0 {
					start = texts.Len()
					texts.WriteString(c.Literal)
				}
				run := &u.runs[len(u.runs)-1]
				run.cites = append(run.cites, stageCite{file: p.File, line: int32(p.Line), start: uint32(start), end: uint32(start + len(c.Literal))})
			}
		}
	}
	flush()
	u.dests = slices.Clone(u.dests)
	u.marks = slices.Clone(u.marks)
	return u
}

// precision is the precision a candidate's claim writes its numbers
// at, as the render hook's data key names it: the decimal places of each
// binding, and the unit written when it is not the value's ("1" for
// [40.3초], "0,1" for [86 (99.5%)](ev:a,b), "2ms" for [7.12ms] of a value
// in s).
func (d *destClaim) precision() string {
	var b []byte
	for i, bd := range d.bindings {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(bd.places), 10)
		b = append(b, bd.unit...)
	}
	return string(b)
}

// writtenUnit is the unit claim c writes its i-th number in when that is
// another unit than val, the unit of the value it binds, and converts to
// it: "ms" for [7.12ms] of a value in s, so that its popover shows 7.12 ms
// rather than the value rounded to two places in s (0.01 s). It is ""
// for the value's own unit, no unit, a unit that does not convert, and a
// range bound to one value.
func writtenUnit(c claim.Claim, i int, val string) string {
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

// precisionKey is the render hook's data key of a claim written at
// precision p of a destination written at several ("ev:s/a ~1"); the
// staged page writes it as the claim's destination (markClaims).
func precisionKey(dest, p string) string { return dest + " ~" + p }

// precisionMarks returns the destinations whose claims write them at
// more than one precision (a popover shows the value at its claim's
// precision: [40초] and [40.3초] of one value need two), and for each
// page (Claim.Page) the precision of each of its claims of those
// destinations, by the offset of the claim's literal in the page.
func (sd *StageData) precisionMarks() (multi map[string]bool, marks map[string]map[int]string) {
	seen := map[string]string{}
	for _, u := range sd.units {
		for _, d := range u.dests {
			p := d.precision()
			if q, ok := seen[d.dest]; !ok {
				seen[d.dest] = p
			} else if q != p {
				if multi == nil {
					multi = map[string]bool{}
				}
				multi[d.dest] = true
			}
		}
	}
	if multi == nil {
		return nil, nil
	}
	marks = map[string]map[int]string{}
	for _, u := range sd.units {
		for _, pm := range u.marks {
			for _, m := range pm.marks {
				if !multi[m.d.dest] {
					continue
				}
				if marks[pm.page] == nil {
					marks[pm.page] = map[int]string{}
				}
				marks[pm.page][m.off] = m.d.precision()
			}
		}
	}
	return multi, marks
}

// pageName returns page as a string not sharing memory with a parse:
// the one u's counts hold when it is the same.
func pageName(u *claimStage, page string) string {
	if n := len(u.want); n > 0 && u.want[n-1].page == page {
		return u.want[n-1].page
	}
	return strings.Clone(page)
}

// intern returns the destClaim of key, made of dest and bs the first
// time.
func (b *stageBuilder) intern(key []byte, dest string, bs []stageBinding) *destClaim {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d, ok := b.dests[string(key)]; ok {
		return d
	}
	if b.dests == nil {
		b.dests = map[string]*destClaim{}
	}
	for i := range bs {
		bs[i].ref = strings.Clone(bs[i].ref) // the file is the evidence store's
	}
	d := &destClaim{dest: strings.Clone(dest), bindings: bs}
	b.dests[string(key)] = d
	return d
}
