package numscan

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

var one = decimal.NewFromInt(1)

// WordsPair reports whether a and b, numbers written as words left over
// in a block of the source and the same block of a translation, stand
// against each other as two numbers in digits would: 두 차례 and 三回, 세
// 개 and 四つ, 두 번 and 十回 differ. Both must count the same thing: the
// same unit (세 시간 and 三日 are both times), and for counts counters
// of one kind (counterKinds: 차례 and 回 count times, 단계 and か所 do
// not count the same). A word of "one more" (もう一つ, 한 번 더: see
// Number.another) stands against no other word: it adds a thing the other
// language may name without a number (네 단계 and 段がもう一つ増えて).
func WordsPair(a, b Number) bool {
	if !a.Word || !b.Word || a.another || b.another || a.Unit != b.Unit {
		return false
	}
	if a.Unit != "" {
		return true
	}
	ka, kb := counterKind(a.Text), counterKind(b.Text)
	return ka != "" && ka == kb
}

// counterKinds maps the counters of unit.Counters to what they count, so
// that a Korean counter meets its Japanese ones.
var counterKinds = map[string]string{
	"회": "times", "번": "times", "차례": "times", "回": "times", "度": "times", "times": "times",
	"개": "thing", "가지": "thing", "つ": "thing", "個": "thing", "種類": "thing",
	"건": "case", "件": "case",
	"명": "person", "人": "person", "名": "person",
	"대": "machine", "台": "machine",
	"곳": "place", "개소": "place", "箇所": "place", "か所": "place", "ヶ所": "place",
	"단계": "step", "段階": "step",
	"줄": "line", "行": "line",
	"장": "sheet", "枚": "sheet",
	"호": "number", "号": "number", "番": "number",
	"원": "yen", "円": "yen",
}

// counterKind returns the kind of the counter text (a number word with
// its counter: 두 차례, 三回) ends with, or "" for none known.
func counterKind(text string) string {
	best := ""
	for c := range counterKinds {
		if len(c) > len(best) && strings.HasSuffix(text, c) {
			best = c
		}
	}
	return counterKinds[best]
}

// oneMore reports whether the number word norm[start:end], of value one,
// says "one more": もう before it, or 더 after it (a space between).
func oneMore(norm string, start, end int) bool {
	before := strings.TrimRight(norm[:start], " ")
	if strings.HasSuffix(before, "もう") {
		return true
	}
	after := strings.TrimLeft(norm[end:], " ")
	if !strings.HasPrefix(after, "더") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(after[len("더"):])
	return r < 0xAC00 || r > 0xD7A3 // 더 alone, not 더블 …
}

// addWordNumbers adds to out, the numbers ScanNumbers read in order, the
// numbers norm (text normalized; at maps its offsets to text's) writes
// as words where the claim grammar reads them with a counter, a rate or
// (in Hangul or kana) a time or calendar unit: 두 번, 세 시간, 二回, 三つ,
// ふたつ. A Han numeral before a time unit is not one (十分 is "enough"
// more often than ten minutes), nor a Korean numeral that stands alone
// (하나 주의할 점 is not one week); a determiner is (두 시간).
func addWordNumbers(out []Number, text, norm string, at func(int) int) []Number {
	if !hasWordNumberStart(norm) {
		return out
	}
	ws := append(literal.WordNumbers(norm, len(norm)), dayWords(norm)...)
	if len(ws) == 0 {
		return out
	}
	slices.SortStableFunc(ws, func(a, b literal.WordNumber) int { return a.Start - b.Start })
	var all []Number
	k := 0
	for _, w := range ws {
		first, _ := utf8.DecodeRuneInString(norm[w.Start:])
		switch {
		case w.Unit == "count" || w.Unit == "/s":
		case first >= 0x4E00 && first <= 0x9FFF:
			continue
		case first >= 0xAC00 && first <= 0xD7A3 && !w.Determiner:
			continue // 하나 주의할 점: not one week
		default:
			u, ok := unit.Canonical(w.Unit)
			if !ok || u.Dim != unit.Time && u.Dim != unit.Calendar {
				continue
			}
		}
		for k < len(out) && out[k].Start < at(w.Start) {
			all = append(all, out[k])
			k++
		}
		if k < len(out) && out[k].Start < at(w.End) {
			continue // digits inside the words: read as digits
		}
		bu := parityUnits[w.Unit]
		n := Number{Kind: "number", Value: mul(w.Value, bu.factor), Unit: bu.name, Word: true}
		qualify(&n, norm, w.Start, w.End)
		n.another = w.Value.Equal(one) && oneMore(norm, w.Start, w.End)
		n.Start, n.End = at(w.Start), at(w.End)
		n.Text = text[n.Start:n.End]
		all = append(all, n)
	}
	return append(all, out[k:]...)
}

// koreanDays are the native Korean words for a count of days (하루 is
// one day, 이틀 two), which Japanese writes 1日, 2日間.
var koreanDays = []string{"하루", "이틀", "사흘", "나흘"}

// dayWords returns the Korean day words of norm (하루, 이틀 …) at word
// starts, as numbers of days.
func dayWords(norm string) []literal.WordNumber {
	var out []literal.WordNumber
	for i, w := range koreanDays {
		for off := 0; ; {
			k := strings.Index(norm[off:], w)
			if k < 0 {
				break
			}
			at := off + k
			off = at + len(w)
			if prev, _ := utf8.DecodeLastRuneInString(norm[:at]); at > 0 && prev >= 0xAC00 && prev <= 0xD7A3 {
				continue // 그하루 …: inside a word
			}
			q := literal.Quantity{Value: decimal.NewFromInt(int64(i + 1)), Unit: "d", Start: at, End: at + len(w), NumStart: at, NumEnd: at + len(w)}
			out = append(out, literal.WordNumber{Quantity: q, Determiner: true})
		}
	}
	return out
}

// hasWordNumberStart reports whether s holds a byte that can start a
// number word: a multi-byte rune (Hangul, kana, Han) or an English
// letter of once, twice or a number name.
func hasWordNumberStart(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == 'o' || c == 't' || c == 'f' || c == 's' || c == 'e' || c == 'n' || c == 'O' || c == 'T' || c == 'F' || c == 'S' || c == 'E' || c == 'N' {
			return true
		}
	}
	return false
}
