package literal

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

// wordNumbersEveryStart is WordNumbers as it read before the
// wordFirstBits prefilter: wordNumberAt is asked at every word start.
func wordNumbersEveryStart(text string, limit int) []WordNumber {
	lx := &lexer{s: text}
	var out []WordNumber
	prev, prevKnown := other, false
	for i := 0; i < len(text) && i < limit; {
		r, n := utf8.DecodeRuneInString(text[i:])
		sc := scriptOf(r)
		if sc != other {
			before := prev
			if i > 0 && !prevKnown {
				before = scriptOf(runeBefore(text, i))
			}
			if i == 0 || before != sc || sc == han {
				if q, _, err := lx.wordNumberAt(i); q != nil && err == nil {
					_, det := koDeterminers[text[q.NumStart:q.NumEnd]]
					out = append(out, WordNumber{Quantity: *q, Ordinal: ordinalAt(text, q.End), Determiner: det})
					i = q.End
					prevKnown = false
					continue
				}
			}
		}
		prev, prevKnown = sc, r != utf8.RuneError
		i += n
	}
	return out
}

// TestWordFirstEveryRune: a rune wordFirst refuses starts no number word
// for wordNumberAt, whatever follows it (a counter, a unit, the rest of
// a number word, nothing).
func TestWordFirstEveryRune(t *testing.T) {
	tails := []string{"", " 번", "번", "나", "섯", " 시간", "つ", "とつ", "回", "十", "ne", "wice", " times"}
	for r := rune(0); r < 1<<16; r++ {
		if wordFirst(r) || !utf8.ValidRune(r) {
			continue
		}
		for _, tail := range tails {
			s := string(r) + tail
			lx := &lexer{s: s}
			if q, _, err := lx.wordNumberAt(0); q != nil && err == nil {
				t.Fatalf("%q (U+%04X) is refused by wordFirst, yet wordNumberAt reads %q", s, r, s[q.NumStart:q.NumEnd])
			}
		}
	}
	if mayStartWordNumber('가') || !mayStartWordNumber('두') || !mayStartWordNumber('五') || mayStartWordNumber('千') || !mayStartWordNumber('T') {
		t.Error("wordFirstBits does not hold wordFirst")
	}
}

// FuzzWordNumbersPrefilter: WordNumbers reads what it read when it asked
// wordNumberAt at every word start.
func FuzzWordNumbersPrefilter(f *testing.F) {
	for _, s := range []string{"두 번 시도했고 세 시간 걸렸다", "하나 주의할 점", "二回実行した、三件発生、一部", "ひとつ、ふたつある", "once a day, twice", "Two pods", "千回 十回 五千台", "약 두 배", "한국 한 번역", "스무 개", "とおり とお"} {
		f.Add(s, len(s))
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		got, want := WordNumbers(s, limit), wordNumbersEveryStart(s, limit)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %+v, asked at every start %+v", s, got, want)
		}
	})
}
