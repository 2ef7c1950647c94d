package check

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Match reports whether quantity q (approximate as approx says) agrees
// with evidence value v under opt, and otherwise describes what the
// literal should read, such as "44 at the precision written", or, when
// the two differ by a power of 1000, which unit the literal probably
// meant.
func Match(q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if q.Sign == "±" && v.Value.IsNegative() {
		// a spread (±11%) states a size either way: it matches −11% too
		abs := *v
		abs.Value = v.Value.Abs()
		v = &abs
	}
	if matchFast(&q, approx, v, opt) {
		return true, "" // decided in int64 (see matchFast)
	}
	return matchDecimal(q, approx, v, opt)
}

// matchDecimal is Match in decimal arithmetic, for every case.
func matchDecimal(q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if !UnitsCompatible(q.Unit, v.Unit) {
		if v.Unit == "" {
			return false, fmt.Sprintf("evidence with a unit: %s has none; its raw file's format or its evidence.toml (units = { … }) must state the unit the raw file records, which may differ from the claim's", v.Ref)
		}
		if m := pointsMessage(q, v); m != "" {
			return false, m
		}
		return false, fmt.Sprintf("a number in %s (units %s and %s do not convert)", unitName(v.Unit), unitName(q.Unit), unitName(v.Unit))
	}
	if hint := multiplierSizeHint(q, v); hint != "" {
		return false, hint
	}
	if !v.Derived {
		// The literal may not claim more precision than the raw record:
		// its last digit must be no finer than the record's, in the
		// literal's unit.
		res := floorPow10(InUnitOf(q, &evidence.Value{Value: decimal.New(1, v.Value.Exponent()), Unit: v.Unit}))
		if coarsestStep(q).LessThan(res) {
			if hint := unitHint(q, v); hint != "" {
				return false, hint
			}
			if hint := binaryHint(q, approx, v, opt); hint != "" {
				return false, hint
			}
			in := ""
			if q.Unit != "" && v.Unit != "" && q.Unit != v.Unit {
				in = fmt.Sprintf(" (%s %s)", InUnitOf(q, v).String(), q.Unit) // 1 (ratio) is 100 %
			}
			return false, fmt.Sprintf("no finer than %s: %s is recorded as %s%s", res.String(), v.Ref, v.Raw, in)
		}
	}
	if q.Delta && !v.Delta {
		return false, fmt.Sprintf("a difference: %q is signed but %s is not a difference (bind it to a delta(…) value, or list it in its manifest entry's changes if it holds a change)", q.Sign+q.SignWord, v.Ref)
	}
	val := InUnitOf(q, v)
	if lo, hi, open := Interval(q, approx, opt); val.GreaterThanOrEqual(lo) && (val.LessThan(hi) || !open && val.Equal(hi)) {
		return true, ""
	}
	if hint := unitHint(q, v); hint != "" {
		return false, hint
	}
	if hint := binaryHint(q, approx, v, opt); hint != "" {
		return false, hint
	}
	return false, fmt.Sprintf("%s at the precision written", Expected(q, approx, val))
}

// coarsestStep is q's step with trailing zeros of a whole number read as
// not significant: "1500ms" claims no finer than 100 ms.
func coarsestStep(q literal.Quantity) decimal.Decimal {
	step := q.Step()
	if q.Decimals > 0 || q.Magnitude.IsZero() || q.Unit == literal.ClockUnit {
		return step // 14:10 claims the minute: its zero is a digit
	}
	var n int64
	if literal.IsOne(q.Magnitude) && q.Value.Exponent() >= -int32(decimal.DivisionPrecision) {
		n = q.Value.Abs().IntPart() // what dividing by 1 leaves (exactly, at this precision)
	} else {
		n = q.Value.Div(q.Magnitude).Abs().IntPart()
	}
	for n != 0 && n%10 == 0 {
		n /= 10
		step = step.Mul(decimal.NewFromInt(10))
	}
	return step
}

// Interval is the values q (approximate as approx says) stands for:
// from lo to hi, hi itself left out when open. A number stands for the
// values within its Tolerance. A clock time stands for the time a clock
// shows it at: 14:03 for 14:03:00 up to 14:04, left out (a clock is read
// by truncation, at every precision: 14시, 14:03, 14:03:52, 14:03:52.7);
// approximate, for the times a clock shows it at or that round to it (약
// 14시: 13:30 up to 15:00), a little over (남짓) for the truncated times
// with the next one in, a little under (거의) for the half step before it.
func Interval(q literal.Quantity, approx literal.Approx, opt Options) (lo, hi decimal.Decimal, open bool) {
	if q.Unit != literal.ClockUnit {
		below, above := Tolerance(q, approx, opt)
		return q.Value.Sub(below), q.Value.Add(above), false
	}
	step := q.Step()
	half := halfStep(q)
	switch approx {
	case literal.About:
		return q.Value.Sub(half), q.Value.Add(step), true
	case literal.Over:
		return q.Value, q.Value.Add(step), false
	case literal.Under:
		return q.Value.Sub(half), q.Value, false
	}
	return q.Value, q.Value.Add(step), true
}

