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
// "%", "%p" (percentage points), "s", "ms", "min", "B", "KB", "KiB",
// "/s" (per second), "x" (배, 倍) or "count" for counting words (회, 回,
// 건, 件, 개, 個, 번). Delta is set when the number was written with + or
// Δ: it must be bound to a difference. Start and End are byte offsets of
// the number (sign through unit) within the literal.
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
	// Magnitude is the factor of a magnitude word written after the
	// digits (만 = 10000, 億 = 100000000); 1 when there is none. Value
	// already includes it.
	Magnitude decimal.Decimal
}

// Step is the value of one unit in the last written digit: 10^−Decimals
// times Magnitude. A number matches values within ±Step/2.
func (q Quantity) Step() decimal.Decimal {
	return decimal.New(1, int32(-q.Decimals)).Mul(q.Magnitude)
}

// Literal is a parsed claim literal: its numbers in order and whether an
// approximation mark (~, ≈, 약, 대략, 정도, 約, およそ, ほど, 程度) applies.
type Literal struct {
	Quantities []Quantity
	Approx     bool
	// Range is set when the literal is two numbers joined by ~, 〜 or ～
	// ("5~10초"): with one reference, the value must lie in the range.
	Range bool
	// Cmp is the comparator a literal states, ">=" (이상, 以上, ≥), "<="
	// (이하, 以下, ≤), "<" (미만, 未満), ">" (초과, 超), or "".
	Cmp string
}

var (
	// sign, digits, unit
	quantityRe = regexp.MustCompile(`(Δ\s*[+\-−]?|[+\-−])?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(\s*(?:천|만|억|千|万|億))?(\s*(?:%p|퍼센트\s*포인트|퍼센트|%|パーセント\s*ポイント|パーセント|ポイント|ms|밀리초|ミリ秒|s|초|秒|분|分|bytes|바이트|バイト|KiB|KB|B|회|回|건|件|개|個|번|배|倍|/s|x))?(\s*(?:초당|毎秒))?`)
	approxRe   = regexp.MustCompile(`^\s*(~|≈|약|대략|約|およそ)|(정도|ほど|程度|前後)\s*$`)
	rangeSepRe = regexp.MustCompile(`^\s*(~|〜|～)\s*$`)
	cmpRe      = regexp.MustCompile(`(이상|以上|이하|以下|미만|未満|초과|超)\s*$|^\s*(≥|≤|>=|<=|<|>)`)
	magnitudes = map[string]int64{"천": 1e3, "千": 1e3, "만": 1e4, "万": 1e4, "억": 1e8, "億": 1e8}
	cmpOf      = map[string]string{"이상": ">=", "以上": ">=", "≥": ">=", ">=": ">=", "이하": "<=", "以下": "<=", "≤": "<=", "<=": "<=",
		"미만": "<", "未満": "<", "<": "<", "초과": ">", "超": ">", ">": ">"}
	fullWidth = strings.NewReplacer("０", "0", "１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9", "％", "%", "＋", "+", "．", ".", "，", ",", "／", "/")
	unitOf    = map[string]string{
		"%": "%", "ms": "ms", "밀리초": "ms", "ミリ秒": "ms", "s": "s", "초": "s", "秒": "s", "분": "min", "分": "min",
		"bytes": "B", "바이트": "B", "バイト": "B", "B": "B", "회": "count", "回": "count", "건": "count", "件": "count",
		"개": "count", "個": "count", "번": "count", "%p": "%p", "퍼센트포인트": "%p", "パーセントポイント": "%p", "퍼센트": "%", "パーセント": "%", "ポイント": "%p",
		"KB": "KB", "KiB": "KiB", "배": "x", "倍": "x", "x": "x", "/s": "/s",
	}
)

// ParseLiteral reads the numbers of a claim literal. Full-width digits and
// signs are read as their ASCII forms. A literal without any number is an
// error. Offsets in the result refer to the literal as given.
func ParseLiteral(lit string) (Literal, error) {
	norm, back := normalize(lit)
	var out Literal
	out.Approx = approxRe.MatchString(norm)
	if m := cmpRe.FindStringSubmatch(norm); m != nil {
		out.Cmp = cmpOf[m[1]+m[2]]
	}
	prevEnd := 0
	for _, m := range quantityRe.FindAllStringSubmatchIndex(norm, -1) {
		// A digit run glued to a letter or another dot-number (a version,
		// an IP) is not a quantity.
		if m[0] > 0 && isWordByte(norm[m[0]-1]) {
			continue
		}
		if m[1] < len(norm) && (norm[m[1]] == '.' && m[1]+1 < len(norm) && isDigit(norm[m[1]+1])) {
			return out, fmt.Errorf("%q looks like a version or address, not a measured number", lit)
		}
		if m[5] < len(norm) && isDigit(norm[m[5]]) || m[5] < len(norm)-1 && norm[m[5]] == ',' && isDigit(norm[m[5]+1]) {
			return out, fmt.Errorf("%q: malformed digit grouping; expected groups of three digits (1,234) and a decimal point, not a comma", lit)
		}
		q := Quantity{Start: back[m[0]], End: back[m[1]], NumStart: back[m[0]], NumEnd: back[m[5]]}
		sign := ""
		if m[2] >= 0 {
			s := norm[m[2]:m[3]]
			q.Sign = lit[back[m[2]]:back[m[3]]]
			q.Delta = strings.ContainsAny(s, "+Δ")
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
		q.Magnitude = decimal.NewFromInt(1)
		if m[6] >= 0 {
			q.Magnitude = decimal.NewFromInt(magnitudes[strings.TrimSpace(norm[m[6]:m[7]])])
		}
		q.Value = v.Mul(q.Magnitude)
		if i := strings.IndexByte(digits, '.'); i >= 0 {
			q.Decimals = len(digits) - i - 1
		}
		if m[8] >= 0 {
			q.Unit = unitOf[strings.Join(strings.Fields(norm[m[8]:m[9]]), "")]
		}
		if m[10] >= 0 {
			q.Unit = "/s"
		}
		if n := len(out.Quantities); n == 1 && rangeSepRe.MatchString(norm[prevEnd:m[0]]) {
			out.Range = true
		}
		prevEnd = m[1]
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
	if !q.Magnitude.IsZero() {
		v = v.Div(q.Magnitude)
	}
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
