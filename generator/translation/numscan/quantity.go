package numscan

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// readQuantity reads a number with magnitudes and unit at norm[i:]. It
// returns the token (Kind "number", Value in the base unit), the end and
// the factor of the unit word to the base unit (0 without unit).
func readQuantity(norm string, i int) (Number, int, decimal.Decimal) {
	n := Number{Kind: "number"}
	total := decimal.Zero
	j := i
	lastMag := int64(0)
	for {
		m := norm[j : j+numberLen(norm[j:])]
		if m == "" {
			break
		}
		v := parseNumber(m)
		k := j + len(m)
		if lastMag == 0 {
			// 10², 10^2 and 10⁻³ are one number (100, 0.001); 1½ is 1.5
			if p, w := powerAt(v, norm[k:]); w > 0 {
				v, k = p, k+w
			} else if f, w := fractionAt(norm[k:]); w > 0 && !strings.Contains(m, ".") {
				v, k = v.Add(f), k+w
			}
		}
		mag := int64(1)
		if w, n := magnitudeAt(norm[k:]); n > 0 {
			mag = magnitudeOf[w]
			k += n
		}
		if lastMag != 0 && (mag >= lastMag || v.Mul(decimal.NewFromInt(mag)).GreaterThanOrEqual(decimal.NewFromInt(lastMag))) {
			break // not a continuation of the compound number
		}
		switch {
		case lastMag == 0 && mag == 1:
			total = v // the usual number: 0 + v × 1 is v, digit for digit
		default:
			total = total.Add(v.Mul(decimal.NewFromInt(mag)))
		}
		j = k
		if mag == 1 {
			break
		}
		lastMag = mag
		// a compound continues after an optional space: 1만 2천, 1万2000
		s := j
		if s < len(norm) && norm[s] == ' ' {
			s++
		}
		if s >= len(norm) || norm[s] < '0' || norm[s] > '9' {
			break
		}
		if m2 := norm[s : s+numberLen(norm[s:])]; m2 != "" {
			v2 := parseNumber(m2)
			mag2 := int64(1)
			if w, n := magnitudeAt(norm[s+len(m2):]); n > 0 {
				mag2 = magnitudeOf[w]
			}
			if mag2 >= lastMag || v2.Mul(decimal.NewFromInt(mag2)).GreaterThanOrEqual(decimal.NewFromInt(lastMag)) {
				break
			}
			j = s
			continue
		}
		break
	}
	n.Value = total
	// 割 (tenths), with 分 (hundredths) and 厘 (thousandths) after it, is a
	// percentage, as package claim reads it: 3割 = 30 %, 3割5分 = 35 %
	if strings.HasPrefix(norm[j:], "割") {
		n.Unit = "%"
		n.Value = total.Mul(decimal.NewFromInt(10))
		j += len("割")
		for _, part := range []struct {
			word string
			f    decimal.Decimal
		}{{"分", decimal.NewFromInt(1)}, {"厘", decimal.New(1, -1)}} {
			m := norm[j : j+numberLen(norm[j:])]
			if m == "" || strings.Contains(m, ".") || !strings.HasPrefix(norm[j+len(m):], part.word) {
				continue
			}
			n.Value = n.Value.Add(parseNumber(m).Mul(part.f))
			j += len(m) + len(part.word)
		}
		return n, j, decimal.Zero
	}
	// 40여 건, 40余件: a little over
	for _, w := range approxGlued {
		if !strings.HasPrefix(norm[j:], w.Word) {
			continue
		}
		e := j + len(w.Word)
		next, _ := utf8.DecodeRuneInString(norm[e:])
		if uw, _ := unitWordAt(norm[e:]); e == len(norm) || uw != "" || !isEastAsianLetter(next) {
			n.Approx, j = w.Approx, e
		}
		break
	}
	// unit, after an optional space
	u := j
	if u < len(norm) && norm[u] == ' ' {
		u++
	}
	for _, q := range cmpAfter {
		if strings.HasPrefix(norm[u:], q.word) {
			return n, j, decimal.Zero // 3 초과: a comparator, not 3 seconds
		}
	}
	w, bu := unitWordAt(norm[u:])
	if w == "" {
		return n, j, decimal.Zero
	}
	n.Unit = bu.name
	if !literal.IsOne(bu.factor) {
		n.Value = mul(n.Value, bu.factor)
	}
	return n, u + len(w), bu.factor
}

