package literal

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDateLenEqualsRegexp compares dateLen, which rejects a text that
// does not start with four ASCII digits before trying dateLitRe, with
// the expression alone, on random texts of date pieces at every offset.
func TestDateLenEqualsRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"2026", "1", "9", "0", "-", "/", ".", " ", "年", "년", "月", "월", "日", "일", "٣", "１", "a"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		for i := 0; i <= len(s); i++ {
			want := 0
			if m := dateLitRe.FindStringIndex(s[i:]); m != nil {
				want = m[1]
			}
			if got := dateLen(s, i); got != want {
				t.Fatalf("dateLen(%q, %d) = %d, want %d (dateLitRe)", s, i, got, want)
			}
		}
	}
}
