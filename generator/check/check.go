// Package check compares every claim of a site's pages with the evidence it
// names and reports mismatches, unknown references and unbound numbers as
// diagnostics (the claim-* rules of the catalogue, generator/diag/rules.go).
// Site-level rules (links, figures, translations) are package site's.
//
// Judgement: a literal number q written with d decimals matches an evidence
// value v when |v − q| ≤ ½·10^−d ("44%" covers 43.5–44.5, "51.7%" covers
// 51.65–51.75), times the magnitude written (만, 万, 割). A number
// written after ± is the spread a tool printed with its mean ("319.5 ±
// 11.2ms"), never a tolerance: it is checked against the spread the
// evidence value knows (evidence.Value.Spread), and on a value with none
// it is a claim-spread finding (see Spread). When the literal carries an approximation
// word (literal.Approx: 약, 約, 정도, ほど … about; 남짓, 強 over; 弱, 近く
// under) the tolerance is widened to max(½·10^−d, Approx·|q|) on the
// side(s) the word means, with Approx = 10% by default. A clock time is
// read by truncation, as a clock shows it: 14:03 covers 14:03:00 up to
// 14:04 (see Interval). Units of one dimension convert into each other
// when both the literal and the value state one (package unit: time,
// sizes, throughputs, CPU, ratio and %); % and %p (percentage points) do
// not, and a claim in one on a value in the other names both readings
// (pointsMessage). A mismatch by a power of 1000 between time units is
// reported as the unit mistake it is, with no fix; a decimal size (MB)
// that matches only as the binary one (MiB) names both readings
// (binaryHint).
package check

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Options tunes the judgement. The zero value is not useful; start from
// DefaultOptions.
type Options struct {
	// Approx is the relative tolerance an approximation mark allows,
	// as a fraction (0.10 = ±10%).
	Approx decimal.Decimal
}

// DefaultOptions returns the documented defaults: Approx = 0.10.
func DefaultOptions() Options {
	return Options{Approx: decimal.RequireFromString("0.10")}
}

// Binding is one number of a claim matched with its evidence value.
type Binding struct {
	Ref      string          `json:"ref"`
	Number   string          `json:"number"`
	Found    bool            `json:"found"`
	Value    string          `json:"value,omitempty"`
	Unit     string          `json:"unit,omitempty"`
	Evidence *diag.Position  `json:"evidence,omitempty"`
	Raw      string          `json:"raw,omitempty"`
	Inputs   []diag.Position `json:"inputs,omitempty"`
	OK       bool            `json:"ok"`
}

// Result is the verdict on one claim.
type Result struct {
	Claim    claim.Claim `json:"claim"`
	Bindings []Binding   `json:"bindings"`
	OK       bool        `json:"ok"`
}

// Claims judges the claims of one page against st, returning a Result for
// every claim and a diagnostic for every problem: an unparseable literal,
// a count mismatch between numbers and references, an unknown reference,
// and a value outside the written precision.
func Claims(p *claim.Page, st *evidence.Store, opt Options) ([]Result, diag.List) {
	j := judge(p, st, opt, true)
	return j.results, j.ds
}

// Counts judges the claims of one page as Claims does, with the same
// diagnostics, but keeps no Result: it returns how many claims the page
// has (exempt ones included, as Claims returns a Result for each) and how
// many of them are OK.
func Counts(p *claim.Page, st *evidence.Store, opt Options) (total, matched int, ds diag.List) {
	j := judge(p, st, opt, false)
	return j.total, j.matched, j.ds
}

// judgement is what judge found on a page: every claim's Result when
// kept, the count of claims and of OK ones, and the diagnostics.
type judgement struct {
	results        []Result
	total, matched int
	ds             diag.List
}

// add counts r, and keeps it when keep is set.
func (j *judgement) add(r Result, keep bool) {
	j.total++
	if r.OK {
		j.matched++
	}
	if keep {
		j.results = append(j.results, r)
	}
}

