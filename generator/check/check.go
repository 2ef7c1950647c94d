// Package check compares every claim of a site's pages with the evidence it
// names and reports mismatches, unknown references and unbound numbers as
// diagnostics (the claim-* rules of the catalogue, generator/diag/rules.go).
// Site-level rules (links, figures, translations) are package site's.
//
// Judgement: a literal number q written with d decimals matches an evidence
// value v when |v − q| ≤ ½·10^−d ("44%" covers 43.5–44.5, "51.7%" covers
// 51.65–51.75), times the magnitude written (만, 万, 割). A number
// written after ± is the spread a tool printed with its mean ("319.5 ±
// 11.2ms"), never a tolerance: it is checked against the spread the
// evidence value knows (evidence.Value.Spread), and on a value with none
// it is a claim-spread finding (see Spread). When the literal carries an approximation
// word (literal.Approx: 약, 約, 정도, ほど … about; 남짓, 強 over; 弱, 近く
// under) the tolerance is widened to max(½·10^−d, Approx·|q|) on the
// side(s) the word means, with Approx = 10% by default. A clock time is
// read by truncation, as a clock shows it: 14:03 covers 14:03:00 up to
// 14:04 (see Interval). Units of one dimension convert into each other
// when both the literal and the value state one (package unit: time,
// sizes, throughputs, CPU, ratio and %); % and %p (percentage points) do
// not, and a claim in one on a value in the other names both readings
// (pointsMessage). A mismatch by a power of 1000 between time units is
// reported as the unit mistake it is, with no fix; a decimal size (MB)
// that matches only as the binary one (MiB) names both readings
// (binaryHint).
package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Options tunes the judgement. The zero value is not useful; start from
// DefaultOptions.
type Options struct {
	// Approx is the relative tolerance an approximation mark allows,
	// as a fraction (0.10 = ±10%).
	Approx decimal.Decimal
}

// DefaultOptions returns the documented defaults: Approx = 0.10.
func DefaultOptions() Options {
	return Options{Approx: decimal.RequireFromString("0.10")}
}

// Binding is one number of a claim matched with its evidence value.
type Binding struct {
	Ref      string          `json:"ref"`
	Number   string          `json:"number"`
	Found    bool            `json:"found"`
	Value    string          `json:"value,omitempty"`
	Unit     string          `json:"unit,omitempty"`
	Evidence *diag.Position  `json:"evidence,omitempty"`
	Raw      string          `json:"raw,omitempty"`
	Inputs   []diag.Position `json:"inputs,omitempty"`
	OK       bool            `json:"ok"`
}

// Result is the verdict on one claim.
type Result struct {
	Claim    claim.Claim `json:"claim"`
	Bindings []Binding   `json:"bindings"`
	OK       bool        `json:"ok"`
}

// Claims judges the claims of one page against st, returning a Result for
// every claim and a diagnostic for every problem: an unparseable literal,
// a count mismatch between numbers and references, an unknown reference,
// and a value outside the written precision.
func Claims(p *claim.Page, st *evidence.Store, opt Options) ([]Result, diag.List) {
	j := judgement{mode: keepResults}
	j.judge(p, st, opt)
	return j.results, j.ds
}

// Counts judges the claims of one page as Claims does, with the same
// diagnostics, but keeps no Result: it returns how many claims the page
// has (exempt ones included, as Claims returns a Result for each) and how
// many of them are OK.
func Counts(p *claim.Page, st *evidence.Store, opt Options) (total, matched int, ds diag.List) {
	j := judgement{mode: keepNone}
	j.judge(p, st, opt)
	return j.total, j.matched, j.ds
}

