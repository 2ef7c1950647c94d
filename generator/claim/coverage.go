package claim

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// ProseNumber is a number written in prose outside any claim. Rule names
// the exemption that applies ("version", "ip", "date", "time", "identifier",
// "numbering", "port", "status" (an HTTP status code), "shortcode"), or is
// "" for a number that should be
// bound to evidence and is not.
type ProseNumber struct {
	Text string        `json:"text"`
	Pos  diag.Position `json:"pos"`
	Rule string        `json:"rule,omitempty"`
	// End is the source byte offset where the number ends: Pos.Offset +
	// len(Text), unless character references wrote it (&#52;&#48;).
	End int `json:"-"`
	// In says where the number is published when it is not the body's
	// prose: "argument caption of shortcode figure".
	In string `json:"in,omitempty"`
}

var (
	// proseNumber is a run of decimal digits of any script (unicode.Nd:
	// 0-9, ０-９, ٣, 𝟒 …) and vulgar fractions (½, ⅔, 1½), with decimal
	// and group separators between digits (1,234.5) and underscores
	// before groups of three (1_000), and an exponent after it (10², 10^2,
	// 10⁻³: one number); or one other numeric symbol (unicode.No or Nl:
	// ③, Ⅻ, a superscript ¹ that follows no digit), which classify names
	// (see symbolRule).
	proseNumber = regexp.MustCompile(`[\p{Nd}¼-¾⅐-⅞↉]+(?:[.,]\p{Nd}+|_[0-9]{3})*(?:\^[-−]?[0-9]{1,3}|⁻?[⁰¹²³⁴-⁹]{1,3})?|[\p{No}\p{Nl}]`)
	dateRe      = regexp.MustCompile(`^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}`)
	cjkDateRe   = regexp.MustCompile(`^(\d{4}\s*[年년]\s*)?\d{1,2}\s*[月월](\s*\d{1,2}\s*[日일])?`)
	timeRe      = regexp.MustCompile(`^\d{1,2}:\d{2}(:\d{2})?`)
	// cjkTimeRe is a time of day in Korean or Japanese: 2시 3분, 14時3分,
	// 오후 2시 3분 (the 오후 is a word); 2시간 and 2時間 are durations (see
	// cjkTime).
	cjkTimeRe   = regexp.MustCompile(`^\d{1,2}\s*(?:시|時)(?:\s*\d{1,2}\s*(?:분|分)(?:\s*\d{1,2}\s*(?:초|秒))?)?`)
	ipv4Re      = regexp.MustCompile(`\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$`)
	shortcodeRe = regexp.MustCompile(`(?s)\{\{[<%].*?[%>]\}\}`)
)

// ScanText classifies the numbers in src[start:stop], a run of plain text
// outside Markdown (such as a front matter title), by the same exemption
// rules as prose.
func ScanText(ix *diag.LineIndex, src []byte, start, stop int) []ProseNumber {
	var skip [2]int
	return scanProse(ix, src, start, stop, false, nil, &skip)
}

// shortcodeSpans returns the byte ranges of Hugo shortcode calls
// ({{< name … >}} and {{% name … %}}) in src. A call of a diagram or
// formula shortcode (diagramShortcodes) spans its inner content up to its
// closing call: the numbers of a Mermaid graph or a KaTeX formula are the
// diagram's syntax, and a claim link written there would break it.
func shortcodeSpans(src []byte) [][]int {
	calls := shortcodeRe.FindAllIndex(src, -1)
	for i := 0; i < len(calls); i++ {
		name, closing := shortcodeName(src[calls[i][0]:calls[i][1]])
		if closing || !diagramShortcodes[name] {
			continue
		}
		for j := i + 1; j < len(calls); j++ {
			if n, c := shortcodeName(src[calls[j][0]:calls[j][1]]); c && n == name {
				calls[i] = []int{calls[i][0], calls[j][1]}
				calls = append(calls[:i+1], calls[j+1:]...)
				break
			}
		}
	}
	return calls
}

// diagramShortcodes are the shortcodes (lower case) whose inner content
// is a diagram or a formula, as themes and sites name them.
var diagramShortcodes = map[string]bool{
	"mermaid": true, "katex": true, "math": true, "latex": true, "tex": true,
	"mathjax": true, "chart": true, "plantuml": true, "graphviz": true,
	"kroki": true, "diagram": true, "echarts": true, "flowchart": true,
}

