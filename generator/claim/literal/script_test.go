package literal

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestScriptOfFastPaths: scriptOf's range checks for ASCII, Hangul
// syllables, CJK unified ideographs and the table of U+3000–U+30FF
// (kanaScripts) agree with the Unicode tables.
func TestScriptOfFastPaths(t *testing.T) {
	slow := func(r rune) script {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			return latin
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
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := scriptOf(r), slow(r); got != want {
			t.Fatalf("scriptOf(%U) = %d, want %d", r, got, want)
		}
	}
}
