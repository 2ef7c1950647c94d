package numscan

import (
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/shopspring/decimal"
)

// Verdict is how two numbers written in different languages compare.
type Verdict int

// Verdicts of Compare.
const (
	Agree    Verdict = iota // same value, unit and comparator
	Warn                    // same value, but approximate in one language only
	Disagree                // another value, unit, comparator or kind
)

func (v Verdict) String() string {
	return [...]string{"agree", "warn", "disagree"}[v]
}

// Compare compares number a (source) with b (translation): values in
// base units, units ("" and counting words agree; so does a unit written
// on one side only), signs (+1 and 1 disagree: a difference is not a
// level), comparators and approximation words: exact against
// approximate, or a little over (남짓, 余り) against a little under (거의,
// 近く), is a warning.
func Compare(a, b Number) Verdict {
	if a.Key != b.Key {
		// a unit written in one language only ([t=0] and [0秒]) is not
		// a disagreement when the values are equal
		if a.Kind != "number" || b.Kind != "number" || !unitsAgree(a.Unit, b.Unit) || a.Cmp != b.Cmp || !signsAgree(a, b) || a.Spread != b.Spread || !valuesAgree(a, b) {
			return Disagree
		}
	}
	if !ApproxAgree(a.Approx, b.Approx) {
		return Warn
	}
	return Agree
}

// valuesAgree reports whether two numbers' values agree: equal, or,
// for two claims' numbers read at their written precision (Number.span),
// standing for a run of values in common, so that one evidence value
// can make both right (1만 3천 for 12,500 up to 13,500, and 1万3042; the
// judge still checks each against the evidence). Spans that meet at one
// end only are numbers next to each other at one precision (40 and 41,
// 14시 and 15:00), which no evidence value rounds to both: they disagree,
// as do spans apart (1만 3천 and 1万4000).
func valuesAgree(a, b Number) bool {
	if a.Value.Equal(b.Value) {
		return true
	}
	if !a.span || !b.span {
		return false
	}
	aBelow, aAbove := a.spanOf()
	bBelow, bAbove := b.spanOf()
	lo := decimal.Max(a.Value.Sub(aBelow), b.Value.Sub(bBelow))
	hi := decimal.Min(a.Value.Add(aAbove), b.Value.Add(bAbove))
	return lo.LessThan(hi)
}

// unitsAgree reports whether two numbers' units agree: the same, or a
// unit of measure (s, B …) written on one side only ([t=0] and [0秒], 40
// and 40秒). A rate, a percentage or a multiple written on one side only
// changes what the number says (초당 1,250건 and 1,250件).
func unitsAgree(a, b string) bool {
	if a == b {
		return true
	}
	if a != "" && b != "" {
		return false
	}
	switch a + b {
	case "/s", "%", "%p", "x":
		return false
	}
	return true
}

// pointWords after a time make it a point after a start, as a + before
// it does on a timeline (see Number.point); pointSentenceWords earlier in
// its sentence do too (各列の時点は、MID1が12秒).
var (
	pointWords         = []string{"후", "뒤", "시점", "경과", "後", "時点", "の時点", "経過", "after", "later"}
	pointSentenceWords = []string{"시점", "時点", "타임라인", "タイムライン", "timeline"}
	// sentenceEnds end a sentence (a "." inside a name, curl.strict.mid1,
	// does not)
	sentenceEnds = []string{"。", "．", "！", "？", ". ", "! ", "? ", "\n"}
	// sentenceEndLast[c] is set for the last byte of each sentence end
	sentenceEndLast = func() (t [256]bool) {
		for _, end := range sentenceEnds {
			t[end[len(end)-1]] = true
		}
		return t
	}()
)

// pointAt reports whether a time with before in front of it (the text
// of its block, or of the page up to its claim) and after behind it
// (lower case, from the end of its unit) is a point after a start: a
// point word follows it, or one stands earlier in its sentence.
func pointAt(before, after string) bool {
	for _, w := range pointWords {
		if strings.HasPrefix(after, w) {
			return true
		}
	}
	before = sentenceTail(before[max(0, len(before)-400):])
	for _, w := range pointSentenceWords {
		if strings.Contains(before, w) {
			return true
		}
	}
	return false
}

// sentenceTail returns what follows the last sentence end (sentenceEnds)
// in s, or s when it has none: one scan back from the end of s, which
// stops at the sentence's start.
func sentenceTail(s string) string {
	for i := len(s); i > 0; i-- {
		if !sentenceEndLast[s[i-1]] {
			continue
		}
		for _, end := range sentenceEnds {
			if s[i-1] == end[len(end)-1] && strings.HasSuffix(s[:i], end) {
				return s[i:]
			}
		}
	}
	return s
}

// signsAgree reports whether two numbers of equal value say the same
// with their signs: the same sign, or a time written with + on one side
// and as a point after a start on the other (+12s on a timeline, which
// the other language writes 12秒の時点 or 12초 후). A sign written on one
// side only is otherwise lost: +5ms and 5ms disagree.
func signsAgree(a, b Number) bool {
	switch {
	case a.Sign == b.Sign:
		return true
	case a.Sign == "+" && b.Sign == "":
		return b.point && a.Unit == "s"
	case b.Sign == "+" && a.Sign == "":
		return a.point && b.Unit == "s"
	}
	return false
}

// ApproxAgree reports whether two approximation words say the same:
// both exact, or both approximate and not one over, the other under.
func ApproxAgree(a, b literal.Approx) bool {
	if (a == literal.Exact) != (b == literal.Exact) {
		return false
	}
	return !(a == literal.Over && b == literal.Under || a == literal.Under && b == literal.Over)
}

// CompareText compares the numbers of two texts pairwise (see Compare);
// a different count of numbers disagrees.
func CompareText(a, b string) Verdict {
	na, nb := ScanNumbers(a), ScanNumbers(b)
	if len(na) != len(nb) || len(na) == 0 {
		return Disagree
	}
	worst := Agree
	for i := range na {
		worst = max(worst, Compare(na[i], nb[i]))
	}
	return worst
}
