package literal

import (
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Every byte of a claim literal is read: it is part of a quantity (sign,
// digits, magnitude, unit, the parts of a compound, a rate word, a ±
// tolerance), or a space, a punctuation mark or a word the grammar knows
// (approximation words, comparators, particles and connectors, rate
// prefixes, a key= label before a number). account finds the first byte
// that is none of these and reports it, so that no text of a claim is
// skipped without a finding.

// punctuation lists the marks that may stand between or around the
// numbers of a literal: brackets, list and fraction separators, arrows
// and range marks.
var punctuation = []string{
	"(", ")", "（", "）", ",", "，", "、", "/", "／", "→", "->", "=>", "⇒",
	"~", "〜", "～", "∼", "-", "－", "–",
}

// account checks that every byte of the literal outside its quantities is
// a space, punctuation or a known word, and returns a LiteralError at the
// first byte that is not.
func (lx *lexer) account() error {
	s, qs := lx.s, lx.out.Quantities
	qi := 0
	for i := 0; i < len(s); {
		for qi < len(qs) && qs[qi].End <= i {
			qi++
		}
		if qi < len(qs) && i >= qs[qi].Start {
			i = qs[qi].End
			qi++
			continue
		}
		next := -1 // no quantity follows
		if qi < len(qs) {
			next = qs[qi].Start
		}
		n := lx.knownAt(i, next)
		if n <= 0 {
			return lx.unknownAt(i)
		}
		i += n
	}
	return nil
}

// knownAt returns the length of the space, punctuation mark or known word
// at s[i:] that ends at or before next, where the next quantity starts
// (-1: none follows), or 0.
func (lx *lexer) knownAt(i, next int) int {
	if next < 0 {
		next = len(lx.s)
	} else {
		if n := labelLen(lx.s, i); n > 0 && i+n == next {
			return n
		}
	}
	s := lx.s
	if n := spaceAt(s, i); n > 0 {
		return n
	}
	if s[i] == '\n' || s[i] == '\r' {
		return 1
	}
	best := 0
	for _, p := range punctuation {
		if strings.HasPrefix(s[i:], p) && len(p) > best {
			best = len(p)
		}
	}
	if n := lx.knownWordLen(i); n > best {
		best = n
	}
	if i+best > next {
		return 0
	}
	return best
}

// knownWordsByFirst holds the words knownWordLen looks for (the
// approximation words, comparators, particles, sign words and rate
// prefixes) by their first byte: only those can start at a given byte.
var knownWordsByFirst = func() (t [256][]string) {
	add := func(w string) {
		if w != "" {
			t[w[0]] = append(t[w[0]], w)
		}
	}
	for _, a := range approxWords {
		add(a.word)
	}
	for _, c := range cmpWords {
		add(c.word)
	}
	for _, p := range particles {
		add(p)
	}
	for _, p := range signWords {
		add(p.word)
	}
	for _, p := range unit.RatePrefixes {
		add(p)
	}
	return t
}()

// knownWordLen returns the length of the longest word the grammar knows at
// s[i:]: an approximation word, comparator, particle, connector or rate
// prefix. A Latin word must stand alone (no letter on either side).
func (lx *lexer) knownWordLen(i int) int {
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
	if rest != "" {
		for _, w := range knownWordsByFirst[rest[0]] {
			try(w)
		}
	}
	if w := wordAt(s, i); w != "" && (englishConnectors[strings.ToLower(w)] || rangeSeps[w]) {
		try(w)
	}
	return best
}

// labelLen returns the length of a key= label at s[i:] ("exit=", "t=",
// "time_total="): a name of ASCII letters, digits, "_", "." and "-"
// starting with a letter or "_", then "=". A label is known only right
// before a number (see knownAt): the literal quotes a key=value line.
func labelLen(s string, i int) int {
	if i > 0 && (isASCIILetter(s[i-1]) || isDigitByte(s[i-1])) {
		return 0
	}
	j := i
	for j < len(s) && (isASCIILetter(s[j]) || j > i && (isDigitByte(s[j]) || s[j] == '.' || s[j] == '-')) {
		j++
	}
	if j == i || j >= len(s) || s[j] != '=' {
		return 0
	}
	return j + 1 - i
}

// unknownAt is the error for the unread text at s[i:].
func (lx *lexer) unknownAt(i int) error {
	s := lx.s
	w := wordAt(s, i)
	if r, _ := utf8.DecodeRuneInString(w); scriptOf(r) == latin {
		j := i + len(w)
		for j < len(s) && (isASCIILetter(s[j]) || isDigitByte(s[j])) {
			j++
		}
		w = s[i:j] // a name: MID1, p99
	}
	if w == "" {
		_, n := utf8.DecodeRuneInString(s[i:])
		w = s[i : i+n]
		if unitDigits := digitLen(s, i); unitDigits > 0 {
			w = s[i : i+unitDigits]
		}
	}
	return lx.errorf(i, i+len(w), "%q is not part of a number, unit or word the claim grammar reads; expected a number with its unit, an approximation word (약, 約, about), a comparator (이상, 以上), a particle or connector (중, 中, of, to), a key= label before a number, or punctuation (/ → ~ , ( )); prose belongs outside the link", w)
}
