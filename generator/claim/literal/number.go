package literal

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Quantity is one number read from a claim literal.
//
// Value is exact; Decimals is the number of digits written after the
// decimal point (the written precision); Unit is a canonical unit name of
// package unit ("" none, "%", "s", "ms", "count" for a counter word such
// as 회, 回, 件, "/s" for a rate, …) and UnitWord the word as written.
// Delta is set when the number was written with + or Δ: it must be bound
// to a difference. Start and End are byte offsets of the number (sign
// through unit) within the literal.
type Quantity struct {
	Value    decimal.Decimal `json:"value"`
	Decimals int             `json:"decimals"`
	Unit     string          `json:"unit,omitempty"`
	UnitWord string          `json:"unit_word,omitempty"`
	Delta    bool            `json:"delta,omitempty"`
	// FullWidth and Grouped: see NumStart (beside Delta, the three
	// flags take one word of the struct)
	FullWidth bool `json:"-"`
	Grouped   bool `json:"-"`
	Start     int  `json:"start"`
	End       int  `json:"end"`
	// Style of the written number, for rewriting it in place: the byte
	// range [NumStart, NumEnd) of the sign and digits (no unit), the sign
	// as written ("", "+", "-", "−", "Δ", "Δ+", …), whether the digits
	// were full-width and whether they had thousands separators (Sep is
	// the separator: ",", "，" or a space).
	NumStart int    `json:"-"`
	NumEnd   int    `json:"-"`
	Sign     string `json:"sign,omitempty"`
	Sep      string `json:"-"`
	// Magnitude is the factor of a magnitude word written after the
	// digits (만 = 10000, 億 = 100000000, 割 = 10 in percent); 1 when there
	// is none. Value already includes it.
	Magnitude decimal.Decimal `json:"-"`
	// MagnitudeWord is the magnitude word as written (만, 万, 割), or "".
	MagnitudeWord string `json:"magnitude_word,omitempty"`
	// Word is set for a number written as a word (세 번, 二回, ふたつ,
	// three); Compound for one written in parts (1만 2천, 1万2000,
	// 3割5分). Neither can be rewritten in place.
	Word     bool `json:"word,omitempty"`
	Compound bool `json:"compound,omitempty"`
	// Spread is the number written after ± ("319.5 ± 11.2ms": 11.2 ms;
	// "120ms ±11%": 11 %), as written, with its own unit (the number's
	// when it writes none) and byte range in the literal; nil when there
	// is none. Tools print a mean and its spread this way (hyperfine,
	// benchstat, criterion), so it is not read as a tolerance: package
	// check compares it with the spread the evidence value knows.
	Spread *Quantity `json:"spread,omitempty"`
	// Parts are the parts of a compound duration or clock time (143h25m,
	// 1분 30초, PT1M30S, 14:03:22, 오후 2시 3분), nil for any other number.
	// Value is then in the unit of the last part (Unit; for a clock time,
	// seconds since midnight in ClockUnit) at its decimals, and
	// [NumStart, NumEnd) runs from the first part's digits to the last
	// part's, which Format rewrites in the same parts.
	Parts []Part `json:"parts,omitempty"`
	// MagParts are the parts of a compound magnitude (1만 2천, 1万2000,
	// 3割5分), each with its Factor, nil for any other number (and for a
	// compound whose first part has decimals). [NumStart, NumEnd) then
	// runs from the first part's digits to the last part's.
	MagParts []Part `json:"-"`
	// Meridiem is the 오전/오후/午前/午後 before a 12-hour clock time, or "".
	Meridiem string `json:"meridiem,omitempty"`
	// SignWord is the word after the number that gives it its sign
	// (감소, 減少, decrease: negative; 증가, 増加, increase: positive); the
	// number is then a difference (Delta) and its digits carry no sign.
	SignWord string `json:"sign_word,omitempty"`
}

// SpreadRelative reports whether q's Spread is a percentage of q ("120ms
// ±11%"): a spread in % after a number in another unit. After a
// percentage ("44% ± 2%") it is in points, as q is.
func (q Quantity) SpreadRelative() bool {
	return q.Spread != nil && q.Spread.Unit == "%" && q.Unit != "%" && q.Unit != "%p"
}

// Step is the value of one unit in the last written digit: 10^−Decimals
// times Magnitude. A number matches values within ±Step/2.
func (q Quantity) Step() decimal.Decimal {
	step := decimal.New(1, int32(-q.Decimals))
	if IsOne(q.Magnitude) {
		return step // no magnitude word: times 1, spared the math/big product
	}
	return step.Mul(q.Magnitude)
}

// IsOne reports whether d is 1 written without decimals (coefficient 1,
// exponent 0), as a number without magnitude word has its Magnitude;
// multiplying by it changes nothing.
func IsOne(d decimal.Decimal) bool {
	return d.Exponent() == 0 && d.CoefficientInt64() == 1 && d.NumDigits() == 1
}

