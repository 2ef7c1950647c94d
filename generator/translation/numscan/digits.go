package numscan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// numberLen returns the length of the number at the start of s, digits
// grouped by thousands separators and an optional fraction: what the
// expression ^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)? matches (0 for none).
// A run of one to three digits followed by ",ddd" groups takes every
// group that follows; otherwise the whole digit run is the number.
func numberLen(s string) int {
	run := digitRun(s, 0)
	if run == 0 {
		return 0
	}
	n := run
	if run <= 3 {
		for n+4 <= len(s) && (s[n] == ',' || s[n] == '_') && digitRun(s[n+1:n+4], 0) == 3 {
			n += 4
		}
	}
	if n < len(s) && s[n] == '.' {
		if f := digitRun(s, n+1); f > 0 {
			n += 1 + f
		}
	}
	return n
}

// digitRun returns the count of ASCII digits in s from i on.
func digitRun(s string, i int) int {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j - i
}

// magnitudeAt reads a magnitude word (천, 만, 억, 千, 万, 億) at the start of
// s after at most one blank: what ^\s?(천|만|억|千|万|億) matches. It
// returns the word and the length read ("" and 0 for none).
func magnitudeAt(s string) (string, int) {
	k := 0
	if len(s) > 0 {
		switch s[0] {
		case ' ', '\t', '\n', '\f', '\r':
			k = 1
		}
	}
	// each word is three bytes of UTF-8
	if len(s) >= k+3 {
		if w := s[k : k+3]; magnitudeOf[w] != 0 {
			return w, k + 3
		}
	}
	return "", 0
}

// parseNumber reads a number as numberLen delimits it ("1,234.5") as a
// decimal, as decimal.NewFromString reads it without its commas.
func parseNumber(m string) decimal.Decimal {
	var v int64
	scale := int32(0)
	digits := 0
	frac := false
	for i := 0; i < len(m); i++ {
		switch c := m[i]; {
		case c == ',', c == '_':
		case c == '.':
			frac = true
		default:
			v = v*10 + int64(c-'0')
			digits++
			if frac {
				scale++
			}
		}
	}
	if digits > 18 { // may overflow int64
		d, _ := decimal.NewFromString(strings.NewReplacer(",", "", "_", "").Replace(m))
		return d
	}
	return unit.NewDecimal(v, -scale)
}

// NormalizeText maps full-width digits and signs, and the decimal digits
// of other scripts, to ASCII and returns,
// for each byte of the result, the offset of the byte it came from.
func NormalizeText(s string) (string, []int) {
	back := make([]int, 0, len(s)+1)
	if !hasFullWidth(s) && utf8.ValidString(s) {
		for i := range len(s) + 1 {
			back = append(back, i)
		}
		return s, back
	}
	b := make([]byte, 0, len(s))
	for i, r := range s {
		if a := fullWidthASCII(r); a != 0 {
			b = append(b, a)
			back = append(back, i)
			continue
		}
		n := len(b)
		b = utf8.AppendRune(b, r)
		for range len(b) - n {
			back = append(back, i)
		}
	}
	back = append(back, len(s))
	return string(b), back
}

// fullWidthASCII returns the ASCII byte a full-width digit or sign r
// stands for (０ → 0, ％ → %, 〜 → ~), or 0.
func fullWidthASCII(r rune) byte {
	switch {
	case r >= '０' && r <= '９':
		return byte('0' + r - '０')
	}
	switch r {
	case '％':
		return '%'
	case '，':
		return ','
	case '．':
		return '.'
	case '：':
		return ':'
	case '＋':
		return '+'
	case '－':
		return '-'
	case '〜', '～', '∼':
		return '~'
	}
	if r >= 0x80 && unicode.IsDigit(r) {
		return byte('0' + digitValue(r)) // ٣, ४, 𝟒: as coverage reads them
	}
	return 0
}

// digitValue is the value of r, a decimal digit (unicode.Nd): Unicode
// writes each script's digits as runs of ten from zero, so r's place in
// its run of consecutive digits, modulo ten.
func digitValue(r rune) int {
	z := r
	for unicode.IsDigit(z - 1) {
		z--
	}
	return int(r-z) % 10
}

// hasFullWidth reports whether s holds a rune fullWidthASCII maps.
func hasFullWidth(s string) bool {
	for i := 0; i < len(s); i++ {
		// the full-width runes are three bytes long and start with 0xE2,
		// 0xE3 or 0xEF; the other scripts' digits (unicode.Nd) start
		// with 0xD9, 0xDB, 0xDF, 0xE0, 0xE1, 0xF0, or 0xEA before Hangul
		// (U+A620-ABF9)
		// (of 0xE3, only U+3000–303F: kana and the rest of U+3040–3FFF
		// hold none; of 0xEF, only the full-width forms U+FF00–FF7F:
		// TestHasFullWidthEveryRune)
		if c := s[i]; c == 0xE2 || c == 0xE3 && i+1 < len(s) && s[i+1] == 0x80 || c == 0xEF && i+1 < len(s) && (s[i+1] == 0xBC || s[i+1] == 0xBD) ||
			c == 0xD9 || c == 0xDB || c == 0xDF || c == 0xE0 || c == 0xE1 || c == 0xF0 ||
			c == 0xEA && i+1 < len(s) && s[i+1] < 0xB0 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			if fullWidthASCII(r) != 0 {
				return true
			}
		}
	}
	return false
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
