package check

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// A label is the statistic a text names beside a number, or a value's
// name names: a percentile ("p50", "p90", "p99.9"; a median is "p50"),
// "mean", "max" or "min".

var (
	// the statistic words of text, by the label they name; a word of
	// maxWords names one only when followed by a particle or a colon
	// (최대 [3회] is "at most 3")
	labelWords = []struct{ word, label string }{
		{"중앙값", "p50"}, {"中央値", "p50"}, {"median", "p50"},
		{"평균값", "mean"}, {"평균", "mean"}, {"平均値", "mean"}, {"平均", "mean"}, {"average", "mean"}, {"mean", "mean"}, {"avg", "mean"},
		{"최댓값", "max"}, {"최대값", "max"}, {"最大値", "max"}, {"maximum", "max"},
		{"최솟값", "min"}, {"최소값", "min"}, {"最小値", "min"}, {"minimum", "min"},
	}
	boundWords = []struct{ word, label string }{
		{"최대", "max"}, {"最大", "max"}, {"max", "max"},
		{"최소", "min"}, {"最小", "min"}, {"min", "min"},
	}
	// the nouns a label may stand before, between it and the claim (p99
	// 지연은 [29.8ms], p95レイテンシは[29.8ms]): what is measured
	labelNouns = []string{
		"지연 시간", "지연시간", "응답 시간", "응답시간", "지연", "레이턴시", "latency", "rtt", "값",
		"レイテンシ", "レイテンシー", "遅延", "応答時間", "値",
	}
	// the particles and signs that end a label before its claim (not
	// 의 and の: p50의 [2.1배] is relative to the p50, not the p50)
	labelParticles = []string{"은", "는", "이", "가", "도", "は", "が", "も", ":", "：", "=", "＝"}
)

// LabelBefore returns the label that text, the text of a page ending
// where a claim (or a number) starts, names right before it: a label, at
// most one noun of what is measured (지연, レイテンシ, latency), then
// spaces, a particle (은, は, が …) or a colon: p99는 [..], p99 [..],
// p99: [..], p99 지연은 [..], 평균 [..], 최대값은 [..]. 최대, 最大, max and
// their minimum words name a label only with a particle or a colon
// (최대는 [..]; 최대 [3회] is a bound). It returns "" when text names
// none.
func LabelBefore(text string) string {
	s := trimSpaceRight(text)
	particle := false
	// every particle is one rune: s ends with one when its last rune is
	// one (labelParticles' order decides nothing, no two are alike)
	if r, size := utf8.DecodeLastRuneInString(s); size > 0 && isParticle(r) {
		s, particle = trimSpaceRight(s[:len(s)-size]), true
	}
	ends, ok := endingsOf(s)
	if !ok {
		return "" // most text before a number: nothing below can match
	}
	low := lowerTail(s)
	if l := labelAtEndLow(s, low, particle, ends); l != "" {
		return l
	}
	for _, n := range ends.nouns {
		if strings.HasSuffix(low, n) && !glued(low[:len(low)-len(n)], n) {
			return labelAtEnd(trimSpaceRight(s[:len(s)-len(n)]), true)
		}
	}
	return ""
}

// trimSpaceRight is strings.TrimRightFunc(s, unicode.IsSpace), with
// ASCII read without the Unicode tables.
func trimSpaceRight(s string) string {
	for len(s) > 0 {
		c := s[len(s)-1]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				s = s[:len(s)-1]
				continue
			}
			return s
		}
		r, size := utf8.DecodeLastRuneInString(s)
		if !unicode.IsSpace(r) {
			return s
		}
		s = s[:len(s)-size]
	}
	return s
}

// asciiSpace holds the ASCII runes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// isParticle reports whether r is one of labelParticles (each one rune:
// TestParticlesOneRune).
func isParticle(r rune) bool {
	switch r {
	case '은', '는', '이', '가', '도', 'は', 'が', 'も', ':', '：', '=', '＝':
		return true
	}
	return false
}

// labelEnding is what can end at one rune, lowered: the label words,
// bound words and nouns whose last rune it is, in their lists' order.
type labelEnding struct {
	words, bounds []struct{ word, label string }
	nouns         []string
}