// judge is Claims when keep is set, and Counts otherwise: without keep
// it builds no Result, no Binding and no value's text.
func judge(p *claim.Page, st *evidence.Store, opt Options, keep bool) judgement {
	var j judgement
	ds := &j.ds
	// Claims resting on an evidence set that did not load are reported
	// once per page and set, not once per claim.
	brokenCount := map[string]int{}
	for _, c := range p.Claims {
		for _, ref := range c.Refs {
			if set, _, _ := strings.Cut(ref, "/"); st.Broken[set] {
				brokenCount[set]++
			}
		}
	}
	brokenReported := map[string]bool{}
	names := map[*evidence.Value]string{} // for labelMismatch
	if len(p.Claims) > 0 && keep {
		j.results = make([]Result, 0, len(p.Claims))
	}
	for _, c := range p.Claims {
		r := Result{OK: true}
		if keep {
			r.Claim = c
		}
		if c.Exempt {
			j.add(r, keep)
			continue
		}
		lit, err := c.Parsed, c.ParseErr
		if err != nil {
			*ds = append(*ds, literalError(p, c, err))
			r.OK = false
			j.add(r, keep)
			continue
		}
		if d, ok := unitOutside(p, c, lit); ok {
			*ds = append(*ds, d)
			r.OK = false
		}
		split := false
		for _, q := range lit.Quantities {
			if _, _, ok := c.SourceRange(p.Source, q.NumStart, q.NumEnd); !ok && len(c.Offsets) > 0 {
				if c.Decoded(p.Source, q.NumStart, q.NumEnd) {
					*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimLiteral, "claim %q: the number %q is written with a character reference or backslash escape; expected plain digits", c.Literal, c.Literal[q.NumStart:q.NumEnd]), p, c.End))
					split = true
					continue
				}
				*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimLiteral, "claim %q: the number %q is split by inline markup; expected it written as one run of text", c.Literal, c.Literal[q.NumStart:q.NumEnd]), p, c.End))
				split = true
			}
		}
		if split {
			r.OK = false
			j.add(r, keep)
			continue
		}
		if lit.Range && len(c.Refs) == 1 && len(lit.Quantities) == 2 {
			j.add(judgeRange(p, c, lit, st, opt, ds, keep), keep)
			continue
		}
		if n := spreadCount(lit); n > 0 && len(c.Refs) == len(lit.Quantities)+n {
			// [412.7 ± 8.3ms](ev:mean,sd): one reference per number,
			// the spread's named by the writer. Each spread is then a
			// number of its own, judged against its reference.
			lit = spreadsAsNumbers(lit)
		}
		if len(c.Refs) != len(lit.Quantities) {
			*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimArity,
				"claim %q has %d number(s) but %d evidence reference(s); expected one reference per number", c.Literal, len(lit.Quantities), len(c.Refs)), p, c.End))
			r.OK = false
		}
		for i, ref := range c.Refs {
			b := Binding{Ref: ref}
			var q *literal.Quantity
			if i < len(lit.Quantities) {
				q = &lit.Quantities[i]
				b.Number = c.Literal[q.Start:q.End]
			}
			v, ok := st.Lookup(ref)
			if !ok {
				if set, _, _ := strings.Cut(ref, "/"); st.Broken[set] {
					if !brokenReported[set] {
						brokenReported[set] = true
						*ds = append(*ds, brokenSet(c, set, ref, brokenCount[set], st))
					}
				} else if at, ok := st.Unavailable(ref); ok {
					pos, end := refRange(c, i)
					*ds = append(*ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Error, Rule: diag.ClaimUnknownRef,
						Message: fmt.Sprintf("derived value %q could not be computed (value unavailable: see %s)", ref, at),
						Related: []diag.Related{{Pos: at, Message: "why " + ref + " is unavailable"}}})
				} else if cell, ok := st.NonNumeric(ref); ok {
					pos, end := refRange(c, i)
					*ds = append(*ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Error, Rule: diag.ClaimUnknownRef,
						Message: nonNumericMessage(ref, cell),
						Related: []diag.Related{{Pos: cell.Pos, Message: "the cell"}}})
				} else {
					pos, end := refRange(c, i)
					*ds = append(*ds, diag.Errorf(pos, diag.ClaimUnknownRef, "unknown evidence reference %q%s", ref, suggest(st, ref)).Spanning(end))
				}
				r.OK = false
				if keep {
					r.Bindings = append(r.Bindings, b)
				}
				continue
			}
			b.Found = true
			if keep {
				b.Value, b.Unit, b.Evidence, b.Raw, b.Inputs = v.Value.String(), v.Unit, &v.Pos, v.Raw, v.Inputs
			}
			if q != nil && q.Spread != nil && v.Spread == nil {
				// 319.5 ± 11.2ms on a value with no known spread: a
				// tool's mean ± σ, or a tolerance? Say so.
				*ds = append(*ds, spreadUnknown(p, c, *q, lit.Approx, v, opt))
				r.OK = false
			} else if q != nil {
				match := func() (bool, string) { return Match(*q, lit.Approx, v, opt) }
				if lit.Cmp != "" && len(lit.Quantities) == 1 {
					match = func() (bool, string) { return MatchCmp(*q, lit.Cmp, v) }
				}
				if ok, want := match(); ok {
					b.OK = true
				} else {
					pos := c.Pos
					if p.Index != nil && q.Start < len(c.Offsets) && c.Offsets[q.Start] >= 0 {
						pos = p.Index.Pos(c.Offsets[q.Start]) // the literal may span lines
					}
					end := diag.Position{}
					if e := c.SourceEnd(p.Source, q.End); p.Index != nil && e >= 0 {
						end = p.Index.Pos(e) // past a character reference: 40&nbsp;ms
					}
					d := diag.Diagnostic{Pos: pos, End: end, Severity: diag.Error, Rule: diag.ClaimMismatch,
						Message: fmt.Sprintf("%q does not match %s = %s (%s); expected %s", b.Number, ref, valueText(q, v), v.Pos, want),
						Related: []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}}
					if lit.Cmp == "" && scaleHint(*q, v) == "" && binaryHint(*q, lit.Approx, v, opt) == "" && multiplierSizeHint(*q, v) == "" {
						// A power-of-1000 mismatch is a unit mistake,
						// and so is a decimal size that matches only
						// as a binary one: rewriting the digits would
						// hide it.
						if f, ok := suggestFix(p, c, *q, v); ok {
							d.Fixes = []diag.SuggestedFix{f}
						}
					}
					if !end.IsValid() {
						d = withEnd(d, p, c.End)
					}
					*ds = append(*ds, d)
					r.OK = false
				}
				if q.Spread != nil {
					if d, ok := judgeSpread(p, c, *q, v, opt); !ok {
						*ds = append(*ds, d)
						b.OK, r.OK = false, false
					}
				}
			}
			if d, ok := labelMismatch(p, &c, v, names); ok {
				*ds = append(*ds, d)
				r.OK = false
			}
			if !keep {
				continue
			}
			if r.Bindings == nil {
				r.Bindings = make([]Binding, 0, len(c.Refs))
			}
			r.Bindings = append(r.Bindings, b)
		}
		j.add(r, keep)
	}
	return j
}