// Visit judges the claims of one page as Counts does, with the same
// counts and diagnostics, and calls visit with each claim of p.Claims
// in order (exempt ones included) and the bindings Claims gives its
// Result, but without each value's text: a Binding's Value is empty.
// It builds no Result: a caller keeping a little of each claim's
// verdict (stagedata) so makes neither a copy of every claim nor the
// text of every value. bs is valid only until visit returns.
func Visit(p *claim.Page, st *evidence.Store, opt Options, visit func(c *claim.Claim, bs []Binding)) (total, matched int, ds diag.List) {
	j := judgement{mode: keepBindings, visit: visit}
	j.judge(p, st, opt)
	return j.total, j.matched, j.ds
}

// keepMode is what judge keeps of each claim's verdict.
type keepMode int

const (
	keepNone     keepMode = iota // the counts only (Counts)
	keepBindings                 // each claim's bindings without the values' text, for visit (Visit)
	keepResults                  // every Result (Claims)
)

// judgement is what judge found on a page: every claim's Result when
// kept, the count of claims and of OK ones, and the diagnostics.
type judgement struct {
	mode           keepMode
	results        []Result
	total, matched int
	ds             diag.List
	// visit receives each claim (cur) and its bindings under
	// keepBindings; buf is the bindings' room, reused claim after claim.
	visit func(c *claim.Claim, bs []Binding)
	cur   *claim.Claim
	buf   []Binding
}

// add counts r, and keeps it (keepResults) or hands it to visit
// (keepBindings).
func (j *judgement) add(r Result) {
	j.total++
	if r.OK {
		j.matched++
	}
	switch j.mode {
	case keepResults:
		j.results = append(j.results, r)
	case keepBindings:
		j.visit(j.cur, r.Bindings)
		if cap(r.Bindings) > cap(j.buf) {
			j.buf = r.Bindings[:0]
		}
	}
}

