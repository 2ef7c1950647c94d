package prose

import (
	"testing"
	"unicode"
)

// TestHasDigit: HasDigit is true exactly where proseNumber can match.
func TestHasDigit(t *testing.T) {
	for _, s := range []string{"", "약 ", "０", "x9", "ＡＢ", "\xef\xbc", "\xef\xbc\x99", "\xef\xbc\x9a", "초당 한 번", "1,2", "m²", "③", "Ⅻ", "〇"} {
		if got, want := HasDigit([]byte(s)), proseNumber.Match([]byte(s)); got != want {
			t.Errorf("HasDigit(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestIsNumber: IsNumber, which reads most runes of U+0800–U+FFFF from
// numberBlocks, is unicode.IsNumber for every rune.
func TestIsNumber(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		if got, want := IsNumber(r), unicode.IsNumber(r); got != want {
			t.Fatalf("IsNumber(%U) = %v, want %v", r, got, want)
		}
	}
}
