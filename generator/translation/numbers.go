package translation

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Number is one number of a page's text read as a typed token, the form
// in which a translation's numbers are compared with its source's.
//
// Value is in the base unit of Unit: times in seconds ("s"), sizes in
// bytes ("B"), CPU in cores ("core"), rates per second ("/s"), and "%",
// "%p", "x" (multiples) and the other units of package unit as written;
// counting words (회, 回, 件, つ, 단계…) and bare numbers have Unit "".
// Cmp is the comparator stated around the number ("<=" for 최대 3,
// 3まで, at most 3, 3 이하; ">=", "<", ">"; "" for none) and Approx the
// approximation a word around it states (약, 約, about, 정도, ほど… about;
// 남짓, 余り over; 거의, 近く under: the words of literal.ApproxWords). Sign
// is "+" for a number written as a difference (+1, Δ1, ±0), "-" for one
// written with a minus (−5, and △5, which a Japanese or Korean reader
// reads as −5), "" for none. Kind is "number", or "date", "time" (a
// clock time), "version", "ip" or "id" (a number glued to a name, such
// as p99) for numbers compared by their text. Start and End are byte
// offsets in the text scanned.
type Number struct {
	Kind   string
	Value  decimal.Decimal
	Unit   string
	Cmp    string
	Approx literal.Approx
	Sign   string
	Text   string
	Key    string // Kind-specific normal form (see NormalForm)
	Start  int
	End    int
	// word is set for a number written as a word (두 번, 一つ): it
	// matches a number of the other language, but one without a
	// counterpart is no finding on its own (一つの理由 and 이유 하나: a
	// language writes "one" where the other writes none).
	word bool
	// another is set for a word of value one that says "one more"
	// (もう一つ, 한 번 더): see wordsPair.
	another bool
	// label is the statistic written right before the number in its
	// block (p99 지연은 29.8ms: "p99"; see itemLabels).
	label string
	// point is set for a time followed by a word that makes it a point
	// after a start (12초 후, 12초 시점, 12秒後, 12秒の時点, 12 s after):
	// what +12s says on a timeline, without the sign.
	point bool
	// span is set for a claim's number read by the claim grammar: the
	// values it stands for at the precision written, as the judge reads
	// it (check.Interval of an exact number: half a unit of the last
	// written digit, a ± tolerance, a clock's truncation), from Value −
	// below to Value + above in Value's base unit (see spanOf). Two
	// claims of one evidence value that say the same at the coarser of
	// their precisions (1만 3천 and 1万3042) agree (see valuesAgree).
	span bool
	// spanQ is the quantity of the claim the span is read from (the
	// last part's of a duration written in parts), spanFactor the factor
	// to Value's base unit, spanTurned set when the span turns with a
	// sign read before the number: spanOf computes the span from them
	// only when two values differ, not for every number.
	spanQ      *literal.Quantity
	spanFactor decimal.Decimal
	spanTurned bool
	// spread is set for the number a claim writes after ± (319.5 ±
	// 11.2ms: 11.2 ms), the spread of the number before it: compared as
	// a number of its own, never as a tolerance widening the mean.
	spread bool
}

// spanOf returns how far below and above Value the values n stands for
// reach (see Number.span); n.span must be set.
func (n *Number) spanOf() (below, above decimal.Decimal) {
	q := *n.spanQ
	lo, hi, _ := check.Interval(q, literal.Exact, check.Options{})
	below, above = q.Value.Sub(lo), hi.Sub(q.Value)
	if !literal.IsOne(n.spanFactor) {
		below, above = below.Mul(n.spanFactor), above.Mul(n.spanFactor)
	}
	if n.spanTurned {
		below, above = above, below
	}
	return below, above
}

// NormalForm is the number as compared across languages, comparator and
// sign included and approximation excluded: "12000", "40|s", "<=|3",
// "+1", "2026-07-09".
func (n Number) NormalForm() string { return n.Key }

