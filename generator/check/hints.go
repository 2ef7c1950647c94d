package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// pointsMessage explains a claim in % on a value in percentage points, or
// in %p on a value in % or ratio: the two readings give different
// numbers, and the claim's unit says which one it means. A difference of
// two percentages (%p) is named with the relative change the same two
// values make, when the value records the percentage it is taken from.
// It returns "" for other units.
func pointsMessage(q literal.Quantity, v *evidence.Value) string {
	switch {
	case q.Unit == "%" && v.Unit == "%p":
		rel := "the relative change is not known: the value does not record the percentage it is taken from"
		if v.PointsFrom != nil && !v.PointsFrom.IsZero() {
			r := v.Value.Mul(decimal.NewFromInt(100)).DivRound(*v.PointsFrom, 28)
			rel = fmt.Sprintf("the relative change of the same two values is %s%% (%s %%p over %s %%), which a claim in %% would mean", signed(r.Round(2)), v.Value.String(), v.PointsFrom.String())
		}
		return fmt.Sprintf("a number in %%p: %s is a difference of two percentages, %s percentage points; %s; write [%s%%p] (%%p, pp, 퍼센트포인트, ポイント) for the difference, or declare the value's unit %q in evidence.toml if it is a relative change",
			v.Ref, v.Value.String(), rel, signed(v.Value), "%")
	case q.Unit == "%p" && (v.Unit == "%" || v.Unit == "ratio"):
		return fmt.Sprintf("a number in %%: %s is a %s, not known to be a difference of two percentages in points; write it in %%, bind the claim to a difference (delta(a, b) of two percentages is in %%p), or declare the value's unit \"%%p\" in evidence.toml if it holds percentage points", v.Ref, map[string]string{"%": "percentage", "ratio": "ratio (1 is all)"}[v.Unit])
	}
	return ""
}

// multiplierSizeHint explains a claim that writes a multiplier letter
// and no unit (1.5M, 2.76k: see literal.MultiplierLetter) on a size or a
// throughput: k, M and G are powers of 1000 to some tools and of 1024 to
// others (ls -h and free -h print 1.5M for 1.5 MiB), and the claim does
// not say which, so it names both readings and the units that do. It
// returns "" for any other claim or value; a count or a rate of requests
// has no binary reading.
func multiplierSizeHint(q literal.Quantity, v *evidence.Value) string {
	if q.Unit != "" || !literal.MultiplierLetter(q.MagnitudeWord) {
		return ""
	}
	u, _ := unit.Canonical(v.Unit)
	if u.Dim != unit.Size && u.Dim != unit.Throughput {
		return ""
	}
	per := ""
	if u.Dim == unit.Throughput {
		per = "/s"
	}
	si := map[string]string{"k": "KB", "M": "MB", "G": "GB"}[q.MagnitudeWord] + per
	bin, _ := unit.Binary(si)
	digits := q.Format(q.Value)
	return fmt.Sprintf("a unit on a size: %s%s is %s %s (SI, powers of 1000) to some tools and %s %s (binary, powers of 1024: ls -h, free -h) to others; write [%s%s] or [%s%s]",
		digits, q.MagnitudeWord, digits, si, digits, bin, digits, si, digits, bin)
}

// signed writes d with its sign: +7.4, -3.
func signed(d decimal.Decimal) string {
	if d.IsNegative() {
		return d.String()
	}
	return "+" + d.String()
}

// binaryHint explains a claim in a decimal size (KB, MB, GB and their
// rates, read with SI factors: 1 MB = 10⁶ B) that matches its value only
// when read as the binary unit of the same rank (MiB, 2²⁰ B): it names
// both readings and the binary unit to write. It returns "" when the
// binary reading does not match either.
func binaryHint(q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) string {
	bin, ok := unit.Binary(q.Unit)
	if !ok {
		return ""
	}
	alt := q
	alt.Unit = bin
	asBin, ok := unit.Convert(v.Value, v.Unit, bin)
	if !ok {
		return ""
	}
	if lo, hi, open := Interval(alt, approx, opt); asBin.LessThan(lo) || asBin.GreaterThan(hi) || open && asBin.Equal(hi) {
		return ""
	}
	asDec := InUnitOf(q, v)
	return fmt.Sprintf("%s in %s (SI, 10%s B: %s is %s %s) or in %s (binary, 2%s B: %s %s, which matches); write [%s%s] if the binary unit is meant",
		q.Value.String(), q.Unit, superscript(decExp(q.Unit)), v.Ref, asDec.Round(4).String(), q.Unit, bin, superscript(binExp(bin)), asBin.Round(4).String(), bin, q.Format(asBin), bin)
}

// decExp and binExp give the power of 10 and of 2 of a decimal and a
// binary size unit (MB: 6; MiB: 20).
func decExp(u string) int {
	return map[byte]int{'K': 3, 'M': 6, 'G': 9, 'T': 12}[u[0]]
}

func binExp(u string) int {
	return map[byte]int{'K': 10, 'M': 20, 'G': 30, 'T': 40}[u[0]]
}

// unitHint explains a mismatch by a power of 1000: the literal's unit
// (scaleHint) or the raw value's (rawScaleHint).
func unitHint(q literal.Quantity, v *evidence.Value) string {
	if h := scaleHint(q, v); h != "" {
		return h
	}
	return rawScaleHint(q, v)
}

