package literal

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// The claim literal grammar, read by a hand-written lexer in one pass
// (no backtracking). See README "Claims: how a quoted number is written".

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

type script int

const (
	other script = iota
	latin
	hangul
	han
	hiragana
	katakana
)

func scriptOf(r rune) script {
	switch {
	case r < utf8.RuneSelf:
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return latin
		}
		return other
	case r >= 0xAC00 && r <= 0xD7A3: // Hangul syllables, the common case
		return hangul
	case r >= 0x4E00 && r <= 0x9FFF: // CJK unified ideographs
		return han
	case unicode.Is(unicode.Hangul, r):
		return hangul
	case unicode.Is(unicode.Han, r) || r == '々':
		return han
	case unicode.Is(unicode.Hiragana, r):
		return hiragana
	case unicode.Is(unicode.Katakana, r) || r == 'ー':
		return katakana
	}
	return other
}

// wordAt returns the run of letters of one script at s[i:].
func wordAt(s string, i int) string {
	r, _ := utf8.DecodeRuneInString(s[i:])
	sc := scriptOf(r)
	if sc == other {
		return ""
	}
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if scriptOf(r) != sc {
			break
		}
		j += n
	}
	return s[i:j]
}

func runeBefore(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// skipSpaces returns the offset after the spaces (see isSpace) at s[i:].
func skipSpaces(s string, i int) int {
	for n := spaceAt(s, i); n > 0; n = spaceAt(s, i) {
		i += n
	}
	return i
}

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

// signAt reads a sign at s[i:]: Δ, +, -, −, full-width forms, and Δ
// combined with one of them; △ and ▼, which a Japanese or Korean reader
// reads as a minus (△5 in accounts, ▼5 a fall). It returns the sign's
// length and whether it marks a difference.
func signAt(s string, i int) (int, bool) {
	if strings.HasPrefix(s[i:], "±") {
		return len("±"), false // a spread: ±11% (see Quantity.Sign)
	}
	for _, m := range minusMarks {
		if strings.HasPrefix(s[i:], m) {
			return len(m), false
		}
	}
	j := i
	delta := false
	if strings.HasPrefix(s[j:], "Δ") {
		j += len("Δ")
		delta = true
		j = skipSpaces(s, j)
	}
	for _, sg := range []string{"+", "-", "−", "＋", "－"} {
		if strings.HasPrefix(s[j:], sg) {
			j += len(sg)
			if sg == "+" || sg == "＋" {
				delta = true
			}
			break
		}
	}
	if j == i {
		return 0, false
	}
	return j - i, delta
}

// minusMarks are the marks before a number that a Japanese or Korean
// reader reads as a minus sign: △5 is −5 in accounts, ▼5 a fall of 5.
var minusMarks = []string{"△", "▼"}

// quantityAt reads a quantity starting at s[i:]. It returns nil and a
// length > 0 for digits that belong to a name (MID1, v1.2) and nil, 0 when
// nothing numeric starts here.
func (lx *lexer) quantityAt(i int) (*Quantity, int, error) {
	s := lx.s
	if strings.HasPrefix(s[i:], "▲") && unit.IsDigitAt(s, i+len("▲")) {
		return nil, 0, lx.errorf(i, i+len("▲"), "▲ before a number says a rise to a Korean reader (▲5 is +5) and a minus to a Japanese one (▲5 is −5 in accounts); expected + or Δ for a rise (or 5%% 증가, 5%%増加), − or △ for a minus")
	}
	sl, delta := signAt(s, i)
	if sl > 0 {
		sign := s[i : i+sl]
		if (sign == "-" || sign == "－") && i == lx.prevEnd && len(lx.out.Quantities) > 0 {
			return nil, 0, nil // "5-10": a range dash
		}
		if !unit.IsDigitAt(s, i+sl) {
			return nil, 0, nil
		}
		if prev := runeBefore(s, i); i > 0 && strings.ContainsRune("+-−＋－△▼", prev) {
			// "−−5": reading the last sign alone would turn the number's
			// sign around when fixed (−−5 → −40).
			return nil, 0, lx.errorf(i-utf8.RuneLen(prev), i+sl, "two signs before the number at %q; expected one sign", s[i-utf8.RuneLen(prev):i+sl+1])
		}
	}
	j := i + sl
	if !unit.IsDigitAt(s, j) {
		if sl == 0 {
			return lx.wordNumberAt(i)
		}
		return nil, 0, nil
	}
	if n := dateLen(s, j); n > 0 {
		return nil, 0, lx.errorf(j, j+n, "%q is a date, not a number evdoc judges; expected a measured number, a time of day (14:03:22), or the date outside the claim (or in [%s](ev:exempt \"reason\"))", s[j:j+n], s[j:j+n])
	}
	if i > 0 {
		prev := runeBefore(s, i)
		switch {
		case prev < utf8.RuneSelf && scriptOf(prev) == latin:
			// A digit run glued to a letter ("MID1", "v1.2") is part of
			// a name, not a quantity.
			k := j
			for k < len(s) && (unit.IsDigitAt(s, k) || s[k] == '.' || s[k] == ',' || s[k] == '_' || scriptOf(rune(s[k])) == latin) {
				_, n := utf8.DecodeRuneInString(s[k:])
				k += n
			}
			return nil, k - i, nil
		case prev == '_' || prev == '.' || prev == '．':
			return nil, 0, lx.errorf(i-1, i, "cannot read the number at %q; expected plain digits such as 1,234.5", unit.Excerpt(s, i-1, j+4, 40))
		}
	}
	d, err := unit.ScanDigits(s[j:], unit.Style{SpaceGrouping: true})
	if err != nil {
		return nil, 0, lx.errorf(j, j+len(s[j:min(len(s), j+12)]), "malformed digit grouping at %q; expected groups of three digits (1,234) and a decimal point, not a comma", unit.Excerpt(s, j, j+12, 40))
	}
	k := j + d.Len
	if k < len(s) && (s[k] == '.' || strings.HasPrefix(s[k:], "．")) && unit.IsDigitAt(s, k+1+2*btoi(s[k] != '.')) {
		return nil, 0, lx.errorf(j, k+1, "%q looks like a version or address, not a measured number; expected one decimal point", s)
	}
	lx.q = Quantity{Start: i, NumStart: i, NumEnd: k, Value: d.Value, Decimals: d.Decimals, FullWidth: d.FullWidth,
		Grouped: d.Grouped, Sep: d.Sep, Magnitude: one, Delta: delta}
	q := &lx.q
	if sl > 0 {
		q.Sign = s[i : i+sl]
		if strings.ContainsAny(q.Sign, "-−－△▼") {
			q.Value = q.Value.Neg()
		}
	}
	if end, ok, err := lx.clockAt(q); err != nil || ok {
		q.End = end
		return q, 0, err
	}
	k, err = lx.magnitudes(q, k)
	if err != nil {
		return nil, 0, err
	}
	return q, 0, lx.unitAfter(q, k)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// magnitudeAt reads a magnitude word at s[k:] (after optional spaces).
func magnitudeAt(s string, k int) (int64, int) {
	k2 := skipSpaces(s, k)
	for _, m := range magnitudeWords {
		if strings.HasPrefix(s[k2:], m.word) {
			end := k2 + len(m.word)
			return m.f, end - k
		}
	}
	return 0, 0
}

// magnitudes reads magnitude words and compound parts after the digits at
// s[k:] ("1만 2천", "1万2000", "3割5分") and the 여/余 of "40여 건".
func (lx *lexer) magnitudes(q *Quantity, k int) (int, error) {
	s := lx.s
	// the parts of a compound, made when its second part is read
	var parts []Part
	lastNumEnd := q.NumEnd
	addPart := func(f decimal.Decimal, sep string, a, b int, word string) {
		digits := s[q.NumStart+len(q.Sign) : q.NumEnd]
		if strings.ContainsAny(digits, ".．") {
			return // 1.5만 2천: no rewrite in parts (see Rewritable)
		}
		if parts == nil {
			parts = append(make([]Part, 0, 3), Part{Factor: q.Magnitude, Width: intWidth(digits), Pad: padded(digits), Word: q.MagnitudeWord})
		}
		parts[len(parts)-1].Sep = sep
		parts = append(parts, Part{Factor: f, Width: intWidth(s[a:b]), Pad: padded(s[a:b]), Word: word})
		lastNumEnd = b
	}
	if strings.HasPrefix(s[k:], "割") {
		q.Value, q.Magnitude, q.Unit, q.UnitWord, q.MagnitudeWord = q.Value.Mul(decimal.NewFromInt(10)), decimal.NewFromInt(10), "%", "割", "割"
		k += len("割")
		for _, part := range []struct {
			word string
			f    decimal.Decimal
		}{{"分", decimal.NewFromInt(1)}, {"厘", decimal.New(1, -1)}} {
			d, err := unit.ScanDigits(s[k:], unit.Style{})
			if err != nil || d.Len == 0 || d.Decimals > 0 || !strings.HasPrefix(s[k+d.Len:], part.word) {
				continue
			}
			addPart(part.f, s[lastNumEnd:k], k, k+d.Len, part.word)
			q.Value = q.Value.Add(d.Value.Mul(part.f))
			q.Magnitude, q.Compound, q.Decimals = part.f, true, 0
			k += d.Len + len(part.word)
		}
		q.setMagParts(parts, lastNumEnd)
		return k, nil
	}
	f, n := magnitudeAt(s, k)
	if f == 0 {
		if m, err := lx.multiplierLetter(q, k); err != nil || m > 0 {
			return k + m, err
		}
		return lx.yeo(q, k), nil
	}
	mag := decimal.NewFromInt(f)
	q.Value, q.Magnitude = q.Value.Mul(mag), mag
	q.MagnitudeWord = strings.TrimSpace(s[k : k+n])
	k += n
	for {
		// A compound: a smaller part follows ("1만 2천", "1万2000").
		k2 := skipSpaces(s, k)
		if !oneSpaceAtMost(s, k, k2) || !unit.IsDigitAt(s, k2) {
			break
		}
		d, err := unit.ScanDigits(s[k2:], unit.Style{})
		if err != nil || d.Len == 0 {
			break
		}
		f2, n2 := magnitudeAt(s, k2+d.Len)
		part, pmag := d.Value, one
		if f2 > 0 {
			pmag = decimal.NewFromInt(f2)
			part = part.Mul(pmag)
		}
		if !part.LessThan(mag) {
			break
		}
		addPart(pmag, s[lastNumEnd:k2], k2, k2+d.Len, strings.TrimSpace(s[k2+d.Len:k2+d.Len+n2]))
		q.Value = q.Value.Add(part.Mul(decimal.NewFromInt(int64(q.Value.Sign() | 1))))
		q.Magnitude, q.Decimals, q.Compound = pmag, d.Decimals, true
		mag = pmag
		k = k2 + d.Len + n2
		if f2 == 0 {
			break
		}
	}
	q.setMagParts(parts, lastNumEnd)
	return lx.yeo(q, k), nil
}

// multiplierLetters are the SI multiplier letters tools print glued to
// a number (wrk's Req/Sec 2.76k, 1.20M requests) and the power of ten
// each stands for. K is not one: to some tools it is a thousand (10K
// requests), to others 1024 (ls -h and du -h print 4.0K for 4096
// bytes), so a claim writing it is an error naming both readings; m is
// a unit (minutes, millicores, read by the value's dimension), never
// milli.
var multiplierLetters = map[byte]int32{'k': 3, 'M': 6, 'G': 9}

// MultiplierLetter reports whether word, a quantity's MagnitudeWord, is
// a multiplier letter of multiplierLetters (2.76k: "k").
func MultiplierLetter(word string) bool {
	return len(word) == 1 && multiplierLetters[word[0]] != 0
}

// multiplierLetter reads a multiplier letter glued to the digits ending
// at s[k:] (2.76k, 1.2M, 3G), alone or before a space, a sign or a
// word of another script (2.76k req/s, 1.2M건): it scales q, keeps the
// letter as q's magnitude word (so the precision written is 2.76
// thousands) and returns its length. A letter that starts a unit word
// (kB, MiB, Gi) or an ASCII word (1.5Gbps, 3Mx) is no multiplier (0).
// K is an error naming both readings (see multiplierLetters).
func (lx *lexer) multiplierLetter(q *Quantity, k int) (int, error) {
	s := lx.s
	if k >= len(s) || s[k] != 'K' && multiplierLetters[s[k]] == 0 {
		return 0, nil
	}
	if k+1 < len(s) && (isASCIILetter(s[k+1]) || isDigitByte(s[k+1])) {
		return 0, nil // a word: kB, Gbps, Mi, or an unknown one
	}
	if w, _ := unit.Prefix(s[k:]); w != "" {
		return 0, nil
	}
	if s[k] == 'K' {
		return 0, lx.errorf(k, k+1, "K after a number is a thousand to some tools (10K requests) and 1024 to others (ls -h, du -h: 4.0K is 4096 bytes); expected k for a thousand (%sk), or a size unit (KB for 1000 bytes, KiB for 1024)", s[q.NumStart:q.NumEnd])
	}
	mag := decimal.New(1, multiplierLetters[s[k]])
	q.Value, q.Magnitude, q.MagnitudeWord = q.Value.Mul(mag), mag, s[k:k+1]
	return 1, nil
}

// setMagParts keeps the parts of a compound magnitude (1만 2천, 1万2000,
// 3割5分) and makes [NumStart, NumEnd) run from the first part's digits
// to the last part's, which Format rewrites in the same parts.
func (q *Quantity) setMagParts(parts []Part, lastNumEnd int) {
	if q.Compound && parts != nil {
		q.MagParts, q.NumEnd = parts, lastNumEnd
	}
}

// yeo reads the 여 of "40여 건" and the 余 of "40余件": a little over.
func (lx *lexer) yeo(q *Quantity, k int) int {
	for _, w := range yeoWords {
		if !strings.HasPrefix(lx.s[k:], w) {
			continue
		}
		end := k + len(w)
		next, _ := utf8.DecodeRuneInString(lx.s[end:])
		if end == len(lx.s) || scriptOf(next) != hangul && w == "여" || scriptOf(next) != han && w == "余" {
			lx.setApprox(Over, w)
			return end
		}
		if word, _ := unit.Prefix(lx.s[end:]); word != "" {
			lx.setApprox(Over, w)
			return end
		}
	}
	return k
}

func (lx *lexer) setApprox(a Approx, word string) {
	switch {
	case lx.out.Approx == Exact:
		lx.out.Approx, lx.out.ApproxWord = a, word
	case lx.out.Approx != a:
		lx.out.Approx, lx.out.ApproxWord = About, lx.out.ApproxWord+" "+word
	}
}

// unitAfter reads the unit word after a number ending at s[k:], the rate
// forms (초당 N, N건/초, N per second) and a ± tolerance, and sets q.End.
func (lx *lexer) unitAfter(q *Quantity, k int) error {
	s := lx.s
	if q.UnitWord == "" {
		k2 := skipSpaces(s, k)
		if w, u := unit.Prefix(s[k2:]); w != "" && !(w == "x" && k2 > k) {
			q.Unit, q.UnitWord = u.Name, w
			k = k2 + len(w)
			var err error
			if k, err = lx.compound(q, k); err != nil {
				return err
			}
		} else if w := unit.OpCounter(s[k2:]); w != "" {
			q.Unit, q.UnitWord = "count", w // 1 allocs/op
			k = k2 + len(w)
		}
		k = perOp(q, k, s)
	}
	return lx.qualifiers(q, k)
}

// perOp reads the "/op" of a Go benchmark's per-operation unit after a
// time or size unit or a count (24,889ns/op, 64B/op, 1 allocs/op): the
// number compares in that unit. It returns where the unit ends.
func perOp(q *Quantity, k int, s string) int {
	rest, ok := strings.CutPrefix(s[k:], unit.PerOperation)
	if !ok || rest != "" && scriptOf(rune(rest[0])) == latin || len(q.Parts) > 0 {
		return k
	}
	if u, _ := unit.Canonical(q.Unit); u.Dim != unit.Time && u.Dim != unit.Size && q.Unit != "count" {
		return k
	}
	q.UnitWord += unit.PerOperation
	return k + len(unit.PerOperation)
}

// qualifiers reads what may follow a number ending (with its unit) at
// s[k:]: the rate forms (초당 N, N건/초, N per second), a ± tolerance and
// a sign word, and sets q.End.
func (lx *lexer) qualifiers(q *Quantity, k int) error {
	s := lx.s
	// Rate prefix: 초당 1,250건, 毎秒1,250件, 秒間1,250件, also with an
	// approximation word between prefix and number (초당 약 38건, 毎秒約38件).
	before := strings.TrimRightFunc(s[:q.Start], isSpace)
	for _, a := range approxWords {
		if strings.HasSuffix(before, a.word) {
			before = strings.TrimRightFunc(before[:len(before)-len(a.word)], isSpace)
			break
		}
	}
	for _, p := range unit.RatePrefixes {
		if strings.HasSuffix(before, p) {
			if err := lx.makeRate(q, p, len(before)-len(p)); err != nil {
				return err
			}
		}
	}
	// Rate suffix: 1,250건/초, 1,250件/秒, 40/sec.
	if k < len(s) && (s[k] == '/' || strings.HasPrefix(s[k:], "／")) {
		sl := 1
		if s[k] != '/' {
			sl = len("／")
		}
		for _, w := range unit.PerSecond {
			rest := s[k+sl:]
			if strings.HasPrefix(rest, w) && (len(rest) == len(w) || scriptOf(rune(rest[len(w)])) != latin) {
				if err := lx.makeRate(q, s[k:k+sl+len(w)], k); err != nil {
					return err
				}
				k += sl + len(w)
				break
			}
		}
	}
	// English "per second".
	if k2 := skipSpaces(s, k); k2 > k {
		for _, w := range []string{"per second", "per sec", "a second"} {
			if strings.HasPrefix(s[k2:], w) {
				if err := lx.makeRate(q, w, k2); err != nil {
					return err
				}
				k = k2 + len(w)
				break
			}
		}
	}
	// ± spread: 319.5 ± 11.2ms, 43±1秒, 43秒±1秒, 120ms ±11%.
	k2 := skipSpaces(s, k)
	for _, pm := range []string{"±", "+/-", "+-"} {
		if !strings.HasPrefix(s[k2:], pm) {
			continue
		}
		t := skipSpaces(s, k2+len(pm))
		d, err := unit.ScanDigits(s[t:], unit.Style{})
		if err != nil || d.Len == 0 {
			return lx.errorf(t, 0, "expected a number after %q", pm)
		}
		e := t + d.Len
		sp := &Quantity{Value: d.Value, Decimals: d.Decimals, Start: t, NumStart: t, NumEnd: e, Magnitude: one, Grouped: d.Grouped, Sep: d.Sep, FullWidth: d.FullWidth}
		e2 := skipSpaces(s, e)
		if w, u := unit.Prefix(s[e2:]); w != "" {
			sp.Unit, sp.UnitWord, e = u.Name, w, e2+len(w)
		}
		switch {
		case sp.Unit == "" || sp.Unit == q.Unit:
			sp.Unit = q.Unit
		case q.Unit == "":
			q.Unit = sp.Unit // 319.5 ± 11.2ms: one unit for both
		case sp.Unit == "%" && q.Unit != "%p":
			// a relative spread: 120ms ±11%
		case sp.Unit == "%p" && q.Unit == "%":
			// points after a percentage: 44% ± 2%p
		default:
			if _, ok := unit.Convert(sp.Value, sp.Unit, q.Unit); !ok {
				return lx.errorf(e2, e2+len(sp.UnitWord), "the spread after %q is in %s, the number in %s", pm, sp.Unit, q.Unit)
			}
		}
		if q.UnitWord == "" && sp.Unit == q.Unit {
			q.UnitWord = sp.UnitWord
		}
		sp.End = e
		q.Spread = sp
		k = e
		break
	}
	// A sign word: 12% 감소, 12%減少, 12% increase.
	if k2 := skipSpaces(s, k); oneSpaceAtMost(s, k, k2) && q.Sign == "" && !q.Word {
		for _, sw := range signWords {
			if !strings.HasPrefix(s[k2:], sw.word) || scriptOf(rune(sw.word[0])) == latin && (k2 == k || k2+len(sw.word) < len(s) && scriptOf(rune(s[k2+len(sw.word)])) == latin) {
				continue
			}
			if sw.neg {
				q.Value = q.Value.Neg()
			}
			q.Delta, q.SignWord = true, sw.word
			k = k2 + len(sw.word)
			break
		}
	}
	q.End = k
	return nil
}

// makeRate turns q into a rate per second: a plain number or a count
// (/s), or a size (KB gives KB/s).
func (lx *lexer) makeRate(q *Quantity, word string, at int) error {
	switch q.Unit {
	case "", "count", "/s":
		q.Unit = "/s"
		return nil
	}
	if u, ok := unit.PerSecondOf(q.Unit); ok { // 1.2MB/s, 1.2MB/초, 초당 1.2MB: a throughput
		q.Unit = u
		return nil
	}
	if u, _ := unit.Canonical(q.Unit); u.Dim == unit.Throughput {
		return nil // 초당 1.2MB/s: a rate written twice, as 초당 1,250건/초
	}
	return lx.errorf(at, at+len(word), "%q makes a rate of %s; expected a count or a size per second (1,250건/초, 毎秒1,250件, 1.2MB/s) — other compound units are not read", word, q.Unit)
}

// after checks what follows a quantity: a Latin letter, digit, "_", "%"
// or a Unicode fraction glued to it is unreadable; a word is allowed when
// it is a particle, connector, approximation word or comparator; any other
// Hangul, kana or Han word is an unknown unit.
func (lx *lexer) after(q *Quantity) error {
	s := lx.s
	k := q.End
	if k >= len(s) {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	switch {
	case scriptOf(r) == latin, r == '_', r == '%', r == '％', r > 127 && unicode.IsNumber(r) && !unit.IsDigitAt(s, k),
		unitLike(r), r == '&', r == '\\', r == '#', r == '@', r > 127 && scriptOf(r) == other && unicode.IsLetter(r):
		return lx.errorf(k, 0, "unknown unit or unreadable number at %q; expected a unit such as %%, s, ms, 초, 秒, 바이트, 회", s[q.Start:min(len(s), k+12)])
	case q.UnitWord != "" && unit.IsDigitAt(s, k):
		return lx.errorf(k, k+digitLen(s, k), "a number glued to %q; expected a space, a connector or a unit after it, or the parts of a duration (1h2m3s)", s[q.Start:k])
	case r == '/' || r == '／':
		after := strings.TrimLeftFunc(s[k+utf8.RuneLen(r):], isSpace)
		if after == "" || !unit.IsDigitAt(after, 0) {
			return lx.errorf(k, 0, "unknown unit at %q: compound units (KB/s, 초/회) are not read; expected a number, a unit, or a count per second (건/초)", s[q.Start:min(len(s), k+12)])
		}
		return nil
	}
	k2 := skipSpaces(s, k)
	if k2 >= len(s) {
		return nil
	}
	if r2, _ := utf8.DecodeRuneInString(s[k2:]); unitLike(r2) {
		return lx.errorf(k2, 0, "unknown unit at %q; expected a unit such as %%, s, ms, 초, 秒, 바이트, 회", s[q.Start:min(len(s), k2+12)])
	}
	w := wordAt(s, k2)
	if w == "" {
		return nil
	}
	r2, _ := utf8.DecodeRuneInString(w)
	if scriptOf(r2) == latin {
		if k2 == k {
			return lx.errorf(k, k+len(w), "unknown unit or unreadable number at %q; expected a unit such as s, ms, %%, or a space before a word", s[q.Start:min(len(s), k+12)])
		}
		if englishConnectors[strings.ToLower(w)] || lx.knownWord(k2) {
			return nil
		}
		return lx.errorf(k2, k2+len(w), "unknown word %q after %q; expected a unit such as s, ms, %%, or a connector (of, to)", w, s[q.Start:q.End])
	}
	if lx.knownWord(k2) || k2 > k && q.UnitWord != "" {
		return nil // after a unit and a space, words are prose: 3회 연속
	}
	// A kanji numeral after a unit starts the next number (1万二千 is not
	// read; 二回 after a number is a list).
	if _, n, _ := lx.wordNumberAt(k2); n > 0 {
		return nil
	}
	return lx.errorf(k2, k2+len(w), "unknown word %q after %q; expected a unit (초, 秒, ms, %%, 바이트, 年 …), a counter (회, 回, 건, 件, 개, 個, 명, 人 …) or a particle", w, s[q.Start:q.End])
}

// unitLike reports whether r is a symbol that reads as a unit the grammar
// does not know: a currency sign, per mille, per ten thousand, degree.
func unitLike(r rune) bool {
	return r == '‰' || r == '‱' || r == '°' || r > 127 && unicode.Is(unicode.Sc, r) || r == '$'
}

// knownWord reports whether s[k:] starts with a particle, connector,
// approximation word, comparator or magnitude.
func (lx *lexer) knownWord(k int) bool {
	rest := lx.s[k:]
	for _, a := range approxWords {
		if strings.HasPrefix(rest, a.word) {
			return true
		}
	}
	for _, c := range cmpWords {
		if strings.HasPrefix(rest, c.word) {
			return true
		}
	}
	for _, p := range particles {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	for _, p := range unit.RatePrefixes {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
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