var (
	isoDateRe = regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})`)
	cjkDateRe = regexp.MustCompile(`^(?:(\d{4})\s*[年년]\s*)?(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日일])?`)
	clockRe   = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2}))?`)
	versionRe = regexp.MustCompile(`^v?\d+\.\d+\.\d+(?:[-+.\w]*)`)
	ipRe      = regexp.MustCompile(`^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?:/\d{1,2})?(?::\d+)?`)
	// a version after "v" or a version word: two parts are enough (v1.30)
	shortVersionRe = regexp.MustCompile(`^\d+(?:\.\d+)+(?:[-+][.\w]*)?`)
	// a Go or kubectl duration of two parts or more (1m30s, 1h2m3s, 143h25m)
	goDurationRe = regexp.MustCompile(`^(?:\d+(?:\.\d+)?(?:h|ms|us|µs|μs|ns|m|s)){2,}`)
	// an ISO 8601 duration (PT1M30S, P1DT2H)
	isoDurationRe = regexp.MustCompile(`^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$`)
	// a clock time written with words: 2시 3분, 14時3分5秒 (after 오후/午後)
	clockWordRe = regexp.MustCompile(`^(\d{1,2}) ?(?:시|時)(?: ?(\d{1,2}) ?(?:분|分))?(?: ?(\d{1,2}) ?(?:초|秒))?`)

	magnitudeOf = map[string]int64{"천": 1e3, "千": 1e3, "만": 1e4, "万": 1e4, "억": 1e8, "億": 1e8}

	// parityUnits maps each canonical unit of package unit to the base
	// unit parity compares it in and the factor to it.
	parityUnits = func() map[string]baseUnit {
		m := map[string]baseUnit{"": {"", decimal.NewFromInt(1)}, "count": {"", decimal.NewFromInt(1)}}
		// sizes: KB is 1000 B here (a translation writes 400KB as
		// 400キロバイト or 400,000バイト, never in KiB)
		sizes := map[string]int64{"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
		for _, name := range unit.Names() {
			if _, ok := m[name]; ok {
				continue
			}
			if f, ok := sizes[name]; ok {
				m[name] = baseUnit{"B", decimal.NewFromInt(f)}
				continue
			}
			if u, _ := unit.Canonical(name); u.Dim == unit.Time {
				f, _ := unit.Factor(name, "s")
				m[name] = baseUnit{"s", f}
				continue
			}
			if f, ok := unit.Factor(name, "core"); ok {
				m[name] = baseUnit{"core", f}
				continue
			}
			m[name] = baseUnit{name, decimal.NewFromInt(1)}
		}
		// a ratio (1 is all) compares in percent, as the judge converts
		// it: a claim [0.9975] of a ratio says what [99.75%] says
		m["ratio"] = baseUnit{"%", decimal.NewFromInt(100)}
		return m
	}()
	// extraUnits are words parity reads that package unit does not
	// spell (yet): Kubernetes' Ki/Mi/Gi, Korean 포인트, 단계 and 段階.
	extraUnits = map[string]string{"포인트": "%p", "단계": "count", "段階": "count", "Ki": "KiB", "Mi": "MiB", "Gi": "GiB"}

	// Qualifiers written before a number (the text ending at it) and
	// after it (the text starting after it and its unit).
	//
	// 최대, 最大, 최소, 最小 (and 最低) right before a number are read as
	// the claim grammar reads them (package claim's comparators), in both
	// languages alike: whether a sentence uses them as a noun (the minimum
	// was 5.1 ms) or as a bound (at least 5.1 ms), both say that no value
	// lies below (above) the number. So do the extremum nouns with a
	// particle (최솟값은, 最小値は: see extremumBefore).
	cmpBefore = []cmpWord{
		{"최대", "<="}, {"最大", "<="}, {"at most", "<="}, {"up to", "<="}, {"no more than", "<="}, {"not more than", "<="},
		{"최소", ">="}, {"最小", ">="}, {"最低", ">="}, {"少なくとも", ">="}, {"at least", ">="}, {"no less than", ">="}, {"not less than", ">="},
		{"more than", ">"}, {"greater than", ">"}, {"over", ">"}, {"above", ">"}, {"exceeding", ">"},
		{"less than", "<"}, {"fewer than", "<"}, {"under", "<"}, {"below", "<"},
		{"≥", ">="}, {">=", ">="}, {"≤", "<="}, {"<=", "<="}, {"<", "<"}, {">", ">"},
	}
	cmpAfter = []cmpWord{
		{"이상", ">="}, {"以上", ">="}, {"or more", ">="},
		{"이하", "<="}, {"以下", "<="}, {"까지", "<="}, {"まで", "<="}, {"이내", "<="}, {"以内", "<="}, {"안에", "<="}, {"내에", "<="}, {"or less", "<="}, {"or fewer", "<="},
		{"미만", "<"}, {"未満", "<"},
		{"초과", ">"}, {"超", ">"},
	}
	// cmpVerbs are the verbs of a bound after a number, with a particle
	// (을, 를, 이, 가, を, が) or none between: 30을 넘는, 30 넘게, 30을
	// 초과하는, 30を超える, 30超え, 30を上回る. Negated (30을 넘지 않는,
	// 30を超えない) they state the opposite bound: see cmpVerbAfter.
	cmpVerbs = []cmpWord{
		{"넘", ">"}, {"초과", ">"}, {"웃돌", ">"}, {"웃도", ">"}, {"상회", ">"}, {"밑돌", "<"}, {"밑도", "<"}, {"하회", "<"},
		{"超え", ">"}, {"超過", ">"}, {"越え", ">"}, {"上回", ">"}, {"下回", "<"},
	}
	// cmpNegations right after a verb of cmpVerbs negate it.
	cmpNegations = []string{
		"지 않", "지않", "지 못", "지못", "하지 않", "하지않", "하지 못", "하지못",
		"ない", "なかっ", "ず", "ません", "らない", "らなかっ", "らず", "りません", "しない", "しなかっ", "せず", "しません",
	}
	// cmpParticles may stand between a number and a verb of cmpVerbs.
	cmpParticles = []string{"을", "를", "이", "가", "を", "が"}
	// extremumWords are the words for the least and the greatest value,
	// read as the bound they state when they stand before a number with
	// a topic or subject particle, or none, between (see extremumBefore).
	extremumWords = []cmpWord{
		{"최솟값", ">="}, {"최소값", ">="}, {"최소치", ">="}, {"최저치", ">="}, {"최저", ">="}, {"최소", ">="},
		{"最小値", ">="}, {"最低値", ">="}, {"最小", ">="}, {"最低", ">="}, {"minimum", ">="},
		{"최댓값", "<="}, {"최대값", "<="}, {"최대치", "<="}, {"최대", "<="}, {"最大値", "<="}, {"最大", "<="}, {"maximum", "<="},
	}
	// extremumParticles may follow an extremum word before its number.
	extremumParticles = []string{"은", "는", "이", "가", "は", "が", ":", "：", "=", " is", " was", " of"}

	// The approximation words of the claim grammar (one list, package
	// claim's), by the side of the number they stand on.
	approxBefore, approxAfter, approxGlued = approxSides()

	// The qualifiers by the byte a text must end with (before a number)
	// or start with (after it) to hold them, in their lists' order.
	cmpBeforeByLast    = indexBy(cmpBefore, func(q cmpWord) byte { return q.word[len(q.word)-1] })
	cmpAfterByFirst    = indexBy(cmpAfter, func(q cmpWord) byte { return q.word[0] })
	approxBeforeByLast = indexBy(approxBefore, func(w literal.ApproxWord) byte { return w.Word[len(w.Word)-1] })
	approxAfterByFirst = indexBy(approxAfter, func(w literal.ApproxWord) byte { return w.Word[0] })
)

// baseUnit is the unit parity compares a unit's values in and the
// factor that takes a value there.
type baseUnit struct {
	name   string
	factor decimal.Decimal
}

// approxSides splits literal.ApproxWords by the side of the number they
// stand on; English words are matched in lower case.
func approxSides() (before, after, glued []literal.ApproxWord) {
	for _, w := range literal.ApproxWords() {
		w.Word = strings.ToLower(w.Word)
		switch {
		case w.Glued:
			glued = append(glued, w)
		case w.Before:
			before = append(before, w)
		default:
			after = append(after, w)
		}
	}
	// ≒ (nearly equal) is an approximation sign, as 約 and 약 are
	before = append(before, literal.ApproxWord{Word: "≒", Approx: literal.About, Before: true})
	return before, after, glued
}

// cmpWord is a comparator word and the comparator it states.
type cmpWord struct{ word, cmp string }

// indexBy groups xs by the byte key gives, keeping their order.
func indexBy[T any](xs []T, key func(T) byte) [256][]T {
	var ix [256][]T
	for _, x := range xs {
		k := key(x)
		ix[k] = append(ix[k], x)
	}
	return ix
}

// numberLen returns the length of the number at the start of s, digits
// grouped by thousands separators and an optional fraction: what the
// expression ^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)? matches (0 for none).
// A run of one to three digits followed by ",ddd" groups takes every
// group that follows; otherwise the whole digit run is the number.
func numberLen(s string) int {
	run := digitRun(s, 0)
	if run == 0 {
		return 0
	}
	n := run
	if run <= 3 {
		for n+4 <= len(s) && (s[n] == ',' || s[n] == '_') && digitRun(s[n+1:n+4], 0) == 3 {
			n += 4
		}
	}
	if n < len(s) && s[n] == '.' {
		if f := digitRun(s, n+1); f > 0 {
			n += 1 + f
		}
	}
	return n
}

