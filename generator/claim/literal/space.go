package literal

import (
	"regexp"
	"unicode"
	"unicode/utf8"
)

// isSpace reports whether r is a space a literal may hold between a number
// and its unit or words: a tab or a Unicode space separator (category Zs:
// the space, no-break space U+00A0, narrow no-break space U+202F, thin
// space U+2009, ideographic space U+3000 …).
func isSpace(r rune) bool {
	return r == '\t' || r == ' ' || r >= utf8.RuneSelf && unicode.Is(unicode.Zs, r)
}

// spaceAt returns the length in bytes of the space (see isSpace) at s[i:],
// or 0.
func spaceAt(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	if s[i] < utf8.RuneSelf {
		return btoi(s[i] == ' ' || s[i] == '\t')
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if isSpace(r) {
		return n
	}
	return 0
}

// oneSpaceAtMost reports whether s[a:b] is empty or one space.
func oneSpaceAtMost(s string, a, b int) bool {
	return a == b || spaceAt(s, a) == b-a
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// charRefRe matches a CommonMark entity or numeric character reference
// (a literal's text outside its quantities holds none that decodes: see
// finish).
var charRefRe = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)