// judge judges the claims of page p, keeping what j.mode says: under
// keepNone it builds no Result, no Binding and no value's text.
func (j *judgement) judge(p *claim.Page, st *evidence.Store, opt Options) {
	keep := j.mode == keepResults // each Result, its claim and values' text
	bind := j.mode != keepNone    // each claim's bindings
	ds := &j.ds
	// Claims resting on an evidence set that did not load are reported
	// once per page and set, not once per claim.
	brokenCount := map[string]int{}
	for i := range p.Claims { // a Claim is 400 bytes: not copied
		if len(st.Broken) == 0 {
			break // no set failed to load
		}
		for _, ref := range p.Claims[i].Refs {
			if set, _, _ := strings.Cut(ref, "/"); st.Broken[set] {
				brokenCount[set]++
			}
		}
	}
	brokenReported := map[string]bool{}
	// for labelMismatch: a value's label, made with room for one value a
	// claim (most claims of a page cite a value of their own), so that
	// the map does not grow claim by claim
	names := make(map[*evidence.Value]string, len(p.Claims))
	if len(p.Claims) > 0 && keep {
		j.results = make([]Result, 0, len(p.Claims))
	}
	for i := range p.Claims {
		c := &p.Claims[i] // a Claim is 408 bytes: not copied
		j.cur = &p.Claims[i]
		r := Result{OK: true, Bindings: j.buf}
		if keep {
			r.Claim = *c
		}
		if c.Exempt {
			j.add(r)
			continue
		}
		lit, err := c.Parsed, c.ParseErr
		if err != nil {
			*ds = append(*ds, literalError(p, *c, err))
			r.OK = false
			j.add(r)
			continue
		}
		if d, ok := unitOutside(p, c, lit); ok {
			*ds = append(*ds, d)
			r.OK = false
		}
		split := false
		for qi := range lit.Quantities {
			q := &lit.Quantities[qi] // a Quantity is 256 bytes: not copied
			if _, _, ok := c.SourceRange(p.Source, q.NumStart, q.NumEnd); !ok && len(c.Offsets) > 0 {
				if c.Decoded(p.Source, q.NumStart, q.NumEnd) {
					*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimLiteral, "claim %q: the number %q is written with a character reference or backslash escape; expected plain digits", c.Literal, c.Literal[q.NumStart:q.NumEnd]), p, c.End))
					split = true
					continue
				}
				*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimLiteral, "claim %q: the number %q is split by inline markup; expected it written as one run of text", c.Literal, c.Literal[q.NumStart:q.NumEnd]), p, c.End))
				split = true
			}
		}
		if split {
			r.OK = false
			j.add(r)
			continue
		}
		if lit.Range && len(c.Refs) == 1 && len(lit.Quantities) == 2 {
			j.add(judgeRange(p, *c, lit, st, opt, ds, j.mode, j.buf))
			continue
		}
		if n := spreadCount(lit); n > 0 && len(c.Refs) == len(lit.Quantities)+n {
			// [412.7 ± 8.3ms](ev:mean,sd): one reference per number,
			// the spread's named by the writer. Each spread is then a
			// number of its own, judged against its reference.
			lit = spreadsAsNumbers(lit)
		}
		if len(c.Refs) != len(lit.Quantities) {
			*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimArity,
				"claim %q has %d number(s) but %d evidence reference(s); expected one reference per number", c.Literal, len(lit.Quantities), len(c.Refs)), p, c.End))
			r.OK = false
		}
		for i, ref := range c.Refs {
			b := Binding{Ref: ref}
			var q *literal.Quantity
			if i < len(lit.Quantities) {
				q = &lit.Quantities[i]
				b.Number = c.Literal[q.Start:q.End]
			}
			v, ok := st.Lookup(ref)
			if !ok {
				if set, _, _ := strings.Cut(ref, "/"); st.Broken[set] {
					if !brokenReported[set] {
						brokenReported[set] = true
						*ds = append(*ds, brokenSet(*c, set, ref, brokenCount[set], st))
					}
				} else if at, ok := st.Unavailable(ref); ok {
					pos, end := refRange(*c, i)
					*ds = append(*ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Error, Rule: diag.ClaimUnknownRef,
						Message: fmt.Sprintf("derived value %q could not be computed (value unavailable: see %s)", ref, at),
						Related: []diag.Related{{Pos: at, Message: "why " + ref + " is unavailable"}}})
				} else if cell, ok := st.NonNumeric(ref); ok {
					pos, end := refRange(*c, i)
					*ds = append(*ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Error, Rule: diag.ClaimUnknownRef,
						Message: nonNumericMessage(ref, cell),
						Related: []diag.Related{{Pos: cell.Pos, Message: "the cell"}}})
				} else {
					pos, end := refRange(*c, i)
					*ds = append(*ds, diag.Errorf(pos, diag.ClaimUnknownRef, "unknown evidence reference %q%s", ref, suggest(st, ref)).Spanning(end))
				}
				r.OK = false
				if bind {
					r.Bindings = append(r.Bindings, b)
				}
				continue
			}
			b.Found = true
			if bind {
				b.Unit, b.Evidence, b.Raw, b.Inputs = v.Unit, &v.Pos, v.Raw, v.Inputs
			}
			if keep {
				b.Value = v.Value.String()
			}
			if q != nil && q.Spread != nil && v.Spread == nil {
				// 319.5 ± 11.2ms on a value with no known spread: a
				// tool's mean ± σ, or a tolerance? Say so.
				*ds = append(*ds, spreadUnknown(p, *c, *q, lit.Approx, v, opt))
				r.OK = false
			} else if q != nil {
				match := func() (bool, string) { return Match(*q, lit.Approx, v, opt) }
				if lit.Cmp != "" && len(lit.Quantities) == 1 {
					match = func() (bool, string) { return MatchCmp(*q, lit.Cmp, v) }
				}
				if ok, want := match(); ok {
					b.OK = true
				} else {
					pos := c.Pos
					if p.Index != nil && q.Start < len(c.Offsets) && c.Offsets[q.Start] >= 0 {
						pos = p.Index.Pos(c.Offsets[q.Start]) // the literal may span lines
					}
					end := diag.Position{}
					if e := c.SourceEnd(p.Source, q.End); p.Index != nil && e >= 0 {
						end = p.Index.Pos(e) // past a character reference: 40&nbsp;ms
					}
					d := diag.Diagnostic{Pos: pos, End: end, Severity: diag.Error, Rule: diag.ClaimMismatch,
						Message: fmt.Sprintf("%q does not match %s = %s (%s); expected %s", b.Number, ref, valueText(q, v), v.Pos, want),
						Related: []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}}
					if lit.Cmp == "" && scaleHint(*q, v) == "" && binaryHint(*q, lit.Approx, v, opt) == "" && multiplierSizeHint(*q, v) == "" {
						// A power-of-1000 mismatch is a unit mistake,
						// and so is a decimal size that matches only
						// as a binary one: rewriting the digits would
						// hide it.
						if f, ok := suggestFix(p, *c, *q, v); ok {
							d.Fixes = []diag.SuggestedFix{f}
						}
					}
					if !end.IsValid() {
						d = withEnd(d, p, c.End)
					}
					*ds = append(*ds, d)
					r.OK = false
				}
				if q.Spread != nil {
					if d, ok := judgeSpread(p, *c, *q, v, opt); !ok {
						*ds = append(*ds, d)
						b.OK, r.OK = false, false
					}
				}
			}
			if d, ok := labelMismatch(p, c, v, names); ok {
				*ds = append(*ds, d)
				r.OK = false
			}
			if !bind {
				continue
			}
			if r.Bindings == nil {
				r.Bindings = make([]Binding, 0, len(c.Refs))
			}
			r.Bindings = append(r.Bindings, b)
		}
		j.add(r)
	}
}

