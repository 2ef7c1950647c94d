package claim

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// Quantity is one number read from a claim literal.
//
// Value is exact; Decimals is the number of digits written after the
// decimal point (the written precision); Unit is canonical: "" (none),
// "%", "s", "ms", "min", "B", or "count" for counting words (회, 回, 건,
// 件, 개, 個, 번). Delta is set when the number was written with a sign or
// Δ. Start and End are byte offsets of the number (sign through unit)
// within the literal.
type Quantity struct {
	Value    decimal.Decimal
	Decimals int
	Unit     string
	Delta    bool
	Start    int
	End      int
	// Style of the written number, for rewriting it in place: the byte
	// range [NumStart, NumEnd) of the sign and digits (no unit), the sign
	// as written ("", "+", "-", "−", "Δ", "Δ+", …), whether the digits
	// were full-width and whether they had thousands separators.
	NumStart, NumEnd int
	Sign             string
	FullWidth        bool
	Grouped          bool
}

// Literal is a parsed claim literal: its numbers in order and whether an
// approximation mark (~, ≈, 약, 대략, 정도, 約, およそ, ほど, 程度) applies.
type Literal struct {
	Quantities []Quantity
	Approx     bool
}

var (
	// sign, digits, unit
	quantityRe = regexp.MustCompile(`(Δ\s*[+\-−]?|[+\-−])?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(\s*(?:%|ms|밀리초|ミリ秒|s|초|秒|분|分|bytes|바이트|バイト|B|회|回|건|件|개|個|번))?`)
	approxRe   = regexp.MustCompile(`^\s*(~|≈|약|대략|約|およそ)|(정도|ほど|程度)\s*$`)
	fullWidth  = strings.NewReplacer("０", "0", "１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9", "％", "%", "＋", "+", "．", ".", "，", ",", "／", "/")
	unitOf     = map[string]string{
		"%": "%", "ms": "ms", "밀리초": "ms", "ミリ秒": "ms", "s": "s", "초": "s", "秒": "s", "분": "min", "分": "min",
		"bytes": "B", "바이트": "B", "バイト": "B", "B": "B", "회": "count", "回": "count", "건": "count", "件": "count",
		"개": "count", "個": "count", "번": "count",
	}
)

// ParseLiteral reads the numbers of a claim literal. Full-width digits and
// signs are read as their ASCII forms. A literal without any number is an
// error. Offsets in the result refer to the literal as given.
func ParseLiteral(lit string) (Literal, error) {
	norm, back := normalize(lit)
	var out Literal
	out.Approx = approxRe.MatchString(norm)
	for _, m := range quantityRe.FindAllStringSubmatchIndex(norm, -1) {
		// A digit run glued to a letter or another dot-number (a version,
		// an IP) is not a quantity.
		if m[0] > 0 && isWordByte(norm[m[0]-1]) {
			continue
		}
		if m[1] < len(norm) && (norm[m[1]] == '.' && m[1]+1 < len(norm) && isDigit(norm[m[1]+1])) {
			return out, fmt.Errorf("%q looks like a version or address, not a measured number", lit)
		}
		q := Quantity{Start: back[m[0]], End: back[m[1]], NumStart: back[m[0]], NumEnd: back[m[5]]}
		sign := ""
		if m[2] >= 0 {
			s := norm[m[2]:m[3]]
			q.Delta = true
			q.Sign = lit[back[m[2]]:back[m[3]]]
			if strings.ContainsAny(s, "-−") {
				sign = "-"
			}
		}
		rawDigits := lit[back[m[4]]:back[m[5]]]
		q.FullWidth = rawDigits != norm[m[4]:m[5]]
		q.Grouped = strings.Contains(norm[m[4]:m[5]], ",")
		digits := strings.ReplaceAll(norm[m[4]:m[5]], ",", "")
		v, err := decimal.NewFromString(sign + digits)
		if err != nil {
			return out, fmt.Errorf("%q: cannot read number %q", lit, digits)
		}
		q.Value = v
		if i := strings.IndexByte(digits, '.'); i >= 0 {
			q.Decimals = len(digits) - i - 1
		}
		if m[6] >= 0 {
			q.Unit = unitOf[strings.TrimSpace(norm[m[6]:m[7]])]
		}
		out.Quantities = append(out.Quantities, q)
	}
	if len(out.Quantities) == 0 {
		return out, fmt.Errorf("claim literal %q has no number; expected digits such as 86/86, 44%%, +1, 40초", lit)
	}
	return out, nil
}

// Format writes v in the style of q: q's decimals, thousands separators,
// full-width digits and sign convention (a delta keeps its Δ and writes +
// for positive values; a minus keeps its form, - or U+2212). The result
// replaces lit[q.NumStart:q.NumEnd].
func (q Quantity) Format(v decimal.Decimal) string {
	v = v.Round(int32(q.Decimals))
	neg := v.IsNegative()
	digits := v.Abs().StringFixed(int32(q.Decimals))
	if q.Grouped {
		intPart, frac, _ := strings.Cut(digits, ".")
		var b strings.Builder
		for i, c := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		digits = b.String()
		if frac != "" {
			digits += "." + frac
		}
	}
	if q.FullWidth {
		digits = toFullWidth.Replace(digits)
	}
	minus := "-"
	if strings.Contains(q.Sign, "−") {
		minus = "−"
	}
	delta := ""
	if strings.HasPrefix(q.Sign, "Δ") {
		delta = "Δ"
	}
	switch {
	case neg:
		return delta + minus + digits
	case q.Delta && !v.IsZero():
		return delta + "+" + digits
	}
	return delta + digits
}

var toFullWidth = strings.NewReplacer("0", "０", "1", "１", "2", "２", "3", "３", "4", "４", "5", "５", "6", "６", "7", "７", "8", "８", "9", "９", ".", "．", ",", "，")

// normalize maps full-width forms to ASCII and returns, for each byte of
// the result, the offset of the byte it came from in s (plus one final
// entry for the end).
func normalize(s string) (string, []int) {
	var b strings.Builder
	var back []int
	for i, r := range s {
		rs := fullWidth.Replace(string(r))
		for j := 0; j < len(rs); j++ {
			back = append(back, i)
		}
		b.WriteString(rs)
	}
	back = append(back, len(s))
	// Map each byte that ends a rune to the end of the original rune.
	return b.String(), back
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || isDigit(c)
}