// digitRun returns the count of ASCII digits in s from i on.
func digitRun(s string, i int) int {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j - i
}

// magnitudeAt reads a magnitude word (천, 만, 억, 千, 万, 億) at the start of
// s after at most one blank: what ^\s?(천|만|억|千|万|億) matches. It
// returns the word and the length read ("" and 0 for none).
func magnitudeAt(s string) (string, int) {
	k := 0
	if len(s) > 0 {
		switch s[0] {
		case ' ', '\t', '\n', '\f', '\r':
			k = 1
		}
	}
	// each word is three bytes of UTF-8
	if len(s) >= k+3 {
		if w := s[k : k+3]; magnitudeOf[w] != 0 {
			return w, k + 3
		}
	}
	return "", 0
}

// parseNumber reads a number as numberLen delimits it ("1,234.5") as a
// decimal, as decimal.NewFromString reads it without its commas.
func parseNumber(m string) decimal.Decimal {
	var v int64
	scale := int32(0)
	digits := 0
	frac := false
	for i := 0; i < len(m); i++ {
		switch c := m[i]; {
		case c == ',', c == '_':
		case c == '.':
			frac = true
		default:
			v = v*10 + int64(c-'0')
			digits++
			if frac {
				scale++
			}
		}
	}
	if digits > 18 { // may overflow int64
		d, _ := decimal.NewFromString(strings.NewReplacer(",", "", "_", "").Replace(m))
		return d
	}
	return unit.NewDecimal(v, -scale)
}

// normalizeText maps full-width digits and signs, and the decimal digits
// of other scripts, to ASCII and returns,
// for each byte of the result, the offset of the byte it came from.
func normalizeText(s string) (string, []int) {
	back := make([]int, 0, len(s)+1)
	if !hasFullWidth(s) && utf8.ValidString(s) {
		for i := range len(s) + 1 {
			back = append(back, i)
		}
		return s, back
	}
	b := make([]byte, 0, len(s))
	for i, r := range s {
		if a := fullWidthASCII(r); a != 0 {
			b = append(b, a)
			back = append(back, i)
			continue
		}
		n := len(b)
		b = utf8.AppendRune(b, r)
		for range len(b) - n {
			back = append(back, i)
		}
	}
	back = append(back, len(s))
	return string(b), back
}

// fullWidthASCII returns the ASCII byte a full-width digit or sign r
// stands for (０ → 0, ％ → %, 〜 → ~), or 0.
func fullWidthASCII(r rune) byte {
	switch {
	case r >= '０' && r <= '９':
		return byte('0' + r - '０')
	}
	switch r {
	case '％':
		return '%'
	case '，':
		return ','
	case '．':
		return '.'
	case '：':
		return ':'
	case '＋':
		return '+'
	case '－':
		return '-'
	case '〜', '～', '∼':
		return '~'
	}
	if r >= 0x80 && unicode.IsDigit(r) {
		return byte('0' + digitValue(r)) // ٣, ४, 𝟒: as coverage reads them
	}
	return 0
}

// digitValue is the value of r, a decimal digit (unicode.Nd): Unicode
// writes each script's digits as runs of ten from zero, so r's place in
// its run of consecutive digits, modulo ten.
func digitValue(r rune) int {
	z := r
	for unicode.IsDigit(z - 1) {
		z--
	}
	return int(r-z) % 10
}

// hasFullWidth reports whether s holds a rune fullWidthASCII maps.
func hasFullWidth(s string) bool {
	for i := 0; i < len(s); i++ {
		// the full-width runes are three bytes long and start with 0xE2,
		// 0xE3 or 0xEF; the other scripts' digits (unicode.Nd) start
		// with 0xD9, 0xDB, 0xDF, 0xE0, 0xE1, 0xF0, or 0xEA before Hangul
		// (U+A620-ABF9)
		if c := s[i]; c == 0xE2 || c == 0xE3 || c == 0xEF || c == 0xD9 || c == 0xDB || c == 0xDF || c == 0xE0 || c == 0xE1 || c == 0xF0 ||
			c == 0xEA && i+1 < len(s) && s[i+1] < 0xB0 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			if fullWidthASCII(r) != 0 {
				return true
			}
		}
	}
	return false
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// ScanNumbers reads the numbers of text (plain text: no Markdown) as
// typed tokens. Full-width digits, thousands separators and magnitude
// words (1万2000, 1만 2천, 1.2만) are read as one number; so are compound
// durations (1분 30초, 1分30秒, 1m30s, PT1M30S) and clock times written
// with words (오후 2시 3분, 14時3分). Number words are read where the
// claim grammar reads them, with a counter or a unit (두 번, 二回, 三つ,
// ふたつ, 세 시간). A sign before the digits is kept (+1, −5, Δ0, △0).
// "5" never matches inside "15".
func ScanNumbers(text string) []Number { return scanNumbers(text, "") }

