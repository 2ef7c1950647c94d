package numscan

import (
	"strings"
	"testing"
)

// extremumBeforeOracle is extremumBefore without its test of the last
// byte (extremumLast): every word and particle tried.
func extremumBeforeOracle(lb string) string {
	for pass := 0; pass < 2; pass++ {
		t := lb
		if pass == 1 {
			found := false
			for _, p := range extremumParticles {
				if strings.HasSuffix(t, p) {
					t, found = strings.TrimRight(t[:len(t)-len(p)], " "), true
					break
				}
			}
			if !found {
				return ""
			}
		}
		for _, w := range extremumWords {
			if strings.HasSuffix(t, w.word) && wordStartsAt(t, len(t)-len(w.word), w.word) {
				return w.cmp
			}
		}
	}
	return ""
}

// TestExtremumBeforeEqualsOracle: every extremum word, after each head
// and before each particle (or none), reads as the oracle reads it; a
// byte missing from extremumLast makes one of them differ.
func TestExtremumBeforeEqualsOracle(t *testing.T) {
	found := 0
	for _, w := range extremumWords {
		for _, head := range []string{"", "지연의 ", "x", "가"} {
			for _, tail := range append([]string{"", " ", "x"}, extremumParticles...) {
				s := head + w.word + tail
				got, want := extremumBefore(s), extremumBeforeOracle(s)
				if got != want {
					t.Errorf("extremumBefore(%q) = %q; the oracle reads %q", s, got, want)
				}
				if want != "" {
					found++
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no text names a bound: the test compares nothing")
	}
}

// FuzzExtremumBefore compares extremumBefore with the oracle on any text.
func FuzzExtremumBefore(f *testing.F) {
	for _, s := range []string{"최댓값은", "最小値は", "the maximum is", "minimum of", "최대 ", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := extremumBefore(s), extremumBeforeOracle(s); got != want {
			t.Errorf("extremumBefore(%q) = %q; the oracle reads %q", s, got, want)
		}
	})
}