// shortcodeNameRe reads a shortcode call's name and whether it closes.
var shortcodeNameRe = regexp.MustCompile(`^\{\{[<%]-?\s*(/?)\s*([A-Za-z0-9_./-]+)`)

// shortcodeName returns the name (lower case) of the shortcode call c and
// whether it is a closing call ({{< /name >}}).
func shortcodeName(c []byte) (string, bool) {
	m := shortcodeNameRe.FindSubmatch(c)
	if m == nil {
		return "", false
	}
	return strings.ToLower(string(m[2])), len(m[1]) > 0
}

// scanProse finds the numbers in src[start:stop] and classifies each. When
// headingStart is set the text opens a heading, where a leading number
// followed by "." or ")" is section numbering.
//
// skip is the byte range of the number reported last, which a number
// starting inside it repeats; scanProse updates it.
//
// Character references (&#52;, &#x34;, &nbsp;) are decoded first, as
// CommonMark gives a text node's value: "&#52;&#48;초" is the number 40,
// reported at the source offset of its first reference.
func scanProse(ix *diag.LineIndex, src []byte, start, stop int, headingStart bool, shortcodes [][]int, skip *[2]int) []ProseNumber {
	if bytes.IndexByte(src[start:stop], '&') < 0 {
		return scanDecoded(ix, src, start, stop, headingStart, shortcodes, skip, nil)
	}
	dec, offs := decodeCharRefs(src[start:stop], start, stop)
	if len(offs) == 0 {
		return scanDecoded(ix, src, start, stop, headingStart, shortcodes, skip, nil)
	}
	// the decoded text with up to 64 source bytes of context each side
	lo, hi := max(0, start-64), min(len(src), stop+64)
	buf := make([]byte, 0, start-lo+len(dec)+hi-stop)
	buf = append(append(append(buf, src[lo:start]...), dec...), src[stop:hi]...)
	bs, be := start-lo, start-lo+len(dec)
	mapOff := func(i int) int {
		switch {
		case i < bs:
			return lo + i
		case i <= be:
			return offs[i-bs]
		}
		return stop + i - be
	}
	return scanDecoded(ix, buf, bs, be, headingStart, shortcodes, skip, mapOff)
}

// charRefRe matches a CommonMark entity or numeric character reference.
var charRefRe = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// decodeCharRefs decodes the character references in seg, which starts at
// source offset start and ends at stop: dec is the text node's value and
// offs[i] the source offset of dec's byte i (offs[len(dec)] = stop). offs
// is nil when seg holds no reference that decodes. A reference after a
// backslash is literal text, and an unknown entity name is kept as written.
func decodeCharRefs(seg []byte, start, stop int) (dec []byte, offs []int) {
	if bytes.IndexByte(seg, '&') < 0 {
		return nil, nil // most text: no reference
	}
	ms := charRefRe.FindAllIndex(seg, -1)
	prev := 0
	for _, m := range ms {
		if m[0] > 0 && seg[m[0]-1] == '\\' {
			continue
		}
		ref := string(seg[m[0]+1 : m[1]-1])
		var val []byte
		switch {
		case strings.HasPrefix(ref, "#x"), strings.HasPrefix(ref, "#X"):
			v, _ := strconv.ParseInt(ref[2:], 16, 32)
			val = utf8.AppendRune(nil, util.ToValidRune(rune(v)))
		case strings.HasPrefix(ref, "#"):
			v, _ := strconv.ParseInt(ref[1:], 10, 32)
			val = utf8.AppendRune(nil, util.ToValidRune(rune(v)))
		default:
			e, ok := util.LookUpHTML5EntityByName(ref)
			if !ok {
				continue
			}
			val = e.Characters
		}
		if offs == nil {
			dec, offs = make([]byte, 0, len(seg)), make([]int, 0, len(seg)+1)
		}
		for i := prev; i < m[0]; i++ {
			dec, offs = append(dec, seg[i]), append(offs, start+i)
		}
		for range val {
			offs = append(offs, start+m[0])
		}
		dec = append(dec, val...)
		prev = m[1]
	}
	if offs == nil {
		return nil, nil
	}
	for i := prev; i < len(seg); i++ {
		dec, offs = append(dec, seg[i]), append(offs, start+i)
	}
	return dec, append(offs, stop)
}