// Rewritable reports whether Format can rewrite the number in place: not
// a number word, and a compound magnitude only when its parts are known
// (1만 2천, 1万2000, 3割5分; not 1.5만 2천). A compound duration or clock
// time is rewritten in its own parts (142h37m stays hours and minutes;
// 오후 2시 3분 keeps 오전/오후, changing it as the hour needs), a compound
// magnitude in its own magnitude words (see ZeroPart).
func (q Quantity) Rewritable() bool { return !q.Word && (!q.Compound || q.MagParts != nil) }

// Kind is the shape of a literal.
type Kind string

// Kinds of literal.
const (
	Single     Kind = "single"     // one number: 40초
	List       Kind = "list"       // numbers each with its reference: 86 (100%)
	Range      Kind = "range"      // 5~10초, 10〜20ms, 10∼20ms, 5-10
	Transition Kind = "transition" // 17→18, 4에서 5로, 4から5に
	Fraction   Kind = "fraction"   // 86/86, 86개 중 86개, 86件中86件
)

// Approx is the approximation a literal states: "" (none), About (약,
// 約, 정도, ほど, ~ …: either side), Over (남짓, 強, 余り, 40여: a little
// over) or Under (弱, 近く, 거의: a little under).
type Approx string

// Approximations.
const (
	Exact Approx = ""
	About Approx = "about"
	Over  Approx = "over"
	Under Approx = "under"
)

// Literal is a parsed claim literal: its numbers in order, its shape, the
// approximation and comparator it states. It is the one parsed form
// check, coverage, fix and the translation checks share.
type Literal struct {
	Quantities []Quantity `json:"quantities"`
	Kind       Kind       `json:"kind"`
	// Approx is the approximation word's meaning; ApproxWord the word.
	Approx     Approx `json:"approx,omitempty"`
	ApproxWord string `json:"approx_word,omitempty"`
	// Range is set when the literal is two numbers joined by ~, 〜, ～,
	// ∼, - or "to" ("5~10초"): with one reference, the value must lie
	// in the range.
	Range bool `json:"range,omitempty"`
	// Cmp is the comparator a literal states, ">=" (이상, 以上, ≥, 최소,
	// 最小), "<=" (이하, 以下, ≤, 이내, 以内, 최대, 最大), "<" (미만, 未満),
	// ">" (초과, 超), or "".
	Cmp string `json:"cmp,omitempty"`
}

// Format writes v in the style of q: q's decimals, thousands separators,
// full-width digits and sign convention (a delta keeps its Δ and writes +
// for positive values; a minus keeps its form, - or U+2212). The result
// replaces lit[q.NumStart:q.NumEnd].
func (q Quantity) Format(v decimal.Decimal) string {
	if len(q.Parts) > 0 {
		return q.formatParts(v)
	}
	if q.SignWord != "" {
		q.Delta, q.Sign, v = false, "", v.Abs() // the word carries the sign
	}
	spread := q.Sign == "±"
	if spread {
		q.Sign, v = "", v.Abs() // ±11%: written again with its ±
	}
	if q.MagParts != nil {
		s, _ := q.formatMagnitudes(v, spread)
		return s
	}
	if !q.Magnitude.IsZero() {
		v = v.Div(q.Magnitude)
	}
	v = v.Round(int32(q.Decimals))
	neg := v.IsNegative()
	digits := v.Abs().StringFixed(int32(q.Decimals))
	if q.Grouped {
		digits = q.group(digits)
	}
	if q.FullWidth {
		digits = toFullWidth.Replace(digits)
	}
	return q.signed(digits, neg, v.IsZero(), spread)
}