// scanNumbers is ScanNumbers for a page in language lang, which decides
// what ▲ before a number says (see signBefore).
func scanNumbers(text, lang string) []Number {
	// offsets in norm are offsets in text unless full-width characters
	// (or invalid UTF-8) were mapped
	norm, back := text, []int(nil)
	if hasFullWidth(text) || !utf8.ValidString(text) {
		norm, back = normalizeText(text)
	}
	at := func(i int) int {
		if back == nil {
			return i
		}
		return back[i]
	}
	var out []Number
	// emit adds n, read at norm[start:end], qualified by the words around it
	emit := func(n Number, start, end int, qualifyIt bool) {
		if qualifyIt {
			qualify(&n, norm, start, end)
		} else {
			n.Key = n.Kind + ":" + n.Key
		}
		n.Start, n.End = at(start), at(end)
		n.Text = text[n.Start:n.End]
		out = append(out, n)
	}
	lastEnd := 0
	for i := 0; i < len(norm); {
		if c := norm[i]; (c < '0' || c > '9') && c != zeroText[0] {
			if symbolLead(norm, i) {
				if n, w := symbolAt(norm, i); w > 0 {
					emit(n, i, i+w, n.Kind == "number")
					i += w
					lastEnd = i
					continue
				}
			}
			i++ // neither a digit nor the start of ゼロ: nothing starts here
			continue
		}
		if w := zeroWord(norm[i:]); w > 0 {
			emit(Number{Kind: "number", Value: decimal.Zero}, i, i+w, true)
			i += w
			lastEnd = i
			continue
		}
		c := norm[i]
		if c < '0' || c > '9' {
			i++
			continue
		}
		// part of a name (p99, L7, MID1, HTTP/2, D-1), a version after v
		// (v1.8.7) or an ISO 8601 duration (PT1M30S)?
		if i > 0 && (isASCIIAlnum(norm[i-1]) || (norm[i-1] == '-' || norm[i-1] == '/') && i > 1 && isASCIILetterByte(norm[i-2])) {
			if (norm[i-1] == 'v' || norm[i-1] == 'V') && (i == 1 || !isASCIIAlnum(norm[i-2])) {
				if m := shortVersionRe.FindString(norm[i:]); m != "" {
					emit(Number{Kind: "version", Key: m}, i-1, i+len(m), false)
					i += len(m)
					lastEnd = i
					continue
				}
			}
			j := i
			for j < len(norm) && isASCIIAlnum(norm[j]) {
				j++
			}
			k := i
			for k > lastEnd && (isASCIIAlnum(norm[k-1]) || (norm[k-1] == '-' || norm[k-1] == '/') && k > 1 && isASCIIAlnum(norm[k-2])) {
				k--
			}
			if v, ok := isoDuration(norm[k:j]); ok {
				emit(Number{Kind: "number", Value: v, Unit: "s"}, k, j, true)
			} else {
				emit(Number{Kind: "id", Key: strings.ToLower(norm[k:j])}, k, j, false)
			}
			i = j
			lastEnd = i
			continue
		}
		rest := norm[i:]
		if vw := versionWordBefore(norm[lastEnd:i]); vw {
			if m := shortVersionRe.FindString(rest); m != "" {
				emit(Number{Kind: "version", Key: m}, i, i+len(m), false)
				i += len(m)
				lastEnd = i
				continue
			}
		}
		if mayBeDateLike(norm, i) {
			if m := ipRe.FindString(rest); m != "" {
				emit(Number{Kind: "ip", Key: m}, i, i+len(m), false)
				i += len(m)
				lastEnd = i
				continue
			}
			if m := isoDateRe.FindStringSubmatch(rest); m != nil {
				emit(Number{Kind: "date", Key: m[1] + "-" + pad2(m[2]) + "-" + pad2(m[3])}, i, i+len(m[0]), false)
				i += len(m[0])
				lastEnd = i
				continue
			}
			if m := cjkDateRe.FindStringSubmatch(rest); m != nil && (m[1] != "" || m[3] != "") {
				emit(Number{Kind: "date", Key: m[1] + "-" + pad2(m[2]) + "-" + pad2(m[3])}, i, i+len(m[0]), false)
				i += len(m[0])
				lastEnd = i
				continue
			}
			if m := clockRe.FindStringSubmatch(rest); m != nil {
				emit(Number{Kind: "time", Key: clockKey(m[1], m[2], m[3], 0)}, i, i+len(m[0]), false)
				i += len(m[0])
				lastEnd = i
				continue
			}
			if m := versionRe.FindString(rest); m != "" {
				emit(Number{Kind: "version", Key: strings.TrimPrefix(m, "v")}, i, i+len(m), false)
				i += len(m)
				lastEnd = i
				continue
			}
		}
		if m := clockWordRe.FindStringSubmatch(rest); m != nil && !strings.HasPrefix(rest[len(m[0]):], "간") && !strings.HasPrefix(rest[len(m[0]):], "間") {
			// 2시 3분 (not 2시간), after 오전/오후, 午前/午後
			start, pm := clockPrefix(norm, i, lastEnd)
			emit(Number{Kind: "time", Key: clockKey(m[1], m[2], m[3], pm)}, start, i+len(m[0]), false)
			i += len(m[0])
			lastEnd = i
			continue
		}
		if m := goDurationRe.FindString(rest); m != "" && (len(m) == len(rest) || !isASCIIAlnum(rest[len(m)])) {
			if d, err := time.ParseDuration(strings.ReplaceAll(m, "μ", "µ")); err == nil {
				start, sign := signBefore(norm, i, lastEnd, lang)
				n := Number{Kind: "number", Value: decimal.New(d.Nanoseconds(), -9), Unit: "s", Sign: sign}
				if sign == "-" {
					n.Value = n.Value.Neg()
				}
				emit(n, start, i+len(m), true)
				i += len(m)
				lastEnd = i
				continue
			}
		}
		n, end, scale := readQuantity(norm, i)
		lowerEndUnit(norm, end, &n)
		if n.Unit == "" && end < len(norm) && isASCIILetterByte(norm[end]) {
			// 10k, 3M, 1.5Gbps: a multiplier letter scales the number, as
			// coverage reads it (10k = 10,000 = 1만); 4K and 5G are names
			w := end
			for w < len(norm) && isASCIILetterByte(norm[w]) {
				w++
			}
			if exp := prose.GluedMultiplier(norm[i:end], norm[end:w]); exp > 0 {
				n.Value = n.Value.Shift(int32(exp))
				end++
			}
		}
		// a compound duration: 1분 30초, 1分30秒, 2시간 5분 (each part in
		// a smaller unit than the one before, at most one space between)
		for n.Unit == "s" && n.Approx == literal.Exact && scale.Sign() > 0 {
			k := end
			if k < len(norm) && norm[k] == ' ' {
				k++
			}
			if k >= len(norm) || norm[k] < '0' || norm[k] > '9' {
				break
			}
			m, mend, mscale := readQuantity(norm, k)
			if m.Unit != "s" || !mscale.LessThan(scale) || m.Approx != literal.Exact {
				break
			}
			n.Value, end, scale = n.Value.Add(m.Value), mend, mscale
		}
		start, sign := signBefore(norm, i, lastEnd, lang)
		n.Sign = sign
		if sign == "-" {
			n.Value = n.Value.Neg()
		}
		emit(n, start, end, true)
		i = end
		lastEnd = i
	}
	return addWordNumbers(out, text, norm, at)
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
		n := Number{Kind: "number", Value: w.Value.Mul(bu.factor), Unit: bu.name, word: true}
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

// signBefore reads a sign written right before the digits at norm[i]
// (and after lastEnd, where the previous number ended): +, - or −, Δ
// (with or without a sign after it), ± and △, ▼ or ▲. It returns where
// the number starts with its sign and the sign: "+" for a difference (+,
// Δ, ±), "-" for a minus (-, −, △, ▼: a Japanese or Korean reader reads
// △5 as −5). ▲ says the opposite in the two languages: a rise to a
// Korean reader (▲5 is +5), a minus in Japanese accounts (▲5 is −5); in
// a page of lang it is read so, in text of no known language it is the
// sign "▲", equal only to itself. A "-" after a digit or a letter is a
// range dash or part of a name, not a sign.
func signBefore(norm string, i, lastEnd int, lang string) (int, string) {
	start, sign := i, ""
	if i > lastEnd {
		r, n := utf8.DecodeLastRuneInString(norm[lastEnd:i])
		switch r {
		case '+', '±':
			start, sign = i-n, "+"
		case '-', '−':
			start, sign = i-n, "-"
		case 'Δ':
			return i - n, "+"
		case '△', '▼':
			return i - n, "-"
		case '▲':
			return i - n, triangleUp(lang)
		}
	}
	if sign == "" {
		return i, ""
	}
	if start > lastEnd {
		r, n := utf8.DecodeLastRuneInString(norm[lastEnd:start])
		switch {
		case r == 'Δ':
			return start - n, sign
		case r < utf8.RuneSelf && (isASCIIAlnum(byte(r)) || strings.ContainsRune(".,)]%/:~", r)):
			return i, "" // 5-10, D-1, (3)-2: not a sign
		}
	} else if start == lastEnd && lastEnd > 0 {
		return i, "" // right after the previous number: 5-10
	}
	return start, sign
}

// triangleUp is the sign ▲ before a number gives it in a page of lang:
// "+" in Korean (a rise), "-" in Japanese (a minus in accounts), "▲"
// where the language is not known.
func triangleUp(lang string) string {
	switch {
	case strings.HasPrefix(lang, "ko"):
		return "+"
	case strings.HasPrefix(lang, "ja"):
		return "-"
	}
	return "▲"
}

// versionWordBefore reports whether text (between the previous number
// and this one) ends with a version word: 버전 1.8.7, バージョン1.8.7,
// version 1.8.7, ver. 1.8.
func versionWordBefore(text string) bool {
	t := strings.TrimRight(text, " ")
	for _, w := range []string{"버전", "バージョン", "version", "Version", "ver.", "Ver."} {
		if strings.HasSuffix(t, w) {
			return true
		}
	}
	return false
}

// isoDuration reads an ISO 8601 duration (PT1M30S) as seconds.
func isoDuration(s string) (decimal.Decimal, bool) {
	m := isoDurationRe.FindStringSubmatch(s)
	if m == nil || len(s) < 3 {
		return decimal.Decimal{}, false
	}
	total := decimal.Zero
	for i, f := range []int64{86400, 3600, 60, 1} {
		if p := m[i+1]; p != "" {
			v, err := decimal.NewFromString(p)
			if err != nil {
				return decimal.Decimal{}, false
			}
			total = total.Add(v.Mul(decimal.NewFromInt(f)))
		}
	}
	return total, true
}

// clockPrefix returns where a clock time written with words starts (at
// a 오전/오후/午前/午後 before its digits, after lastEnd) and the hours
// that word adds (12 for the afternoon).
func clockPrefix(norm string, i, lastEnd int) (int, int) {
	before := norm[lastEnd:i]
	t := strings.TrimRight(before, " ")
	for _, w := range []struct {
		word string
		pm   int
	}{{"오후", 12}, {"午後", 12}, {"오전", 0}, {"午前", 0}} {
		if strings.HasSuffix(t, w.word) {
			return lastEnd + len(t) - len(w.word), w.pm
		}
	}
	return i, 0
}

// clockKey is the normal form of a clock time: hours (plus pm, for an
// afternoon hour before 12) and minutes in two digits, and seconds when
// written: "14:03", "09:05:07".
func clockKey(h, m, sec string, pm int) string {
	hh, _ := strconv.Atoi(h)
	if hh < 12 {
		hh += pm
	}
	if m == "" {
		m = "0"
	}
	key := pad2(strconv.Itoa(hh)) + ":" + pad2(m)
	if sec != "" {
		key += ":" + pad2(sec)
	}
	return key
}

// mayBeDateLike reports whether the digits at norm[i:] can start an IP
// address, a date, a clock time or a version (ipRe, isoDateRe, cjkDateRe,
// clockRe, versionRe): each needs the digit run followed by ".", "-",
// "/" or ":", or, for a CJK date, a run of 1, 2 or 4 digits followed by
// blanks and 年, 년, 月 or 월. Most numbers are neither, and skip the
// five regular expressions.
func mayBeDateLike(norm string, i int) bool {
	j := i
	for j < len(norm) && norm[j] >= '0' && norm[j] <= '9' {
		j++
	}
	if j < len(norm) {
		switch norm[j] {
		case '.':
			// an IP address, a version or a date with "." needs a
			// second separator after the next digits ("40.5" is none)
			k := j + 1
			for k < len(norm) && norm[k] >= '0' && norm[k] <= '9' {
				k++
			}
			return k > j+1 && k < len(norm) && (norm[k] == '.' || norm[k] == '-' || norm[k] == '/')
		case '-', '/', ':':
			return true
		}
	}
	if n := j - i; n > 2 && n != 4 {
		return false
	}
	for j < len(norm) && (norm[j] == ' ' || norm[j] == '\t' || norm[j] == '\n' || norm[j] == '\f' || norm[j] == '\r') {
		j++
	}
	r := norm[j:]
	return strings.HasPrefix(r, "年") || strings.HasPrefix(r, "년") || strings.HasPrefix(r, "月") || strings.HasPrefix(r, "월")
}

// zeroWord returns the length of a word for zero (ゼロ) at the start
// of s, or 0: "호스트 0개" translates as "ホストがゼロ".
func zeroWord(s string) int {
	if len(s) > 0 && s[0] == zeroText[0] && strings.HasPrefix(s, zeroText) {
		return len(zeroText)
	}
	return 0
}

// zeroText is the word for zero zeroWord reads.
const zeroText = "ゼロ"

func isASCIILetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func pad2(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}

// readQuantity reads a number with magnitudes and unit at norm[i:]. It
// returns the token (Kind "number", Value in the base unit), the end and
// the factor of the unit word to the base unit (0 without unit).
func readQuantity(norm string, i int) (Number, int, decimal.Decimal) {
	n := Number{Kind: "number"}
	total := decimal.Zero
	j := i
	lastMag := int64(0)
	for {
		m := norm[j : j+numberLen(norm[j:])]
		if m == "" {
			break
		}
		v := parseNumber(m)
		k := j + len(m)
		if lastMag == 0 {
			// 10², 10^2 and 10⁻³ are one number (100, 0.001); 1½ is 1.5
			if p, w := powerAt(v, norm[k:]); w > 0 {
				v, k = p, k+w
			} else if f, w := fractionAt(norm[k:]); w > 0 && !strings.Contains(m, ".") {
				v, k = v.Add(f), k+w
			}
		}
		mag := int64(1)
		if w, n := magnitudeAt(norm[k:]); n > 0 {
			mag = magnitudeOf[w]
			k += n
		}
		if lastMag != 0 && (mag >= lastMag || v.Mul(decimal.NewFromInt(mag)).GreaterThanOrEqual(decimal.NewFromInt(lastMag))) {
			break // not a continuation of the compound number
		}
		switch {
		case lastMag == 0 && mag == 1:
			total = v // the usual number: 0 + v × 1 is v, digit for digit
		default:
			total = total.Add(v.Mul(decimal.NewFromInt(mag)))
		}
		j = k
		if mag == 1 {
			break
		}
		lastMag = mag
		// a compound continues after an optional space: 1만 2천, 1万2000
		s := j
		if s < len(norm) && norm[s] == ' ' {
			s++
		}
		if s >= len(norm) || norm[s] < '0' || norm[s] > '9' {
			break
		}
		if m2 := norm[s : s+numberLen(norm[s:])]; m2 != "" {
			v2 := parseNumber(m2)
			mag2 := int64(1)
			if w, n := magnitudeAt(norm[s+len(m2):]); n > 0 {
				mag2 = magnitudeOf[w]
			}
			if mag2 >= lastMag || v2.Mul(decimal.NewFromInt(mag2)).GreaterThanOrEqual(decimal.NewFromInt(lastMag)) {
				break
			}
			j = s
			continue
		}
		break
	}
	n.Value = total
	// 割 (tenths), with 分 (hundredths) and 厘 (thousandths) after it, is a
	// percentage, as package claim reads it: 3割 = 30 %, 3割5分 = 35 %
	if strings.HasPrefix(norm[j:], "割") {
		n.Unit = "%"
		n.Value = total.Mul(decimal.NewFromInt(10))
		j += len("割")
		for _, part := range []struct {
			word string
			f    decimal.Decimal
		}{{"分", decimal.NewFromInt(1)}, {"厘", decimal.New(1, -1)}} {
			m := norm[j : j+numberLen(norm[j:])]
			if m == "" || strings.Contains(m, ".") || !strings.HasPrefix(norm[j+len(m):], part.word) {
				continue
			}
			n.Value = n.Value.Add(parseNumber(m).Mul(part.f))
			j += len(m) + len(part.word)
		}
		return n, j, decimal.Zero
	}
	// 40여 건, 40余件: a little over
	for _, w := range approxGlued {
		if !strings.HasPrefix(norm[j:], w.Word) {
			continue
		}
		e := j + len(w.Word)
		next, _ := utf8.DecodeRuneInString(norm[e:])
		if uw, _ := unitWordAt(norm[e:]); e == len(norm) || uw != "" || !isEastAsianLetter(next) {
			n.Approx, j = w.Approx, e
		}
		break
	}
	// unit, after an optional space
	u := j
	if u < len(norm) && norm[u] == ' ' {
		u++
	}
	for _, q := range cmpAfter {
		if strings.HasPrefix(norm[u:], q.word) {
			return n, j, decimal.Zero // 3 초과: a comparator, not 3 seconds
		}
	}
	w, bu := unitWordAt(norm[u:])
	if w == "" {
		return n, j, decimal.Zero
	}
	n.Unit = bu.name
	if !literal.IsOne(bu.factor) {
		n.Value = n.Value.Mul(bu.factor)
	}
	return n, u + len(w), bu.factor
}

// unitWordAt returns the unit word s starts with (package unit's
// spellings and extraUnits, the longest) and the base unit it is
// compared in; "" when s starts with none.
func unitWordAt(s string) (string, baseUnit) {
	if s == "" {
		return "", baseUnit{}
	}
	w, u := unit.Prefix(s)
	bu, ok := parityUnits[u.Name]
	if !ok {
		bu = baseUnit{u.Name, decimal.NewFromInt(1)} // an ambiguous word (m)
	}
	if s[0] == 0xED || s[0] == 0xEB || s[0] == 0xE6 || s[0] == 'K' || s[0] == 'M' || s[0] == 'G' { // 포, 단, 段, Ki, Mi, Gi
		for x, name := range extraUnits {
			if len(x) > len(w) && strings.HasPrefix(s, x) && !(isASCIILetterByte(x[len(x)-1]) && len(s) > len(x) && isASCIILetterByte(s[len(x)])) {
				w, bu = x, parityUnits[name]
			}
		}
	}
	return w, bu
}

// changeVerbs are the words of a change that まで or 까지 before them
// make an end point: 0.21%まで下がった, 0.21%까지 떨어졌다 (down to 0.21%).
var changeVerbs = []string{
	"下が", "上が", "減", "増", "落ち", "低下", "上昇", "短縮", "改善", "回復", "伸び", "縮", "悪化", "到達", "達し",
	"떨어", "내려", "올라", "줄", "늘", "감소", "증가", "단축", "개선", "회복", "상승", "하락", "악화", "도달",
}

// changeVerbAt reports whether s starts with a change verb.
func changeVerbAt(s string) bool {
	for _, v := range changeVerbs {
		if strings.HasPrefix(s, v) {
			return true
		}
	}
	return false
}

// joinApprox combines two approximation words read around one number,
// as the claim grammar does: one meaning, or about when they differ.
func joinApprox(a, b literal.Approx) literal.Approx {
	if a == literal.Exact || a == b {
		return b
	}
	return literal.About
}

// wordStartsAt reports whether word, found at s[k:], starts a word: a
// Hangul word (약, 거의) not glued to Hangul before it (계약 is a contract,
// not "about"), an English word not glued to a letter.
func wordStartsAt(s string, k int, word string) bool {
	if k == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:k])
	first, _ := utf8.DecodeRuneInString(word)
	switch {
	case first < utf8.RuneSelf && isASCIILetterByte(byte(first)):
		return !(prev < utf8.RuneSelf && isASCIILetterByte(byte(prev)))
	case first >= 0xAC00 && first <= 0xD7A3:
		return !(prev >= 0xAC00 && prev <= 0xD7A3)
	}
	return true
}

