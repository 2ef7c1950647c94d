package literal

import (
	"testing"
	"unicode/utf8"
)

// TestLiteralMessagesAreUTF8: a message quoting part of a literal never
// cuts a character in half (it quoted ".40\xec\xb4" for ".40초").
func TestLiteralMessagesAreUTF8(t *testing.T) {
	for _, s := range []string{".40초", "1,.40초", "1 .40초", "-.40초", "약.40초", ".４０초", "약 .4초초"} {
		_, err := ParseLiteral(s)
		if err != nil && !utf8.ValidString(err.Error()) {
			t.Errorf("ParseLiteral(%q): message is not UTF-8: %q", s, err)
		}
	}
}