// DecodeCharRefs is decodeCharRefs for other stages that read a text
// node's value (the translation checks): it decodes the CommonMark entity
// and numeric character references in seg, which starts at source offset
// start and ends at stop, and returns the decoded bytes and, for each, its
// source offset (offs[len(dec)] = stop); both are nil when seg holds no
// reference that decodes.
func DecodeCharRefs(seg []byte, start, stop int) (dec []byte, offs []int) {
	return decodeCharRefs(seg, start, stop)
}

// hasDigit reports whether b holds a decimal digit of any script
// (unicode.Nd), a vulgar fraction or another numeric symbol (unicode.No,
// unicode.Nl): a rune proseNumber matches.
func hasDigit(b []byte) bool {
	for i, c := range b {
		if c >= '0' && c <= '9' {
			return true
		}
		if c >= 0x80 && utf8.RuneStart(c) {
			r, _ := utf8.DecodeRune(b[i:])
			if r >= 0x80 && unicode.IsNumber(r) {
				return true
			}
		}
	}
	return false
}

// NumeralMark returns the value of a circled, parenthesized, full-stop,
// dingbat or Roman numeral (① ⑴ ⒈ ⓫ ❶ ➀ ➊ ㉑ ㊱ Ⅰ ⅰ): a mark that numbers
// an item, not a measurement.
func NumeralMark(r rune) (int, bool) {
	for _, b := range []struct {
		lo, hi rune
		from   int
	}{
		{0x2460, 0x2473, 1}, {0x2474, 0x2487, 1}, {0x2488, 0x249B, 1}, {0x24EA, 0x24EA, 0}, {0x24EB, 0x24F4, 11},
		{0x24F5, 0x24FE, 1}, {0x24FF, 0x24FF, 0}, {0x2776, 0x277F, 1}, {0x2780, 0x2789, 1}, {0x278A, 0x2793, 1},
		{0x3251, 0x325F, 21}, {0x32B1, 0x32BF, 36}, {0x2160, 0x216B, 1}, {0x2170, 0x217B, 1},
	} {
		if r >= b.lo && r <= b.hi {
			return b.from + int(r-b.lo), true
		}
	}
	return 0, false
}

// isScript reports whether r is a superscript or subscript digit.
func isScript(r rune) bool {
	return r == '¹' || r == '²' || r == '³' || r >= '⁰' && r <= '⁹' || r >= '₀' && r <= '₉'
}

// symbolRule classifies a numeric symbol proseNumber matched alone at
// src[a:] (r, of unicode.No or Nl, not a vulgar fraction): a numeral
// mark (③, Ⅻ) numbers an item ("numbering"); a superscript or subscript
// after an ASCII letter is part of a unit or a name (m², H₂O:
// "identifier"), after anything else a footnote mark ("numbering"); any
// other symbol ("" : bound to no evidence) must be written as a claim
// or an exemption marker, so no number is invisible. ok is false for
// 〇, the Han zero, a number word read as the others (一, 二) are.
func symbolRule(src []byte, a int, r rune) (rule string, ok bool) {
	switch {
	case r == '〇':
		return "", false
	case isScript(r):
		if a > 0 && isASCIILetter(src[a-1]) && src[a-1] != '_' {
			return "identifier", true
		}
		return "numbering", true
	}
	if _, mark := NumeralMark(r); mark {
		return "numbering", true
	}
	return "", true
}

// isFractionRune reports whether r is a vulgar fraction: ¼ ½ ¾, ⅐ … ⅞,
// ↉ (unicode.No characters with a numeric value below one).
func isFractionRune(r rune) bool {
	return r >= '¼' && r <= '¾' || r >= '⅐' && r <= '⅞' || r == '↉'
}

