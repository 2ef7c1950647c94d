package claim

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// TestKnownWordLenEqualsEveryList: knownWordLen, which tries only the
// words starting with the byte at i (knownWordsByFirst), returns what
// trying every word of every list returns, at every offset of random
// texts of known words, their parts, letters and digits.
func TestKnownWordLenEqualsEveryList(t *testing.T) {
	var words []string
	for _, a := range approxWords {
		words = append(words, a.word)
	}
	for _, c := range cmpWords {
		words = append(words, c.word)
	}
	words = append(words, particles...)
	for _, p := range signWords {
		words = append(words, p.word)
	}
	words = append(words, unit.RatePrefixes...)
	every := func(lx *lexer, i int) int {
		s := lx.s
		rest := s[i:]
		best := 0
		try := func(w string) {
			if len(w) <= best || !strings.HasPrefix(rest, w) {
				return
			}
			if r, _ := utf8.DecodeRuneInString(w); scriptOf(r) == latin {
				if i > 0 && scriptOf(runeBefore(s, i)) == latin {
					return
				}
				if e := i + len(w); e < len(s) && scriptOf(rune(s[e])) == latin {
					return
				}
			}
			best = len(w)
		}
		for _, w := range words {
			try(w)
		}
		if w := wordAt(s, i); w != "" && (englishConnectors[strings.ToLower(w)] || rangeSeps[w]) {
			try(w)
		}
		return best
	}
	parts := []string{"a", "x", "A", " ", "1", "~", "-", "약", "이", "\xe3", "\x80", "to", "and", "初"}
	for _, a := range approxWords {
		parts = append(parts, a.word, a.word[:len(a.word)-1])
	}
	for _, c := range cmpWords {
		parts = append(parts, c.word)
	}
	parts = append(parts, particles...)
	for _, p := range signWords {
		parts = append(parts, p.word)
	}
	parts = append(parts, unit.RatePrefixes...)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		lx := &lexer{s: b.String()}
		for i := range len(lx.s) + 1 {
			if got, want := lx.knownWordLen(i), every(lx, i); got != want {
				t.Fatalf("knownWordLen(%q, %d) = %d, want %d", lx.s, i, got, want)
			}
		}
	}
}
