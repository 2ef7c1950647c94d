package translation

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Number is one number of a page's text read as a typed token, the form
// in which a translation's numbers are compared with its source's.
//
// Value is in the base unit of Unit: times in seconds ("s"), sizes in
// bytes ("B"), rates per second ("/s"), and "%", "%p", "x" (multiples) as
// written; counting words (회, 回, 件, つ, 단계…) and bare numbers have
// Unit "". Cmp is the comparator stated around the number ("<=" for 최대 3,
// 3まで, at most 3, 3 이하; ">=", "<", ">"; "" for none) and Approx an
// approximation mark (약, 約, about, 정도, ほど…). Kind is "number", or
// "date", "time", "version", "ip" or "id" (a number glued to a name, such
// as p99) for numbers compared by their text. Start and End are byte
// offsets in the text scanned.
type Number struct {
	Kind   string
	Value  decimal.Decimal
	Unit   string
	Cmp    string
	Approx bool
	Text   string
	Key    string // Kind-specific normal form (see NormalForm)
	Start  int
	End    int
}

// NormalForm is the number as compared across languages, comparator
// included and approximation excluded: "12000", "40|s", "<=|3", "2026-07-09".
func (n Number) NormalForm() string { return n.Key }

var (
	isoDateRe = regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})`)
	cjkDateRe = regexp.MustCompile(`^(?:(\d{4})\s*[年년]\s*)?(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日일])?`)
	clockRe   = regexp.MustCompile(`^\d{1,2}:\d{2}(?::\d{2})?`)
	versionRe = regexp.MustCompile(`^v?\d+\.\d+\.\d+(?:[-+.\w]*)`)
	ipRe      = regexp.MustCompile(`^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?:/\d{1,2})?(?::\d+)?`)

	magnitudeOf = map[string]int64{"천": 1e3, "千": 1e3, "만": 1e4, "万": 1e4, "억": 1e8, "億": 1e8}

	// units: word → (unit, factor to the base unit), longest match first.
	unitWords = map[string]struct {
		unit   string
		factor string
	}{
		"%": {"%", "1"}, "퍼센트": {"%", "1"}, "パーセント": {"%", "1"}, "percent": {"%", "1"},
		"%p": {"%p", "1"}, "퍼센트포인트": {"%p", "1"}, "パーセントポイント": {"%p", "1"}, "ポイント": {"%p", "1"}, "포인트": {"%p", "1"},
		"ns": {"s", "0.000000001"}, "나노초": {"s", "0.000000001"}, "ナノ秒": {"s", "0.000000001"},
		"us": {"s", "0.000001"}, "μs": {"s", "0.000001"}, "µs": {"s", "0.000001"}, "마이크로초": {"s", "0.000001"}, "マイクロ秒": {"s", "0.000001"},
		"ms": {"s", "0.001"}, "밀리초": {"s", "0.001"}, "ミリ秒": {"s", "0.001"},
		"s": {"s", "1"}, "sec": {"s", "1"}, "seconds": {"s", "1"}, "second": {"s", "1"}, "초": {"s", "1"}, "秒": {"s", "1"}, "秒間": {"s", "1"},
		"min": {"s", "60"}, "minutes": {"s", "60"}, "분": {"s", "60"}, "分": {"s", "60"}, "分間": {"s", "60"},
		"h": {"s", "3600"}, "hours": {"s", "3600"}, "시간": {"s", "3600"}, "時間": {"s", "3600"},
		"일": {"s", "86400"}, "日": {"s", "86400"}, "日間": {"s", "86400"}, "days": {"s", "86400"},
		"B": {"B", "1"}, "bytes": {"B", "1"}, "바이트": {"B", "1"}, "バイト": {"B", "1"},
		"KB": {"B", "1000"}, "KiB": {"B", "1024"}, "MB": {"B", "1000000"}, "MiB": {"B", "1048576"}, "GB": {"B", "1000000000"}, "GiB": {"B", "1073741824"},
		"Ki": {"B", "1024"}, "Mi": {"B", "1048576"}, "Gi": {"B", "1073741824"},
		"rps": {"/s", "1"}, "qps": {"/s", "1"}, "/s": {"/s", "1"},
		"배": {"x", "1"}, "倍": {"x", "1"}, "x": {"x", "1"}, "×": {"x", "1"},
		"회": {"", "1"}, "回": {"", "1"}, "건": {"", "1"}, "件": {"", "1"}, "개": {"", "1"}, "個": {"", "1"}, "번": {"", "1"},
		"つ": {"", "1"}, "단계": {"", "1"}, "段階": {"", "1"}, "명": {"", "1"}, "人": {"", "1"}, "대": {"", "1"}, "台": {"", "1"},
		"가지": {"", "1"}, "種類": {"", "1"}, "차례": {"", "1"}, "度": {"", "1"}, "times": {"", "1"}, "개의": {"", "1"},
	}
	unitList = sortedUnits()
	// unitsByByte lists the words of unitList by their first byte, in
	// unitList's order: the words a text can start with.
	unitsByByte = unitIndex(unitList)

	// Qualifiers written before a number (the text ending at it) and
	// after it (the text starting after it and its unit).
	cmpBefore = []cmpWord{
		{"최대", "<="}, {"最大", "<="}, {"at most", "<="}, {"up to", "<="}, {"no more than", "<="},
		{"최소", ">="}, {"最低", ">="}, {"少なくとも", ">="}, {"at least", ">="}, {"no less than", ">="},
		{"more than", ">"}, {"over", ">"}, {"less than", "<"}, {"fewer than", "<"}, {"under", "<"},
		{"≥", ">="}, {">=", ">="}, {"≤", "<="}, {"<=", "<="}, {"<", "<"}, {">", ">"},
	}
	cmpAfter = []cmpWord{
		{"이상", ">="}, {"以上", ">="}, {"or more", ">="},
		{"이하", "<="}, {"以下", "<="}, {"까지", "<="}, {"まで", "<="}, {"이내", "<="}, {"以内", "<="}, {"or less", "<="}, {"or fewer", "<="},
		{"미만", "<"}, {"未満", "<"},
		{"초과", ">"}, {"超", ">"}, {"を超える", ">"},
	}
	approxBefore = []string{"약", "대략", "約", "およそ", "おおよそ", "~", "≈", "about", "approximately", "around", "roughly"}
	approxAfter  = []string{"정도", "쯤", "가량", "ほど", "程度", "前後", "くらい", "ぐらい", "余り", "여"}

	// The qualifiers by the byte a text must end with (before a number)
	// or start with (after it) to hold them, in their lists' order.
	cmpBeforeByLast    = indexBy(cmpBefore, func(q cmpWord) byte { return q.word[len(q.word)-1] })
	cmpAfterByFirst    = indexBy(cmpAfter, func(q cmpWord) byte { return q.word[0] })
	approxBeforeByLast = indexBy(approxBefore, func(w string) byte { return w[len(w)-1] })
	approxAfterByFirst = indexBy(approxAfter, func(w string) byte { return w[0] })
)

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

// sortedUnits lists the unit words longest first, so that "ms" wins over
// "s" and "퍼센트포인트" over "퍼센트".
func sortedUnits() []string {
	var l []string
	for w := range unitWords {
		l = append(l, w)
	}
	sort.Slice(l, func(i, j int) bool {
		if len(l[i]) != len(l[j]) {
			return len(l[i]) > len(l[j])
		}
		return l[i] < l[j]
	})
	return l
}

// unitIndex groups words by their first byte, keeping their order.
func unitIndex(words []string) [256][]string {
	var ix [256][]string
	for _, w := range words {
		ix[w[0]] = append(ix[w[0]], w)
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
		for n+4 <= len(s) && s[n] == ',' && digitRun(s[n+1:n+4], 0) == 3 {
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
		case c == ',':
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
		d, _ := decimal.NewFromString(strings.ReplaceAll(m, ",", ""))
		return d
	}
	return decimal.New(v, -scale)
}

// normalizeText maps full-width digits and signs to ASCII and returns,
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
	return 0
}

// hasFullWidth reports whether s holds a rune fullWidthASCII maps.
func hasFullWidth(s string) bool {
	for i := 0; i < len(s); i++ {
		// every mapped rune is three bytes long and starts with 0xE2,
		// 0xE3 or 0xEF
		if c := s[i]; c == 0xE2 || c == 0xE3 || c == 0xEF {
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
// words (1万2000, 1만 2천, 1.2만) are read as one number; "5" never
// matches inside "15".
func ScanNumbers(text string) []Number {
	out, _ := scanNumbers(text, true)
	return out
}

// countNumbers is len(ScanNumbers(text)) without building the numbers:
// the same scan, with no values computed where they do not decide where
// a number ends (they do only between the parts of a compound: 1만 2천),
// no qualifiers read and no keys formatted.
func countNumbers(text string) int {
	_, n := scanNumbers(text, false)
	return n
}

// scanNumbers is ScanNumbers when keep is set; otherwise it only counts
// the numbers it would return (out is nil).
func scanNumbers(text string, keep bool) (out []Number, count int) {
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
	for i := 0; i < len(norm); {
		if c := norm[i]; (c < '0' || c > '9') && c != zeroText[0] {
			i++ // neither a digit nor the start of ゼロ: nothing starts here
			continue
		}
		if w := zeroWord(norm[i:]); w > 0 {
			count++
			if !keep {
				i += w
				continue
			}
			n := Number{Kind: "number", Value: decimal.Zero, Text: text[at(i):at(i+w)], Start: at(i), End: at(i + w)}
			qualify(&n, norm, i, i+w)
			out = append(out, n)
			i += w
			continue
		}
		c := norm[i]
		if c < '0' || c > '9' {
			i++
			continue
		}
		// part of a name (p99, L7, MID1, HTTP/2, D-1)?
		if i > 0 && (isASCIIAlnum(norm[i-1]) || (norm[i-1] == '-' || norm[i-1] == '/') && i > 1 && isASCIILetterByte(norm[i-2])) {
			j := i
			for j < len(norm) && isASCIIAlnum(norm[j]) {
				j++
			}
			k := i
			for k > 0 && (isASCIIAlnum(norm[k-1]) || (norm[k-1] == '-' || norm[k-1] == '/') && k > 1 && isASCIIAlnum(norm[k-2])) {
				k--
			}
			count++
			if !keep {
				i = j
				continue
			}
			word := strings.ToLower(norm[k:j])
			out = append(out, Number{Kind: "id", Text: text[at(k):at(j)], Key: "id:" + word, Start: at(k), End: at(j)})
			i = j
			continue
		}
		rest := norm[i:]
		if mayBeDateLike(norm, i) {
			if m := ipRe.FindString(rest); m != "" {
				count++
				if !keep {
					i += len(m)
					continue
				}
				out = append(out, Number{Kind: "ip", Text: text[at(i):at(i+len(m))], Key: "ip:" + m, Start: at(i), End: at(i + len(m))})
				i += len(m)
				continue
			}
			if m := isoDateRe.FindStringSubmatch(rest); m != nil {
				count++
				if !keep {
					i += len(m[0])
					continue
				}
				key := "date:" + m[1] + "-" + pad2(m[2]) + "-" + pad2(m[3])
				out = append(out, Number{Kind: "date", Text: text[at(i):at(i+len(m[0]))], Key: key, Start: at(i), End: at(i + len(m[0]))})
				i += len(m[0])
				continue
			}
			if m := cjkDateRe.FindStringSubmatch(rest); m != nil && (m[1] != "" || m[3] != "") {
				count++
				if !keep {
					i += len(m[0])
					continue
				}
				key := "date:" + m[1] + "-" + pad2(m[2]) + "-" + pad2(m[3])
				out = append(out, Number{Kind: "date", Text: text[at(i):at(i+len(m[0]))], Key: key, Start: at(i), End: at(i + len(m[0]))})
				i += len(m[0])
				continue
			}
			if m := clockRe.FindString(rest); m != "" {
				count++
				if !keep {
					i += len(m)
					continue
				}
				out = append(out, Number{Kind: "time", Text: text[at(i):at(i+len(m))], Key: "time:" + m, Start: at(i), End: at(i + len(m))})
				i += len(m)
				continue
			}
			if m := versionRe.FindString(rest); m != "" {
				count++
				if !keep {
					i += len(m)
					continue
				}
				out = append(out, Number{Kind: "version", Text: text[at(i):at(i+len(m))], Key: "version:" + strings.TrimPrefix(m, "v"), Start: at(i), End: at(i + len(m))})
				i += len(m)
				continue
			}
		}
		n, end := readQuantity(norm, i, keep)
		count++
		if !keep {
			i = end
			continue
		}
		n.Start, n.End = at(i), at(end)
		n.Text = text[n.Start:n.End]
		qualify(&n, norm, i, end)
		out = append(out, n)
		i = end
	}
	return out, count
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
// returns the token (Kind "number", Value in the base unit) and the end.
// Without keep only the end is meant: the value is left zero, computed
// only where it decides the end.
func readQuantity(norm string, i int, keep bool) (Number, int) {
	n := Number{Kind: "number"}
	total := decimal.Zero
	j := i
	lastMag := int64(0)
	for {
		m := norm[j : j+numberLen(norm[j:])]
		if m == "" {
			break
		}
		var v decimal.Decimal
		if keep || lastMag != 0 {
			v = parseNumber(m)
		}
		k := j + len(m)
		mag := int64(1)
		if w, n := magnitudeAt(norm[k:]); n > 0 {
			mag = magnitudeOf[w]
			k += n
		}
		if lastMag != 0 && (mag >= lastMag || v.Mul(decimal.NewFromInt(mag)).GreaterThanOrEqual(decimal.NewFromInt(lastMag))) {
			break // not a continuation of the compound number
		}
		switch {
		case !keep:
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
		if keep {
			n.Value = total.Mul(decimal.NewFromInt(10))
		}
		j += len("割")
		for _, part := range []struct {
			word string
			f    decimal.Decimal
		}{{"分", decimal.NewFromInt(1)}, {"厘", decimal.New(1, -1)}} {
			m := norm[j : j+numberLen(norm[j:])]
			if m == "" || strings.Contains(m, ".") || !strings.HasPrefix(norm[j+len(m):], part.word) {
				continue
			}
			if keep {
				n.Value = n.Value.Add(parseNumber(m).Mul(part.f))
			}
			j += len(m) + len(part.word)
		}
		return n, j
	}
	// unit, after an optional space
	u := j
	if u < len(norm) && norm[u] == ' ' {
		u++
	}
	for _, q := range cmpAfter {
		if strings.HasPrefix(norm[u:], q.word) {
			return n, j // 3 초과: a comparator, not 3 seconds
		}
	}
	var units []string
	if u < len(norm) {
		units = unitsByByte[norm[u]]
	}
	for _, w := range units {
		if strings.HasPrefix(norm[u:], w) {
			end := u + len(w)
			// a Latin unit must not run into a longer word ("s" of "seconds" is taken whole; "x" of "xyz" is not a unit)
			if isASCIILetterByte(w[len(w)-1]) && end < len(norm) && isASCIILetterByte(norm[end]) {
				continue
			}
			uw := unitWords[w]
			n.Unit = uw.unit
			if keep && uw.factor != "1" { // times 1 leaves the value as it is
				f, _ := decimal.NewFromString(uw.factor)
				n.Value = n.Value.Mul(f)
			}
			j = end
			break
		}
	}
	return n, j
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
		if strings.HasSuffix(lowerBefore, q.word) {
			n.Cmp = q.cmp
			break
		}
	}
	for _, q := range cmpAfterByFirst[firstA] {
		if strings.HasPrefix(lowerAfter, q.word) {
			n.Cmp = q.cmp
			break
		}
	}
	for _, w := range approxBeforeByLast[lastB] {
		if strings.HasSuffix(lowerBefore, w) {
			// "5~10": a range, not an approximation
			if w == "~" && len(before) > 1 && before[len(before)-2] >= '0' && before[len(before)-2] <= '9' {
				continue
			}
			n.Approx = true
		}
	}
	for _, w := range approxAfterByFirst[firstA] {
		if strings.HasPrefix(lowerAfter, w) {
			n.Approx = true
		}
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
	key = appendDecimal(key, n.Value)
	if n.Unit != "" {
		key = append(append(key, '|'), n.Unit...)
	}
	n.Key = string(key)
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
// on one side only), comparators and approximation marks.
func Compare(a, b Number) Verdict {
	if a.Key != b.Key {
		// a unit written in one language only ([t=0] and [0秒]) is not
		// a disagreement when the values are equal
		if a.Kind != "number" || b.Kind != "number" || a.Unit != "" && b.Unit != "" || a.Cmp != b.Cmp || !a.Value.Equal(b.Value) {
			return Disagree
		}
	}
	if a.Approx != b.Approx {
		return Warn
	}
	return Agree
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