// qualify sets Cmp, Approx and the per-second rate of n from the words
// around norm[start:end], then its Key.
func qualify(n *Number, norm string, start, end int) {
	before := strings.TrimRight(norm[max(0, start-24):start], " ")
	after := strings.TrimLeft(norm[end:min(len(norm), end+24)], " ")
	lowerBefore := toLower(before)
	lowerAfter := toLower(after)
	// only the words ending (starting) with the text's last (first)
	// byte can match: the lists indexed by that byte, in order
	var lastB, firstA byte
	if len(lowerBefore) > 0 {
		lastB = lowerBefore[len(lowerBefore)-1]
	}
	if len(lowerAfter) > 0 {
		firstA = lowerAfter[0]
	}
	for _, q := range cmpBeforeByLast[lastB] {
		if strings.HasSuffix(lowerBefore, q.word) && wordStartsAt(lowerBefore, len(lowerBefore)-len(q.word), q.word) {
			n.Cmp = q.cmp
			break
		}
	}
	if n.Cmp == "" {
		n.Cmp = extremumBefore(lowerBefore)
	}
	if cmp := cmpVerbAfter(lowerAfter); cmp != "" {
		n.Cmp = cmp
	} else {
		for _, q := range cmpAfterByFirst[firstA] {
			if strings.HasPrefix(lowerAfter, q.word) {
				if (q.word == "まで" || q.word == "까지") && changeVerbAt(strings.TrimLeft(lowerAfter[len(q.word):], " ")) {
					break // 0.21%まで下がった: where a change ended, not "at most"
				}
				n.Cmp = q.cmp
				break
			}
		}
	}
	for _, w := range approxBeforeByLast[lastB] {
		if strings.HasSuffix(lowerBefore, w.Word) && wordStartsAt(lowerBefore, len(lowerBefore)-len(w.Word), w.Word) {
			n.Approx = joinApprox(n.Approx, w.Approx)
		}
	}
	if strings.HasSuffix(before, "~") && !(len(before) > 1 && before[len(before)-2] >= '0' && before[len(before)-2] <= '9') {
		n.Approx = joinApprox(n.Approx, literal.About) // "~40초"; "5~10": a range
	}
	for _, w := range approxAfterByFirst[firstA] {
		if !strings.HasPrefix(lowerAfter, w.Word) {
			continue
		}
		if e := len(w.Word); isASCIILetterByte(w.Word[e-1]) && e < len(lowerAfter) && isASCIILetterByte(lowerAfter[e]) {
			continue
		}
		// 位, 強, 弱 after a bare number are a rank or a word (1位, 3強)
		if n.Unit == "" && len(w.Word) == 3 && w.Word[0] >= 0xE4 && w.Word[0] <= 0xE9 {
			continue
		}
		n.Approx = joinApprox(n.Approx, w.Approx)
	}
	if n.Sign == "" && n.Unit == "s" {
		n.point = pointAt(norm[:start], lowerAfter)
	}
	if n.Unit == "" && (strings.HasSuffix(before, "초당") || strings.HasSuffix(before, "毎秒") || strings.HasSuffix(lowerBefore, "per second")) {
		n.Unit = "/s"
	}
	// cmp|value|unit, built in one buffer
	var buf [64]byte
	key := buf[:0]
	if n.Cmp != "" {
		key = append(append(key, n.Cmp...), '|')
	}
	switch {
	case n.Sign == "+" && !n.Value.IsNegative():
		key = append(key, '+')
	case n.Sign == "-" && n.Value.IsZero():
		key = append(key, '-')
	case n.Sign == "▲":
		key = append(key, "▲"...)
	}
	key = appendDecimal(key, n.Value)
	if n.Unit != "" {
		key = append(append(key, '|'), n.Unit...)
	}
	n.Key = string(key)
}

