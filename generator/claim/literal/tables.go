package literal

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The words of the claim grammar: magnitudes, approximations, comparators,
// particles, signs, connectors and number words.

// magnitudeWords scale the number before them.
var magnitudeWords = []struct {
	word string
	f    int64
}{{"천", 1e3}, {"千", 1e3}, {"만", 1e4}, {"万", 1e4}, {"萬", 1e4}, {"억", 1e8}, {"億", 1e8}, {"조", 1e12}, {"兆", 1e12}}

// approxWords are the approximation words and their meaning; before
// marks a word written before the number it qualifies (약 40초, 約40秒,
// about 40 s), the others follow it (40초 정도, 40秒前後). The lexer reads
// a word on either side; the side says where the translation checks look
// for it in prose (ApproxWords).
var approxWords = []struct {
	word   string
	a      Approx
	before bool
}{
	{"약", About, true}, {"대략", About, true}, {"대충", About, true}, {"얼추", About, true}, {"정도", About, false}, {"가량", About, false}, {"쯤", About, false},
	{"내외", About, false}, {"안팎", About, false}, {"전후", About, false}, {"남짓", Over, false}, {"거의", Under, true}, {"가까이", Under, false},
	{"約", About, true}, {"およそ", About, true}, {"凡そ", About, true}, {"大体", About, true}, {"だいたい", About, true}, {"概ね", About, true}, {"おおむね", About, true},
	{"ほど", About, false}, {"程度", About, false}, {"前後", About, false}, {"くらい", About, false}, {"ぐらい", About, false}, {"位", About, false}, {"ほぼ", About, true},
	{"近く", Under, false}, {"弱", Under, false}, {"足らず", Under, false}, {"強", Over, false}, {"余り", Over, false}, {"あまり", Over, false},
	{"≈", About, true}, {"≒", About, true}, {"about", About, true}, {"approximately", About, true}, {"approx.", About, true}, {"around", About, true}, {"roughly", About, true},
	{"nearly", Under, true}, {"almost", Under, true},
}

// cmpWords are the comparators.
var cmpWords = []struct{ word, cmp string }{
	{"이상", ">="}, {"以上", ">="}, {"≥", ">="}, {">=", ">="}, {"최소", ">="}, {"最小", ">="}, {"at least", ">="},
	{"이하", "<="}, {"以下", "<="}, {"≤", "<="}, {"<=", "<="}, {"이내", "<="}, {"以内", "<="}, {"최대", "<="}, {"最大", "<="}, {"at most", "<="},
	{"미만", "<"}, {"未満", "<"}, {"<", "<"}, {"초과", ">"}, {"超", ">"}, {">", ">"},
}

// particles may follow a number or its unit (Korean and Japanese
// particles and connectors); any other Hangul, kana or Han word glued to a
// number is an unknown unit and an error.
var particles = []string{
	"이", "가", "은", "는", "을", "를", "의", "로", "으로", "에", "에서", "와", "과", "도", "만", "까지", "부터", "씩", "보다", "간", "동안", "중", "째", "이다", "입니다",
	"の", "が", "は", "を", "に", "で", "と", "も", "へ", "から", "まで", "より", "ずつ", "や", "か", "中", "間", "目", "です", "だ",
}

// signWords after a number give it the sign of a change: [12% 감소] is
// a decrease of 12 %, read as −12 % and judged as a difference, as
// [−12%] would be; [12% 증가] is +12 %.
var signWords = []struct {
	word string
	neg  bool
}{
	{"감소", true}, {"하락", true}, {"증가", false}, {"상승", false},
	{"減少", true}, {"低下", true}, {"下落", true}, {"増加", false}, {"上昇", false},
	{"decrease", true}, {"increase", false},
}

// englishConnectors may stand between numbers ("86 of 86", "5 to 10").
var englishConnectors = map[string]bool{"of": true, "to": true, "from": true, "and": true, "or": true, "out": true, "vs": true, "than": true, "in": true, "at": true, "per": true}

// rangeSeps join the two ends of a range.
var rangeSeps = map[string]bool{"~": true, "〜": true, "～": true, "∼": true, "-": true, "－": true, "–": true, "to": true}

// Number words: one to ten, read as exact counts.
var (
	koDeterminers = map[string]int64{"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "스무": 20}
	koNumerals    = map[string]int64{"하나": 1, "둘": 2, "셋": 3, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10}
	jaKana        = map[string]int64{"ひとつ": 1, "ふたつ": 2, "みっつ": 3, "よっつ": 4, "いつつ": 5, "むっつ": 6, "ななつ": 7, "やっつ": 8, "ここのつ": 9, "とお": 10, "ひとり": 1, "ふたり": 2}
	enWords       = map[string]int64{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "once": 1, "twice": 2}
	kanjiDigits   = map[rune]int64{'〇': 0, '零': 0, '一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	kanjiSmall    = map[rune]int64{'十': 10, '百': 100, '千': 1000}
	kanjiLarge    = map[rune]int64{'万': 1e4, '萬': 1e4, '億': 1e8, '兆': 1e12}

	// The words of koDeterminers, koNumerals and jaKana as lists, tried in
	// turn at each word of a page (a map range costs more than the
	// comparisons). No word of a list is a prefix of another, so at most
	// one matches and the order does not matter.
	koDeterminerList = wordList(koDeterminers)
	koNumeralList    = wordList(koNumerals)
	jaKanaList       = wordList(jaKana)

	// The runes a number word of each script starts with: a word
	// starting with another rune is none, without comparing the words.
	koWordFirst = firstRunes(koDeterminerList, koNumeralList)
	jaWordFirst = firstRunes(jaKanaList)
	enWordFirst = func() map[rune]bool {
		m := map[rune]bool{}
		for w := range enWords {
			m[rune(w[0])] = true
		}
		return m
	}()
)

// firstRunes returns the set of the first runes of the words of lists.
func firstRunes(lists ...[]numberWord) map[rune]bool {
	m := map[rune]bool{}
	for _, l := range lists {
		for _, w := range l {
			r, _ := utf8.DecodeRuneInString(w.word)
			m[r] = true
		}
	}
	return m
}

// numberWord is a number word and its value.
type numberWord struct {
	word  string
	value int64
}

// wordList returns the words of m with their values, sorted.
func wordList(m map[string]int64) []numberWord {
	l := make([]numberWord, 0, len(m))
	for w, v := range m {
		l = append(l, numberWord{w, v})
	}
	slices.SortFunc(l, func(a, b numberWord) int { return strings.Compare(a.word, b.word) })
	return l
}

// startsWithWord reports whether s starts with a word of one of lists.
func startsWithWord(s string, lists ...[]numberWord) bool {
	for _, l := range lists {
		for _, w := range l {
			if strings.HasPrefix(s, w.word) {
				return true
			}
		}
	}
	return false
}

// NumberWords lists the number words a literal may hold, for
// documentation: Korean, Japanese and English, one to ten.
func NumberWords() map[string]int64 {
	out := map[string]int64{}
	for _, m := range []map[string]int64{koDeterminers, koNumerals, jaKana, enWords} {
		for w, v := range m {
			out[w] = v
		}
	}
	for r, v := range kanjiDigits {
		out[string(r)] = v
	}
	out["十"] = 10
	return out
}
