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

type script int

const (
	other script = iota
	latin
	hangul
	han
	hiragana
	katakana
)

func scriptOf(r rune) script {
	switch {
	case r < utf8.RuneSelf:
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return latin
		}
		return other
	case r >= 0xAC00 && r <= 0xD7A3: // Hangul syllables, the common case
		return hangul
	case r >= 0x4E00 && r <= 0x9FFF: // CJK unified ideographs
		return han
	case r >= kanaBlockStart && r < kanaBlockStart+rune(len(kanaScripts)):
		// CJK punctuation, hiragana and katakana: most runes of
		// Japanese prose besides the ideographs, read from a table
		return kanaScripts[r-kanaBlockStart]
	}
	return scriptOfTables(r)
}

// kanaBlockStart is the first rune of kanaScripts: U+3000, CJK Symbols
// and Punctuation, then Hiragana and Katakana up to U+30FF.
const kanaBlockStart = 0x3000

// kanaScripts holds scriptOfTables of each rune of U+3000–U+30FF.
var kanaScripts = func() (t [0x100]script) {
	for i := range t {
		t[i] = scriptOfTables(kanaBlockStart + rune(i))
	}
	return t
}()

// scriptOfTables is scriptOf of a rune that is neither ASCII nor a
// Hangul syllable nor a CJK unified ideograph, read from the Unicode
// tables.
func scriptOfTables(r rune) script {
	switch {
	case unicode.Is(unicode.Hangul, r):
		return hangul
	case unicode.Is(unicode.Han, r) || r == '々':
		return han
	case unicode.Is(unicode.Hiragana, r):
		return hiragana
	case unicode.Is(unicode.Katakana, r) || r == 'ー':
		return katakana
	}
	return other
}

// wordAt returns the run of letters of one script at s[i:].
func wordAt(s string, i int) string {
	r, _ := utf8.DecodeRuneInString(s[i:])
	sc := scriptOf(r)
	if sc == other {
		return ""
	}
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if scriptOf(r) != sc {
			break
		}
		j += n
	}
	return s[i:j]
}

func runeBefore(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// skipSpaces returns the offset after the spaces (see isSpace) at s[i:].
func skipSpaces(s string, i int) int {
	for n := spaceAt(s, i); n > 0; n = spaceAt(s, i) {
		i += n
	}
	return i
}
