package check

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// unitOutside reports a unit word written right after a claim link whose
// literal has no unit ("[40](ev:…)초", "[40](ev:…) 밀리초"): the reader
// sees "40초" but only "40" is judged, so a value in ms would pass. Units
// of physical dimension (percent, time, calendar, size, rate) count;
// counter words (건, 회, 번, 件…) and multiples do not change the value
// and are left as prose. The unit may be glued to the link, follow one
// space, a no-break space (U+00A0, &nbsp;, &#160;) or be wrapped in
// emphasis ("*ms*", "**ms**", "_ms_"). A Korean or Japanese unit word after
// a space must end the word: a Hangul syllable may follow only as a
// particle (밀리초가, 2 시간 동안) and a kanji or katakana not at all, so
// "40 초과", "3 분석", "3 주요", "2 일부" and "3 分析" stay prose. "分の" and
// "분의" (fractions, 3分の1, 3분의 1) are not units.
func unitOutside(p *claim.Page, c *claim.Claim, lit literal.Literal) (diag.Diagnostic, bool) {
	if len(lit.Quantities) == 0 || p.Index == nil || c.RefPos.Offset <= 0 || c.RefPos.Offset >= len(p.Source) {
		return diag.Diagnostic{}, false
	}
	for _, q := range lit.Quantities {
		if q.Unit != "" {
			return diag.Diagnostic{}, false
		}
	}
	rest := p.Source[c.RefPos.Offset:]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	closing := bytes.IndexByte(rest, ')')
	if closing < 0 {
		return diag.Diagnostic{}, false
	}
	at := c.RefPos.Offset + closing + 1
	// the text after the link as CommonMark reads it: "\%", "&percnt;"
	// and "&nbsp;%" are a unit as "%" is
	stop := min(len(p.Source), at+96)
	if nl := bytes.IndexByte(p.Source[at:stop], '\n'); nl >= 0 {
		stop = at + nl
	}
	var after string
	var offs []int // offs[i]: the source offset of after's byte i
	if bytes.IndexByte(p.Source[at:stop], '\\') < 0 && bytes.IndexByte(p.Source[at:stop], '&') < 0 {
		after = string(p.Source[at:stop]) // as DecodeInline returns it
	} else {
		var dec []byte
		dec, offs = claim.DecodeInline(p.Source, at, stop)
		after = string(dec)
	}
	src := func(i int) int {
		if offs == nil {
			return at + i
		}
		return offs[i]
	}
	sep := ""
	if r, n := utf8.DecodeRuneInString(after); n > 0 && (r == ' ' || unicode.Is(unicode.Zs, r)) {
		sep = after[:n]
	}
	after = after[len(sep):]
	skip := len(sep)
	for n := 0; n < 3 && len(after) > 0 && (after[0] == '*' || after[0] == '_'); n++ {
		after = after[1:]
		skip++
	}
	w, u := unit.Prefix(after)
	if w == "" || strings.HasPrefix(after, "分の") || strings.HasPrefix(after, "분의") || otherWord(w, after[len(w):]) {
		return diag.Diagnostic{}, false
	}
	switch u.Dim {
	case unit.Percent, unit.Time, unit.Calendar, unit.Size, unit.Rate:
	default:
		return diag.Diagnostic{}, false
	}
	if w[0] >= 0x80 && !endsWord(after[len(w):]) {
		return diag.Diagnostic{}, false
	}
	written := w
	if sep != "" {
		written = " " + w
	}
	d := diag.Errorf(p.Index.Pos(src(skip)), diag.ClaimUnitOutside,
		"unit %q is written after the claim [%s], outside its link text, so it is not checked against %s; expected it inside: [%s%s]",
		w, c.Literal, strings.Join(c.Refs, ", "), c.Literal, written)
	d.End = p.Index.Pos(src(skip + len(w)))
	return d, true
}

// otherWord reports whether the unit spelling w, followed by rest, is
// part of another word rather than a unit, whether a space precedes it
// or not:
//   - Korean 분 followed by 들 or 께 is the honorific counter of persons
//     ("3 분들이", "세 분께서"), never minutes; 분이, 분을, 분간… stay
//     minutes: after a numeral "3 분" is a unit noun written apart, as
//     Korean spacing writes one ("3 분이 지났다", 3 minutes passed).
//   - Japanese 分 followed by か and る/り/ら/っ/れ/ろ is the verb 分かる
//     (to understand) or 分かれる (to split), never minutes; 分かかる
//     (takes N minutes) and 分かけて stay minutes.
func otherWord(w, rest string) bool {
	switch w {
	case "분":
		return strings.HasPrefix(rest, "들") || strings.HasPrefix(rest, "께")
	case "分":
		if r, ok := strings.CutPrefix(rest, "か"); ok {
			for _, k := range []string{"る", "り", "ら", "っ", "れ", "ろ"} {
				if strings.HasPrefix(r, k) {
					return true
				}
			}
		}
	}
	return false
}

// koParticles are the Korean particles and bound nouns that may follow a
// spaced unit word and keep it a unit (시간이, 밀리초가). 과 and 와 are
// left out: "40 초과" (more than 40) reads as 초 + 과.
// 후, 전, 여, 내 and 동안 are the bound nouns written glued to a duration
// (3분후, 5초전, 3분여, 3분내).
var koParticles = []string{
	"이다", "입니다", "이며", "이고", "이나", "이면", "으로", "에서", "까지", "부터", "보다", "짜리", "정도", "가량", "이상", "이하", "미만", "이내", "만에", "동안", "간",
	"이", "가", "은", "는", "을", "를", "의", "에", "로", "도", "만", "씩", "쯤", "째", "후", "전", "여", "내",
}

// jaSuffixes are the kanji words that follow a Japanese unit word and keep
// it a unit (3分間, 5秒後, 2日目, 10分以内, 3分程度): any other kanji makes
// the unit's character the start of another word (分割, 分岐, 分析, 秒針).
var jaSuffixes = []string{
	"以内", "以上", "以下", "未満", "程度", "前後", "間", "後", "前", "目", "弱", "強", "台", "超", "半", "毎", "余", "足",
}

// endsWord reports whether s, the text right after a Korean or Japanese
// unit word (spaced from the claim or glued to it), leaves that word a
// unit: it starts with no letter of the word (space, punctuation, digits,
// Latin, end), with a Korean particle or bound noun, or (Japanese) with
// hiragana (particles, okurigana) or a kanji suffix of jaSuffixes. So
// 3분이, 3분간, 3分間 and 3分で stay minutes while 3분할, 3분기 (a quarter),
// 3分割 and 3分析 are other words.
func endsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	switch {
	case s == "" || r == utf8.RuneError:
		return true
	case unicode.Is(unicode.Hangul, r):
		for _, pt := range koParticles {
			if strings.HasPrefix(s, pt) {
				rest := s[len(pt):]
				r2, _ := utf8.DecodeRuneInString(rest)
				if rest == "" || !unicode.Is(unicode.Hangul, r2) || len(pt) > 3 {
					return true
				}
			}
		}
		return false
	case unicode.Is(unicode.Hiragana, r):
		return true
	case unicode.Is(unicode.Han, r):
		for _, sf := range jaSuffixes {
			if strings.HasPrefix(s, sf) {
				return true
			}
		}
		return false
	case unicode.Is(unicode.Katakana, r), unicode.IsLetter(r):
		return r < 0x80
	}
	return true
}