// extremumBefore returns the bound an extremum word states before a
// number with a particle or none between (최솟값은 5, 最小値は5, 최대는 3,
// the maximum is 3), given lb, the lower-case text before the number
// with its trailing blanks trimmed; "" when none stands there.
func extremumBefore(lb string) string {
	for pass := 0; pass < 2; pass++ {
		t := lb
		if pass == 1 {
			found := false
			for _, p := range extremumParticles {
				if strings.HasSuffix(t, p) {
					t, found = strings.TrimRight(t[:len(t)-len(p)], " "), true
					break
				}
			}
			if !found {
				return ""
			}
		}
		for _, w := range extremumWords {
			if strings.HasSuffix(t, w.word) && wordStartsAt(t, len(t)-len(w.word), w.word) {
				return w.cmp
			}
		}
	}
	return ""
}

// cmpVerbAfter returns the bound a verb of cmpVerbs states after a
// number (la: the lower-case text after it and its unit, leading blanks
// trimmed), after one particle or none: ">" for 30을 넘는, 30を超える; the
// opposite bound when negated ("<=" for 30을 넘지 않는, 30を超えない); ""
// for none.
func cmpVerbAfter(la string) string {
	if la == "" || la[0] < utf8.RuneSelf {
		return "" // most text: a verb or particle starts with Hangul, kana or Han
	}
	for pass := 0; pass < 2; pass++ {
		s := la
		if pass == 1 {
			found := false
			for _, p := range cmpParticles {
				if strings.HasPrefix(s, p) {
					s, found = strings.TrimLeft(s[len(p):], " "), true
					break
				}
			}
			if !found {
				return ""
			}
		}
		for _, v := range cmpVerbs {
			if !strings.HasPrefix(s, v.word) {
				continue
			}
			rest := s[len(v.word):]
			if v.word == "넘" && !hasAnyPrefix(rest, "는", "게", "은", "어", "었", "으", "지", "을", "긴", "겨", "친", "치") {
				continue // 넘버: not a form of 넘다
			}
			for _, neg := range cmpNegations {
				if strings.HasPrefix(rest, neg) {
					if v.cmp == ">" {
						return "<="
					}
					return ">="
				}
			}
			return v.cmp
		}
	}
	return ""
}

