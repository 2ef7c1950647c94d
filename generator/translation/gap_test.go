package translation

import (
	"strings"
	"testing"
)

// TestTrimGap: trimGap trims what strings.Trim with " \t\u00a0" trims,
// on every text of up to four pieces: the cut set's runes, their bytes
// alone and in other runes (U+00A0's C2 and A0 apart, U+0120 and U+20A0
// holding one of them), the words isTransitionGap reads and other text.
func TestTrimGap(t *testing.T) {
	pieces := []string{" ", "\t", "\u00a0", "\xc2", "\xa0", "\u0120", "\u20a0", "\u00a0\u00a0", "→", "에서", "から", "->", "a", "\xff", "\u3000"}
	var texts func(prefix string, n int)
	count := 0
	texts = func(prefix string, n int) {
		count++
		if got, want := trimGap(prefix), strings.Trim(prefix, " \t\u00a0"); got != want {
			t.Errorf("trimGap(%q) = %q, want %q", prefix, got, want)
		}
		if n == 0 {
			return
		}
		for _, p := range pieces {
			texts(prefix+p, n-1)
		}
	}
	texts("", 4)
	if count < 50000 {
		t.Fatalf("only %d texts compared", count)
	}
}

// FuzzTrimGap: trimGap and strings.Trim agree on any text, and
// isTransitionGap reads what it read with strings.Trim.
func FuzzTrimGap(f *testing.F) {
	for _, s := range []string{"", " → ", "\u00a0에서 ", "\xc2\xa0\xa0", " \xc2", "から\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := trimGap(s), strings.Trim(s, " \t\u00a0"); got != want {
			t.Errorf("trimGap(%q) = %q, want %q", s, got, want)
		}
	})
}
