package site

import (
	"strconv"
	"strings"
	"sync"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
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
	// cites are the citations of raw lines, each (page, file, line,
	// text) once, in order.
	cites []stageCite
	// want counts, per page (Claim.Page), the claims the render hook
	// must render: bound claims of an "ev:" destination not exempt.
	want []pageCount
}

// destClaim is one claim of a destination as viewer.claims reads it:
// its bindings to a value of the evidence.
type destClaim struct {
	dest     string
	bindings []stageBinding
}

// stageBinding is one binding of a claim to an evidence value: the
// value's reference, the raw line the claim links to (the value's own
// line, or its first input's for a derived value) and the number of
// decimal places the claim's number is written with.
type stageBinding struct {
	ref    string
	file   string
	line   int
	places int
}

// stageCite is a claim (its literal, as written) on page citing line
// of file.
type stageCite struct {
	page, file, text string
	line             int
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
	var key strings.Builder
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
		key.Reset()
		key.WriteString(c.Destination)
		for _, bd := range r.Bindings {
			if bd.Evidence == nil {
				continue
			}
			at := *bd.Evidence
			if len(bd.Inputs) > 0 {
				at = bd.Inputs[0]
			}
			sb := stageBinding{ref: bd.Ref, file: at.File, line: at.Line, places: writtenPlaces(bd.Number)}
			bs = append(bs, sb)
			key.WriteByte(0)
			key.WriteString(sb.ref)
			key.WriteByte(0)
			key.WriteString(sb.file)
			key.WriteByte(0)
			key.WriteString(strconv.Itoa(sb.line))
			key.WriteByte(0)
			key.WriteString(strconv.Itoa(sb.places))
		}
		if len(bs) > 0 {
			d := b.intern(key.String(), c.Destination, bs)
			if !seenDest[d] {
				seenDest[d] = true
				u.dests = append(u.dests, d)
			}
		}
		// The raw lines the claim cites.
		var text string
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
				if text == "" {
					text = strings.Clone(c.Literal)
				}
				u.cites = append(u.cites, stageCite{page: pageName(u, c.Page), file: p.File, text: text, line: p.Line})
			}
		}
	}
	return u
}

// pageName returns page as a string not sharing memory with a parse:
// the one u's counts hold when it is the same.
func pageName(u *claimStage, page string) string {
	if n := len(u.want); n > 0 && u.want[n-1].page == page {
		return u.want[n-1].page
	}
	if n := len(u.cites); n > 0 && u.cites[n-1].page == page {
		return u.cites[n-1].page
	}
	return strings.Clone(page)
}

// intern returns the destClaim of key, made of dest and bs the first
// time.
func (b *stageBuilder) intern(key, dest string, bs []stageBinding) *destClaim {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d, ok := b.dests[key]; ok {
		return d
	}
	if b.dests == nil {
		b.dests = map[string]*destClaim{}
	}
	for i := range bs {
		bs[i].ref = strings.Clone(bs[i].ref) // the file is the evidence store's
	}
	d := &destClaim{dest: strings.Clone(dest), bindings: bs}
	b.dests[strings.Clone(key)] = d
	return d
}
