package literal

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// ApproxWord is an approximation word of the claim grammar and what it
// means.
type ApproxWord struct {
	Word   string
	Approx Approx
	// Before is set for a word written before the number it qualifies
	// (약 40초, 約40秒, about 40 s); the others follow the number and its
	// unit (40초 정도, 40秒前後).
	Before bool
	// Glued is set for a word that counts only right after the digits
	// (40여 건, 40余件).
	Glued bool
}

// ApproxWords returns the approximation words the claim grammar reads,
// with their meaning and side: the one list the judgement of claims and
// the ko/ja parity checks share. "~" before a number (~40초) is read as
// well, outside this list, since between two numbers it marks a range.
func ApproxWords() []ApproxWord {
	out := make([]ApproxWord, 0, len(approxWords)+len(yeoWords))
	for _, a := range approxWords {
		out = append(out, ApproxWord{Word: a.word, Approx: a.a, Before: a.before})
	}
	for _, w := range yeoWords {
		out = append(out, ApproxWord{Word: w, Approx: Over, Glued: true})
	}
	return out
}

// yeoWords are the words of "40여 건" and "40余件": a little over, right
// after the digits (see lexer.yeo).
var yeoWords = []string{"여", "余"}

// WordNumber is a number written as a word in running text, as the claim
// grammar reads it (세 번, 두 개, 二回, 三つ, ふたつ, twice).
type WordNumber struct {
	Quantity
	// Ordinal is set when an ordinal suffix follows (두 번째, 二回目,
	// 一つ目): "the second", not a count of two.
	Ordinal bool
	// Determiner is set for a Korean number word that needs a unit or
	// counter after it (한, 두, 세 … 스무: 두 시간, 세 번); 하나, 둘, 셋 …
	// stand alone (하나가).
	Determiner bool
}

// WordNumbers returns the numbers written as words in text, each where
// a word starts, as ParseLiteral reads them in a claim (Start and End are
// byte offsets in text). A word the grammar does not read as a number
// (한국, 一部) is not one. Only words that start before limit are
// returned; the text after it is read as their context.
func WordNumbers(text string, limit int) []WordNumber {
	lx := &lexer{s: text}
	var out []WordNumber
	// prev is the script of the rune before i when the loop stepped over
	// that rune whole (prevKnown), so that it need not be decoded again
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
		// a rune decoded whole is the rune DecodeLastRune finds before
		// i+n; an invalid byte (RuneError) may not be
		prev, prevKnown = sc, r != utf8.RuneError
		i += n
	}
	return out
}

// ordinalAt reports whether an ordinal suffix follows a counter (두 번째,
// 二回目, 一つ目): "the second", not a count.
func ordinalAt(s string, i int) bool {
	return strings.HasPrefix(s[i:], "째") || strings.HasPrefix(s[i:], "目")
}

// MagnitudeWordLen is the length of the magnitude word (만, 천, 万, 億 …)
// s starts with, or 0: the words the grammar scales a number by, which
// the prose scan reads as part of a compound number (1만 2천).
func MagnitudeWordLen(s []byte) int {
	for _, m := range magnitudeWords {
		if bytes.HasPrefix(s, []byte(m.word)) {
			return len(m.word)
		}
	}
	return 0
}
