package numscan

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSentenceTailEqualsTrimming: sentenceTail gives what trimming the
// text after the last occurrence of each sentence end in turn gives, on
// random texts of sentence ends, their parts and other characters.
func TestSentenceTailEqualsTrimming(t *testing.T) {
	trim := func(s string) string {
		for _, end := range sentenceEnds {
			if i := strings.LastIndex(s, end); i >= 0 {
				s = s[i+len(end):]
			}
		}
		return s
	}
	parts := append([]string{"a", "시점", "時点", " ", ".", "!", "?", "\xe3", "\x80\x82", "x.y"}, sentenceEnds...)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := sentenceTail(s), trim(s); got != want {
			t.Fatalf("sentenceTail(%q) = %q, want %q", s, got, want)
		}
	}
}