// unitWordAt returns the unit word s starts with (package unit's
// spellings and extraUnits, the longest) and the base unit it is
// compared in; "" when s starts with none.
func unitWordAt(s string) (string, baseUnit) {
	if s == "" {
		return "", baseUnit{}
	}
	w, u := unit.Prefix(s)
	bu, ok := parityUnits[u.Name]
	if !ok {
		bu = baseUnit{u.Name, one} // an ambiguous word (m)
	}
	if s[0] == 0xED || s[0] == 0xEB || s[0] == 0xE6 || s[0] == 'K' || s[0] == 'M' || s[0] == 'G' { // 포, 단, 段, Ki, Mi, Gi
		for x, name := range extraUnits {
			if len(x) > len(w) && strings.HasPrefix(s, x) && !(isASCIILetterByte(x[len(x)-1]) && len(s) > len(x) && isASCIILetterByte(s[len(x)])) {
				w, bu = x, parityUnits[name]
			}
		}
	}
	return w, bu
}

// changeVerbs are the words of a change that まで or 까지 before them
// make an end point: 0.21%まで下がった, 0.21%까지 떨어졌다 (down to 0.21%).
var changeVerbs = []string{
	"下が", "上が", "減", "増", "落ち", "低下", "上昇", "短縮", "改善", "回復", "伸び", "縮", "悪化", "到達", "達し",
	"떨어", "내려", "올라", "줄", "늘", "감소", "증가", "단축", "개선", "회복", "상승", "하락", "악화", "도달",
}

// changeVerbAt reports whether s starts with a change verb.
func changeVerbAt(s string) bool {
	for _, v := range changeVerbs {
		if strings.HasPrefix(s, v) {
			return true
		}
	}
	return false
}

// joinApprox combines two approximation words read around one number,
// as the claim grammar does: one meaning, or about when they differ.
func joinApprox(a, b literal.Approx) literal.Approx {
	if a == literal.Exact || a == b {
		return b
	}
	return literal.About
}

// wordStartsAt reports whether word, found at s[k:], starts a word: a
// Hangul word (약, 거의) not glued to Hangul before it (계약 is a contract,
// not "about"), an English word not glued to a letter.
func wordStartsAt(s string, k int, word string) bool {
	if k == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:k])
	first, _ := utf8.DecodeRuneInString(word)
	switch {
	case first < utf8.RuneSelf && isASCIILetterByte(byte(first)):
		return !(prev < utf8.RuneSelf && isASCIILetterByte(byte(prev)))
	case first >= 0xAC00 && first <= 0xD7A3:
		return !(prev >= 0xAC00 && prev <= 0xD7A3)
	}
	return true
}

