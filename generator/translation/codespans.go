package translation

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// compareCodeSpans compares the code spans that hold a number in the
// aligned units us and ut (see compareNumbers) as text: code is not
// translated. Their numbers are compared as the prose's are (another
// value, a move, a number missing); on top of that, a source span with
// no equal span in its unit is reported when the unit has a span that
// differs from it only in how its digits are written, which the prose
// comparison reads alike (`--retries=３` against `--retries=3`:
// full-width digits are read as ASCII in prose only, never in code;
// `http2` against `http3`, names it does not compare), or when the
// translation writes its text as prose (timeout: 30s without
// backticks). Spans joined, split or added (`a.md` `§1` and `a.md §1`)
// and spans without a digit (a UI label a translation translates) are
// not reported.
func compareCodeSpans(ds, dt *doc, us, ut []unitBlocks, at posFn, rel relFn, srcName string) diag.List {
	var out diag.List
	for i := range us {
		var sa, sb []codeSpan
		for _, bi := range us[i].blocks {
			sa = append(sa, ds.blocks[bi].spans...)
		}
		for _, bi := range ut[i].blocks {
			sb = append(sb, dt.blocks[bi].spans...)
		}
		if len(sa) == 0 && len(sb) == 0 {
			continue
		}
		taken := make([]bool, len(sb))
		used, usedRev := map[string]int{}, map[string]int{}
		var lost []codeSpan
		for _, a := range sa {
			k := -1
			for j, b := range sb {
				if !taken[j] && b.text == a.text {
					k = j
					break
				}
			}
			if k < 0 {
				lost = append(lost, a)
				continue
			}
			taken[k] = true
		}
		for _, a := range lost {
			shape := digitShape(a.text)
			k := -1
			for j, b := range sb {
				if !taken[j] && digitShape(b.text) == shape {
					k = j
					break
				}
			}
			if k >= 0 {
				taken[k] = true
				b := sb[k]
				if !sameNumberKeys(a.text, b.text) {
					continue // the numbers differ: reported as the prose's are
				}
				out = append(out, diag.Diagnostic{Pos: at(b.start), End: at(b.end), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("code span `%s` differs from %s's `%s`; code is not translated (expected the same text)", b.text, srcName, a.text), Related: rel(a.start, "the source code span")})
				continue
			}
			if pos, end, ok := proseSpan(dt, ut[i].blocks, a.text); ok {
				out = append(out, diag.Diagnostic{Pos: at(pos), End: at(end), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("%q is code in %s but prose here; code is not translated (expected `%s`, in a code span)", a.text, srcName, a.text), Related: rel(a.start, "the source code span")})
				continue
			}
			// the span's number written as prose here, its text reworded
			// (`maxRetries: 3` as maxRetriesを3に)
			if n, ok := proseOf(a, ds, us[i].blocks, dt, ut[i].blocks, used); ok {
				out = append(out, diag.Diagnostic{Pos: at(n.Start), End: at(n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("%q is prose here where %s quotes it in the code span `%s`; code is not translated (expected `%s`, in a code span)", n.Text, srcName, a.text, a.text),
					Related: rel(a.start, "the source code span")})
			}
		}
		// the other way: a span of the translation, equal to none of the
		// source's, quoting a number the source writes as prose
		for j, b := range sb {
			if taken[j] || slices.ContainsFunc(sa, func(a codeSpan) bool { return a.text == b.text }) {
				continue
			}
			if n, ok := proseOf(b, dt, ut[i].blocks, ds, us[i].blocks, usedRev); ok {
				out = append(out, diag.Diagnostic{Pos: at(b.start), End: at(b.end), Severity: diag.Error, Rule: diag.TranslationNumbers,
					Message: fmt.Sprintf("code span `%s` quotes a number %s writes as prose (%q), not as code; code is not translated (expected the source's prose, or a code span the source has)", b.text, srcName, n.Text),
					Related: rel(n.Start, "the source number")})
			}
		}
	}
	return out
}

// inDigits reports whether n is written in digits (of any script): a
// number written as a word (세 번, 三回, ゼロ) says the number in the
// language's words, never a code span's text with its backticks lost.
func inDigits(n numscan.Number) bool {
	return strings.IndexFunc(n.Text, unicode.IsDigit) >= 0
}

// proseOf returns the number of span sp (a code span of page d, in
// blocks dBlocks) that page e writes as prose in blocks eBlocks: a
// number of e's prose, outside its code spans, of the same normal form
// as one of sp's, that d's prose does not account for (d writes it as
// prose fewer times than e does, counting the ones used before, which
// used records by normal form). Names (p99, http2) and numbers written
// as words (see inDigits) are not numbers here.
func proseOf(sp codeSpan, d *doc, dBlocks []int, e *doc, eBlocks []int, used map[string]int) (numscan.Number, bool) {
	inSpan := func(b *block, off int) bool {
		for _, s := range b.spans {
			if off >= s.start && off < s.end {
				return true
			}
		}
		return false
	}
	prose := func(doc *doc, blocks []int, key string) []numscan.Number {
		var out []numscan.Number
		for _, bi := range blocks {
			b := &doc.blocks[bi]
			for _, n := range b.numbers {
				if n.Key == key && n.Kind != "id" && inDigits(n) && !inSpan(b, n.Start) {
					out = append(out, n)
				}
			}
		}
		return out
	}
	for _, bi := range dBlocks {
		b := &d.blocks[bi]
		for _, n := range b.numbers {
			if n.Kind == "id" || !inDigits(n) || n.Start < sp.start || n.Start >= sp.end {
				continue
			}
			mine, other := prose(d, dBlocks, n.Key), prose(e, eBlocks, n.Key)
			if len(mine)+used[n.Key] >= len(other) {
				continue // each of e's is one of d's prose numbers
			}
			// the one at the span's place among d's numbers of that form
			k := used[n.Key]
			for _, m := range mine {
				if m.Start < n.Start {
					k++
				}
			}
			used[n.Key]++
			return other[min(k, len(other)-1)], true
		}
	}
	return numscan.Number{}, false
}

// sameNumberKeys reports whether two texts hold the same numbers as
// the prose comparison reads them: names such as p99 or http2 aside,
// which it does not compare.
func sameNumberKeys(a, b string) bool {
	keys := func(s string) []string {
		var out []string
		for _, n := range numscan.ScanNumbers(s) {
			if n.Kind != "id" {
				out = append(out, n.Key)
			}
		}
		return out
	}
	return slices.Equal(keys(a), keys(b))
}

// digitShape is a code span's text with its digits read as ASCII (as
// in prose) and each run of them replaced by one "#": the spans of one
// shape differ in their numbers only.
func digitShape(s string) string {
	norm, _ := numscan.NormalizeText(s)
	var b strings.Builder
	inRun := false
	for i := 0; i < len(norm); i++ {
		c := norm[i]
		if c >= '0' && c <= '9' {
			if !inRun {
				b.WriteByte('#')
			}
			inRun = true
			continue
		}
		inRun = false
		b.WriteByte(c)
	}
	return b.String()
}

// proseSpan finds text in the prose of blocks of d, outside their code
// spans, and returns its page offsets.
func proseSpan(d *doc, blocks []int, text string) (int, int, bool) {
	for _, bi := range blocks {
		b := &d.blocks[bi]
		prose, back := blockProse(d, bi)
		for off := 0; off < len(prose); {
			k := strings.Index(prose[off:], text)
			if k < 0 {
				break
			}
			k += off
			off = k + 1
			start, end := back[k], back[k+len(text)-1]
			if start < 0 || end < start {
				continue
			}
			inCode := false
			for _, sp := range b.spans {
				inCode = inCode || start >= sp.start && start < sp.end
			}
			if !inCode {
				return start, end + 1, true
			}
		}
	}
	return 0, 0, false
}
