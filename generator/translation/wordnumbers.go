package translation

import (
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

var one = decimal.NewFromInt(1)

// wordsPair reports whether a and b, numbers written as words left over
// in a block of the source and the same block of a translation, stand
// against each other as two numbers in digits would: 두 차례 and 三回, 세
// 개 and 四つ, 두 번 and 十回 differ. Both must count the same thing: the
// same unit (세 시간 and 三日 are both times), and for counts counters
// of one kind (counterKinds: 차례 and 回 count times, 단계 and か所 do
// not count the same). A word of "one more" (もう一つ, 한 번 더: see
// Number.another) stands against no other word: it adds a thing the other
// language may name without a number (네 단계 and 段がもう一つ増えて).
func wordsPair(a, b Number) bool {
	if !a.word || !b.word || a.another || b.another || a.Unit != b.Unit {
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
