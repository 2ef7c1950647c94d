package stagedata

import (
	"regexp"
	"testing"
)

// decimalsRe is what WrittenPlaces reads: the ASCII digits of the first
// "." or "．" followed by one.
var decimalsRe = regexp.MustCompile(`[.．](\d+)`)

func placesRe(number string) int {
	if m := decimalsRe.FindStringSubmatch(number); m != nil {
		return len(m[1])
	}
	return 0
}

func TestWrittenPlaces(t *testing.T) {
	for _, c := range []struct {
		number string
		want   int
	}{
		{"56", 0},
		{"56.1", 1},
		{"0.04", 2},
		{"1,234.567", 3},
		{"４０．３", 0},  // full-width digits are not \d
		{"40．35", 2}, // a full-width point
		{"v1.", 0},
		{"1.x.25", 2}, // the first point with a digit after it
		{"..5", 1},
		{"3.14ms", 2},
		{"약 1.5배", 1},
		{"", 0},
		{"．", 0},
		{"\xef\xbc", 0},
	} {
		if got := WrittenPlaces(c.number); got != c.want || got != placesRe(c.number) {
			t.Errorf("WrittenPlaces(%q) = %d, want %d (the pattern's: %d)", c.number, got, c.want, placesRe(c.number))
		}
	}
}

// FuzzWrittenPlaces: WrittenPlaces reads as the pattern [.．](\d+) does.
func FuzzWrittenPlaces(f *testing.F) {
	for _, s := range []string{"56.1", "40．35", "1.x.25", "약 1.5배", "\xef\xbc\x8e7", ".", "12,345.6789ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := WrittenPlaces(s), placesRe(s); got != want {
			t.Errorf("WrittenPlaces(%q) = %d; the pattern's %d", s, got, want)
		}
	})
}