// scaleHint explains a mismatch by a power of 1000 between time units:
// "written in s, evidence is 0.0192 s = 19.2 ms; did you mean ms?". It
// returns "" when no other time unit makes the literal match.
func scaleHint(q literal.Quantity, v *evidence.Value) string {
	lu, ok := unit.Canonical(q.Unit)
	vu, ok2 := unit.Canonical(v.Unit)
	if !ok || !ok2 || lu.Dim != unit.Time || vu.Dim != unit.Time || q.Value.IsZero() {
		return ""
	}
	for _, alt := range []string{"ns", "us", "ms", "s"} {
		if alt == q.Unit {
			continue
		}
		f, _ := unit.Factor(q.Unit, alt)
		if r := f.Abs(); r.LessThan(decimal.NewFromInt(1000)) && r.GreaterThan(decimal.New(1, -3)) {
			continue // only powers of 1000 and beyond
		}
		inAlt, _ := unit.Convert(v.Value, v.Unit, alt)
		if inAlt.Sub(q.Value).Abs().LessThanOrEqual(q.Step().Div(decimal.NewFromInt(2))) {
			inLit, _ := unit.Convert(v.Value, v.Unit, q.Unit)
			return fmt.Sprintf("written in %s, evidence is %s %s = %s %s; did you mean %s?", q.Unit, inLit.String(), q.Unit, inAlt.String(), alt, alt)
		}
	}
	return ""
}

// rawScaleHint explains a mismatch by a power of 1000 on the evidence's
// side: the raw number read in another time unit matches the literal, so
// the raw file probably wrote it in that unit ("75 ms vs 74602 s: 10⁶×
// apart; is the raw value in µs?", as curl 7.74.0 printed time_total in
// µs). It returns "" when no other unit makes the raw number match.
func rawScaleHint(q literal.Quantity, v *evidence.Value) string {
	lu, ok := unit.Canonical(q.Unit)
	vu, ok2 := unit.Canonical(v.Unit)
	if !ok || !ok2 || lu.Dim != unit.Time || vu.Dim != unit.Time || q.Value.IsZero() {
		return ""
	}
	for _, alt := range []string{"ns", "us", "ms", "s"} {
		f, _ := unit.Factor(v.Unit, alt)
		exp, ok := powerOf10(f)
		if alt == v.Unit || !ok || exp == 0 || exp%3 != 0 {
			continue
		}
		inLit, _ := unit.Convert(v.Value, alt, q.Unit)
		if inLit.Sub(q.Value).Abs().LessThanOrEqual(q.Step().Div(decimal.NewFromInt(2))) {
			return fmt.Sprintf("%s %s vs %s %s: 10%s× apart; is the raw value in %s?", q.Value.String(), q.Unit, v.Value.String(), v.Unit, superscript(exp), strings.ReplaceAll(alt, "us", "µs"))
		}
	}
	return ""
}

// floorPow10 returns the largest power of ten not above d (d > 0): the
// step of a record converted across binary and decimal sizes (0.01 MiB
// is 0.01048576 MB) is that of its digits, 0.01.
func floorPow10(d decimal.Decimal) decimal.Decimal {
	if !d.IsPositive() {
		return d
	}
	if _, ok := powerOf10(d); ok {
		return d
	}
	e := int32(d.NumDigits()) + d.Exponent() - 1 // the exponent of d's leading digit
	return decimal.New(1, e)
}

// powerOf10 returns n when f is 10ⁿ.
func powerOf10(f decimal.Decimal) (int, bool) {
	s := f.String()
	switch {
	case strings.Trim(s, "0") == "1" && s[0] == '1':
		return len(s) - 1, true
	case strings.HasPrefix(s, "0.") && strings.TrimLeft(s[2:], "0") == "1":
		return -(len(s) - 2), true
	}
	return 0, false
}

// superscript writes n with superscript digits: 6 → "⁶", -3 → "⁻³".
func superscript(n int) string {
	return strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹").Replace(strconv.Itoa(n))
}

// valueText writes evidence value v for a message next to quantity q: a
// time of day as the clock time q is written (14:03:52.713, 오후 2시 3분
// 52.713초), anything else as its number and unit.
func valueText(q *literal.Quantity, v *evidence.Value) string {
	if q != nil && v.Unit == literal.ClockUnit {
		if s, ok := q.ClockText(v.Value); ok {
			return s
		}
	}
	if v.Unit == "ratio" {
		return v.Value.String() + " (ratio)" // 1 (ratio), not 1ratio
	}
	return v.Value.String() + v.Unit
}

// Expected formats val as q would have to read.
func Expected(q literal.Quantity, approx literal.Approx, val decimal.Decimal) string {
	want := q.Format(val)
	switch {
	case len(q.Parts) > 0:
		want += q.UnitWord // 142h37m: the last part's unit; 오후 2시 3분 whole
	case q.SignWord != "":
		// the value's own sign: 12% 감소 against +12% expects +12%
		q.SignWord, q.Delta = "", true
		want = q.Format(val) + q.UnitWord
	case q.MagParts != nil && !q.ZeroPart(val):
		want += q.MagParts[len(q.MagParts)-1].Word // 1만 3천 for 1만 2천
	case q.Compound && q.MagnitudeWord != "割":
		// 1만 2천 against 10042: "10,042", not "1만 0천"
		want = groupDigits(val.String())
	case q.MagnitudeWord != "" && !q.Compound:
		want += q.MagnitudeWord // "1만", not "1", for 12000 written as 12만
	}
	switch approx {
	case literal.About:
		want = "about " + want
	case literal.Over:
		want = "a little over " + want
	case literal.Under:
		want = "a little under " + want
	}
	return want
}

// groupDigits writes a decimal number's integer digits in groups of three
// with commas: "1250.5" → "1,250.5".
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	frac := ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s, frac = s[:i], s[i:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + frac
}

func unitName(u string) string {
	if u == "" {
		return "no unit"
	}
	return u
}
