package numscan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
)

// qualify sets Cmp, Approx and the per-second rate of n from the words
// around norm[start:end], then its Key.
func qualify(n *Number, norm string, start, end int) {
	qualifyAround(n, norm[:start], norm[end:])
}

// qualifyAround is qualify of a number with the text prefix before it
// and rest after it, which need not be one string: a claim's words
// outside its link and the literal's own text are read without joining
// them.
func qualifyAround(n *Number, prefix, rest string) {
	before := strings.TrimRight(prefix[max(0, len(prefix)-24):], " ")
	after := strings.TrimLeft(rest[:min(len(rest), 24)], " ")
	// lowered in buffers of the stack: the texts are 24 bytes at most
	// and do not outlive this call
	var lbBuf, laBuf [32]byte
	var lowerBefore, lowerAfter string
	if b, ok := upperASCII(lbBuf[:0], before); ok {
		lowerBefore = string(b)
	} else {
		lowerBefore = toLower(before)
	}
	if b, ok := upperASCII(laBuf[:0], after); ok {
		lowerAfter = string(b)
	} else {
		lowerAfter = toLower(after)
	}
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
		n.point = pointAt(prefix, lowerAfter)
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
	if lb == "" || !extremumLast[lb[len(lb)-1]] {
		return "" // no word or particle of the lists ends with its last byte
	}
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

// extremumLast holds the last byte of every word of extremumWords and
// extremumParticles: a text ending with another byte ends with neither.
var extremumLast = func() (m [256]bool) {
	for _, w := range extremumWords {
		m[w.word[len(w.word)-1]] = true
	}
	for _, p := range extremumParticles {
		m[p[len(p)-1]] = true
	}
	return m
}()

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

// upperASCII appends s lowered to buf, and reports true, when s is
// ASCII with an upper-case letter (P99, MID) and fits in buf's capacity:
// lowered in a buffer of its caller's stack, not allocated as toLower's
// strings.ToLower is (TestUpperASCII).
func upperASCII(buf []byte, s string) ([]byte, bool) {
	if len(s) > cap(buf) {
		return nil, false
	}
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
			upper = true
		}
		buf = append(buf, c)
	}
	return buf, upper
}

// caseless reports whether r is in a block without letter case: kana,
// CJK ideographs, Hangul syllables (the runes around most numbers here).
func caseless(r rune) bool {
	return r >= 0x3040 && r <= 0x30FF || r >= 0x4E00 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7A3
}