// literalError is the claim-literal finding for c's parse error err: at
// the bytes of the literal a literal.LiteralError names (the first byte the
// grammar could not read), or over the whole claim.
func literalError(p *claim.Page, c claim.Claim, err error) diag.Diagnostic {
	d := withEnd(diag.Errorf(c.Pos, diag.ClaimLiteral, "%v", err), p, c.End)
	var le *literal.LiteralError
	if !errors.As(err, &le) || p.Index == nil || le.Offset >= len(c.Offsets) || c.Offsets[le.Offset] < 0 {
		return d
	}
	d.Pos = p.Index.Pos(c.Offsets[le.Offset])
	if e := c.SourceEnd(p.Source, le.End); e > d.Pos.Offset {
		d.End = p.Index.Pos(e)
	} else {
		d = withEnd(d, p, max(c.End, d.Pos.Offset+1))
	}
	return d
}

// refRange returns the range of claim c's i-th reference in its
// destination, or of the whole destination when it has no such one.
func refRange(c claim.Claim, i int) (diag.Position, diag.Position) {
	if i < len(c.RefPositions) && i < len(c.RefEnds) {
		return c.RefPositions[i], c.RefEnds[i]
	}
	return c.RefPos, c.DestEnd
}

// withEnd sets the end of d's range to byte offset end of page p.
func withEnd(d diag.Diagnostic, p *claim.Page, end int) diag.Diagnostic {
	if p.Index != nil && end > d.Pos.Offset {
		d.End = p.Index.Pos(end)
	}
	return d
}