// endingsOf returns the labelEnding of the last rune of s lowered, and
// false when no label or noun can end there: the last rune of s lowered
// is the last rune of strings.ToLower(s), which maps rune by rune, so
// when it is none of labelEnds no suffix test of LabelBefore can match.
func endingsOf(s string) (*labelEnding, bool) {
	if s == "" {
		return nil, false
	}
	if c := s[len(s)-1]; c < utf8.RuneSelf {
		e := asciiEndings[c]
		return e, e != nil
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	e, ok := labelEndings[unicode.ToLower(r)]
	return e, ok
}

// labelEnds holds every rune a text can end with, lowered, for
// LabelBefore to find a label or a noun at its end: the last rune of
// each label word, bound word and noun, and what percentileAtEnd reads
// last (an ASCII digit, ")", the last rune of 퍼센타일, パーセンタイル and
// 百分位, and of "th" and "percentile", in either case).
var labelEnds = func() map[rune]bool {
	m := map[rune]bool{')': true}
	for c := '0'; c <= '9'; c++ {
		m[c] = true
	}
	last := func(w string) {
		r, _ := utf8.DecodeLastRuneInString(w)
		m[unicode.ToLower(r)] = true
	}
	for _, w := range []string{"퍼센타일", "パーセンタイル", "百分位", "th", "percentile"} {
		last(w)
	}
	for _, w := range labelWords {
		last(w.word)
	}
	for _, w := range boundWords {
		last(w.word)
	}
	for _, w := range labelNouns {
		last(w)
	}
	return m
}()

// labelEndings holds a labelEnding for each rune of labelEnds, and
// asciiEndings those of the ASCII ones (nil for the others).
var labelEndings, asciiEndings = func() (map[rune]*labelEnding, [utf8.RuneSelf]*labelEnding) {
	m := map[rune]*labelEnding{}
	for r := range labelEnds {
		m[r] = &labelEnding{}
	}
	last := func(w string) *labelEnding {
		r, _ := utf8.DecodeLastRuneInString(w)
		return m[unicode.ToLower(r)]
	}
	for _, w := range labelWords {
		e := last(w.word)
		e.words = append(e.words, w)
	}
	for _, w := range boundWords {
		e := last(w.word)
		e.bounds = append(e.bounds, w)
	}
	for _, n := range labelNouns {
		e := last(n)
		e.nouns = append(e.nouns, n)
	}
	var a [utf8.RuneSelf]*labelEnding
	for r, e := range m {
		if r < utf8.RuneSelf {
			a[r] = e
		}
	}
	// an ASCII upper case letter lowers to one of them
	for c := 'A'; c <= 'Z'; c++ {
		a[c] = m[c+'a'-'A']
	}
	return m, a
}()

// tailRunes is how many runes of a text lowerTail lowers: more than the
// longest label word, noun or particle has, so that a word's suffix test
// and the rune before it see what they would in the whole text lowered.
const tailRunes = 24

// lowerTail returns the text's last tailRunes runes lowered (the whole
// text when it has fewer): a suffix of strings.ToLower(s), which maps
// rune by rune, without lowering (and copying) the line before it.
func lowerTail(s string) string {
	i, n := len(s), 0
	lower := true // every rune of the tail is its own lower case
	for i > 0 && n < tailRunes {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if lower && !ownLower(r, size) {
			lower = false
		}
		i -= size
		n++
	}
	if lower {
		return s[i:] // strings.ToLower would return it unchanged
	}
	return strings.ToLower(s[i:])
}

// ownLower reports whether the rune r, decoded from size bytes, is one
// strings.ToLower leaves as it is, read without the Unicode tables: an
// ASCII rune other than A–Z, or one of CJK symbols and punctuation,
// kana, CJK unified ideographs and Hangul syllables, which have no case
// (TestOwnLower). An invalid byte (RuneError of size 1) is not: ToLower
// replaces it.
func ownLower(r rune, size int) bool {
	switch {
	case r < utf8.RuneSelf:
		return r < 'A' || r > 'Z'
	case r == utf8.RuneError:
		return size > 1
	}
	return r >= 0x3000 && r <= 0x30FF || r >= 0x4E00 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7A3
}

// percentileAtEnd returns the percentile's digits of the label s ends
// with, in any case: p99, p99.9, p(95), p(99.9), 99th, 99 th, 99퍼센타일,
// 99パーセンタイル, 99百分位, 99 percentile, preceded by the start of s or
// by a character other than an ASCII letter or digit, _ and . (and the
// two non-ASCII letters whose case folds onto one, K and ſ): xp99 and
// v1.99th name none.
func percentileAtEnd(s string) (string, bool) {
	var j int // where the label starts
	var d string
	switch {
	case s == "":
		return "", false
	case s[len(s)-1] >= '0' && s[len(s)-1] <= '9': // p99, p99.9
		num, at := numberAtEnd(s)
		if at == 0 || s[at-1]|0x20 != 'p' {
			return "", false
		}
		j, d = at-1, num
	case s[len(s)-1] == ')': // p(95)
		num, at := numberAtEnd(s[:len(s)-1])
		if num == "" || at < 2 || s[at-1] != '(' || s[at-2]|0x20 != 'p' {
			return "", false
		}
		j, d = at-2, num
	default: // 99th, 99 percentile, 99퍼센타일 …
		t := ""
		for _, w := range []string{"퍼센타일", "パーセンタイル", "百分位"} {
			if strings.HasSuffix(s, w) {
				t = s[:len(s)-len(w)]
				break
			}
		}
		if t == "" && len(s) >= 2 && strings.EqualFold(s[len(s)-2:], "th") {
			t = s[:len(s)-2]
		} else if t == "" && len(s) >= 10 && strings.EqualFold(s[len(s)-10:], "percentile") {
			t = s[:len(s)-10]
		}
		t = strings.TrimSuffix(t, " ")
		num, at := numberAtEnd(t)
		if num == "" {
			return "", false
		}
		j, d = at, num
	}
	if j > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:j])
		if r >= '0' && r <= '9' || r|0x20 >= 'a' && r|0x20 <= 'z' || r == '_' || r == '.' || r == '\u212A' || r == '\u017F' {
			return "", false
		}
	}
	return d, true
}

