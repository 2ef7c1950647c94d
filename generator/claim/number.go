package claim

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
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
	// sign, digits, magnitude, unit, trailing per-second word
	quantityRe = regexp.MustCompile(`(Δ\s*[+\-−]?|[+\-−])?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(\s*(?:천|만|억|千|万|億))?(\s*(?:` + unitAlternation() + `))?(\s*(?:초당|毎秒))?`)
	approxRe   = regexp.MustCompile(`^\s*(~|≈|약|대략|約|およそ)|(정도|ほど|程度|前後)\s*$`)
	rangeSepRe = regexp.MustCompile(`^\s*(~|〜|～|-)\s*$`)
	perSecRe   = regexp.MustCompile(`(초당|毎秒)\s*$`)
	cmpRe      = regexp.MustCompile(`(이상|以上|이하|以下|미만|未満|초과|超)|(≥|≤|>=|<=|<|>)`)
	magnitudes = map[string]int64{"천": 1e3, "千": 1e3, "만": 1e4, "万": 1e4, "억": 1e8, "億": 1e8}
	cmpOf      = map[string]string{"이상": ">=", "以上": ">=", "≥": ">=", ">=": ">=", "이하": "<=", "以下": "<=", "≤": "<=", "<=": "<=",
		"미만": "<", "未満": "<", "<": "<", "초과": ">", "超": ">", ">": ">"}
	fullWidth = strings.NewReplacer("０", "0", "１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9", "％", "%", "＋", "+", "－", "-", "．", ".", "，", ",", "／", "/")
)

// unitAlternation lists the unit words for quantityRe, longest first so
// that "ms" wins over "s" and "퍼센트포인트" over "퍼센트".
func unitAlternation() string {
	var words []string
	for _, w := range unit.Words() {
		words = append(words, regexp.QuoteMeta(w))
	}
	return strings.Join(words, "|")
}

func unitOf(w string) string {
	u, _ := unit.Lookup(w)
	return u.Name
}

// ParseLiteral reads the numbers of a claim literal. Full-width digits and
// signs are read as their ASCII forms. A literal without any number is an
// error. Offsets in the result refer to the literal as given.
func ParseLiteral(lit string) (Literal, error) {
	norm, back := normalize(lit)
	var out Literal
	out.Approx = approxRe.MatchString(norm)
	cmps := cmpRe.FindAllStringSubmatch(norm, -1)
	if len(cmps) > 1 {
		return out, fmt.Errorf("claim literal %q has %d comparators; expected one comparator for one number", lit, len(cmps))
	}
	if len(cmps) == 1 {
		out.Cmp = cmpOf[cmps[0][1]+cmps[0][2]]
	}
	covered := make([]bool, len(norm))
	prevEnd := 0
	for _, m := range quantityRe.FindAllStringSubmatchIndex(norm, -1) {
		sign := ""
		hasSign := m[2] >= 0
		rangeDash := false
		if m[0] > 0 {
			prev := norm[m[0]-1]
			switch {
			case hasSign && norm[m[2]:m[3]] == "-" && len(out.Quantities) == 1 && m[0] == prevEnd:
				// "5-10": the dash joins a range.
				rangeDash, hasSign = true, false
			case isLatinLetter(prev):
				// A digit run glued to a letter ("MID1") is part of a
				// name, not a quantity.
				for i := m[0]; i < m[1]; i++ {
					covered[i] = true
				}
				continue
			case prev == '_' || isDigit(prev) || prev == '.':
				return out, fmt.Errorf("claim literal %q: cannot read the number at %q; expected plain digits such as 1,234.5", lit, norm[max(0, m[0]-1):m[1]])
			}
		}
		if m[1] < len(norm) && (norm[m[1]] == '.' && m[1]+1 < len(norm) && isDigit(norm[m[1]+1])) {
			return out, fmt.Errorf("%q looks like a version or address, not a measured number", lit)
		}
		if m[5] < len(norm) && isDigit(norm[m[5]]) || m[5] < len(norm)-1 && norm[m[5]] == ',' && isDigit(norm[m[5]+1]) {
			return out, fmt.Errorf("%q: malformed digit grouping; expected groups of three digits (1,234) and a decimal point, not a comma", lit)
		}
		if bad := trailingJunk(norm[m[1]:]); bad {
			return out, fmt.Errorf("claim literal %q: unknown unit or unreadable number at %q; expected a unit such as %%, s, ms, 초, 秒, 바이트, 회", lit, norm[m[0]:min(len(norm), m[1]+12)])
		}
		numStart := m[0]
		if rangeDash {
			numStart = m[4]
		}
		q := Quantity{Start: back[numStart], End: back[m[1]], NumStart: back[numStart], NumEnd: back[m[5]]}
		if hasSign {
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
			q.Unit = unitOf(strings.TrimSpace(norm[m[8]:m[9]]))
		}
		if m[10] >= 0 || q.Unit == "" && perSecRe.MatchString(norm[prevEnd:m[0]]) {
			q.Unit = "/s"
		}
		if n := len(out.Quantities); n >= 1 && (rangeDash || rangeSepRe.MatchString(norm[prevEnd:m[0]])) {
			out.Range = true
		}
		for i := m[0]; i < m[1]; i++ {
			covered[i] = true
		}
		prevEnd = m[1]
		out.Quantities = append(out.Quantities, q)
	}
	for i := 0; i < len(norm); i++ {
		if isDigit(norm[i]) && !covered[i] {
			return out, fmt.Errorf("claim literal %q: cannot read the digits at %q", lit, norm[i:min(len(norm), i+8)])
		}
	}
	if len(out.Quantities) == 0 {
		return out, fmt.Errorf("claim literal %q has no number; expected digits such as 86/86, 44%%, +1, 40초", lit)
	}
	switch {
	case out.Range && len(out.Quantities) != 2:
		return out, fmt.Errorf("claim literal %q: a range has two ends; found %d numbers", lit, len(out.Quantities))
	case out.Range && out.Quantities[0].Unit == out.Quantities[1].Unit && out.Quantities[0].Value.GreaterThan(out.Quantities[1].Value):
		return out, fmt.Errorf("claim literal %q: the range is reversed; expected the smaller end first", lit)
	case out.Cmp != "" && len(out.Quantities) != 1:
		return out, fmt.Errorf("claim literal %q: a comparator applies to one number; found %d", lit, len(out.Quantities))
	}
	return out, nil
}