// literalError is the claim-literal finding for c's parse error err: at
// the bytes of the literal a literal.LiteralError names (the first byte the
// grammar could not read), or over the whole claim.
func literalError(p *claim.Page, c claim.Claim, err error) diag.Diagnostic {
	d := withEnd(diag.Errorf(c.Pos, diag.ClaimLiteral, "%v", err), p, c.End)
	var le *literal.LiteralError
	if !errors.As(err, &le) || p.Index == nil || le.Offset >= len(c.Offsets) || c.Offsets[le.Offset] < 0 {
		return d
	}
	d.Pos = p.Index.Pos(c.Offsets[le.Offset])
	if e := c.SourceEnd(p.Source, le.End); e > d.Pos.Offset {
		d.End = p.Index.Pos(e)
	} else {
		d = withEnd(d, p, max(c.End, d.Pos.Offset+1))
	}
	return d
}

// refRange returns the range of claim c's i-th reference in its
// destination, or of the whole destination when it has no such one.
func refRange(c claim.Claim, i int) (diag.Position, diag.Position) {
	if i < len(c.RefPositions) && i < len(c.RefEnds) {
		return c.RefPositions[i], c.RefEnds[i]
	}
	return c.RefPos, c.DestEnd
}

// withEnd sets the end of d's range to byte offset end of page p.
func withEnd(d diag.Diagnostic, p *claim.Page, end int) diag.Diagnostic {
	if p.Index != nil && end > d.Pos.Offset {
		d.End = p.Index.Pos(end)
	}
	return d
}

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
func unitOutside(p *claim.Page, c claim.Claim, lit literal.Literal) (diag.Diagnostic, bool) {
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

// suggestFix rewrites a stale number to its evidence value in the style
// it was written (see literal.Quantity.Format). There is no mechanical fix
// when the units disagree, when a signed literal is bound to a value that
// is not a difference, when the literal claims more precision than the
// record, or when the link text has inline markup (the literal is not
// written contiguously in the source).
func suggestFix(p *claim.Page, c claim.Claim, q literal.Quantity, v *evidence.Value) (diag.SuggestedFix, bool) {
	start, end, ok := c.SourceRange(p.Source, q.NumStart, q.NumEnd)
	if p.Index == nil || !ok || !q.Rewritable() {
		return diag.SuggestedFix{}, false
	}
	if !UnitsCompatible(q.Unit, v.Unit) || q.Delta && !v.Delta {
		return diag.SuggestedFix{}, false
	}
	if q.SignWord != "" && v.Value.Sign() != 0 && v.Value.Sign() != q.Value.Sign() {
		return diag.SuggestedFix{}, false // 감소 on an increase: the word must change, by hand
	}
	if q.ZeroPart(InUnitOf(q, v)) {
		return diag.SuggestedFix{}, false // 1만 0천: not how the number is written in those words
	}
	if !v.Derived && coarsestStep(q).LessThan(floorPow10(InUnitOf(q, &evidence.Value{Value: decimal.New(1, v.Value.Exponent()), Unit: v.Unit}))) {
		// Written finer than the record: without a unit conversion, write
		// the record's own precision instead.
		if u, _ := unit.Canonical(q.Unit); u.Converts() && q.Unit != v.Unit || !q.Magnitude.Equal(decimal.NewFromInt(1)) {
			return diag.SuggestedFix{}, false
		}
		q.Decimals = int(max(0, -v.Value.Exponent()))
	}
	nw := q.Format(InUnitOf(q, v))
	if nw == string(p.Source[start:end]) || !literal.RewriteKeepsReading(c.Literal, q, nw) {
		return diag.SuggestedFix{}, false
	}
	return diag.SuggestedFix{
		// the number as it reads rewritten: 1만 3천 건, not 1만 3
		Message: fmt.Sprintf("write %s (%s)", c.Literal[q.Start:q.NumStart]+nw+c.Literal[q.NumEnd:q.End], v.Ref),
		Edits:   []diag.TextEdit{{Pos: p.Index.Pos(start), End: end, NewText: nw}},
	}, true
}

// judgeRange checks a range literal ("5~10초") bound to one value.
func judgeRange(p *claim.Page, c claim.Claim, lit literal.Literal, st *evidence.Store, opt Options, ds *diag.List, keep bool) Result {
	r := Result{OK: true}
	if keep {
		r.Claim = c
	}
	b := Binding{Ref: c.Refs[0], Number: c.Literal[lit.Quantities[0].Start:lit.Quantities[1].End]}
	v, ok := st.Lookup(c.Refs[0])
	if !ok {
		pos, end := refRange(c, 0)
		*ds = append(*ds, diag.Errorf(pos, diag.ClaimUnknownRef, "unknown evidence reference %q%s", c.Refs[0], suggest(st, c.Refs[0])).Spanning(end))
		r.OK = false
		r.Bindings = append(r.Bindings, b)
		return r
	}
	b.Found = true
	if keep {
		b.Value, b.Unit, b.Evidence, b.Raw, b.Inputs = v.Value.String(), v.Unit, &v.Pos, v.Raw, v.Inputs
	}
	if lit.Quantities[0].Spread != nil || lit.Quantities[1].Spread != nil {
		r.OK = false
		*ds = append(*ds, withEnd(diag.Errorf(c.Pos, diag.ClaimSpread,
			"range %q writes a ± spread on an end; expected a range (the values a claim allows) or a mean ± spread (as a tool prints it), not both", b.Number), p, c.End))
		r.Bindings = append(r.Bindings, b)
		return r
	}
	if ok, want := MatchRange(lit.Quantities[0], lit.Quantities[1], lit.Approx, v, opt); ok {
		b.OK = true
	} else {
		r.OK = false
		*ds = append(*ds, withEnd(diag.Diagnostic{Pos: c.Pos, Severity: diag.Error, Rule: diag.ClaimMismatch,
			Message: fmt.Sprintf("range %q does not contain %s = %s (%s); expected %s", b.Number, b.Ref, valueText(&lit.Quantities[0], v), v.Pos, want),
			Related: []diag.Related{{Pos: v.Pos, Message: "evidence value " + v.Raw}}}, p, c.End))
	}
	r.Bindings = append(r.Bindings, b)
	return r
}

// Coverage reports every number in a page's prose that is neither in a
// claim nor exempt (fail-closed: such a number is an error), and returns
// the page's coverage.
func Coverage(p *claim.Page) (claim.Coverage, diag.List) {
	c := claim.PageCoverage(p)
	var ds diag.List
	for _, u := range c.Unbound {
		d := diag.Errorf(u.Pos, diag.ClaimUnbound,
			"number %q in prose is bound to no evidence; write it as [%s](ev:SET/NAME), or mark it [%s](%s \"reason\") if it is not a measurement",
			u.Text, u.Text, u.Text, claim.ExemptDestination)
		if u.In != "" {
			d = diag.Errorf(u.Pos, diag.ClaimUnbound,
				"number %q in %s is published and bound to no evidence; write it there as [%s](ev:SET/NAME) if the shortcode renders the argument with .Page.RenderString (Hugo's details summary does; markdownify, which Hugo's figure caption uses, renders it as the home page's), else state it in the prose as a claim; mark it [%s](%s \"reason\") if it is not a measurement",
				u.Text, u.In, u.Text, u.Text, claim.ExemptDestination)
		}
		end := u.End
		if end <= u.Pos.Offset {
			end = u.Pos.Offset + len(u.Text)
		}
		ds = append(ds, withEnd(d, p, end))
	}
	return c, ds
}

// NumberWords reports the numbers written as words with a counter in a
// page's prose (세 번, 二回, ふたつ; see claim.Page.ProseWords) as
// claim-number-word findings. The rule is off by default: the site runs it
// only when evdoc.toml's [rules] gives it a severity.
func NumberWords(p *claim.Page) diag.List {
	var ds diag.List
	for _, w := range p.ProseWords() {
		d := diag.Diagnostic{Pos: w.Pos, Severity: diag.Warning, Rule: diag.ClaimNumberWord,
			Message: fmt.Sprintf("%q in prose is a number written as a word and bound to no evidence; write it as [%s](ev:SET/NAME), or mark it [%s](%s \"reason\") if it is not a measurement", w.Text, w.Text, w.Text, claim.ExemptDestination)}
		if p.Index != nil {
			d.End = p.Index.Pos(w.Pos.Offset + len(w.Text))
		}
		ds = append(ds, d)
	}
	return ds
}

// Match reports whether quantity q (approximate as approx says) agrees
// with evidence value v under opt, and otherwise describes what the
// literal should read, such as "44 at the precision written", or, when
// the two differ by a power of 1000, which unit the literal probably
// meant.
func Match(q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if q.Sign == "±" && v.Value.IsNegative() {
		// a spread (±11%) states a size either way: it matches −11% too
		abs := *v
		abs.Value = v.Value.Abs()
		v = &abs
	}
	if matchFast(&q, approx, v, opt) {
		return true, "" // decided in int64 (see matchFast)
	}
	return matchDecimal(q, approx, v, opt)
}

// matchDecimal is Match in decimal arithmetic, for every case.
func matchDecimal(q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if !UnitsCompatible(q.Unit, v.Unit) {
		if v.Unit == "" {
			return false, fmt.Sprintf("evidence with a unit: %s has none; its raw file's format or its evidence.toml (units = { … }) must state the unit the raw file records, which may differ from the claim's", v.Ref)
		}
		if m := pointsMessage(q, v); m != "" {
			return false, m
		}
		return false, fmt.Sprintf("a number in %s (units %s and %s do not convert)", unitName(v.Unit), unitName(q.Unit), unitName(v.Unit))
	}
	if hint := multiplierSizeHint(q, v); hint != "" {
		return false, hint
	}
	if !v.Derived {
		// The literal may not claim more precision than the raw record:
		// its last digit must be no finer than the record's, in the
		// literal's unit.
		res := floorPow10(InUnitOf(q, &evidence.Value{Value: decimal.New(1, v.Value.Exponent()), Unit: v.Unit}))
		if coarsestStep(q).LessThan(res) {
			if hint := unitHint(q, v); hint != "" {
				return false, hint
			}
			if hint := binaryHint(q, approx, v, opt); hint != "" {
				return false, hint
			}
			in := ""
			if q.Unit != "" && v.Unit != "" && q.Unit != v.Unit {
				in = fmt.Sprintf(" (%s %s)", InUnitOf(q, v).String(), q.Unit) // 1 (ratio) is 100 %
			}
			return false, fmt.Sprintf("no finer than %s: %s is recorded as %s%s", res.String(), v.Ref, v.Raw, in)
		}
	}
	if q.Delta && !v.Delta {
		return false, fmt.Sprintf("a difference: %q is signed but %s is not a difference (bind it to a delta(…) value, or list it in its manifest entry's changes if it holds a change)", q.Sign+q.SignWord, v.Ref)
	}
	val := InUnitOf(q, v)
	if lo, hi, open := Interval(q, approx, opt); val.GreaterThanOrEqual(lo) && (val.LessThan(hi) || !open && val.Equal(hi)) {
		return true, ""
	}
	if hint := unitHint(q, v); hint != "" {
		return false, hint
	}
	if hint := binaryHint(q, approx, v, opt); hint != "" {
		return false, hint
	}
	return false, fmt.Sprintf("%s at the precision written", Expected(q, approx, val))
}

// pointsMessage explains a claim in % on a value in percentage points, or
// in %p on a value in % or ratio: the two readings give different
// numbers, and the claim's unit says which one it means. A difference of
// two percentages (%p) is named with the relative change the same two
// values make, when the value records the percentage it is taken from.
// It returns "" for other units.
func pointsMessage(q literal.Quantity, v *evidence.Value) string {
	switch {
	case q.Unit == "%" && v.Unit == "%p":
		rel := "the relative change is not known: the value does not record the percentage it is taken from"
		if v.PointsFrom != nil && !v.PointsFrom.IsZero() {
			r := v.Value.Mul(decimal.NewFromInt(100)).DivRound(*v.PointsFrom, 28)
			rel = fmt.Sprintf("the relative change of the same two values is %s%% (%s %%p over %s %%), which a claim in %% would mean", signed(r.Round(2)), v.Value.String(), v.PointsFrom.String())
		}
		return fmt.Sprintf("a number in %%p: %s is a difference of two percentages, %s percentage points; %s; write [%s%%p] (%%p, pp, 퍼센트포인트, ポイント) for the difference, or declare the value's unit %q in evidence.toml if it is a relative change",
			v.Ref, v.Value.String(), rel, signed(v.Value), "%")
	case q.Unit == "%p" && (v.Unit == "%" || v.Unit == "ratio"):
		return fmt.Sprintf("a number in %%: %s is a %s, not known to be a difference of two percentages in points; write it in %%, bind the claim to a difference (delta(a, b) of two percentages is in %%p), or declare the value's unit \"%%p\" in evidence.toml if it holds percentage points", v.Ref, map[string]string{"%": "percentage", "ratio": "ratio (1 is all)"}[v.Unit])
	}
	return ""
}

// multiplierSizeHint explains a claim that writes a multiplier letter
// and no unit (1.5M, 2.76k: see literal.MultiplierLetter) on a size or a
// throughput: k, M and G are powers of 1000 to some tools and of 1024 to
// others (ls -h and free -h print 1.5M for 1.5 MiB), and the claim does
// not say which, so it names both readings and the units that do. It
// returns "" for any other claim or value; a count or a rate of requests
// has no binary reading.
func multiplierSizeHint(q literal.Quantity, v *evidence.Value) string {
	if q.Unit != "" || !literal.MultiplierLetter(q.MagnitudeWord) {
		return ""
	}
	u, _ := unit.Canonical(v.Unit)
	if u.Dim != unit.Size && u.Dim != unit.Throughput {
		return ""
	}
	per := ""
	if u.Dim == unit.Throughput {
		per = "/s"
	}
	si := map[string]string{"k": "KB", "M": "MB", "G": "GB"}[q.MagnitudeWord] + per
	bin, _ := unit.Binary(si)
	digits := q.Format(q.Value)
	return fmt.Sprintf("a unit on a size: %s%s is %s %s (SI, powers of 1000) to some tools and %s %s (binary, powers of 1024: ls -h, free -h) to others; write [%s%s] or [%s%s]",
		digits, q.MagnitudeWord, digits, si, digits, bin, digits, si, digits, bin)
}

// signed writes d with its sign: +7.4, -3.
func signed(d decimal.Decimal) string {
	if d.IsNegative() {
		return d.String()
	}
	return "+" + d.String()
}

// binaryHint explains a claim in a decimal size (KB, MB, GB and their
// rates, read with SI factors: 1 MB = 10⁶ B) that matches its value only
// when read as the binary unit of the same rank (MiB, 2²⁰ B): it names
// both readings and the binary unit to write. It returns "" when the
// binary reading does not match either.
func binaryHint(q literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) string {
	bin, ok := unit.Binary(q.Unit)
	if !ok {
		return ""
	}
	alt := q
	alt.Unit = bin
	asBin, ok := unit.Convert(v.Value, v.Unit, bin)
	if !ok {
		return ""
	}
	if lo, hi, open := Interval(alt, approx, opt); asBin.LessThan(lo) || asBin.GreaterThan(hi) || open && asBin.Equal(hi) {
		return ""
	}
	asDec := InUnitOf(q, v)
	return fmt.Sprintf("%s in %s (SI, 10%s B: %s is %s %s) or in %s (binary, 2%s B: %s %s, which matches); write [%s%s] if the binary unit is meant",
		q.Value.String(), q.Unit, superscript(decExp(q.Unit)), v.Ref, asDec.Round(4).String(), q.Unit, bin, superscript(binExp(bin)), asBin.Round(4).String(), bin, q.Format(asBin), bin)
}

// decExp and binExp give the power of 10 and of 2 of a decimal and a
// binary size unit (MB: 6; MiB: 20).
func decExp(u string) int {
	return map[byte]int{'K': 3, 'M': 6, 'G': 9, 'T': 12}[u[0]]
}

func binExp(u string) int {
	return map[byte]int{'K': 10, 'M': 20, 'G': 30, 'T': 40}[u[0]]
}

// unitHint explains a mismatch by a power of 1000: the literal's unit
// (scaleHint) or the raw value's (rawScaleHint).
func unitHint(q literal.Quantity, v *evidence.Value) string {
	if h := scaleHint(q, v); h != "" {
		return h
	}
	return rawScaleHint(q, v)
}

// scaleHint explains a mismatch by a power of 1000 between time units:
// "written in s, evidence is 0.0192 s = 19.2 ms; did you mean ms?". It
// returns "" when no other time unit makes the literal match.
func scaleHint(q literal.Quantity, v *evidence.Value) string {
	lu, ok := unit.Canonical(q.Unit)
	vu, ok2 := unit.Canonical(v.Unit)
	if !ok || !ok2 || lu.Dim != unit.Time || vu.Dim != unit.Time || q.Value.IsZero() {
		return ""
	}
	for _, alt := range []string{"ns", "us", "ms", "s"} {
		if alt == q.Unit {
			continue
		}
		f, _ := unit.Factor(q.Unit, alt)
		if r := f.Abs(); r.LessThan(decimal.NewFromInt(1000)) && r.GreaterThan(decimal.New(1, -3)) {
			continue // only powers of 1000 and beyond
		}
		inAlt, _ := unit.Convert(v.Value, v.Unit, alt)
		if inAlt.Sub(q.Value).Abs().LessThanOrEqual(q.Step().Div(decimal.NewFromInt(2))) {
			inLit, _ := unit.Convert(v.Value, v.Unit, q.Unit)
			return fmt.Sprintf("written in %s, evidence is %s %s = %s %s; did you mean %s?", q.Unit, inLit.String(), q.Unit, inAlt.String(), alt, alt)
		}
	}
	return ""
}

// rawScaleHint explains a mismatch by a power of 1000 on the evidence's
// side: the raw number read in another time unit matches the literal, so
// the raw file probably wrote it in that unit ("75 ms vs 74602 s: 10⁶×
// apart; is the raw value in µs?", as curl 7.74.0 printed time_total in
// µs). It returns "" when no other unit makes the raw number match.
func rawScaleHint(q literal.Quantity, v *evidence.Value) string {
	lu, ok := unit.Canonical(q.Unit)
	vu, ok2 := unit.Canonical(v.Unit)
	if !ok || !ok2 || lu.Dim != unit.Time || vu.Dim != unit.Time || q.Value.IsZero() {
		return ""
	}
	for _, alt := range []string{"ns", "us", "ms", "s"} {
		f, _ := unit.Factor(v.Unit, alt)
		exp, ok := powerOf10(f)
		if alt == v.Unit || !ok || exp == 0 || exp%3 != 0 {
			continue
		}
		inLit, _ := unit.Convert(v.Value, alt, q.Unit)
		if inLit.Sub(q.Value).Abs().LessThanOrEqual(q.Step().Div(decimal.NewFromInt(2))) {
			return fmt.Sprintf("%s %s vs %s %s: 10%s× apart; is the raw value in %s?", q.Value.String(), q.Unit, v.Value.String(), v.Unit, superscript(exp), strings.ReplaceAll(alt, "us", "µs"))
		}
	}
	return ""
}

// floorPow10 returns the largest power of ten not above d (d > 0): the
// step of a record converted across binary and decimal sizes (0.01 MiB
// is 0.01048576 MB) is that of its digits, 0.01.
func floorPow10(d decimal.Decimal) decimal.Decimal {
	if !d.IsPositive() {
		return d
	}
	if _, ok := powerOf10(d); ok {
		return d
	}
	e := int32(d.NumDigits()) + d.Exponent() - 1 // the exponent of d's leading digit
	return decimal.New(1, e)
}

// powerOf10 returns n when f is 10ⁿ.
func powerOf10(f decimal.Decimal) (int, bool) {
	s := f.String()
	switch {
	case strings.Trim(s, "0") == "1" && s[0] == '1':
		return len(s) - 1, true
	case strings.HasPrefix(s, "0.") && strings.TrimLeft(s[2:], "0") == "1":
		return -(len(s) - 2), true
	}
	return 0, false
}

// superscript writes n with superscript digits: 6 → "⁶", -3 → "⁻³".
func superscript(n int) string {
	return strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹").Replace(strconv.Itoa(n))
}

// coarsestStep is q's step with trailing zeros of a whole number read as
// not significant: "1500ms" claims no finer than 100 ms.
func coarsestStep(q literal.Quantity) decimal.Decimal {
	step := q.Step()
	if q.Decimals > 0 || q.Magnitude.IsZero() || q.Unit == literal.ClockUnit {
		return step // 14:10 claims the minute: its zero is a digit
	}
	var n int64
	if literal.IsOne(q.Magnitude) && q.Value.Exponent() >= -int32(decimal.DivisionPrecision) {
		n = q.Value.Abs().IntPart() // what dividing by 1 leaves (exactly, at this precision)
	} else {
		n = q.Value.Div(q.Magnitude).Abs().IntPart()
	}
	for n != 0 && n%10 == 0 {
		n /= 10
		step = step.Mul(decimal.NewFromInt(10))
	}
	return step
}

// Interval is the values q (approximate as approx says) stands for:
// from lo to hi, hi itself left out when open. A number stands for the
// values within its Tolerance. A clock time stands for the time a clock
// shows it at: 14:03 for 14:03:00 up to 14:04, left out (a clock is read
// by truncation, at every precision: 14시, 14:03, 14:03:52, 14:03:52.7);
// approximate, for the times a clock shows it at or that round to it (약
// 14시: 13:30 up to 15:00), a little over (남짓) for the truncated times
// with the next one in, a little under (거의) for the half step before it.
func Interval(q literal.Quantity, approx literal.Approx, opt Options) (lo, hi decimal.Decimal, open bool) {
	if q.Unit != literal.ClockUnit {
		below, above := Tolerance(q, approx, opt)
		return q.Value.Sub(below), q.Value.Add(above), false
	}
	step := q.Step()
	half := halfStep(q)
	switch approx {
	case literal.About:
		return q.Value.Sub(half), q.Value.Add(step), true
	case literal.Over:
		return q.Value, q.Value.Add(step), false
	case literal.Under:
		return q.Value.Sub(half), q.Value, false
	}
	return q.Value, q.Value.Add(step), true
}

// valueText writes evidence value v for a message next to quantity q: a
// time of day as the clock time q is written (14:03:52.713, 오후 2시 3분
// 52.713초), anything else as its number and unit.
func valueText(q *literal.Quantity, v *evidence.Value) string {
	if q != nil && v.Unit == literal.ClockUnit {
		if s, ok := q.ClockText(v.Value); ok {
			return s
		}
	}
	if v.Unit == "ratio" {
		return v.Value.String() + " (ratio)" // 1 (ratio), not 1ratio
	}
	return v.Value.String() + v.Unit
}

// Tolerance is how far below and above q a value may lie: half a unit of
// the last written digit (a number after ± is a spread, judged on its
// own: see Spread); an approximation widens it to Approx·|q| on the side(s) its word means
// (About both, Over above, Under below).
func Tolerance(q literal.Quantity, approx literal.Approx, opt Options) (below, above decimal.Decimal) {
	half := halfStep(q)
	if approx != literal.About && approx != literal.Over && approx != literal.Under {
		return half, half
	}
	rel := half
	if r := q.Value.Abs().Mul(opt.Approx); r.GreaterThan(rel) {
		rel = r
	}
	switch approx {
	case literal.About:
		return rel, rel
	case literal.Over:
		return half, rel
	case literal.Under:
		return rel, half
	}
	return half, half
}

// halfStep is half of q's step, as q.Step().Div(2) computes it: times 0.5
// where that quotient is exact at decimal.DivisionPrecision digits (a step
// of at most DivisionPrecision-1 decimals), which spares a math/big
// division.
func halfStep(q literal.Quantity) decimal.Decimal {
	step := q.Step()
	if step.Exponent() > -int32(decimal.DivisionPrecision) {
		return step.Mul(decimal.New(5, -1))
	}
	return step.Div(decimal.NewFromInt(2))
}

// Expected formats val as q would have to read.
func Expected(q literal.Quantity, approx literal.Approx, val decimal.Decimal) string {
	want := q.Format(val)
	switch {
	case len(q.Parts) > 0:
		want += q.UnitWord // 142h37m: the last part's unit; 오후 2시 3분 whole
	case q.SignWord != "":
		// the value's own sign: 12% 감소 against +12% expects +12%
		q.SignWord, q.Delta = "", true
		want = q.Format(val) + q.UnitWord
	case q.MagParts != nil && !q.ZeroPart(val):
		want += q.MagParts[len(q.MagParts)-1].Word // 1만 3천 for 1만 2천
	case q.Compound && q.MagnitudeWord != "割":
		// 1만 2천 against 10042: "10,042", not "1만 0천"
		want = groupDigits(val.String())
	case q.MagnitudeWord != "" && !q.Compound:
		want += q.MagnitudeWord // "1만", not "1", for 12000 written as 12만
	}
	switch approx {
	case literal.About:
		want = "about " + want
	case literal.Over:
		want = "a little over " + want
	case literal.Under:
		want = "a little under " + want
	}
	return want
}

// groupDigits writes a decimal number's integer digits in groups of three
// with commas: "1250.5" → "1,250.5".
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	frac := ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s, frac = s[:i], s[i:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + frac
}

// MatchRange reports whether v lies in the range lo~hi, each end widened
// by its tolerance.
func MatchRange(lo, hi literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if matchRangeFast(&lo, &hi, approx, v, opt) {
		return true, "" // decided in int64 (see matchRangeFast)
	}
	return matchRangeDecimal(lo, hi, approx, v, opt)
}

// matchRangeDecimal is MatchRange in decimal arithmetic, for every case.
func matchRangeDecimal(lo, hi literal.Quantity, approx literal.Approx, v *evidence.Value, opt Options) (bool, string) {
	if !UnitsCompatible(lo.Unit, v.Unit) || !UnitsCompatible(hi.Unit, v.Unit) {
		return false, fmt.Sprintf("a range in %s", unitName(v.Unit))
	}
	for _, q := range []literal.Quantity{lo, hi} {
		if hint := multiplierSizeHint(q, v); hint != "" {
			return false, hint
		}
	}
	inLo, inHi := InUnitOf(lo, v), InUnitOf(hi, v) // each end in its own unit
	from, _, _ := Interval(lo, approx, opt)
	_, to, open := Interval(hi, approx, opt)
	if inLo.GreaterThanOrEqual(from) && (inHi.LessThan(to) || !open && inHi.Equal(to)) {
		return true, ""
	}
	return false, "a range containing " + valueText(&lo, v)
}

// MatchCmp reports whether v satisfies the inequality "v cmp q". Bounds
// are exact: "10초 미만" rejects 10.2 even though it rounds to 10.
func MatchCmp(q literal.Quantity, cmp string, v *evidence.Value) (bool, string) {
	if !UnitsCompatible(q.Unit, v.Unit) {
		return false, fmt.Sprintf("a bound in %s", unitName(v.Unit))
	}
	val := InUnitOf(q, v)
	c := val.Cmp(q.Value)
	ok := map[string]bool{">=": c >= 0, "<=": c <= 0, "<": c < 0, ">": c > 0}[cmp]
	if ok {
		return true, ""
	}
	return false, fmt.Sprintf("a bound %s satisfies (%s %s %s is false)", val.String(), val.String(), cmp, q.Value.String())
}

// UnitsCompatible reports whether a literal unit and an evidence value
// unit can be compared (see unit.Compatible).
func UnitsCompatible(lit, val string) bool { return unit.Compatible(lit, val) }

func unitName(u string) string {
	if u == "" {
		return "no unit"
	}
	return u
}

// InUnitOf returns v's value in the unit q is written in: units of one
// dimension that convert (package unit) convert when both state one;
// otherwise the value is returned as is.
func InUnitOf(q literal.Quantity, v *evidence.Value) decimal.Decimal {
	if q.Unit == "" || v.Unit == "" {
		return v.Value
	}
	c, _ := unit.Convert(v.Value, v.Unit, q.Unit)
	return c
}

// suggest proposes the known reference closest to ref (see
// evidence.Store.Suggest) as "; did you mean …?", or "" when nothing is
// close.
func suggest(st *evidence.Store, ref string) string {
	if best, ok := st.Suggest(ref); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

// nonNumericMessage says that ref names a table cell that is not a
// number: empty, or holding text.
func nonNumericMessage(ref string, cell raw.Cell) string {
	if cell.Text == "" {
		return fmt.Sprintf("evidence reference %q names an empty table cell, not a number (value unavailable: see %s)", ref, cell.Pos)
	}
	return fmt.Sprintf("evidence reference %q names a cell that holds %q, not a number", ref, cell.Text)
}

// brokenSet is the one finding of a page about the n references of its
// claims (the first at c, ref) resting on an evidence set that did not
// load: a consequence of the set's own first error, which it names.
func brokenSet(c claim.Claim, set, ref string, n int, st *evidence.Store) diag.Diagnostic {
	d := diag.Errorf(c.RefPos, diag.ClaimUnknownRef, "evidence set %q did not load; %d reference(s) on this page rest on it, starting with %q", set, n, ref).Spanning(c.DestEnd)
	if at, ok := st.BrokenAt[set]; ok && at.File != "" {
		d.Message += fmt.Sprintf(" (value unavailable: see %s)", at)
		d.Related = append(d.Related, diag.Related{Pos: at, Message: "the evidence set's first error"})
	} else {
		d.Message += " (see its errors)"
	}
	return d
}
