package numscan

import (
	"bytes"
	"math"
	"math/big"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Number is one number of a page's text read as a typed token, the form
// in which a translation's numbers are compared with its source's.
//
// Value is in the base unit of Unit: times in seconds ("s"), sizes in
// bytes ("B"), CPU in cores ("core"), rates per second ("/s"), and "%",
// "%p", "x" (multiples) and the other units of package unit as written;
// counting words (회, 回, 件, つ, 단계…) and bare numbers have Unit "".
// Cmp is the comparator stated around the number ("<=" for 최대 3,
// 3まで, at most 3, 3 이하; ">=", "<", ">"; "" for none) and Approx the
// approximation a word around it states (약, 約, about, 정도, ほど… about;
// 남짓, 余り over; 거의, 近く under: the words of literal.ApproxWords). Sign
// is "+" for a number written as a difference (+1, Δ1, ±0), "-" for one
// written with a minus (−5, and △5, which a Japanese or Korean reader
// reads as −5), "" for none. Kind is "number", or "date", "time" (a
// clock time), "version", "ip" or "id" (a number glued to a name, such
// as p99) for numbers compared by their text. Start and End are byte
// offsets in the text scanned.
type Number struct {
	Kind   string
	Value  decimal.Decimal
	Unit   string
	Cmp    string
	Approx literal.Approx
	Sign   string
	Text   string
	Key    string // Kind-specific normal form (see NormalForm)
	Start  int
	End    int
	// Label is the statistic written right before the number in its
	// block (p99 지연은 29.8ms: "p99"; see itemLabels).
	Label string
	// spanQ is the quantity of the claim the span is read from (the
	// last part's of a duration written in parts), spanFactor the factor
	// to Value's base unit, spanTurned set when the span turns with a
	// sign read before the number: spanOf computes the span from them
	// only when two values differ, not for every number.
	spanQ      *literal.Quantity
	spanFactor decimal.Decimal
	// (the flags are kept together, in one word of the struct)
	//
	// Word is set for a number written as a word (두 번, 一つ): it
	// matches a number of the other language, but one without a
	// counterpart is no finding on its own (一つの理由 and 이유 하나: a
	// language writes "one" where the other writes none).
	Word bool
	// another is set for a word of value one that says "one more"
	// (もう一つ, 한 번 더): see WordsPair.
	another bool
	// point is set for a time followed by a word that makes it a point
	// after a start (12초 후, 12초 시점, 12秒後, 12秒の時点, 12 s after):
	// what +12s says on a timeline, without the sign.
	point bool
	// span is set for a claim's number read by the claim grammar: the
	// values it stands for at the precision written, as the judge reads
	// it (check.Interval of an exact number: half a unit of the last
	// written digit, a ± tolerance, a clock's truncation), from Value −
	// below to Value + above in Value's base unit (see spanOf). Two
	// claims of one evidence value that say the same at the coarser of
	// their precisions (1만 3천 and 1万3042) agree (see valuesAgree).
	span bool
	// spanTurned: see spanQ.
	spanTurned bool
	// Spread is set for the number a claim writes after ± (319.5 ±
	// 11.2ms: 11.2 ms), the spread of the number before it: compared as
	// a number of its own, never as a tolerance widening the mean.
	Spread bool
}

// spanOf returns how far below and above Value the values n stands for
// reach (see Number.span); n.span must be set.
func (n *Number) spanOf() (below, above decimal.Decimal) {
	q := *n.spanQ
	lo, hi, _ := check.Interval(q, literal.Exact, check.Options{})
	below, above = q.Value.Sub(lo), hi.Sub(q.Value)
	if !literal.IsOne(n.spanFactor) {
		below, above = below.Mul(n.spanFactor), above.Mul(n.spanFactor)
	}
	if n.spanTurned {
		below, above = above, below
	}
	return below, above
}

// NormalForm is the number as compared across languages, comparator and
// sign included and approximation excluded: "12000", "40|s", "<=|3",
// "+1", "2026-07-09".
func (n Number) NormalForm() string { return n.Key }

// decimalString is d.String() without math/big for a coefficient that
// fits an int64 and an exponent of 0 or below (40, 86, 0.021, 51.7): the
// same digits, trailing zeros of the fraction dropped, as decimal prints
// them by default.
func decimalString(d decimal.Decimal) string {
	var buf [32]byte
	return string(appendDecimal(buf[:0], d))
}

// appendDecimal appends decimalString(d) to b.
func appendDecimal(b []byte, d decimal.Decimal) []byte {
	exp := d.Exponent()
	if !decimal.TrimTrailingZeros || decimal.UseScientificNotation || exp > 64 || d.NumDigits() > 18 {
		return append(b, d.String()...)
	}
	c := d.CoefficientInt64()
	if exp >= 0 {
		// an integer: the coefficient and exp zeros (1.3만 is 13E3)
		b = strconv.AppendInt(b, c, 10)
		if c != 0 {
			for range exp {
				b = append(b, '0')
			}
		}
		return b
	}
	if c < 0 {
		b, c = append(b, '-'), -c
	}
	var digits [24]byte
	str := strconv.AppendInt(digits[:0], c, 10)
	e := int(-exp)
	if len(str) > e {
		intPart, frac := str[:len(str)-e], str[len(str)-e:]
		frac = bytes.TrimRight(frac, "0")
		b = append(b, intPart...)
		if len(frac) > 0 {
			b = append(append(b, '.'), frac...)
		}
		return b
	}
	frac := bytes.TrimRight(str, "0")
	b = append(b, '0')
	if len(frac) == 0 {
		return b
	}
	b = append(b, '.')
	for range e - len(str) {
		b = append(b, '0')
	}
	return append(b, frac...)
}

// shortest returns d with the trailing zeros of its coefficient dropped
// (unit.Factor's 0.001 is 10²⁵×10⁻²⁸; 10⁻³ is the same value): a number
// multiplied by it keeps a coefficient that fits in an int64, which
// appendDecimal and decimal's arithmetic read without math/big's slow
// paths. The value, and so every key and text written of it, is d's.
func shortest(d decimal.Decimal) decimal.Decimal {
	if d.IsZero() {
		return decimal.Zero
	}
	c, exp := d.Coefficient(), d.Exponent()
	ten, r := big.NewInt(10), new(big.Int)
	for {
		q, m := new(big.Int).QuoRem(c, ten, r)
		if m.Sign() != 0 {
			break
		}
		c, exp = q, exp+1
	}
	return decimal.NewFromBigInt(c, exp)
}

// mul is a.Mul(b), the same coefficient and exponent, without math/big
// when both coefficients have at most nine digits: their product fits in
// an int64 (unit.NewDecimal shares a small one). A number times its
// unit's factor is nearly always such a product (TestMulEqualsDecimal).
func mul(a, b decimal.Decimal) decimal.Decimal {
	if a.NumDigits() > 9 || b.NumDigits() > 9 {
		return a.Mul(b)
	}
	exp := int64(a.Exponent()) + int64(b.Exponent())
	if exp < math.MinInt32 || exp > math.MaxInt32 {
		return a.Mul(b)
	}
	return unit.NewDecimal(a.CoefficientInt64()*b.CoefficientInt64(), int32(exp))
}