// scanDecoded is scanProse on src[start:stop], whose offsets mapOff maps
// to source offsets (nil: they are source offsets).
func scanDecoded(ix *diag.LineIndex, src []byte, start, stop int, headingStart bool, shortcodes [][]int, skip *[2]int, mapOff func(int) int) []ProseNumber {
	if mapOff == nil {
		mapOff = func(i int) int { return i }
	}
	var out []ProseNumber
	seg := src[start:stop]
	if !hasDigit(seg) {
		return nil // most text between claims: proseNumber needs a digit
	}
	for _, m := range proseNumber.FindAllIndex(seg, -1) {
		a, b := start+m[0], start+m[1]
		// goldmark may split one run of text into several nodes: widen the
		// token over digits and dots that continue it in the source, and
		// let the node that holds its first byte report it.
		for a > 0 && (isDigitByte(src[a-1]) || src[a-1] == '.' && a > 1 && isDigitByte(src[a-2])) {
			a--
		}
		if a < start {
			continue
		}
		for b < len(src) && (isDigitByte(src[b]) || (src[b] == '.' || src[b] == ',') && b+1 < len(src) && isDigitByte(src[b+1]) || underscoreGroup(src, b)) {
			b++
		}
		if b+1 < len(src) && (src[b] == 'e' || src[b] == 'E') && isDigitByte(src[b+1]) {
			for b++; b < len(src) && isDigitByte(src[b]); b++ {
			}
		}
		rule := ""
		symbol := false
		if r, _ := utf8.DecodeRune(src[a:]); r >= 0x80 && !unicode.IsDigit(r) && !isFractionRune(r) {
			var ok bool
			if rule, ok = symbolRule(src, a, r); !ok {
				continue
			}
			symbol = true
		} else {
			b = compoundEnd(src, b)
		}
		for _, r := range []struct {
			re   *regexp.Regexp
			name string
		}{{dateRe, "date"}, {cjkDateRe, "date"}, {timeRe, "time"}, {cjkTimeRe, "time"}} {
			if symbol {
				break
			}
			if m := r.re.FindIndex(src[a:]); m != nil && a+m[1] > b && (a+m[1] >= len(src) || !isDigitByte(src[a+m[1]])) && (r.re != cjkTimeRe || cjkTime(src[a:a+m[1]], src[a+m[1]:])) {
				b, rule = a+m[1], r.name
				break
			}
		}
		// goldmark walks footnote definitions after the body that follows
		// them: only the number reported last (a neighbouring node's
		// widened token) can cover this one.
		sa, sb := mapOff(a), mapOff(b)
		if sa >= skip[0] && sa < skip[1] {
			continue
		}
		skip[0], skip[1] = sa, sb
		if rule == "" && !symbol {
			rule = classify(src, a, b, headingStart && m[0] == 0)
		}
		pn := ProseNumber{Text: string(src[a:b]), Pos: ix.Pos(sa), End: sb, Rule: rule}
		for _, sc := range shortcodes {
			if sa >= sc[0] && sb <= sc[1] {
				pn.Rule = "shortcode"
			}
		}
		out = append(out, pn)
	}
	return out
}

// cjkTime reports whether m, a match of cjkTimeRe followed by rest, is a
// time of day: its hour word is not the start of 시간 or 時間 (hours).
func cjkTime(m, rest []byte) bool {
	if !bytes.HasSuffix(m, []byte("시")) && !bytes.HasSuffix(m, []byte("時")) {
		return true
	}
	return !bytes.HasPrefix(rest, []byte("간")) && !bytes.HasPrefix(rest, []byte("間"))
}

// scanNumberWords finds the numbers written as words and followed by a
// counter in src[start:stop] (세 번, 두 개, 二回, 一つ, ふたつ, twice): the
// number words the claim grammar reads (see ParseLiteral), with a count
// unit. Words without a counter ("one of", 한국) are not numbers here.
func scanNumberWords(ix *diag.LineIndex, src []byte, start, stop int, shortcodes [][]int) []ProseNumber {
	// goldmark may split a run of text into several nodes ("초당 한" and
	// " 번씩"): read on to the end of the line, and report the words that
	// start in this node.
	lineEnd := stop
	for lineEnd < len(src) && src[lineEnd] != '\n' {
		lineEnd++
	}
	seg := string(src[start:lineEnd])
	var out []ProseNumber
	for _, w := range literal.WordNumbers(seg, stop-start) {
		if w.Unit != "count" && w.Unit != "/s" || w.Ordinal {
			continue
		}
		a := start + w.Start
		inShortcode := false
		for _, sc := range shortcodes {
			inShortcode = inShortcode || a >= sc[0] && a < sc[1]
		}
		if !inShortcode {
			out = append(out, ProseNumber{Text: seg[w.Start:w.End], Pos: ix.Pos(a)})
		}
	}
	return out
}

