package prose

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Number is a number written in prose outside any claim. Rule names
// the exemption that applies ("version", "ip", "date", "time", "identifier",
// "numbering", "port", "status" (an HTTP status code), "shortcode"), or is
// "" for a number that should be
// bound to evidence and is not.
type Number struct {
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
func ScanText(ix *diag.LineIndex, src []byte, start, stop int) []Number {
	var skip [2]int
	return Scan(ix, src, start, stop, false, nil, &skip)
}

// ShortcodeSpans returns the byte ranges of Hugo shortcode calls
// ({{< name … >}} and {{% name … %}}) in src. A call of a diagram or
// formula shortcode (diagramShortcodes) spans its inner content up to its
// closing call: the numbers of a Mermaid graph or a KaTeX formula are the
// diagram's syntax, and a claim link written there would break it.
func ShortcodeSpans(src []byte) [][]int {
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

// Diagram reports whether the shortcode name (lower case) is one of
// diagramShortcodes: its arguments and inner content are no prose.
func Diagram(name string) bool { return diagramShortcodes[name] }

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

// Scan finds the numbers in src[start:stop] and classifies each. When
// headingStart is set the text opens a heading, where a leading number
// followed by "." or ")" is section numbering.
//
// skip is the byte range of the number reported last, which a number
// starting inside it repeats; Scan updates it.
//
// Character references (&#52;, &#x34;, &nbsp;) are decoded first, as
// CommonMark gives a text node's value: "&#52;&#48;초" is the number 40,
// reported at the source offset of its first reference.
func Scan(ix *diag.LineIndex, src []byte, start, stop int, headingStart bool, shortcodes [][]int, skip *[2]int) []Number {
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

// HasDigit reports whether b holds a decimal digit of any script
// (unicode.Nd), a vulgar fraction or another numeric symbol (unicode.No,
// unicode.Nl): a rune proseNumber matches.
func HasDigit(b []byte) bool {
	for i, c := range b {
		if c >= '0' && c <= '9' {
			return true
		}
		if c >= 0x80 && utf8.RuneStart(c) {
			r, _ := utf8.DecodeRune(b[i:])
			if r >= 0x80 && IsNumber(r) {
				return true
			}
		}
	}
	return false
}

// IsNumber is unicode.IsNumber(r), read for a rune of U+0800–U+FFFF
// (Hangul, kana, CJK ideographs) whose block of 64 runes holds no
// number from numberBlocks instead of the Unicode tables.
func IsNumber(r rune) bool {
	if r >= 0x800 && r <= 0xFFFF && !numberBlocks[r>>6] {
		return false
	}
	return unicode.IsNumber(r)
}

// numberBlocks tells, for each block of 64 runes up to U+FFFF (a rune
// shifted right by 6), whether one of them is a number
// (unicode.IsNumber).
var numberBlocks = func() (t [0x10000 >> 6]bool) {
	for r := rune(0); r <= 0xFFFF; r++ {
		if unicode.IsNumber(r) {
			t[r>>6] = true
		}
	}
	return t
}()

// scanDecoded is Scan on src[start:stop], whose offsets mapOff maps
// to source offsets (nil: they are source offsets).
func scanDecoded(ix *diag.LineIndex, src []byte, start, stop int, headingStart bool, shortcodes [][]int, skip *[2]int, mapOff func(int) int) []Number {
	if mapOff == nil {
		mapOff = func(i int) int { return i }
	}
	var out []Number
	seg := src[start:stop]
	if !HasDigit(seg) {
		return nil // most text between claims: proseNumber needs a digit
	}
	// The next match is looked for after the token reported last, which
	// widening may have carried past the regular expression's match
	// ("1e5,000": the exponent, then ",000").
	for pos := 0; pos < len(seg); {
		m := proseNumber.FindIndex(seg[pos:])
		if m == nil {
			break
		}
		a, b := start+pos+m[0], start+pos+m[1]
		pos += m[1]
		// goldmark may split one run of text into several nodes: widen the
		// token over digits and dots that continue it in the source, and
		// let the node that holds its first byte report it. A numeric
		// symbol matched alone (Ⅻ, 〦) is its own token: the digits before
		// it are the previous match, which reports them.
		r0, _ := utf8.DecodeRune(src[a:])
		alone := r0 >= 0x80 && !unicode.IsDigit(r0) && !isFractionRune(r0)
		for !alone && a > 0 && (isDigitByte(src[a-1]) || src[a-1] == '.' && a > 1 && isDigitByte(src[a-2])) {
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
		if alone {
			var ok bool
			if rule, ok = symbolRule(src, a, r0); !ok {
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
			if sb <= skip[1] {
				continue
			}
			// partly reported: look again from where that token ended,
			// so no digit after it goes unread
			i := a + 1
			for i < b && mapOff(i) < skip[1] {
				i++
			}
			pos = max(pos, i-start)
			continue
		}
		pos = max(pos, min(b-start, len(seg)))
		skip[0], skip[1] = sa, sb
		if rule == "" && !symbol {
			rule = classify(src, a, b, headingStart && m[0] == 0)
		}
		pn := Number{Text: string(src[a:b]), Pos: ix.Pos(sa), End: sb, Rule: rule}
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

// Words finds the numbers written as words and followed by a
// counter in src[start:stop] (세 번, 두 개, 二回, 一つ, ふたつ, twice): the
// number words the claim grammar reads (see ParseLiteral), with a count
// unit. Words without a counter ("one of", 한국) are not numbers here.
func Words(ix *diag.LineIndex, src []byte, start, stop int, shortcodes [][]int) []Number {
	// goldmark may split a run of text into several nodes ("초당 한" and
	// " 번씩"): read on to the end of the line, and report the words that
	// start in this node.
	lineEnd := stop
	for lineEnd < len(src) && src[lineEnd] != '\n' {
		lineEnd++
	}
	seg := string(src[start:lineEnd])
	var out []Number
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
			out = append(out, Number{Text: seg[w.Start:w.End], Pos: ix.Pos(a)})
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