// numberAtEnd returns the number (digits, or digits, a point and
// digits) s ends with and where it starts; "" when s ends with no digit,
// or with a point and digits with no digit before the point (that
// point is no number's).
func numberAtEnd(s string) (string, int) {
	at := digitsStart(s, len(s))
	if at == len(s) {
		return "", 0
	}
	if at > 0 && s[at-1] == '.' {
		i := digitsStart(s, at-1)
		if i == at-1 {
			return "", 0
		}
		at = i
	}
	return s[at:], at
}

// digitsStart returns where the run of ASCII digits ending at end starts.
func digitsStart(s string, end int) int {
	for end > 0 && s[end-1] >= '0' && s[end-1] <= '9' {
		end--
	}
	return end
}

// glued reports whether noun, an ASCII word, follows an ASCII letter of
// before (xlatency is not latency).
func glued(before, noun string) bool {
	if noun[0] >= utf8.RuneSelf || before == "" {
		return false
	}
	c := before[len(before)-1]
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// labelAtEnd returns the label s ends with; bound words (최대, max …)
// count only when particle is set.
func labelAtEnd(s string, particle bool) string {
	ends, ok := endingsOf(s)
	if !ok {
		return ""
	}
	return labelAtEndLow(s, lowerTail(s), particle, ends)
}

// labelAtEndLow is labelAtEnd with low, lowerTail(s), and the endings
// of s's last rune read.
func labelAtEndLow(s, low string, particle bool, ends *labelEnding) string {
	if d, ok := percentileAtEnd(s); ok {
		return percentileLabel(d)
	}
	words := ends.words
	for pass := 0; pass < 2; pass++ {
		for _, w := range words {
			if strings.HasSuffix(low, w.word) && !gluedWord(low[:len(low)-len(w.word)], w.word) {
				return w.label
			}
		}
		if !particle {
			break
		}
		words = ends.bounds
	}
	return ""
}

// gluedWord reports whether word follows a letter of its own script in
// before: an ASCII word after an ASCII letter or digit (xmax), a Hangul
// word after Hangul (불평균), so that a word inside another is no label.
func gluedWord(before, word string) bool {
	if before == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	w, _ := utf8.DecodeRuneInString(word)
	switch {
	case w < utf8.RuneSelf:
		return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
	case w >= 0xAC00 && w <= 0xD7A3:
		return r >= 0xAC00 && r <= 0xD7A3
	}
	return false
}

// percentileLabel returns the label of percentile digits d: "p" and the
// percentile, p999 and p9999 read as 99.9 and 99.99 as tools name them
// (a point's trailing zeros dropped: p99.90 is p99.9). It returns "" for a
// percentile under 10 or over 100 (p2 names a pod more often than a
// percentile).
func percentileLabel(d string) string {
	if !strings.Contains(d, ".") && len(d) > 2 && strings.HasPrefix(d, "99") {
		d = "99." + d[2:]
	}
	if strings.Contains(d, ".") {
		d = strings.TrimSuffix(strings.TrimRight(d, "0"), ".")
	}
	whole, _, _ := strings.Cut(d, ".")
	if len(whole) < 2 || len(whole) > 3 || len(whole) == 3 && d != "100" {
		return ""
	}
	return "p" + d
}

var (
	// p99_9, p99.9 and k6's p(99.9) in a value's name: the percentile's
	// point written as "d" before splitting the name into words
	namePointRe = regexp.MustCompile(`p(\d+)[._](\d+)`)
	nameK6Re    = regexp.MustCompile(`p\((\d+)(?:\.(\d+))?\)`)
	nameWordRe  = regexp.MustCompile(`[a-z0-9]+`)
	namePctRe   = regexp.MustCompile(`^(?:p(\d+(?:d\d+)?)|(\d+(?:d\d+)?)(?:th|pct|percentile))$`)
	nameStats   = map[string]string{
		"median": "p50", "avg": "mean", "average": "mean", "mean": "mean",
		"max": "max", "maximum": "max", "min": "min", "minimum": "min",
		"sd": "spread", "stddev": "spread", "stdev": "spread", "std": "spread", "sigma": "spread", "variance": "spread", "var": "spread", "cv": "spread",
	}
)

// LabelOfName returns the label a value's name (or raw key) names when
// it names exactly one: h.latency.p50, latencies.99th, p(95),
// latency_50_percent, rtt.avg, http_req_duration.max. A name of two
// statistics (mean_sd, p99_over_p50) or none names no label ("").
func LabelOfName(name string) string {
	s := strings.ToLower(name)
	s = nameK6Re.ReplaceAllStringFunc(s, func(m string) string {
		g := nameK6Re.FindStringSubmatch(m)
		if g[2] != "" {
			return "p" + g[1] + "d" + g[2]
		}
		return "p" + g[1]
	})
	s = namePointRe.ReplaceAllString(s, "p${1}d${2}")
	words := nameWordRe.FindAllString(s, -1)
	found := ""
	for i, w := range words {
		l := ""
		if m := namePctRe.FindStringSubmatch(w); m != nil {
			l = percentileLabel(strings.ReplaceAll(m[1]+m[2], "d", "."))
		} else if st, ok := nameStats[w]; ok {
			l = st
		} else if (w == "percent" || w == "percentile") && i > 0 && isDigits(words[i-1]) {
			l = percentileLabel(words[i-1])
		} else if w == "percentile" && i+1 < len(words) && isDigits(words[i+1]) {
			l = percentileLabel(words[i+1])
		}
		if l == "" || l == found {
			continue
		}
		if found != "" {
			return "" // two statistics
		}
		found = l
	}
	if found == "spread" {
		return ""
	}
	return found
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// LabelName is how a message names label l: "p50", "the mean", "the
// maximum", "the minimum".
func LabelName(l string) string {
	switch l {
	case "mean":
		return "the mean"
	case "max":
		return "the maximum"
	case "min":
		return "the minimum"
	}
	return l
}

// valueName is how a message names the value of label l: "the p90
// value", "the mean value".
func valueName(l string) string {
	return "the " + strings.TrimPrefix(LabelName(l), "the ") + " value"
}

// labelMismatch is the claim-label finding of claim c of one reference,
// bound to v, when the text right before c names a label (LabelBefore)
// other than the one v's name names (LabelOfName): p50는 [78.1ms](ev:…p90).
// names caches the label of each value's name for one page (LabelOfName
// runs four expressions): the text before the claim is read only for a
// value whose name names a label.
func labelMismatch(p *claim.Page, c *claim.Claim, v *evidence.Value, names map[*evidence.Value]string) (diag.Diagnostic, bool) {
	if len(c.Refs) != 1 || c.Pos.Offset > len(p.Source) {
		return diag.Diagnostic{}, false
	}
	is, ok := names[v]
	if !ok {
		if is = cachedLabelOfName(v.Name); is == "" {
			is = cachedLabelOfName(v.Key)
		}
		names[v] = is
	}
	if is == "" {
		return diag.Diagnostic{}, false
	}
	start := lineStart(p.Source, c.Pos.Offset)
	// c.Pos is the literal's first byte, after the link's [
	said := LabelBefore(strings.TrimSuffix(string(p.Source[start:c.Pos.Offset]), "["))
	if said == "" || is == said {
		return diag.Diagnostic{}, false
	}
	d := diag.Diagnostic{Pos: c.Pos, Severity: diag.Error, Rule: diag.ClaimLabel,
		Message: fmt.Sprintf("the text calls [%s] %s, but ev:%s is %s; expected the label of the value bound (%s) or a reference to %s",
			c.Literal, LabelName(said), c.Refs[0], valueName(is), LabelName(is), valueName(said)),
		Related: []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}}
	return withEnd(d, p, c.End), true
}

// nameLabels caches LabelOfName across pages and checks: most pages cite
// the values other pages cite. It is emptied when it holds maxNameLabels
// names (a long evdoc serve whose evidence keeps changing).
var nameLabels struct {
	sync.Mutex
	m map[string]string
}

const maxNameLabels = 1 << 16

// cachedLabelOfName is LabelOfName(name), through nameLabels.
func cachedLabelOfName(name string) string {
	nameLabels.Lock()
	l, ok := nameLabels.m[name]
	nameLabels.Unlock()
	if ok {
		return l
	}
	l = LabelOfName(name)
	nameLabels.Lock()
	if nameLabels.m == nil || len(nameLabels.m) >= maxNameLabels {
		nameLabels.m = make(map[string]string)
	}
	nameLabels.m[name] = l
	nameLabels.Unlock()
	return l
}

// lineStart returns the offset where the line holding offset at starts.
func lineStart(src []byte, at int) int {
	for i := at - 1; i >= 0; i-- {
		if src[i] == '\n' {
			return i + 1
		}
	}
	return 0
}
