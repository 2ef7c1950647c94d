package literal

import "testing"

// TestDigitRuns: the estimate of a literal's quantities ParseLiteral
// sizes its slice by, and the slice it returns: exactly as long as the
// quantities read (claims keep it), nil without any.
func TestDigitRuns(t *testing.T) {
	tests := []struct {
		lit  string
		runs int
	}{
		{"", 0},
		{"약 40초", 1},
		{"86/86", 2},
		{"1,234.5", 1},
		{"51.7%→0.21%", 2},
		{"１２,０００", 1},
		{"1 234", 2}, // space grouping: one quantity, two runs
		{"1만 2천 건", 2},
		{"두 번", 0}, // a number word: no digits
		{"0→46 (+46)", 3},
		{"v1.2", 1},
		{"1.", 1},
		{",5", 1},
	}
	for _, tt := range tests {
		if got := DigitRuns(tt.lit); got != tt.runs {
			t.Errorf("DigitRuns(%q) = %d, want %d", tt.lit, got, tt.runs)
		}
		l, _ := ParseLiteral(tt.lit)
		if len(l.Quantities) != cap(l.Quantities) || len(l.Quantities) == 0 && l.Quantities != nil {
			t.Errorf("ParseLiteral(%q): %d quantities in a slice of capacity %d (nil: %v)", tt.lit, len(l.Quantities), cap(l.Quantities), l.Quantities == nil)
		}
	}
}
