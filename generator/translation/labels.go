package translation

import (
	"fmt"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// itemLabels reads the label written right before each item of a block
// (its numbers and claims in order, at their offsets in the block's text
// txt): the statistic check.LabelBefore reads in the text between the
// claim before and this one (p50은 [35.1ms], p99 지연은 29.8ms,
// p95レイテンシは[29.8ms], 99.9パーセンタイルは[1.2s], whose label holds
// a number of the prose). A claim stands in txt as a space, so a label
// before it would be read again for the claim after it: the text a
// label is read in starts after the last claim. It records a claim's in claimLabel, by the
// claim's index in the page, and returns a number's by its offset in txt.
func itemLabels(txt string, items []orderItem, claimLabel map[int]string) map[int]string {
	var out map[int]string
	prev := 0
	for _, it := range items {
		if it.start < prev || it.start > len(txt) {
			continue // the items of one claim (a transition's references)
		}
		if l := check.LabelBefore(txt[prev:it.start]); l != "" {
			if it.claim >= 0 {
				claimLabel[it.claim] = l
			} else {
				if out == nil {
					out = map[int]string{}
				}
				out[it.start] = l
			}
		}
		if it.claim >= 0 {
			prev = it.end
		}
	}
	return out
}

// labelsDiffer reports whether the source and the translation both write
// a label beside a number they pair, and the two differ: the text calls
// one value two names. A label written on one side only is no finding (a
// translation may leave p99 to the sentence before).
func labelsDiffer(src, tr string) bool {
	return src != "" && tr != "" && src != tr
}

// claimLabelFinding is the translation-claims finding of claim b, the
// translation of claim a (the same evidence, key), when the labels
// written before them differ: p90は[35.1ms](ev:…p50) where the source
// writes p50은 [35.1ms](ev:…p50).
func claimLabelFinding(a, b pageClaim, dt *doc, key, srcName string) (diag.Diagnostic, bool) {
	if !labelsDiffer(a.label, b.label) {
		return diag.Diagnostic{}, false
	}
	return diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
		Message: fmt.Sprintf("[%s] is called %s where %s calls [%s] %s (same evidence %s); expected %s", b.Literal, check.LabelName(b.label), srcName, a.Literal, check.LabelName(a.label), key, check.LabelName(a.label)),
		Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}}, true
}

// numberLabelFinding is the translation-numbers finding of prose number
// m, paired with the source's n, when the labels written before them
// differ: p95レイテンシは29.8ms where the source writes p99 지연은 29.8ms.
func numberLabelFinding(n, m numscan.Number, at posFn, rel relFn, srcName string) (diag.Diagnostic, bool) {
	if !labelsDiffer(n.Label, m.Label) {
		return diag.Diagnostic{}, false
	}
	return diag.Diagnostic{Pos: at(m.Start), End: at(m.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
		Message: fmt.Sprintf("%q is called %s where %s calls %q %s; expected %s", m.Text, check.LabelName(m.Label), srcName, n.Text, check.LabelName(n.Label), check.LabelName(n.Label)),
		Related: rel(n.Start, "the source number")}, true
}
