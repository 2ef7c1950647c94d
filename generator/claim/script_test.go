package claim

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestScriptOfFastPaths: scriptOf's range checks for ASCII, Hangul
// syllables and CJK unified ideographs agree with the Unicode tables.
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

// TestHasDigit: hasDigit is true exactly where proseNumber can match.
func TestHasDigit(t *testing.T) {
	for _, s := range []string{"", "약 ", "０", "x9", "ＡＢ", "\xef\xbc", "\xef\xbc\x99", "\xef\xbc\x9a", "초당 한 번", "1,2", "m²", "③", "Ⅻ", "〇"} {
		if got, want := hasDigit([]byte(s)), proseNumber.Match([]byte(s)); got != want {
			t.Errorf("hasDigit(%q) = %v, want %v", s, got, want)
		}
	}
}