// connectors are the English words a literal may hold between numbers
// ("86 of 86", "5 to 10").
var connectors = map[string]bool{"of": true, "to": true, "from": true, "and": true, "or": true, "out": true, "vs": true, "than": true, "in": true, "at": true}

// trailingJunk reports whether the text after a quantity (and its unit)
// continues it in a way evdoc cannot read: letters or "_" glued to it, a
// "/" (a compound unit such as KB/s), "%", a Unicode fraction, or an
// English word that is not a connector.
func trailingJunk(rest string) bool {
	if rest == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	switch {
	case r < utf8.RuneSelf && isLatinLetter(byte(r)), r == '%', r == '_', r > 127 && unicode.IsNumber(r):
		return true
	case r == '/':
		// "86/86" is a fraction; "40KB/s" or "40초/회" a compound unit.
		after := strings.TrimLeft(rest[1:], " ")
		return after == "" || !isDigit(after[0])
	}
	trimmed := strings.TrimLeft(rest, " ")
	if trimmed == rest {
		return false
	}
	word := strings.TrimRightFunc(trimmed[:len(trimmed)-len(strings.TrimLeftFunc(trimmed, func(r rune) bool { return r < utf8.RuneSelf && isLatinLetter(byte(r)) }))], unicode.IsSpace)
	return word != "" && !connectors[strings.ToLower(word)]
}

func isLatinLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

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
	minus, plus := "-", "+"
	switch {
	case strings.Contains(q.Sign, "−"):
		minus = "−"
	case strings.Contains(q.Sign, "－"):
		minus = "－"
	}
	if strings.Contains(q.Sign, "＋") {
		plus = "＋"
	}
	if q.FullWidth && minus == "-" {
		minus = "－"
	}
	delta := ""
	if strings.HasPrefix(q.Sign, "Δ") {
		delta = "Δ"
	}
	switch {
	case neg:
		return delta + minus + digits
	case q.Delta && !v.IsZero():
		return delta + plus + digits
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
