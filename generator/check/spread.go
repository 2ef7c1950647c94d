package check

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// A claim "A ± B" quotes a mean and its spread as hyperfine, benchstat
// and criterion print them ("319.5 ± 11.2" under "Mean [ms]", "825µs
// ±11%"). B is never a tolerance: a tolerance would let a wrong mean
// copied from such a tool pass (329.5 ± 11.2 on 319.5). So B is
// checked against the spread the evidence value knows (its reader saw
// the ±, or the manifest's spreads declares it; evidence.Value.Spread),
// each number at its written precision, and on a value with no known
// spread the claim is a claim-spread finding that names both readings.
// A tolerance is written as the range it allows ([42~44초]).

// numberRange is the source range of bytes [start, end) of claim c's
// literal, for a finding on one number: the claim's position when the
// literal's offsets are unknown.
func numberRange(p *claim.Page, c claim.Claim, start, end int) diag.Diagnostic {
	d := diag.Diagnostic{Pos: c.Pos}
	if p.Index != nil && start < len(c.Offsets) && c.Offsets[start] >= 0 {
		d.Pos = p.Index.Pos(c.Offsets[start])
	}
	if e := c.SourceEnd(p.Source, end); p.Index != nil && e > d.Pos.Offset {
		d.End = p.Index.Pos(e)
	} else {
		d = withEnd(d, p, c.End)
	}
	return d
}

// spreadUnknown is the claim-spread finding on quantity q, written with a
// spread, bound to v, which has none: it names the two readings, says how
// to choose, and whether the mean alone matches.
func spreadUnknown(p *claim.Page, c claim.Claim, q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) diag.Diagnostic {
	sp := *q.Spread
	written := c.Literal[q.Start:q.End]
	after := strings.TrimSpace(c.Literal[q.NumEnd:sp.End]) // "± 11.2ms", or "ms ± 11.2ms" after 319.5ms
	if q.UnitWord != "" && strings.HasPrefix(after, q.UnitWord) {
		after = strings.TrimSpace(after[len(q.UnitWord):])
	}
	mean := "as a mean, " + c.Literal[q.NumStart:q.NumEnd] + " matches " + valueText(&q, v)
	if ok, want := Match(q, approx, v, opt); !ok {
		mean = fmt.Sprintf("as a mean, %s does not match %s; expected %s", c.Literal[q.NumStart:q.NumEnd], valueText(&q, v), want)
	}
	d := numberRange(p, c, q.Start, q.End)
	d.Severity, d.Rule = diag.Error, diag.ClaimSpread
	d.Message = fmt.Sprintf("%q writes %q after the number, but %s has no spread its reader printed or its manifest declares (%s), so it reads two ways: the spread a tool printed with its mean (hyperfine's, benchstat's mean ± σ), which cannot be checked here, or a tolerance, which would let a wrong mean copied from such a tool pass; expected, for mean ± spread, a reference for each number ([A ± B](ev:SET/MEAN,SET/SPREAD)) or a value that knows its spread (a markdown-tables cell or benchstat row written A ± B, or spreads = { \"*.mean\" = \"*.mean_sd\" } in its manifest entry), or, for a tolerance, the range it allows: [%s]",
		written, after, v.Ref, mean, toleranceRange(q))
	d.Related = []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}
	return d
}

// toleranceRange writes the range q ± its spread stands for as a
// tolerance, in q's unit word: "318.3~340.7ms" for 329.5 ± 11.2ms.
func toleranceRange(q literal.Quantity) string {
	sp := *q.Spread
	tol := sp.Value
	decimals := max(q.Decimals, sp.Decimals)
	switch {
	case q.SpreadRelative():
		tol = q.Value.Abs().Mul(sp.Value).Div(decimal.NewFromInt(100))
		decimals = q.Decimals
	case sp.Unit != q.Unit:
		if t, ok := unit.Convert(sp.Value, sp.Unit, q.Unit); ok {
			tol = t
		}
	}
	word := q.UnitWord
	if word == "" {
		word = q.Unit
	}
	d := int32(decimals)
	return q.Value.Sub(tol).StringFixed(d) + "~" + q.Value.Add(tol).StringFixed(d) + word
}

