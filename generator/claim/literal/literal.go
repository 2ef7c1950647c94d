package literal

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The claim literal grammar, read by a hand-written lexer in one pass
// (no backtracking). See README "Claims: how a quoted number is written".

// lexer reads one literal: s is the text, out the result so far, prevEnd
// the end of the last quantity read (a "-" right after it is a range
// dash, not a sign).
type lexer struct {
	s       string
	out     Literal
	prevEnd int
	// q is where quantityAt builds the quantity it returns, valid until
	// its next call: run copies it into out, so quantities are not
	// allocated one by one.
	q Quantity
}

// ParseLiteral reads the numbers of a claim literal. Full-width digits and
// signs are read as their ASCII forms. A literal without any number is an
// error. Offsets in the result refer to the literal as given.
func ParseLiteral(lit string) (Literal, error) {
	var qs []Quantity
	if n := DigitRuns(lit); n > 0 {
		// room for the quantities, once: a Quantity is 250 bytes
		qs = make([]Quantity, 0, n)
	}
	return parseLiteral(lit, qs, true, true)
}

// ParseInto is ParseLiteral for the literals of a page, which share one
// buffer of quantities: it appends the quantities to qs (empty, with room
// for DigitRuns(lit) of them) and cuts its capacity to its length. With
// strict, every byte of the literal must be read (see account); an
// exemption marker's text is not a measurement and is read without it.
func ParseInto(lit string, qs []Quantity, strict bool) (Literal, error) {
	return parseLiteral(lit, qs, false, strict)
}

// parseLiteral is ParseLiteral, appending the quantities to qs (empty,
// with room for DigitRuns(lit) of them). With exact, a slice with room
// to spare is copied to one of its length; without, its capacity is cut
// to its length (qs is part of a page's buffer: see parse).
//
// With strict, every byte of the literal must be read (see account); an
// exemption marker's text is not a measurement and is read without it.
func parseLiteral(lit string, qs []Quantity, exact, strict bool) (Literal, error) {
	lx := &lexer{s: lit}
	lx.out.Quantities = qs
	err := lx.run()
	switch qs := lx.out.Quantities; {
	case len(qs) == 0:
		lx.out.Quantities = nil // as append leaves a literal without any
	case cap(qs) > len(qs) && exact:
		lx.out.Quantities = append(make([]Quantity, 0, len(qs)), qs...) // claims keep them
	case cap(qs) > len(qs):
		lx.out.Quantities = qs[:len(qs):len(qs)]
	}
	if err != nil {
		return lx.out, err
	}
	if err := lx.finish(); err != nil || !strict {
		return lx.out, err
	}
	return lx.out, lx.account()
}

// DigitRuns counts the runs of digits in s (ASCII or full-width), a run
// going on across "," and "." between digits: the count of quantities a
// literal of digits holds ("1,234.5" is one, "86/86" two), which run
// appends to a slice of that size.
func DigitRuns(s string) int {
	n := 0
	in := false
	for i := 0; i < len(s); {
		if w := digitWidth(s, i); w > 0 {
			if !in {
				n++
				in = true
			}
			i += w
			continue
		}
		if in && (s[i] == ',' || s[i] == '.') && digitWidth(s, i+1) > 0 {
			i++
			continue
		}
		in = false
		i++
	}
	return n
}

// digitWidth returns the length of the digit at s[i:]: 1 for an ASCII
// digit, 3 for a full-width one (U+FF10 … U+FF19), 0 for none.
func digitWidth(s string, i int) int {
	switch {
	case i >= len(s):
		return 0
	case s[i] >= '0' && s[i] <= '9':
		return 1
	case s[i] == 0xEF && i+2 < len(s) && s[i+1] == 0xBC && s[i+2] >= 0x90 && s[i+2] <= 0x99:
		return 3
	}
	return 0
}

// LiteralError is a claim literal the grammar cannot read: the bytes
// [Offset, End) of Literal are what it could not read (a whole literal for
// an error of its shape, such as a reversed range), and Msg says what was
// there and what was expected.
type LiteralError struct {
	Literal     string
	Offset, End int
	Msg         string
}

func (e *LiteralError) Error() string { return fmt.Sprintf("claim literal %q: %s", e.Literal, e.Msg) }

