package prose

import (
	"testing"
)

// TestHasDigit: HasDigit is true exactly where proseNumber can match.
func TestHasDigit(t *testing.T) {
	for _, s := range []string{"", "약 ", "０", "x9", "ＡＢ", "\xef\xbc", "\xef\xbc\x99", "\xef\xbc\x9a", "초당 한 번", "1,2", "m²", "③", "Ⅻ", "〇"} {
		if got, want := HasDigit([]byte(s)), proseNumber.Match([]byte(s)); got != want {
			t.Errorf("HasDigit(%q) = %v, want %v", s, got, want)
		}
	}
}
