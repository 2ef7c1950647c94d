package check

import (
	"math/bits"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// The judgement in decimal arithmetic (math/big underneath) allocates a
// dozen values a claim. Most claims and values are small: a coefficient
// of at most 18 digits, a few decimals, the literal's unit or none. For
// them matchFast decides a match in int64 arithmetic, exactly; it only
// ever answers "matches", and leaves everything else (a mismatch with its
// message, a unit conversion, a magnitude word, an overflow) to Match.

// small is a decimal coef·10^exp whose coefficient fits an int64 with
// room: |coef| < 10^18.
type small struct {
	coef int64
	exp  int32
}

// smallOf returns d as a small, or false when its coefficient has more
// than 18 digits.
func smallOf(d decimal.Decimal) (small, bool) {
	if d.NumDigits() > 18 {
		return small{}, false
	}
	return small{coef: d.CoefficientInt64(), exp: d.Exponent()}, true
}

// pow10 holds 10^0 … 10^18.
var pow10 = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// limit bounds every scaled coefficient, so that the sum or difference of
// two never overflows an int64.
const limit = 1 << 61

// scaleTo returns s's coefficient at exponent e (e ≤ s.exp), or false
// when it would leave (−limit, limit).
func (s small) scaleTo(e int32) (int64, bool) {
	d := int64(s.exp) - int64(e)
	c := s.coef
	if c == 0 {
		return 0, true // 0 at any exponent
	}
	if d < 0 || d > 18 {
		return 0, false
	}
	neg := c < 0
	if neg {
		c = -c
	}
	hi, lo := bits.Mul64(uint64(c), uint64(pow10[d]))
	if hi != 0 || lo >= limit {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

// commonExp is the exponent at which to compare xs: the smallest of
// those not zero (a zero is zero at any exponent: a derived 0 may carry
// 28 decimals), 0 when all are.
func commonExp(xs ...small) int32 {
	e, any := int32(0), false
	for _, x := range xs {
		if x.coef != 0 && (!any || x.exp < e) {
			e, any = x.exp, true
		}
	}
	return e
}

// less reports whether a < b, or false for ok when the two cannot be
// compared in int64.
func less(a, b small) (lt, ok bool) {
	e := commonExp(a, b)
	x, ok1 := a.scaleTo(e)
	y, ok2 := b.scaleTo(e)
	if !ok1 || !ok2 {
		return false, false
	}
	return x < y, true
}

// matchFast reports true when Match(q, approx, v, opt) would report a
// match, computed without math/big; false means "not decided here" (a
// mismatch, or a case it does not cover), and the caller asks Match.
func matchFast(q *literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) bool {
	if q.Delta && !v.Delta {
		return false
	}
	qv, below, above, ok := toleranceFast(q, approx, v, opt)
	if !ok {
		return false
	}
	val, ok := smallOf(v.Value)
	if !ok {
		return false
	}
	if !v.Derived {
		// coarsestStep(q) ≥ the record's resolution 10^exp(v)
		step := int64(-q.Decimals)
		if q.Decimals == 0 {
			// trailing zeros of a whole number are not significant
			// (coarsestStep divides by the magnitude, rounding, below
			// 10^−16)
			if qv.exp > 0 || qv.exp < -int32(decimal.DivisionPrecision) {
				return false
			}
			n := qv.coef
			if n < 0 {
				n = -n
			}
			n /= pow10[-qv.exp]
			for n != 0 && n%10 == 0 {
				n /= 10
				step++
			}
		}
		if step < int64(val.exp) {
			return false
		}
	}
	e := commonExp(qv, val, below, above)
	x, ok1 := val.scaleTo(e)
	c, ok2 := qv.scaleTo(e)
	b, ok3 := below.scaleTo(e)
	a, ok4 := above.scaleTo(e)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return false
	}
	return x >= c-b && x <= c+a
}

// matchRangeFast reports true when MatchRange(lo, hi, approx, v, opt)
// would report a match, computed without math/big; false means "not
// decided here".
func matchRangeFast(lo, hi *literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) bool {
	l, below, _, ok := toleranceFast(lo, approx, v, opt)
	if !ok {
		return false
	}
	h, _, above, ok := toleranceFast(hi, approx, v, opt)
	if !ok {
		return false
	}
	val, ok := smallOf(v.Value)
	if !ok {
		return false
	}
	e := commonExp(l, h, val, below, above)
	x, ok1 := val.scaleTo(e)
	cl, ok2 := l.scaleTo(e)
	ch, ok3 := h.scaleTo(e)
	b, ok4 := below.scaleTo(e)
	a, ok5 := above.scaleTo(e)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return false
	}
	return x >= cl-b && x <= ch+a
}

// toleranceFast returns q's value and Tolerance(q, approx, opt) as smalls
// when v needs no conversion into q's unit (InUnitOf returns v.Value as
// is) and every one fits; ok is false otherwise.
func toleranceFast(q *literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (qv, below, above small, ok bool) {
	if q.Unit != "" && v.Unit != "" && q.Unit != v.Unit {
		return qv, below, above, false // a conversion: InUnitOf multiplies
	}
	if !UnitsCompatible(q.Unit, v.Unit) || !literal.IsOne(q.Magnitude) || q.Unit == literal.ClockUnit {
		return qv, below, above, false // a clock time is read by truncation (see Interval)
	}
	// the step of the last written digit, 10^−Decimals; halved exactly
	// (see halfStep) for fewer than 16 decimals
	if q.Decimals < 0 || q.Decimals > 15 {
		return qv, below, above, false
	}
	if qv, ok = smallOf(q.Value); !ok {
		return qv, below, above, false
	}
	// half a unit of the last digit
	half := small{coef: 5, exp: int32(-q.Decimals - 1)}
	below, above = half, half
	if approx != literal.About && approx != literal.Over && approx != literal.Under {
		return qv, below, above, true
	}
	a, ok := smallOf(opt.Approx)
	if !ok || a.coef < 0 {
		return qv, below, above, false
	}
	c := qv.coef
	if c < 0 {
		c = -c
	}
	hi, lo := bits.Mul64(uint64(c), uint64(a.coef))
	re := int64(qv.exp) + int64(a.exp)
	if hi != 0 || lo >= limit || re < -1000 || re > 1000 {
		return qv, below, above, false
	}
	rel := small{coef: int64(lo), exp: int32(re)}
	lt, ok := less(half, rel)
	if !ok {
		return qv, below, above, false
	}
	if lt {
		switch approx {
		case literal.About:
			below, above = rel, rel
		case literal.Over:
			above = rel
		case literal.Under:
			below = rel
		}
	}
	return qv, below, above, true
}