// group writes the integer digits of digits in groups of three with q's
// separator (",", or the space it was written with).
func (q Quantity) group(digits string) string {
	sep := ","
	if strings.TrimSpace(q.Sep) == "" || q.Sep == "\u00a0" || q.Sep == "\u202f" || q.Sep == "\u2009" {
		sep = q.Sep
	}
	intPart, frac, _ := strings.Cut(digits, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}

// signed writes digits with the sign of a number (negative when neg) in
// q's sign convention; spread writes ± before them.
func (q Quantity) signed(digits string, neg, zero, spread bool) string {
	minus, plus := q.minus(), "+"
	if strings.Contains(q.Sign, "＋") {
		plus = "＋"
	}
	delta := ""
	if strings.HasPrefix(q.Sign, "Δ") {
		delta = "Δ"
	}
	if spread {
		delta = "±"
	}
	switch {
	case neg:
		return delta + minus + digits
	case q.Delta && (!zero || delta == ""):
		// A difference keeps its mark: "+0" stays a difference, "Δ0" too.
		return delta + plus + digits
	}
	return delta + digits
}

// minus is the minus sign q is written with, for a rewrite that keeps
// its style: −, －, △ or ▼ as written (△5 is rewritten △6), else "-"
// ("－" among full-width digits).
func (q Quantity) minus() string {
	switch {
	case strings.Contains(q.Sign, "−"):
		return "−"
	case strings.Contains(q.Sign, "－"), q.FullWidth:
		return "－"
	case q.Sign == "△" || q.Sign == "▼":
		return q.Sign
	}
	return "-"
}

var toFullWidth = strings.NewReplacer("0", "０", "1", "１", "2", "２", "3", "３", "4", "４", "5", "５", "6", "６", "7", "７", "8", "８", "9", "９", ".", "．", ",", "，")

// RewriteKeepsReading reports whether replacing the digits of q (one of
// the quantities ParseLiteral read from lit, or the Spread of one) with nw
// leaves the literal
// reading as before: as many quantities, the others unchanged, and q read
// as nw says. It is false when the new digits would merge with a
// neighbour ("0000 000B" → "0 000B" reads as space-grouped 0000) or lose a
// mark; evdoc fix then leaves the literal to a person.
func RewriteKeepsReading(lit string, q Quantity, nw string) bool {
	if q.NumStart < 0 || q.NumEnd > len(lit) || q.NumStart > q.NumEnd {
		return false
	}
	before, err := ParseLiteral(lit)
	if err != nil {
		return false
	}
	after, err := ParseLiteral(lit[:q.NumStart] + nw + lit[q.NumEnd:])
	if err != nil || len(after.Quantities) != len(before.Quantities) {
		return false
	}
	// a compound is read with its last unit word: 142h37 is not a number
	tail, mag := "", q.Magnitude
	if len(q.Parts) > 0 || q.MagParts != nil || q.SignWord != "" {
		tail, mag = lit[q.NumEnd:q.End], one
	}
	want, err := ParseLiteral(nw + tail)
	if err != nil || len(want.Quantities) != 1 {
		return false
	}
	// a time of day is rewritten only where it reads as one alone: a bare
	// number that takes its clock from the range's other end ("0~0:0")
	// would be written as seconds of the day
	if q.Unit == ClockUnit && want.Quantities[0].Unit != ClockUnit {
		return false
	}
	found := false
	for i, b := range before.Quantities {
		a := after.Quantities[i]
		if (a.Spread == nil) != (b.Spread == nil) {
			return false
		}
		if b.Spread != nil && b.Spread.NumStart == q.NumStart {
			// the spread after ± rewritten (319.5 ± 12.2ms → 11.2), its mean kept
			if !a.Spread.Value.Equal(want.Quantities[0].Value) || a.Spread.Unit != b.Spread.Unit || !a.Value.Equal(b.Value) || a.Unit != b.Unit {
				return false
			}
			found = true
			continue
		}
		if b.Spread != nil && !a.Spread.Value.Equal(b.Spread.Value) {
			return false
		}
		if b.NumStart == q.NumStart {
			if !a.Value.Equal(want.Quantities[0].Value.Mul(mag)) || a.Unit != b.Unit || a.Delta != b.Delta || len(a.Parts) != len(b.Parts) {
				return false
			}
			found = true
			continue
		}
		if !a.Value.Equal(b.Value) || a.Unit != b.Unit {
			return false
		}
	}
	return found
}

// formatMagnitudes writes v in the magnitude parts of q, rounded at the
// last part's decimals: 13042 as "1만 3" for 1만 2천 (the last word, 천,
// stays as written), "1万3042" for 1万2000, "3割6" for 3割5分. ok is false
// when a part comes out zero ("1만 0" for 10042, "0만 9" for 9800), which
// reads as written but is not how a number is written in those words:
// ZeroPart reports it.
func (q Quantity) formatMagnitudes(v decimal.Decimal, spread bool) (string, bool) {
	n := len(q.MagParts)
	lastF := q.MagParts[n-1].Factor
	x := v.Div(lastF).Round(int32(q.Decimals))
	neg, zero := x.IsNegative(), x.IsZero()
	x = x.Abs()
	ok := true
	var b strings.Builder
	for i, p := range q.MagParts[:n-1] {
		r := p.Factor.Div(lastF)
		d := x.Div(r).Truncate(0)
		x = x.Sub(d.Mul(r))
		ok = ok && !d.IsZero()
		digits := d.String()
		if i == 0 && q.Grouped {
			digits = q.group(digits)
		}
		writePart(&b, digits, p)
		b.WriteString(p.Sep)
	}
	ok = ok && !x.IsZero()
	writePart(&b, x.StringFixed(int32(q.Decimals)), q.MagParts[n-1])
	out := b.String()
	if q.FullWidth {
		out = toFullWidth.Replace(out)
	}
	return q.signed(out, neg, zero, spread), ok
}

// ZeroPart reports whether Format writes a part of q's compound
// magnitude as zero for v ("1만 0천" for 10042 written as 1만 2천).
func (q Quantity) ZeroPart(v decimal.Decimal) bool {
	if q.MagParts == nil {
		return false
	}
	if q.SignWord != "" || q.Sign == "±" {
		v = v.Abs()
	}
	_, ok := q.formatMagnitudes(v, false)
	return !ok
}