// suggestFix rewrites a stale number to its evidence value in the style
// it was written (see literal.Quantity.Format). There is no mechanical fix
// when the units disagree, when a signed literal is bound to a value that
// is not a difference, when the literal claims more precision than the
// record, or when the link text has inline markup (the literal is not
// written contiguously in the source).
func suggestFix(p *claim.Page, c claim.Claim, q literal.Quantity, v *evidence.Value) (diag.SuggestedFix, bool) {
	start, end, ok := c.SourceRange(p.Source, q.NumStart, q.NumEnd)
	if p.Index == nil || !ok || !q.Rewritable() {
		return diag.SuggestedFix{}, false
	}
	if !UnitsCompatible(q.Unit, v.Unit) || q.Delta && !v.Delta {
		return diag.SuggestedFix{}, false
	}
	if q.SignWord != "" && v.Value.Sign() != 0 && v.Value.Sign() != q.Value.Sign() {
		return diag.SuggestedFix{}, false // 감소 on an increase: the word must change, by hand
	}
	if q.ZeroPart(InUnitOf(q, v)) {
		return diag.SuggestedFix{}, false // 1만 0천: not how the number is written in those words
	}
	if !v.Derived && coarsestStep(q).LessThan(floorPow10(InUnitOf(q, &evidence.Value{Value: decimal.New(1, v.Value.Exponent()), Unit: v.Unit}))) {
		// Written finer than the record: without a unit conversion, write
		// the record's own precision instead.
		if u, _ := unit.Canonical(q.Unit); u.Converts() && q.Unit != v.Unit || !q.Magnitude.Equal(decimal.NewFromInt(1)) {
			return diag.SuggestedFix{}, false
		}
		q.Decimals = int(max(0, -v.Value.Exponent()))
	}
	nw := q.Format(InUnitOf(q, v))
	if nw == string(p.Source[start:end]) || !literal.RewriteKeepsReading(c.Literal, q, nw) {
		return diag.SuggestedFix{}, false
	}
	return diag.SuggestedFix{
		// the number as it reads rewritten: 1만 3천 건, not 1만 3
		Message: fmt.Sprintf("write %s (%s)", c.Literal[q.Start:q.NumStart]+nw+c.Literal[q.NumEnd:q.End], v.Ref),
		Edits:   []diag.TextEdit{{Pos: p.Index.Pos(start), End: end, NewText: nw}},
	}, true
}

// judgeRange checks a range literal ("5~10초") bound to one value.
func judgeRange(p *claim.Page, c claim.Claim, lit literal.Literal, st *evidence.Store, opt Options, ds *diag.List, mode keepMode, room []Binding) Result {
	r := Result{OK: true, Bindings: room}
	if mode == keepResults {
		r.Claim = c
	}
	b := Binding{Ref: c.Refs[0], Number: c.Literal[lit.Quantities[0].Start:lit.Quantities[1].End]}
	v, ok := st.Lookup(c.Refs[0])
	if !ok {
		pos, end := refRange(c, 0)
		*ds = append(*ds, diag.Errorf(pos, diag.ClaimUnknownRef, "unknown evidence reference %q%s", c.Refs[0], suggest(st, c.Refs[0])).Spanning(end))
		r.OK = false
		r.Bindings = append(r.Bindings, b)
		return r
	}
	b.Found = true
	if mode != keepNone {
		b.Unit, b.Evidence, b.Raw, b.Inputs = v.Unit, &v.Pos, v.Raw, v.Inputs
	}
	if mode == keepResults {
		b.Value = v.Value.String()
	}
	if lit.Quantities[0].Spread != nil || lit.Quantities[1].Spread != nil {
		r.OK = false
		*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimSpread,
			"range %q writes a ± spread on an end; expected a range (the values a claim allows) or a mean ± spread (as a tool prints it), not both", b.Number), p, c.End))
		r.Bindings = append(r.Bindings, b)
		return r
	}
	if ok, want := MatchRange(lit.Quantities[0], lit.Quantities[1], lit.Approx, v, opt); ok {
		b.OK = true
	} else {
		r.OK = false
		*ds = append(*ds, withEnd(diag.Diagnostic{Pos: c.Pos, Severity: diag.Error, Rule: diag.ClaimMismatch,
			Message: fmt.Sprintf("range %q does not contain %s = %s (%s); expected %s", b.Number, b.Ref, valueText(&lit.Quantities[0], v), v.Pos, want),
			Related: []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}}, p, c.End))
	}
	r.Bindings = append(r.Bindings, b)
	return r
}