// toLower is strings.ToLower without a copy of a string it leaves as it
// is: most text around a number is Hangul, kana, Han or lower case.
func toLower(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return strings.ToLower(s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if caseless(r) {
			i += size
			continue
		}
		if r == utf8.RuneError && size == 1 || unicode.ToLower(r) != r {
			return strings.ToLower(s) // it changes this rune (or byte)
		}
		i += size
	}
	return s
}

// caseless reports whether r is in a block without letter case: kana,
// CJK ideographs, Hangul syllables (the runes around most numbers here).
func caseless(r rune) bool {
	return r >= 0x3040 && r <= 0x30FF || r >= 0x4E00 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7A3
}

// decimalString is d.String() without math/big for a coefficient that
// fits an int64 and an exponent of 0 or below (40, 86, 0.021, 51.7): the
// same digits, trailing zeros of the fraction dropped, as decimal prints
// them by default.
func decimalString(d decimal.Decimal) string {
	var buf [32]byte
	return string(appendDecimal(buf[:0], d))
}

// appendDecimal appends decimalString(d) to b.
func appendDecimal(b []byte, d decimal.Decimal) []byte {
	exp := d.Exponent()
	if !decimal.TrimTrailingZeros || decimal.UseScientificNotation || exp > 0 || d.NumDigits() > 18 {
		return append(b, d.String()...)
	}
	c := d.CoefficientInt64()
	if exp == 0 {
		return strconv.AppendInt(b, c, 10)
	}
	if c < 0 {
		b, c = append(b, '-'), -c
	}
	var digits [24]byte
	str := strconv.AppendInt(digits[:0], c, 10)
	e := int(-exp)
	if len(str) > e {
		intPart, frac := str[:len(str)-e], str[len(str)-e:]
		frac = bytes.TrimRight(frac, "0")
		b = append(b, intPart...)
		if len(frac) > 0 {
			b = append(append(b, '.'), frac...)
		}
		return b
	}
	frac := bytes.TrimRight(str, "0")
	b = append(b, '0')
	if len(frac) == 0 {
		return b
	}
	b = append(b, '.')
	for range e - len(str) {
		b = append(b, '0')
	}
	return append(b, frac...)
}

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
		if a.Kind != "number" || b.Kind != "number" || !unitsAgree(a.Unit, b.Unit) || a.Cmp != b.Cmp || !signsAgree(a, b) || a.spread != b.spread || !valuesAgree(a, b) {
			return Disagree
		}
	}
	if !approxAgree(a.Approx, b.Approx) {
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

// approxAgree reports whether two approximation words say the same:
// both exact, or both approximate and not one over, the other under.
func approxAgree(a, b literal.Approx) bool {
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

// superscripts maps the superscript digits to their values.
var superscripts = map[rune]int64{'⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9}

// powerAt reads an exponent written right after base at the start of
// s: superscript digits (10², 10⁻³) or "^" and ASCII digits (10^2,
// 10^-3). It returns base raised to it and the length read (0 for
// none, for an exponent above 40, and for a negative exponent of a
// base other than 10, which has no exact decimal).
func powerAt(base decimal.Decimal, s string) (decimal.Decimal, int) {
	neg, w, e, digits := false, 0, int64(0), 0
	if strings.HasPrefix(s, "^") {
		w = 1
		if r, n := utf8.DecodeRuneInString(s[w:]); r == '-' || r == '−' {
			neg, w = true, w+n
		}
		for w < len(s) && s[w] >= '0' && s[w] <= '9' && digits < 3 {
			e, w, digits = e*10+int64(s[w]-'0'), w+1, digits+1
		}
		if digits == 0 || w < len(s) && (s[w] >= '0' && s[w] <= '9' || s[w] == '.' && w+1 < len(s) && s[w+1] >= '0' && s[w+1] <= '9') {
			return base, 0 // no exponent, or not a whole one (10^2.5)
		}
	} else {
		if strings.HasPrefix(s, "⁻") {
			neg, w = true, len("⁻")
		}
		for w < len(s) && digits < 3 {
			r, n := utf8.DecodeRuneInString(s[w:])
			d, ok := superscripts[r]
			if !ok {
				break
			}
			e, w, digits = e*10+d, w+n, digits+1
		}
		if digits == 0 {
			return base, 0
		}
	}
	switch {
	case e > 40:
		return base, 0
	case neg && !base.Equal(decimal.NewFromInt(10)):
		return base, 0
	case neg:
		return decimal.New(1, -int32(e)), w
	}
	return base.Pow(decimal.NewFromInt(e)), w
}

// fractions are the vulgar fractions (unicode.No) as numerator and
// denominator.
var fractions = map[rune][2]int64{
	'¼': {1, 4}, '½': {1, 2}, '¾': {3, 4}, '⅐': {1, 7}, '⅑': {1, 9}, '⅒': {1, 10}, '⅓': {1, 3}, '⅔': {2, 3},
	'⅕': {1, 5}, '⅖': {2, 5}, '⅗': {3, 5}, '⅘': {4, 5}, '⅙': {1, 6}, '⅚': {5, 6}, '⅛': {1, 8}, '⅜': {3, 8},
	'⅝': {5, 8}, '⅞': {7, 8}, '↉': {0, 3},
}

// fractionAt reads a vulgar fraction at the start of s (½, ⅓): its
// value (to 16 decimals where it does not end) and length, or 0.
func fractionAt(s string) (decimal.Decimal, int) {
	r, n := utf8.DecodeRuneInString(s)
	f, ok := fractions[r]
	if !ok {
		return decimal.Zero, 0
	}
	return decimal.NewFromInt(f[0]).DivRound(decimal.NewFromInt(f[1]), 16), n
}

// symbolLead reports whether norm[i] may start a numeric symbol that
// symbolAt reads (a lead byte of ¼ ½ ¾ ¹ ² ³, of the symbols of U+2070
// to U+2BFF, of the circled numbers of U+3251 to U+32BF, or of a
// supplementary rune), cheaply: most bytes are not.
func symbolLead(norm string, i int) bool {
	switch norm[i] {
	case 0xC2, 0xE2, 0xF0:
		return true
	case 0xE3:
		return i+1 < len(norm) && (norm[i+1] == 0x89 || norm[i+1] == 0x8A)
	}
	return false
}

// symbolAt reads the Unicode numeric symbol (unicode.No or Nl, other
// than the Han zero 〇, which is a number word) at norm[i:], so that no
// number of a page is invisible to the comparison: a vulgar fraction is
// the number it stands for (½ is 0.5); a circled, parenthesized or
// Roman numeral (③, ⑶, ❸, Ⅲ) is a mark of kind "mark" keyed by its
// value, so ③ and ⑶ agree and ③ and ② differ; any other is a mark
// keyed by its text (a footnote mark¹). A superscript or subscript after
// an ASCII letter is part of a unit or a name (m², H₂O), not a number:
// width 0.
func symbolAt(norm string, i int) (Number, int) {
	r, w := utf8.DecodeRuneInString(norm[i:])
	if r == '〇' || !unicode.In(r, unicode.No, unicode.Nl) {
		return Number{}, 0
	}
	if f, n := fractionAt(norm[i:]); n > 0 {
		return Number{Kind: "number", Value: f}, n
	}
	if v, ok := prose.NumeralMark(r); ok {
		return Number{Kind: "mark", Key: strconv.Itoa(v)}, w
	}
	if _, sup := superscripts[r]; sup || r >= '₀' && r <= '₉' {
		if i > 0 && isASCIILetterByte(norm[i-1]) {
			return Number{}, 0
		}
	}
	return Number{Kind: "mark", Key: norm[i : i+w]}, w
}

// hasAnyPrefix reports whether s starts with one of words.
func hasAnyPrefix(s string, words ...string) bool {
	for _, w := range words {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}
