package literal

import (
	"math/rand/v2"
	"reflect"
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

// TestWordNumbersStepwise: WordNumbers, which keeps the script of the
// rune it stepped over, finds what decoding the rune before each offset
// again finds, on random texts of number words, counters, particles,
// letters, digits and invalid bytes; and every number word starts with a
// rune of its script's set (koWordFirst, jaWordFirst, enWordFirst), so
// that wordNumberAt's look at the first rune turns none away.
func TestWordNumbersStepwise(t *testing.T) {
	decodeEach := func(text string) []WordNumber {
		lx := &lexer{s: text}
		var out []WordNumber
		for i := 0; i < len(text); {
			r, n := utf8.DecodeRuneInString(text[i:])
			if sc := scriptOf(r); sc != other && (i == 0 || scriptOf(runeBefore(text, i)) != sc || sc == han) {
				if q, _, err := lx.wordNumberAt(i); q != nil && err == nil {
					_, det := koDeterminers[text[q.NumStart:q.NumEnd]]
					out = append(out, WordNumber{Quantity: *q, Ordinal: ordinalAt(text, q.End), Determiner: det})
					i = q.End
					continue
				}
			}
			i += n
		}
		return out
	}
	parts := []string{" ", "번", "시간", "개", "가", "이", "つ", "回", "件", "times", "a", "One", "x", "1", "2", "\xed", "\x80", "\uFFFD", "한국", "一部", "五千", "十", "ー", "カ"}
	for _, l := range [][]numberWord{koDeterminerList, koNumeralList, jaKanaList} {
		for _, w := range l {
			parts = append(parts, w.word)
		}
	}
	for w := range enWords {
		parts = append(parts, w)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		got, want := WordNumbers(s, len(s)), decodeEach(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("WordNumbers(%q) = %+v, want %+v", s, got, want)
		}
		found += len(want)
	}
	if found < 1000 {
		t.Errorf("%d number words in 5000 texts; expected the texts to hold many", found)
	}
	for sets, l := range map[*map[rune]bool][]numberWord{&koWordFirst: append(append([]numberWord{}, koDeterminerList...), koNumeralList...), &jaWordFirst: jaKanaList} {
		for _, w := range l {
			if r, _ := utf8.DecodeRuneInString(w.word); !(*sets)[r] {
				t.Errorf("%q starts with %q, which its set lacks", w.word, r)
			}
		}
	}
	for w := range enWords {
		if strings.ToLower(w) != w || !enWordFirst[rune(w[0])] {
			t.Errorf("%q is not lower case or starts with a letter enWordFirst lacks", w)
		}
	}
}