// errorf returns a LiteralError about the bytes [at, end) of the literal
// (end ≤ at: to the end of the rune at at).
func (lx *lexer) errorf(at, end int, format string, args ...any) error {
	if at >= len(lx.s) {
		_, n := utf8.DecodeLastRuneInString(lx.s)
		at = len(lx.s) - n // past the end: the last character
	}
	at = max(0, at)
	if end <= at {
		_, n := utf8.DecodeRuneInString(lx.s[at:])
		end = at + max(n, 0)
	}
	for at > 0 && !utf8.RuneStart(lx.s[at]) {
		at--
	}
	end = min(end, len(lx.s))
	for end < len(lx.s) && !utf8.RuneStart(lx.s[end]) {
		end++ // never split a character
	}
	return &LiteralError{Literal: lx.s, Offset: at, End: end, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) run() error {
	s := lx.s
	for i := 0; i < len(s); {
		var q *Quantity
		var n int
		var err error
		if s[i] == 'P' {
			q, err = lx.isoDurationAt(i)
		}
		if q == nil && err == nil {
			q, n, err = lx.quantityAt(i)
		}
		if err != nil {
			return err
		}
		if n > 0 && q == nil { // digits of a name
			i += n
			continue
		}
		if q != nil {
			lx.out.Quantities = append(lx.out.Quantities, *q)
			lx.prevEnd = q.End
			i = q.End
			if err := lx.after(q); err != nil {
				return err
			}
			continue
		}
		_, sz := utf8.DecodeRuneInString(s[i:])
		i += sz
	}
	return nil
}

// arrows blanks the arrows "->" and "=>" so that their ">" is not read
// as a comparator.
var arrows = strings.NewReplacer("->", "  ", "=>", "  ")

// finish classifies the literal from the text between its numbers and
// reads its approximation words and comparator.
func (lx *lexer) finish() error {
	s, qs := lx.s, lx.out.Quantities
	if len(qs) == 0 {
		return &LiteralError{Literal: s, End: len(s), Msg: "no number; expected digits such as 86/86, 44%, +1, 40초"}
	}
	// Text outside the quantities.
	var buf [4]string // most literals have one or two numbers: segs stays on the stack
	var atBuf [4]int
	segs, segAt := buf[:0], atBuf[:0]
	prev := 0
	for _, q := range qs {
		segs, segAt = append(segs, s[prev:q.Start]), append(segAt, prev)
		prev = q.End
	}
	segs, segAt = append(segs, s[prev:]), append(segAt, prev)
	for si, seg := range segs {
		if strings.IndexByte(seg, '&') < 0 {
			continue // every reference charRefRe matches starts with "&"
		}
		if m := charRefRe.FindStringIndex(seg); m != nil {
			at := segAt[si] + m[0]
			return lx.errorf(at, at+m[1]-m[0], "%s is not a character reference HTML defines, so the text shows it as written; expected the character itself (%%, a space) or a defined reference (&percnt;, &nbsp;)", seg[m[0]:m[1]])
		}
	}
	if t := strings.TrimLeftFunc(segs[0], isSpace); strings.HasPrefix(t, "~") || strings.HasPrefix(t, "〜") || strings.HasPrefix(t, "～") {
		lx.setApprox(About, "~")
	}
	cmps := 0
	for _, seg := range segs {
		if strings.Contains(seg, "->") || strings.Contains(seg, "=>") {
			seg = arrows.Replace(seg)
		}
		for k := 0; k < len(seg); {
			matched := 0
			for _, a := range approxWords {
				if strings.HasPrefix(seg[k:], a.word) && lx.wordBoundary(seg, k, a.word) {
					lx.setApprox(a.a, a.word)
					matched = len(a.word)
					break
				}
			}
			if matched == 0 {
				for _, c := range cmpWords {
					if strings.HasPrefix(seg[k:], c.word) {
						cmps++
						if cmps > 1 {
							return &LiteralError{Literal: s, End: len(s), Msg: fmt.Sprintf("%d comparators; expected one comparator for one number", cmps)}
						}
						lx.out.Cmp = c.cmp
						matched = len(c.word)
						break
					}
				}
			}
			if matched == 0 {
				_, matched = utf8.DecodeRuneInString(seg[k:])
			}
			k += matched
		}
	}
	lx.out.Kind = Single
	if len(qs) > 1 {
		lx.out.Kind = List
		for gi, g := range segs[1 : len(segs)-1] {
			t := strings.TrimSpace(g)
			var k Kind
			switch {
			case rangeSeps[t]:
				k = Range
			case strings.Contains(t, "→") || strings.Contains(t, "->") || strings.Contains(t, "⇒") || strings.HasPrefix(t, "에서") || strings.HasPrefix(t, "から"):
				k = Transition
			case strings.HasPrefix(t, "/") || strings.HasPrefix(t, "／") || strings.Contains(t, "중") || strings.Contains(t, "中") || t == "of" || t == "out of":
				k = Fraction
			}
			if k == Range {
				lx.out.Kind, lx.out.Range = Range, true
				break
			}
			if gi == 0 && k != "" {
				lx.out.Kind = k
			}
		}
	}
	switch {
	case lx.out.Range && len(qs) != 2:
		return &LiteralError{Literal: s, End: len(s), Msg: fmt.Sprintf("a range has two ends; found %d numbers", len(qs))}
	case lx.out.Range && qs[0].Unit == qs[1].Unit && qs[0].Value.GreaterThan(qs[1].Value):
		return &LiteralError{Literal: s, End: len(s), Msg: "the range is reversed; expected the smaller end first"}
	case lx.out.Cmp != "" && len(qs) != 1:
		return &LiteralError{Literal: s, End: len(s), Msg: fmt.Sprintf("a comparator applies to one number; found %d", len(qs))}
	}
	if lx.out.Range && qs[0].Unit == "" && qs[1].Unit != "" {
		// "10〜20ms": the unit of the upper end applies to both.
		lx.out.Quantities[0].Unit = qs[1].Unit
	}
	return nil
}

// wordBoundary reports whether word at seg[k:] stands as a word: a
// one-syllable Hangul word (약) must not be glued to Hangul before it, an
// English word must not touch letters.
func (lx *lexer) wordBoundary(seg string, k int, word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	switch scriptOf(r) {
	case latin:
		if k > 0 && scriptOf(runeBefore(seg, k)) == latin {
			return false
		}
		e := k + len(word)
		return e >= len(seg) || scriptOf(rune(seg[e])) != latin
	case hangul:
		if word == "약" || word == "거의" || word == "대략" {
			return k == 0 || scriptOf(runeBefore(seg, k)) != hangul
		}
	}
	return true
}

// digitLen is the length of the run of digits at s[i:].
func digitLen(s string, i int) int {
	j := i
	for w := digitWidth(s, j); w > 0; w = digitWidth(s, j) {
		j += w
	}
	return j - i
}