// Coverage reports every number in a page's prose that is neither in a
// claim nor exempt (fail-closed: such a number is an error), and returns
// the page's coverage.
func Coverage(p *claim.Page) (claim.Coverage, diag.List) {
	c := claim.PageCoverage(p)
	var ds diag.List
	for _, u := range c.Unbound {
		d := diag.Errorf(u.Pos, diag.ClaimUnbound,
			"number %q in prose is bound to no evidence; write it as [%s](ev:SET/NAME), or mark it [%s](%s \"reason\") if it is not a measurement",
			u.Text, u.Text, u.Text, claim.ExemptDestination)
		if u.In != "" {
			d = diag.Errorf(u.Pos, diag.ClaimUnbound,
				"number %q in %s is published and bound to no evidence; write it there as [%s](ev:SET/NAME) if the shortcode renders the argument with .Page.RenderString (Hugo's details summary does; markdownify, which Hugo's figure caption uses, renders it as the home page's), else state it in the prose as a claim; mark it [%s](%s \"reason\") if it is not a measurement",
				u.Text, u.In, u.Text, u.Text, claim.ExemptDestination)
		}
		end := u.End
		if end <= u.Pos.Offset {
			end = u.Pos.Offset + len(u.Text)
		}
		ds = append(ds, withEnd(d, p, end))
	}
	return c, ds
}

// NumberWords reports the numbers written as words with a counter in a
// page's prose (세 번, 二回, ふたつ; see claim.Page.ProseWords) as
// claim-number-word findings. The rule is off by default: the site runs it
// only when evdoc.toml's [rules] gives it a severity.
func NumberWords(p *claim.Page) diag.List {
	var ds diag.List
	for _, w := range p.ProseWords() {
		d := diag.Diagnostic{Pos: w.Pos, Severity: diag.Warning, Rule: diag.ClaimNumberWord,
			Message: fmt.Sprintf("%q in prose is a number written as a word and bound to no evidence; write it as [%s](ev:SET/NAME), or mark it [%s](%s \"reason\") if it is not a measurement", w.Text, w.Text, w.Text, claim.ExemptDestination)}
		if p.Index != nil {
			d.End = p.Index.Pos(w.Pos.Offset + len(w.Text))
		}
		ds = append(ds, d)
	}
	return ds
}

// suggest proposes the known reference closest to ref (see
// evidence.Store.Suggest) as "; did you mean …?", or "" when nothing is
// close.
func suggest(st *evidence.Store, ref string) string {
	if best, ok := st.Suggest(ref); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

// nonNumericMessage says that ref names a table cell that is not a
// number: empty, or holding text.
func nonNumericMessage(ref string, cell labreport.Cell) string {
	if cell.Text == "" {
		return fmt.Sprintf("evidence reference %q names an empty table cell, not a number (value unavailable: see %s)", ref, cell.Pos)
	}
	return fmt.Sprintf("evidence reference %q names a cell that holds %q, not a number", ref, cell.Text)
}

// brokenSet is the one finding of a page about the n references of its
// claims (the first at c, ref) resting on an evidence set that did not
// load: a consequence of the set's own first error, which it names.
func brokenSet(c claim.Claim, set, ref string, n int, st *evidence.Store) diag.Diagnostic {
	d := diag.Errorf(c.RefPos, diag.ClaimUnknownRef, "evidence set %q did not load; %d reference(s) on this page rest on it, starting with %q", set, n, ref).Spanning(c.DestEnd)
	if at, ok := st.BrokenAt[set]; ok && at.File != "" {
		d.Message += fmt.Sprintf(" (value unavailable: see %s)", at)
		d.Related = append(d.Related, diag.Related{Pos: at, Message: "the evidence set's first error"})
	} else {
		d.Message += " (see its errors)"
	}
	return d
}
