package translation

import (
	"fmt"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// compareNumbers compares the numbers that are not claims block by block
// when the two pages have the same blocks in each section, else section by
// section (or page by page when the headings differ). A number missing
// from one unit and extra in another is reported once, as a move.
func compareNumbers(ds, dt *doc, sectionsAlign bool, at posFn, rel relFn, srcName string) diag.List {
	type unit = unitBlocks
	// text blocks (headings, paragraphs, list items) per section
	group := func(d *doc) map[int][]int {
		m := make(map[int][]int, sections(d))
		for i, b := range d.blocks {
			if b.kind != "heading" && b.kind != "text" {
				continue
			}
			s := 0
			if sectionsAlign {
				s = b.section
			}
			m[s] = append(m[s], i)
		}
		return m
	}
	var us, ut []unit
	pair := func(a, b []int) {
		if len(a) == len(b) {
			for i := range a {
				us = append(us, unit{start: ds.blocks[a[i]].start, blocks: []int{a[i]}})
				ut = append(ut, unit{start: dt.blocks[b[i]].start, blocks: []int{b[i]}})
			}
			return
		}
		ua, ub := unit{blocks: a}, unit{blocks: b}
		if len(a) > 0 {
			ua.start = ds.blocks[a[0]].start
		}
		if len(b) > 0 {
			ub.start = dt.blocks[b[0]].start
		}
		us, ut = append(us, ua), append(ut, ub)
	}
	gs, gt := group(ds), group(dt)
	for k := 0; k <= len(ds.blocks)+len(dt.blocks); k++ {
		if len(gs[k]) > 0 || len(gt[k]) > 0 {
			pair(gs[k], gt[k])
		}
	}
	// cells of the tables paired by section and order (a table in one
	// language only is a structure finding of its own)
	tablesOf := func(d *doc) map[int][]int {
		m := map[int][]int{}
		for i, tb := range d.tables {
			s := 0
			if sectionsAlign {
				s = tb.section
			}
			m[s] = append(m[s], i)
		}
		return m
	}
	cellsOf := func(d *doc, table int) []int {
		var out []int
		for i, b := range d.blocks {
			if b.kind == "cell" && b.table == table {
				out = append(out, i)
			}
		}
		return out
	}
	ts, tt := tablesOf(ds), tablesOf(dt)
	for k := 0; k <= len(ds.blocks)+len(dt.blocks); k++ {
		for i := 0; i < len(ts[k]) && i < len(tt[k]); i++ {
			pair(cellsOf(ds, ts[k][i]), cellsOf(dt, tt[k][i]))
		}
	}
	type tok struct {
		n    numscan.Number
		unit int
	}
	var missing, extra []tok
	var out diag.List
	for i := range us {
		var na, nb []numscan.Number
		var ta, tb []transition
		for _, bi := range us[i].blocks {
			na = append(na, ds.blocks[bi].numbers...)
			ta = append(ta, ds.blocks[bi].trans...)
		}
		for _, bi := range ut[i].blocks {
			nb = append(nb, dt.blocks[bi].numbers...)
			tb = append(tb, dt.blocks[bi].trans...)
		}
		out = append(out, compareOrder(ta, tb, at, rel, srcName)...)
		// numbers of one key pair in order, digits before number words
		// (一度 must not take the 1 a digit of the other side matches); a
		// pair that differs in approximation only is a warning
		byKey := map[string][]int{}
		for j, n := range nb {
			byKey[n.Key] = append(byKey[n.Key], j)
		}
		taken := make([]bool, len(nb))
		for _, words := range []bool{false, true} {
			for _, n := range na {
				if n.Word != words {
					continue
				}
				l := byKey[n.Key]
				k := -1
				for x, j := range l {
					if k < 0 || !nb[j].Word && nb[l[k]].Word {
						k = x
					}
				}
				if k < 0 {
					missing = append(missing, tok{n, i})
					continue
				}
				m := nb[l[k]]
				taken[l[k]] = true
				byKey[n.Key] = append(l[:k:k], l[k+1:]...)
				if d, ok := numberLabelFinding(n, m, at, rel, srcName); ok {
					out = append(out, d)
				}
				if !numscan.ApproxAgree(n.Approx, m.Approx) {
					out = append(out, diag.Diagnostic{Pos: at(m.Start), End: at(m.End), Severity: diag.Warning, Rule: diag.TranslationApprox,
						Message: fmt.Sprintf("%q says %s where %s's %q says %s: %s", m.Text, describe([]numscan.Number{m}), srcName, n.Text, describe([]numscan.Number{n}), approxDifference([]numscan.Number{n}, []numscan.Number{m})),
						Related: rel(n.Start, "the source number")})
				}
			}
		}
		for j, n := range nb {
			if !taken[j] {
				extra = append(extra, tok{n, i})
			}
		}
	}
	out = append(out, compareCodeSpans(ds, dt, us, ut, at, rel, srcName)...)
	moved := make([]bool, len(extra))
	var lost []tok
	for _, m := range missing {
		found := -1
		for j, e := range extra {
			if !moved[j] && e.n.Key == m.n.Key && !e.n.Word && !m.n.Word {
				found = j
				break
			}
		}
		if found >= 0 {
			moved[found] = true
			e := extra[found]
			out = append(out, diag.Diagnostic{Pos: at(e.n.Start), End: at(e.n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
				Message: fmt.Sprintf("%q moved: %s writes it in another block", e.n.Text, srcName), Related: rel(m.n.Start, "where the source writes it")})
			continue
		}
		lost = append(lost, m)
	}
	for _, m := range lost {
		// the number of the same unit that differs in its sign only (+1건
		// and 1件, Δ0 and △0) is the one changed
		found := -1
		for j, e := range extra {
			if !moved[j] && e.unit == m.unit && e.n.Kind == "number" && m.n.Kind == "number" && e.n.Sign != m.n.Sign && e.n.Value.Abs().Equal(m.n.Value.Abs()) {
				found = j
				break
			}
		}
		if found >= 0 && numscan.Compare(m.n, extra[found].n) != numscan.Disagree {
			// +12s against 12秒の時点: the same point on a timeline
			moved[found] = true
			continue
		}
		for j, e := range extra {
			// a number written as a word stands against a number of the
			// same block left over, in digits or as a word (두 번 and 3回,
			// 두 차례 and 三回: see numscan.WordsPair); one left over alone is no
			// finding (네 단계 and もう一つ)
			if found < 0 && !moved[j] && e.unit == m.unit && (e.n.Word != m.n.Word || numscan.WordsPair(m.n, e.n)) {
				found = j
			}
		}
		if found < 0 && m.n.Word {
			continue
		}
		if found >= 0 {
			moved[found] = true
			e := extra[found]
			out = append(out, diag.Diagnostic{Pos: at(e.n.Start), End: at(e.n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
				Message: fmt.Sprintf("%q says %s where %s's %q says %s%s", e.n.Text, describe([]numscan.Number{e.n}), srcName, m.n.Text, describe([]numscan.Number{m.n}), signHint([]numscan.Number{m.n}, []numscan.Number{e.n})),
				Related: rel(m.n.Start, "the source number")})
			continue
		}
		out = append(out, diag.Diagnostic{Pos: at(ut[m.unit].start), End: dt.page.Parsed.Index.LineEnd(ut[m.unit].start), Severity: diag.Error, Rule: diag.TranslationNumbers,
			Message: fmt.Sprintf("%s writes %q (%s) in this block; this page does not", srcName, m.n.Text, describe([]numscan.Number{m.n})), Related: rel(m.n.Start, "the source number")})
	}
	for j, e := range extra {
		if moved[j] || e.n.Word {
			continue
		}
		out = append(out, diag.Diagnostic{Pos: at(e.n.Start), End: at(e.n.End), Severity: diag.Error, Rule: diag.TranslationNumbers,
			Message: fmt.Sprintf("%q (%s) is not in %s's block", e.n.Text, describe([]numscan.Number{e.n}), srcName), Related: rel(us[e.unit].start, "the source block")})
	}
	return out
}

// compareOrder reports the transitions of a translation's block that
// run the other way than the source block's (0.21%→51.7% where the
// source writes 51.7%→0.21%): the same numbers, read by a reader as the
// opposite change.
func compareOrder(ta, tb []transition, at posFn, rel relFn, srcName string) diag.List {
	var out diag.List
	for _, b := range tb {
		if b.from == b.to {
			continue
		}
		same, rev := -1, -1
		for i, a := range ta {
			switch {
			case a.from == b.from && a.to == b.to:
				same = i
			case a.from == b.to && a.to == b.from && rev < 0:
				rev = i
			}
		}
		if same >= 0 || rev < 0 {
			continue
		}
		a := ta[rev]
		rule := diag.TranslationNumbers
		if b.claims {
			rule = diag.TranslationClaims
		}
		out = append(out, diag.Diagnostic{Pos: at(b.start), End: at(b.end), Severity: diag.Error, Rule: rule,
			Message: fmt.Sprintf("goes from %s to %s where %s goes from %s to %s: the order is reversed", b.fromText, b.toText, srcName, a.fromText, a.toText),
			Related: rel(a.start, "the source change")})
	}
	return out
}