// judgeSpread checks the spread written after q's ± against v's spread
// (v.Spread, which must be set), at the spread's written precision: a
// relative spread (±11%) against a relative one, a quantity (± 11.2ms)
// against a quantity, converting time units. A relative spread is never
// converted into a quantity or back: the tool rounded it, so the other
// form is not known at the precision written.
func judgeSpread(p *claim.Page, c claim.Claim, q literal.Quantity, v *evidence.Value, opt Options) (diag.Diagnostic, bool) {
	sp, vs := *q.Spread, v.Spread
	if sp.Unit == "%p" && vs.Unit == "%" && (q.Unit == "%" || q.Unit == "%p") {
		// 44% ± 2%p: the spread of a percentage is in points, which
		// the tool printed as ± 2%
		sp.Unit = "%"
	}
	written := c.Literal[sp.Start:sp.End]
	ref := vs.Ref
	if ref == "" {
		ref = "the spread of " + v.Ref
	}
	sv := &evidence.Value{Ref: ref, Value: vs.Value, Unit: vs.Unit, Raw: vs.Raw, Pos: vs.Pos}
	var want string
	switch rel := q.SpreadRelative(); {
	case rel && !vs.Relative:
		want = fmt.Sprintf("a spread in %s: %s is %s, a quantity, not a percentage of the mean", unitName(vs.Unit), ref, vs.Value.String()+vs.Unit)
	case !rel && vs.Relative:
		want = fmt.Sprintf("a spread in %% of the mean: %s is %s%% of it, as the tool printed it (a rounded percentage is not known as a quantity at the precision written)", ref, vs.Value.String())
	default:
		if rel {
			sv.Unit = "%"
		}
		ok, w := Match(sp, literal.Exact, sv, opt)
		if ok {
			return diag.Diagnostic{}, true
		}
		want = w
	}
	d := numberRange(p, c, sp.Start, sp.End)
	d.Severity, d.Rule = diag.Error, diag.ClaimMismatch
	d.Message = fmt.Sprintf("spread %q does not match %s = %s (%s); expected %s", written, ref, vs.Value.String()+vs.Unit, vs.Pos, want)
	d.Related = []diag.Related{{Pos: vs.Pos, Message: "evidence spread " + vs.Raw}}
	if q.SpreadRelative() == vs.Relative && scaleHint(sp, sv) == "" {
		if f, ok := suggestFix(p, c, sp, sv); ok {
			d.Fixes = []diag.SuggestedFix{f}
		}
	}
	return d, false
}

// spreadCount returns how many quantities of lit carry a spread.
func spreadCount(lit literal.Literal) int {
	n := 0
	for _, q := range lit.Quantities {
		if q.Spread != nil {
			n++
		}
	}
	return n
}

// spreadsAsNumbers returns lit with each quantity's spread as a number of
// its own, right after it: the reading of a claim that binds a reference
// to each number it writes, spreads included ([412.7 ± 8.3ms](ev:hf/mean,
// hf/mean_sd), [825µs ± 11%](ev:b/old,b/old_var)).
func spreadsAsNumbers(lit literal.Literal) literal.Literal {
	out := lit
	out.Quantities = make([]literal.Quantity, 0, len(lit.Quantities)+spreadCount(lit))
	for _, q := range lit.Quantities {
		sp := q.Spread
		q.Spread = nil
		out.Quantities = append(out.Quantities, q)
		if sp != nil {
			s := *sp
			if s.Unit == "%p" && (q.Unit == "%" || q.Unit == "%p") {
				s.Unit = "%" // a percentage's spread, in points as the tool prints it (± 2%)
			}
			out.Quantities = append(out.Quantities, s)
		}
	}
	return out
}
