package literal

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
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
		if sc != other && mayStartWordNumber(r) {
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

// wordFirstBits holds, for each rune of the Basic Multilingual Plane,
// whether wordNumberAt may read a number word starting with it
// (wordFirst): a rune that starts none is passed over by WordNumbers
// without a call.
var wordFirstBits = func() (b [1 << 16 / 64]uint64) {
	for r := rune(0); r < 1<<16; r++ {
		if wordFirst(r) {
			b[r>>6] |= 1 << (r & 63)
		}
	}
	return b
}()

// mayStartWordNumber is wordFirst(r), read from wordFirstBits.
func mayStartWordNumber(r rune) bool {
	if r < 1<<16 {
		return wordFirstBits[r>>6]&(1<<(r&63)) != 0
	}
	return wordFirst(r)
}

// wordFirst reports whether r passes the tests wordNumberAt makes of
// its first rune before any other (koWordFirst, jaWordFirst,
// enWordFirst, kanjiDigits and kanjiSmall but 千; a script without a
// case starts no word): when it does not, wordNumberAt reads no number
// word at r.
func wordFirst(r rune) bool {
	switch scriptOf(r) {
	case hangul:
		return koWordFirst[r]
	case hiragana:
		return jaWordFirst[r]
	case latin:
		return enWordFirst[unicode.ToLower(r)]
	case han:
		if _, ok := kanjiDigits[r]; ok {
			return true
		}
		_, ok := kanjiSmall[r]
		return ok && r != '千'
	}
	return false
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

// wordNumberAt reads a number written as a word at s[i:]: 한/두/세 번,
// 하나…열, 一…十 (and kanji numerals such as 五千), ひとつ…とお, one…ten.
func (lx *lexer) wordNumberAt(i int) (*Quantity, int, error) {
	s := lx.s
	r, _ := utf8.DecodeRuneInString(s[i:])
	sc := scriptOf(r)
	var prevSc script = other
	if i > 0 {
		prevSc = scriptOf(runeBefore(s, i))
	}
	mk := func(end int, v int64) (*Quantity, int, error) {
		q := &Quantity{Start: i, NumStart: i, NumEnd: end, Value: decimal.NewFromInt(v), Magnitude: one, Word: true}
		return q, 0, lx.unitAfter(q, end)
	}
	// bare is a number word that takes no unit: a Korean numeral
	// (하나, 둘 …), which stands alone where a determiner (한, 두 …)
	// takes a counter, so that 하나 주의 is not one week.
	bare := func(end int, v int64) (*Quantity, int, error) {
		q := &Quantity{Start: i, NumStart: i, NumEnd: end, Value: decimal.NewFromInt(v), Magnitude: one, Word: true}
		return q, 0, lx.qualifiers(q, end)
	}
	switch sc {
	case hangul:
		if prevSc == hangul || !koWordFirst[r] || !startsWithWord(s[i:], koDeterminerList, koNumeralList) {
			return nil, 0, nil
		}
		w := wordAt(s, i)
		// Determiners need a counter after them that Korean writes after
		// a native number (두 번, 세 개, 두 시간, 한 달), a word of its own
		// or followed by a particle: 한 번역 (the translation one did), 한
		// 일 (what one did), 세 분 (three persons), 열 초과 (over ten) are
		// no counts of a unit.
		for _, dv := range koDeterminerList {
			d, v := dv.word, dv.value
			if !strings.HasPrefix(w, d) {
				continue
			}
			end := i + len(d)
			k := skipSpaces(s, end)
			if !oneSpaceAtMost(s, end, k) || (len(w) > len(d) && k != end) {
				continue
			}
			if uw, u := unit.Prefix(s[k:]); uw != "" && nativeCounter(uw, u) && (len(w) == len(d) || strings.HasPrefix(w[len(d):], uw)) {
				if !lx.knownWordOrEnd(k + len(uw)) {
					continue // 한 번역, 두 개발
				}
				return mk(end, v)
			}
		}
		if v, ok := koNumerals[w]; ok {
			return bare(i+len(w), v)
		}
		for _, nv := range koNumeralList { // 하나가, 둘이
			if strings.HasPrefix(w, nv.word) && lx.knownWordOrEnd(i+len(nv.word)) {
				return bare(i+len(nv.word), nv.value)
			}
		}
	case hiragana:
		if prevSc == hiragana || !jaWordFirst[r] {
			return nil, 0, nil
		}
		for _, nv := range jaKanaList {
			if strings.HasPrefix(s[i:], nv.word) {
				// とお has no counter (つ, り) of its own to end it: inside
				// a longer word it is none (とおり "as", とおく "far");
				// ふたつある is two.
				if end := i + len(nv.word); !strings.HasSuffix(nv.word, "つ") && !strings.HasSuffix(nv.word, "り") && !lx.knownWordOrEndIn(end, hiragana) {
					return nil, 0, nil
				}
				q, _, err := mk(i+len(nv.word), nv.value)
				if q != nil && q.Unit == "" {
					q.Unit = "count"
				}
				return q, 0, err
			}
		}
	case latin:
		if prevSc == latin || i > 0 && (s[i-1] == '-' || s[i-1] == '_') {
			return nil, 0, nil // exactly-once, run_two: part of a name
		}
		if !enWordFirst[unicode.ToLower(r)] {
			return nil, 0, nil
		}
		w := strings.ToLower(wordAt(s, i))
		if w == "once" && !onceIsCount(s[i+len(w):]) {
			return nil, 0, nil // once the pod restarts: a conjunction
		}
		if v, ok := enWords[w]; ok {
			q, _, err := mk(i+len(w), v)
			if q != nil && (w == "once" || w == "twice") {
				q.Unit = "count"
			}
			return q, 0, err
		}
	case han:
		if _, ok := kanjiDigits[r]; !ok {
			if _, ok := kanjiSmall[r]; !ok || r == '千' {
				return nil, 0, nil
			}
		}
		if prevSc == han && !lx.hanPrefixEndsAt(i) {
			return nil, 0, nil
		}
		v, end, ok := kanjiNumeral(s, i)
		if !ok {
			return nil, 0, nil
		}
		if end < len(s) {
			next, _ := utf8.DecodeRuneInString(s[end:])
			uw, _ := unit.Prefix(s[end:])
			if scriptOf(next) == han && uw == "" && !lx.knownWord(end) || uw == "番" {
				return nil, 0, nil // 一部, 一方, 一番 (most): a word, not a number
			}
		}
		// A counter may run on into a word (二回実行した, 三件発生): a
		// count still.
		return mk(end, v)
	}
	return nil, 0, nil
}

// knownWordOrEnd reports whether a Korean word may end at s[k:]: the
// text ends, or what follows is no Hangul, or a particle or other word
// the grammar knows.
func (lx *lexer) knownWordOrEnd(k int) bool { return lx.knownWordOrEndIn(k, hangul) }

// knownWordOrEndIn is knownWordOrEnd for a word of script sc.
func (lx *lexer) knownWordOrEndIn(k int, sc script) bool {
	if k >= len(lx.s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(lx.s[k:])
	return scriptOf(r) != sc || lx.knownWord(k)
}

// sinoOnly are the Korean unit words a native number word (한, 두, 세 …)
// does not take: Korean counts seconds, minutes, days, years and
// numbered things in Sino-Korean numbers (삼 초, 3일), so after 세 the
// word 분 counts persons (세 분) and 한 일 is "what one did".
var sinoOnly = []string{"초", "분", "일", "년", "회", "호", "원", "밀리초", "마이크로초", "나노초"}

// nativeCounter reports whether the unit word uw (unit u) counts after a
// Korean native number word: a counter or a time or calendar unit, not
// one of sinoOnly.
func nativeCounter(uw string, u unit.Unit) bool {
	return (u.Dim == unit.Count || u.Dim == unit.Time || u.Dim == unit.Calendar) && !slices.Contains(sinoOnly, uw)
}

// onceIsCount reports whether "once" followed by rest is a count (once,
// once a day, once more) rather than the conjunction of "once the pod
// restarts": nothing follows but punctuation, or a word that goes with
// the count.
func onceIsCount(rest string) bool {
	t := strings.TrimLeft(rest, " ")
	if t == "" || scriptOf(rune(t[0])) != latin {
		return true
	}
	w := strings.ToLower(wordAt(t, 0))
	switch w {
	case "a", "an", "per", "every", "each", "more", "again", "or", "and", "only", "in", "to", "of", "than":
		return true
	}
	return false
}

// hanPrefixEndsAt reports whether a Han word that may precede a number
// (約, 毎秒, 秒間, 最大, 中) ends at s[:i].
func (lx *lexer) hanPrefixEndsAt(i int) bool {
	for _, w := range []string{"約", "毎秒", "每秒", "秒間", "最大", "最小", "中"} {
		if strings.HasSuffix(lx.s[:i], w) {
			return true
		}
	}
	return false
}

// kanjiNumeral reads a kanji numeral (五, 十二, 五千, 三万二千) at s[i:].
func kanjiNumeral(s string, i int) (int64, int, bool) {
	var total, section, cur int64
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if d, ok := kanjiDigits[r]; ok {
			cur = cur*10 + d
		} else if f, ok := kanjiSmall[r]; ok {
			if cur == 0 {
				cur = 1
			}
			section += cur * f
			cur = 0
		} else if f, ok := kanjiLarge[r]; ok && (section > 0 || cur > 0) {
			total += (section + cur) * f
			section, cur = 0, 0
		} else {
			break
		}
		j += n
	}
	if j == i {
		return 0, i, false
	}
	return total + section + cur, j, true
}

// one is the magnitude of a number without magnitude word. Decimals are
// immutable: every quantity can share it.
var one = decimal.NewFromInt(1)
