// Package check compares every claim of a site's pages with the evidence it
// names and reports mismatches, unknown references and broken internal
// links as diagnostics.
//
// Judgement: a literal number q written with d decimals matches an evidence
// value v when |v − q| ≤ ½·10^−d ("44%" covers 43.5–44.5, "51.7%" covers
// 51.65–51.75). When the literal carries an approximation mark (~, ≈, 약,
// 대략, 정도, 約, およそ, ほど, 程度) the tolerance is widened to
// max(½·10^−d, Approx·|q|), with Approx = 10% by default. Seconds and
// milliseconds convert into each other when both the literal and the value
// state a time unit; no other unit converts.
package check

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"evdoc/generator/claim"
	"evdoc/generator/diag"
	"evdoc/generator/evidence"
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
	Evidence diag.Position   `json:"evidence"`
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
	var (
		results []Result
		ds      diag.List
	)
	for _, c := range p.Claims {
		r := Result{Claim: c, OK: true}
		if c.Exempt {
			results = append(results, r)
			continue
		}
		lit, err := claim.ParseLiteral(c.Literal)
		if err != nil {
			ds = append(ds, diag.Errorf(c.Pos, "claim-literal", "%v", err))
			r.OK = false
			results = append(results, r)
			continue
		}
		if len(c.Refs) != len(lit.Quantities) {
			ds = append(ds, diag.Errorf(c.Pos, "claim-arity",
				"claim %q has %d number(s) but %d evidence reference(s); expected one reference per number", c.Literal, len(lit.Quantities), len(c.Refs)))
			r.OK = false
		}
		for i, ref := range c.Refs {
			b := Binding{Ref: ref}
			var q *claim.Quantity
			if i < len(lit.Quantities) {
				q = &lit.Quantities[i]
				b.Number = c.Literal[q.Start:q.End]
			}
			v, ok := st.Lookup(ref)
			if !ok {
				if set, _, _ := strings.Cut(ref, "/"); st.Broken[set] {
					ds = append(ds, diag.Errorf(c.RefPos, "claim-unknown-ref", "evidence reference %q: evidence set %q did not load (see its errors)", ref, set))
				} else {
					ds = append(ds, diag.Errorf(c.RefPos, "claim-unknown-ref", "unknown evidence reference %q%s", ref, suggest(st, ref)))
				}
				r.OK = false
				r.Bindings = append(r.Bindings, b)
				continue
			}
			b.Found = true
			b.Value, b.Unit, b.Evidence, b.Raw, b.Inputs = v.Value.String(), v.Unit, v.Pos, v.Raw, v.Inputs
			if q != nil {
				if ok, want := Match(*q, lit.Approx, v, opt); ok {
					b.OK = true
				} else {
					pos := c.Pos
					pos.Column += q.Start
					pos.Offset += q.Start
					ds = append(ds, diag.Diagnostic{Pos: pos, Severity: diag.Error, Rule: "claim-mismatch",
						Message: fmt.Sprintf("%q does not match %s = %s%s (%s); expected %s", b.Number, ref, v.Value.String(), v.Unit, v.Pos, want),
						Related: []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}})
					r.OK = false
				}
			}
			r.Bindings = append(r.Bindings, b)
		}
		results = append(results, r)
	}
	return results, ds
}

// Coverage reports every number in a page's prose that is neither in a
// claim nor exempt (fail-closed: such a number is an error), and returns
// the page's coverage.
func Coverage(p *claim.Page) (claim.Coverage, diag.List) {
	c := claim.PageCoverage(p)
	var ds diag.List
	for _, u := range c.Unbound {
		ds = append(ds, diag.Errorf(u.Pos, "claim-unbound",
			"number %q in prose is bound to no evidence; write it as [%s](ev:SET/NAME), or mark it [%s](%s \"reason\") if it is not a measurement",
			u.Text, u.Text, u.Text, claim.ExemptDestination))
	}
	return c, ds
}

// Match reports whether quantity q (approximate when approx) agrees with
// evidence value v under opt, and otherwise describes what the literal
// should read, such as "44 (43.5–44.5 covers 43.9)".
func Match(q claim.Quantity, approx bool, v *evidence.Value, opt Options) (bool, string) {
	val := InUnitOf(q, v)
	tol := decimal.New(5, int32(-q.Decimals-1)) // ½·10^−d
	if approx {
		if rel := q.Value.Abs().Mul(opt.Approx); rel.GreaterThan(tol) {
			tol = rel
		}
	}
	if val.Sub(q.Value).Abs().LessThanOrEqual(tol) {
		return true, ""
	}
	want := val.StringFixed(int32(q.Decimals))
	if approx {
		want = "about " + want
	}
	return false, fmt.Sprintf("%s at the precision written", want)
}

// InUnitOf returns v's value in the unit q is written in: seconds and
// milliseconds convert when both state a time unit; otherwise the value is
// returned as is.
func InUnitOf(q claim.Quantity, v *evidence.Value) decimal.Decimal {
	switch {
	case q.Unit == "ms" && v.Unit == "s":
		return v.Value.Mul(decimal.NewFromInt(1000))
	case q.Unit == "s" && v.Unit == "ms":
		return v.Value.Div(decimal.NewFromInt(1000))
	}
	return v.Value
}

// suggest proposes a known reference that shares the longest prefix with
// ref, as ", did you mean …?", or "" when nothing is close.
func suggest(st *evidence.Store, ref string) string {
	best, bestLen := "", 0
	for _, v := range st.Values() {
		n := commonPrefix(v.Ref, ref)
		if n > bestLen {
			best, bestLen = v.Ref, n
		}
	}
	if bestLen < len(ref)/2 || !strings.Contains(best, "/") {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
