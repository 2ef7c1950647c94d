package literal

import "testing"

// TestDoubledSignIsAnError (issue 15, fault 9): "−−5" is not read as
// "−5" after a stray character — fix rewrote it to "−40" for +40 and
// never converged.
func TestDoubledSignIsAnError(t *testing.T) {
	for _, lit := range []string{"−−5", "--5", "+-5", "−+5", "－－5", "Δ−−5"} {
		if q, err := ParseLiteral(lit); err == nil {
			t.Errorf("ParseLiteral(%q) = %+v; want a doubled-sign error", lit, q)
		}
	}
	for _, lit := range []string{"−5", "-5", "+5", "Δ−5", "5-10"} {
		if _, err := ParseLiteral(lit); err != nil {
			t.Errorf("ParseLiteral(%q): %v", lit, err)
		}
	}
}