// compoundEnd extends a prose number ending at src[b] over the magnitude
// words and parts of a compound number (1만 2천, 1万2千, 1万2000): one
// number, not "1" and "2". The number ends after its last magnitude word,
// or after the digits of a part that has none (1万2000).
func compoundEnd(src []byte, b int) int {
	for {
		w := literal.MagnitudeWordLen(src[b:])
		if w == 0 {
			return b
		}
		b += w
		k := b
		if k < len(src) && src[k] == ' ' {
			k++
		}
		if k >= len(src) || !isDigitByte(src[k]) {
			return b
		}
		j := k
		for j < len(src) && (isDigitByte(src[j]) || src[j] == ',' && j+1 < len(src) && isDigitByte(src[j+1])) {
			j++
		}
		if literal.MagnitudeWordLen(src[j:]) == 0 && k > b {
			return b // "1만 2 건": a spaced bare part is another number
		}
		b = j
	}
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// underscoreGroup reports whether src[i] is an underscore between a digit
// and a group of three digits that ends there (1_000, as Go, Rust and
// Python group digits); x86_64 is a name's two numbers.
func underscoreGroup(src []byte, i int) bool {
	if src[i] != '_' || i == 0 || !isDigitByte(src[i-1]) || i+4 > len(src) {
		return false
	}
	for _, c := range src[i+1 : i+4] {
		if !isDigitByte(c) {
			return false
		}
	}
	return i+4 == len(src) || !isDigitByte(src[i+4])
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// classify applies the exemption rules to the number src[a:b].
func classify(src []byte, a, b int, atHeadingStart bool) string {
	num := string(src[a:b])
	rest := string(src[a:min(len(src), a+24)])
	dots := 0
	for _, c := range num {
		if c == '.' {
			dots++
		}
	}
	// Look at the raw source around the number: goldmark may have split
	// the text into nodes at "_" or "/".
	var prev, prev2 byte
	if a > 0 {
		prev = src[a-1]
	}
	if a > 1 {
		prev2 = src[a-2]
	}
	prevRune, _ := utf8.DecodeLastRune(src[max(0, a-4):a])
	var next byte
	if b < len(src) {
		next = src[b]
	}
	switch {
	case dots == 3:
		return "ip"
	case ipv6Around(src, a, b):
		return "ip"
	case prev == '/' && (ipv4Re.Match(src[max(0, a-16):a-1]) || a >= 2 && ipv6Around(src, a-2, a-1)):
		return "ip" // CIDR prefix length, 10.0.0.0/8, 2001:db8::/32
	case (next == 'e' || next == 'E') && b+1 < len(src) && (isDigitByte(src[b+1]) || (src[b+1] == '+' || src[b+1] == '-') && b+2 < len(src) && isDigitByte(src[b+2])):
		return "" // 1e3 is a number, not an identifier
	case dots >= 2 || prev == 'v' || prev == 'V':
		return "version"
	case dateRe.MatchString(rest) || cjkDateRe.MatchString(rest):
		return "date"
	case isASCIILetter(prev) || isASCIILetter(next) && !gluedQuantity(src, a, b):
		return "identifier"
	case (prev == '-' || prev == '/') && isASCIILetter(prev2):
		return "identifier" // D-1, HTTP/2
	case prevRune == '§' || prevRune == '#' || prevRune == '第' || prevRune == '제':
		return "numbering"
	case atHeadingStart && (next == '.' || next == ')'):
		return "numbering"
	case prev == ':' && a >= 2 && (isASCIILetter(src[a-2]) || src[a-2] >= '0' && src[a-2] <= '9' || src[a-2] == ']'):
		return "port"
	case statusCode(src, a, b):
		return "status"
	}
	return ""
}

// statusBefore and statusAfter are the words that make a three-digit
// number next to them an HTTP status code: "HTTP 503", "status 200",
// "응답 코드 503", "ステータス503", "503 응답", "200 OK", "503エラー".
var (
	statusBefore = []string{"HTTP", "http", "status", "Status", "code", "Code", "코드", "응답", "상태", "ステータス", "コード", "応答", "レスポンス"}
	statusAfter  = []string{"OK", "응답", "에러", "오류", "코드", "상태", "エラー", "応答", "レスポンス", "ステータス", "error", "Error", "response", "status",
		"Service", "Gateway", "Not Found", "Bad", "Internal", "Too Many", "Unavailable", "Forbidden", "Unauthorized"}
)

// codeBefore are the words after which 0 is a status code: Envoy and
// Istio log response code 0 when no response was sent (a downstream
// reset), and authors name it "응답 코드 0", "応答コード0", "response
// code 0", "status 0", "HTTP 0". 응답, 応答 and レスポンス alone are not
// among them: "응답 0" may count responses.
var codeBefore = []string{"HTTP", "http", "status", "Status", "code", "Code", "코드", "ステータス", "コード"}

// statusCode reports whether src[a:b] is an HTTP status code: a
// three-digit integer 100–599 with a status word right before it
// (spaces, ":" or "=" between) or right after it (after optional spaces),
// or 0 right after a code word (codeBefore), and no unit or counter
// after it ("응답 200건" counts responses). A status code is an
// identifier, like a port: it needs no evidence.
func statusCode(src []byte, a, b int) bool {
	zero := b-a == 1 && src[a] == '0'
	if !zero && (b-a != 3 || src[a] < '1' || src[a] > '5') {
		return false
	}
	rest := strings.TrimLeft(string(src[b:min(len(src), b+32)]), " ")
	if w, _ := unit.Prefix(rest); w != "" && b < len(src) && src[b] != ' ' {
		return false
	}
	if w, u := unit.Prefix(rest); w != "" && u.Dim != unit.Plain && !hasAnyPrefix(rest, statusAfter) {
		return false
	}
	before := strings.TrimRight(string(src[max(0, a-32):a]), " :=")
	if zero {
		return hasAnySuffix(before, codeBefore)
	}
	for _, w := range statusBefore {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return hasAnyPrefix(rest, statusAfter)
}

func hasAnySuffix(s string, words []string) bool {
	for _, w := range words {
		if strings.HasSuffix(s, w) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// ipv6Around reports whether src[a:b] sits in an IPv6 address: the run of
// hex digits and colons around it holds "::" or at least two colons.
func ipv6Around(src []byte, a, b int) bool {
	isHexColon := func(c byte) bool {
		return isDigitByte(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':'
	}
	i, j := a, b
	for i > 0 && isHexColon(src[i-1]) {
		i--
	}
	for j < len(src) && isHexColon(src[j]) {
		j++
	}
	run := string(src[i:j])
	return strings.Contains(run, "::") || strings.Count(run, ":") >= 2 && !timeRe.MatchString(run)
}

// gluedQuantity reports whether the number src[a:b], with ASCII letters
// right after it and none before, is a quantity rather than part of a
// name. It is a quantity when
//
//   - the number has a decimal fraction or digit groups (1.2k, 1.5Gbps,
//     1,000rps): names are written with whole numbers;
//   - the letters are a unit spelling package unit knows (40ms, 3sec,
//     4GiB, 5cores, 2x), a measure word of measureWords (60fps, 40dB), or
//     either after an SI or binary multiplier k K M G T (10k, 3M, 1Gbps,
//     2kHz);
//   - the letters are followed by /s, /sec, /초 or /秒 (5req/s, 3msg/sec):
//     a rate of anything.
//
// The whole numbers of nameShapes stay names although their letters are
// a multiplier (4K, 5G), and so do the other letters (2FA, 3DES, 3rd,
// 64bit). A number after letters (p99, L7, h2, x86) is a name before
// gluedQuantity is asked.
func gluedQuantity(src []byte, a, b int) bool {
	e := b
	for e < len(src) && isASCIILetter(src[e]) && src[e] != '_' {
		e++
	}
	word := string(src[b:e])
	if word == "" && b+1 < len(src) && src[b] == '_' && isDigitByte(src[b+1]) {
		return true // 1_0000: digits grouped, not in threes
	}
	if e < len(src) && src[e] == '/' && hasAnyPrefix(string(src[e+1:min(len(src), e+8)]), []string{"s", "sec", "초", "秒"}) {
		rest := src[e+1:]
		w := 1
		if bytes.HasPrefix(rest, []byte("sec")) {
			w = 3
		} else if !bytes.HasPrefix(rest, []byte("s")) {
			w = 0 // 초 or 秒: a non-letter follows by itself
		}
		if w == 0 || len(rest) == w || !isASCIILetter(rest[w]) {
			return true
		}
	}
	for _, c := range src[a:b] {
		if c == '.' || c == ',' || c == '_' {
			return true
		}
	}
	if nameShapes[string(src[a:b])+word] {
		return false
	}
	return measureLetters(word)
}

// measureLetters reports whether word, the ASCII letters glued after a
// number, measures it: a unit spelling or measure word, alone or after
// one multiplier letter, or the multiplier letter alone.
func measureLetters(word string) bool {
	if word == "" {
		return false
	}
	if _, ok := unit.Lookup(word); ok || measureWords[word] {
		return true
	}
	if !strings.ContainsRune("kKMGT", rune(word[0])) {
		return false
	}
	if len(word) == 1 {
		return true // 10k, 3M
	}
	_, ok := unit.Lookup(word[1:])
	return ok || measureWords[word[1:]]
}

// GluedMultiplier returns the power of ten of the SI multiplier letter
// (k and K 3, M 6, G 9, T 12) that word, the ASCII letters glued right
// after the number num, starts with, when gluedQuantity reads it as one:
// the letter alone (10k, 3M) or before a unit or measure word (1.5Gbps).
// It returns 0 for other letters and for the names of nameShapes (4K, 5G).
// The translation checks scale the number by it (10k = 10,000 = 1만).
func GluedMultiplier(num, word string) int {
	if word == "" || nameShapes[num+word] {
		return 0
	}
	var exp int
	switch word[0] {
	case 'k', 'K':
		exp = 3
	case 'M':
		exp = 6
	case 'G':
		exp = 9
	case 'T':
		exp = 12
	default:
		return 0
	}
	if len(word) > 1 {
		if _, ok := unit.Lookup(word); ok {
			return 0 // a unit of its own (KB, MiB, Gi): no multiplier
		}
		if _, ok := unit.Lookup(word[1:]); !ok && !measureWords[word[1:]] {
			return 0
		}
	}
	return exp
}

// measureWords are the units of measurement written glued to a number
// that the claim grammar does not read (a claim cannot quote them) but
// that make a prose number a quantity: frames, decibels, bits, hertz,
// operations, packets and revolutions (per second or minute), watts,
// volts.
var measureWords = map[string]bool{
	"fps": true, "dB": true, "dBm": true, "bps": true, "Bps": true, "bit/s": true,
	"Hz": true, "ops": true, "iops": true, "IOPS": true, "tps": true, "TPS": true,
	"pps": true, "rpm": true, "QPS": true, "RPS": true, "W": true, "Wh": true, "V": true,
}

// nameShapes are the whole numbers glued to letters that are names of
// things, not quantities, although their letters are a multiplier: mobile
// network generations (2G … 6G) and display resolutions (2K, 4K, 5K, 8K).
var nameShapes = map[string]bool{
	"2G": true, "3G": true, "4G": true, "5G": true, "6G": true,
	"2K": true, "4K": true, "5K": true, "8K": true,
}

// Coverage counts a page's measured numbers: Bound are the numbers inside
// claims, Unbound the prose numbers no exemption covers.
type Coverage struct {
	Page    string        `json:"page"`
	Bound   int           `json:"bound"`
	Unbound []ProseNumber `json:"unbound,omitempty"`
	Exempt  int           `json:"exempt"`
}

// Measured is Bound plus the unbound numbers.
func (c Coverage) Measured() int { return c.Bound + len(c.Unbound) }

// PageCoverage computes the coverage of a parsed page. Numbers inside
// exemption markers count as exempt.
func PageCoverage(p *Page) Coverage {
	c := Coverage{Page: p.Path}
	for _, cl := range p.Claims {
		n := len(cl.Parsed.Quantities)
		if cl.ParseErr != nil {
			n = 1
		}
		if cl.Exempt {
			c.Exempt += n
			continue
		}
		c.Bound += n
	}
	for _, pn := range p.Prose {
		if pn.Rule != "" {
			c.Exempt++
			continue
		}
		c.Unbound = append(c.Unbound, pn)
	}
	return c
}