// Tolerance is how far below and above q a value may lie: half a unit of
// the last written digit (a number after ± is a spread, judged on its
// own: see Spread); an approximation widens it to Approx·|q| on the side(s) its word means
// (About both, Over above, Under below).
func Tolerance(q literal.Quantity, approx literal.Approx, opt Options) (below, above decimal.Decimal) {
	half := halfStep(q)
	if approx != literal.About && approx != literal.Over && approx != literal.Under {
		return half, half
	}
	rel := half
	if r := q.Value.Abs().Mul(opt.Approx); r.GreaterThan(rel) {
		rel = r
	}
	switch approx {
	case literal.About:
		return rel, rel
	case literal.Over:
		return half, rel
	case literal.Under:
		return rel, half
	}
	return half, half
}

// halfStep is half of q's step, as q.Step().Div(2) computes it: times 0.5
// where that quotient is exact at decimal.DivisionPrecision digits (a step
// of at most DivisionPrecision-1 decimals), which spares a math/big
// division.
func halfStep(q literal.Quantity) decimal.Decimal {
	step := q.Step()
	if step.Exponent() > -int32(decimal.DivisionPrecision) {
		return step.Mul(decimal.New(5, -1))
	}
	return step.Div(decimal.NewFromInt(2))
}

// MatchRange reports whether v lies in the range lo~hi, each end widened
// by its tolerance.
func MatchRange(lo, hi literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if matchRangeFast(&lo, &hi, approx, v, opt) {
		return true, "" // decided in int64 (see matchRangeFast)
	}
	return matchRangeDecimal(lo, hi, approx, v, opt)
}

// matchRangeDecimal is MatchRange in decimal arithmetic, for every case.
func matchRangeDecimal(lo, hi literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if !UnitsCompatible(lo.Unit, v.Unit) || !UnitsCompatible(hi.Unit, v.Unit) {
		return false, fmt.Sprintf("a range in %s", unitName(v.Unit))
	}
	for _, q := range []literal.Quantity{lo, hi} {
		if hint := multiplierSizeHint(q, v); hint != "" {
			return false, hint
		}
	}
	inLo, inHi := InUnitOf(lo, v), InUnitOf(hi, v) // each end in its own unit
	from, _, _ := Interval(lo, approx, opt)
	_, to, open := Interval(hi, approx, opt)
	if inLo.GreaterThanOrEqual(from) && (inHi.LessThan(to) || !open && inHi.Equal(to)) {
		return true, ""
	}
	return false, "a range containing " + valueText(&lo, v)
}

// MatchCmp reports whether v satisfies the inequality "v cmp q". Bounds
// are exact: "10초 미만" rejects 10.2 even though it rounds to 10.
func MatchCmp(q literal.Quantity, cmp string, v *evidence.Value) (bool, string) {
	if !UnitsCompatible(q.Unit, v.Unit) {
		return false, fmt.Sprintf("a bound in %s", unitName(v.Unit))
	}
	val := InUnitOf(q, v)
	c := val.Cmp(q.Value)
	ok := map[string]bool{">=": c >= 0, "<=": c <= 0, "<": c < 0, ">": c > 0}[cmp]
	if ok {
		return true, ""
	}
	return false, fmt.Sprintf("a bound %s satisfies (%s %s %s is false)", val.String(), val.String(), cmp, q.Value.String())
}

// UnitsCompatible reports whether a literal unit and an evidence value
// unit can be compared (see unit.Compatible).
func UnitsCompatible(lit, val string) bool { return unit.Compatible(lit, val) }

// InUnitOf returns v's value in the unit q is written in: units of one
// dimension that convert (package unit) convert when both state one;
// otherwise the value is returned as is.
func InUnitOf(q literal.Quantity, v *evidence.Value) decimal.Decimal {
	if q.Unit == "" || v.Unit == "" {
		return v.Value
	}
	c, _ := unit.Convert(v.Value, v.Unit, q.Unit)
	return c
}