// superscripts maps the superscript digits to their values.
var superscripts = map[rune]int64{'⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9}

// powerAt reads an exponent written right after base at the start of
// s: superscript digits (10², 10⁻³) or "^" and ASCII digits (10^2,
// 10^-3). It returns base raised to it and the length read (0 for
// none, for an exponent above 40, and for a negative exponent of a
// base other than 10, which has no exact decimal).
func powerAt(base decimal.Decimal, s string) (decimal.Decimal, int) {
	neg, w, e, digits := false, 0, int64(0), 0
	if strings.HasPrefix(s, "^") {
		w = 1
		if r, n := utf8.DecodeRuneInString(s[w:]); r == '-' || r == '−' {
			neg, w = true, w+n
		}
		for w < len(s) && s[w] >= '0' && s[w] <= '9' && digits < 3 {
			e, w, digits = e*10+int64(s[w]-'0'), w+1, digits+1
		}
		if digits == 0 || w < len(s) && (s[w] >= '0' && s[w] <= '9' || s[w] == '.' && w+1 < len(s) && s[w+1] >= '0' && s[w+1] <= '9') {
			return base, 0 // no exponent, or not a whole one (10^2.5)
		}
	} else {
		if strings.HasPrefix(s, "⁻") {
			neg, w = true, len("⁻")
		}
		for w < len(s) && digits < 3 {
			r, n := utf8.DecodeRuneInString(s[w:])
			d, ok := superscripts[r]
			if !ok {
				break
			}
			e, w, digits = e*10+d, w+n, digits+1
		}
		if digits == 0 {
			return base, 0
		}
	}
	switch {
	case e > 40:
		return base, 0
	case neg && !base.Equal(decimal.NewFromInt(10)):
		return base, 0
	case neg:
		return decimal.New(1, -int32(e)), w
	}
	return base.Pow(decimal.NewFromInt(e)), w
}

// fractions are the vulgar fractions (unicode.No) as numerator and
// denominator.
var fractions = map[rune][2]int64{
	'¼': {1, 4}, '½': {1, 2}, '¾': {3, 4}, '⅐': {1, 7}, '⅑': {1, 9}, '⅒': {1, 10}, '⅓': {1, 3}, '⅔': {2, 3},
	'⅕': {1, 5}, '⅖': {2, 5}, '⅗': {3, 5}, '⅘': {4, 5}, '⅙': {1, 6}, '⅚': {5, 6}, '⅛': {1, 8}, '⅜': {3, 8},
	'⅝': {5, 8}, '⅞': {7, 8}, '↉': {0, 3},
}

// fractionAt reads a vulgar fraction at the start of s (½, ⅓): its
// value (to 16 decimals where it does not end) and length, or 0.
func fractionAt(s string) (decimal.Decimal, int) {
	r, n := utf8.DecodeRuneInString(s)
	f, ok := fractions[r]
	if !ok {
		return decimal.Zero, 0
	}
	return decimal.NewFromInt(f[0]).DivRound(decimal.NewFromInt(f[1]), 16), n
}

// symbolLead reports whether norm[i] may start a numeric symbol that
// symbolAt reads (a lead byte of ¼ ½ ¾ ¹ ² ³, of the symbols of U+2070
// to U+2BFF, of the circled numbers of U+3251 to U+32BF, or of a
// supplementary rune), cheaply: most bytes are not.
func symbolLead(norm string, i int) bool {
	switch norm[i] {
	case 0xC2, 0xE2, 0xF0:
		return true
	case 0xE3:
		return i+1 < len(norm) && (norm[i+1] == 0x89 || norm[i+1] == 0x8A)
	}
	return false
}

// symbolAt reads the Unicode numeric symbol (unicode.No or Nl, other
// than the Han zero 〇, which is a number word) at norm[i:], so that no
// number of a page is invisible to the comparison: a vulgar fraction is
// the number it stands for (½ is 0.5); a circled, parenthesized or
// Roman numeral (③, ⑶, ❸, Ⅲ) is a mark of kind "mark" keyed by its
// value, so ③ and ⑶ agree and ③ and ② differ; any other is a mark
// keyed by its text (a footnote mark¹). A superscript or subscript after
// an ASCII letter is part of a unit or a name (m², H₂O), not a number:
// width 0.
func symbolAt(norm string, i int) (Number, int) {
	r, w := utf8.DecodeRuneInString(norm[i:])
	if r == '〇' || !unicode.In(r, unicode.No, unicode.Nl) {
		return Number{}, 0
	}
	if f, n := fractionAt(norm[i:]); n > 0 {
		return Number{Kind: "number", Value: f}, n
	}
	if v, ok := prose.NumeralMark(r); ok {
		return Number{Kind: "mark", Key: strconv.Itoa(v)}, w
	}
	if _, sup := superscripts[r]; sup || r >= '₀' && r <= '₉' {
		if i > 0 && isASCIILetterByte(norm[i-1]) {
			return Number{}, 0
		}
	}
	return Number{Kind: "mark", Key: norm[i : i+w]}, w
}

// hasAnyPrefix reports whether s starts with one of words.
func hasAnyPrefix(s string, words ...string) bool {
	for _, w := range words {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// isEastAsianLetter reports whether r is a Hangul, kana or Han letter (or
// a long vowel mark): a glued approximation word (여, 余) followed by one
// is part of a word, not of the number.
func isEastAsianLetter(r rune) bool {
	return unicode.In(r, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Han) || r == 'ー'
}
