package unit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestMaxDigits: a number of more than MaxDigits digits is an error
// saying so (reading it would cost time quadratic in its length), one of
// MaxDigits digits is read, and the message quotes a short excerpt.
func TestMaxDigits(t *testing.T) {
	if _, err := ScanDigits(strings.Repeat("7", MaxDigits), Style{}); err != nil {
		t.Fatalf("%d digits: %v", MaxDigits, err)
	}
	for _, s := range []string{strings.Repeat("1", MaxDigits+1), strings.Repeat("1", 4<<20), "0." + strings.Repeat("5", MaxDigits), strings.Repeat("１", MaxDigits+1), "1" + strings.Repeat(",222", MaxDigits/3+1)} {
		_, err := ScanDigits(s, Style{})
		if err == nil || !strings.Contains(err.Error(), "digits; expected at most") {
			t.Fatalf("%d bytes of digits: %v", len(s), err)
		}
		if _, shErr := ScanDigitsShape(s, Style{}); shErr == nil || shErr.Error() != err.Error() {
			t.Errorf("%d bytes of digits: ScanDigitsShape: %v; want %v", len(s), shErr, err)
		}
		if len(err.Error()) > 300 {
			t.Errorf("message of %d bytes for %d bytes of digits", len(err.Error()), len(s))
		}
	}
}

// BenchmarkLongDigitRun: reading a 4 MiB digit run is linear (it used to
// take about 50 s through math/big).
func BenchmarkLongDigitRun(b *testing.B) {
	s := strings.Repeat("1", 4<<20)
	for b.Loop() {
		_, _ = ScanDigits(s, Style{})
	}
}

func TestExcerpt(t *testing.T) {
	s := ".40초 and 약 more"
	for _, c := range []struct {
		from, to, max int
		want          string
	}{
		{0, 5, 40, ".40초"}, // 5 cuts 초 (3 bytes from offset 3): widened
		{4, 5, 40, "초"},
		{-3, 99, 40, s},
		{0, len(s), 3, ".40…"},
	} {
		got := Excerpt(s, c.from, c.to, c.max)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Excerpt(%q, %d, %d, %d) = %q, want %q", s, c.from, c.to, c.max, got, c.want)
		}
	}
}
