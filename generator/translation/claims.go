package translation

import (
	"fmt"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// compareClaims pairs each claim of the source with one of the
// translation and compares their numbers. Where a section has as many
// blocks in both pages, blocks align in order (peer) and a claim's
// counterpart is in the aligned block: first one quoting the same
// references, else the one at the same place among the block's claims
// left, so a claim bound to other evidence is reported on its own line,
// against its own source claim (not on a line of another paragraph that
// happens to quote that evidence); a claim that agrees may be found in
// another block of its section (a cell moved within a table row). The
// rest pair by their references, in passes: in the same section at the same
// ordinal and agreeing; in the same section agreeing (sentences
// reordered in translation); in the same section at the same ordinal; in
// the same section; anywhere agreeing; anywhere. Claims left over are
// paired within a section as a different binding, else reported alone.
func compareClaims(ds, dt *doc, sec func(int) int, peer map[int]int, at posFn, rel relFn, srcName string, note func(srcOff int) string) diag.List {
	var out diag.List
	key := func(c pageClaim) string { return strings.Join(c.Refs, ",") }
	used := make([]bool, len(dt.claims))
	peerT := make(map[int]bool, len(peer))
	for _, tb := range peer {
		peerT[tb] = true
	}
	peered := func(tb int) bool { return peerT[tb] }
	verdict := func(a, b pageClaim) numscan.Verdict {
		if len(a.numbers) != len(b.numbers) {
			return numscan.Disagree
		}
		v := numscan.Agree
		for i := range a.numbers {
			v = max(v, numscan.Compare(numscan.ResolvedAgainst(a.numbers[i], b.numbers[i]), numscan.ResolvedAgainst(b.numbers[i], a.numbers[i])))
		}
		return v
	}
	// aligned reports whether source claim a's block has a peer, and
	// whether b is in it
	aligned := func(a, b pageClaim) (bool, bool) {
		if a.block < 0 {
			return false, false
		}
		pb, ok := peer[a.block]
		return ok, ok && b.block == pb
	}
	// each claim's key, and a number for each key: the target's keys
	// numbered first, 0 to nT-1, then the keys only the source quotes
	idS, idT := make([]int32, len(ds.claims)), make([]int32, len(dt.claims))
	ids := make(map[string]int32, len(dt.claims))
	number := func(id []int32, d *doc) {
		for i := range d.claims {
			k := key(d.claims[i])
			n, ok := ids[k]
			if !ok {
				n = int32(len(ids))
				ids[k] = n
			}
			id[i] = n
		}
	}
	number(idT, dt)
	nT := int32(len(ids))
	number(idS, ds)
	type secKey struct {
		sec int
		id  int32
	}
	// ordinal numbers each claim among the claims of its page that quote
	// the same references in the same (aligned) section: the n-th such
	// claim of the source is most likely translated by the n-th of the
	// target, so a changed number is reported against its own source
	// claim rather than a later one that happens to agree.
	ordinal := func(d *doc, id []int32) []int {
		seen := make(map[secKey]int, len(d.claims))
		out := make([]int, len(d.claims))
		for i := range d.claims {
			k := secKey{sec(d.claims[i].section), id[i]}
			out[i] = seen[k]
			seen[k]++
		}
		return out
	}
	ordS, ordT := ordinal(ds, idS), ordinal(dt, idT)
	match := make([]int, len(ds.claims))
	for i := range match {
		match[i] = -1
	}
	// matchV[i] is verdict(source claim i, its match), read once when
	// they are paired
	matchV := make([]numscan.Verdict, len(ds.claims))
	// the target claims of each key in page order (key n's are
	// byKey[first[n]:first[n+1]]): a source claim is paired only with
	// claims quoting its references
	first := make([]int32, nT+1)
	for _, n := range idT {
		first[n+1]++
	}
	for n := int32(1); n <= nT; n++ {
		first[n] += first[n-1]
	}
	byKey := make([]int32, len(idT))
	next := append([]int32(nil), first[:nT]...)
	for j, n := range idT {
		byKey[next[n]] = int32(j)
		next[n]++
	}
	targets := func(i int) []int32 {
		if n := idS[i]; n < nT {
			return byKey[first[n]:first[n+1]]
		}
		return nil // a key the target does not quote
	}
	for pass := 0; pass < 8; pass++ {
		for i, a := range ds.claims {
			if match[i] >= 0 {
				continue
			}
			for _, j := range targets(i) {
				b := dt.claims[j]
				if used[j] {
					continue
				}
				hasPeer, inPeer := aligned(a, b)
				v := verdict(a, b)
				agree := v != numscan.Disagree
				if hasPeer && !inPeer && !agree {
					// aligned blocks: a claim that differs is compared
					// with the one of the peer block (one that agrees may
					// have moved within its section)
					continue
				}
				sameSec := sec(a.section) == sec(b.section)
				sameOrd := sameSec && ordS[i] == ordT[j]
				ok := [8]bool{inPeer && agree, inPeer, sameOrd && agree, sameSec && agree, sameOrd, sameSec, agree, true}[pass]
				if !ok {
					continue
				}
				match[i], used[j], matchV[i] = int(j), true, v
				break
			}
		}
	}
	var lostS []pageClaim
	var lostSOff []int
	for i, a := range ds.claims {
		if match[i] < 0 {
			lostS = append(lostS, a)
			lostSOff = append(lostSOff, a.Pos.Offset)
			continue
		}
		b := dt.claims[match[i]]
		if d, ok := claimLabelFinding(a, b, dt, key(a), srcName); ok {
			out = append(out, d)
		}
		switch matchV[i] {
		case numscan.Disagree:
			msg := fmt.Sprintf("[%s] says %s where %s's [%s] says %s (same evidence %s)", b.Literal, describe(b.numbers), srcName, a.Literal, describe(a.numbers), key(a))
			if reversed(a.numbers, b.numbers) {
				msg = fmt.Sprintf("[%s] says %s where %s's [%s] says %s: the order is reversed (same evidence %s)", b.Literal, describe(b.numbers), srcName, a.Literal, describe(a.numbers), key(a))
			}
			out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
				Message: msg + signHint(a.numbers, b.numbers) + note(a.Pos.Offset),
				Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
		case numscan.Warn:
			out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Warning, Rule: diag.TranslationApprox,
				Message: fmt.Sprintf("[%s] says %s where %s's [%s] says %s: %s", b.Literal, describe(b.numbers), srcName, a.Literal, describe(a.numbers), approxDifference(a.numbers, b.numbers)) + note(a.Pos.Offset),
				Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
		}
	}
	var lostT []pageClaim
	for j, b := range dt.claims {
		if !used[j] {
			lostT = append(lostT, b)
		}
	}
	// A claim of each side in the aligned block, else in the same
	// section with the same count of references: one binding changed
	// (ja binds another run's value).
	usedT := make([]bool, len(lostT))
	for k, a := range lostS {
		match := -1
		if a.block >= 0 {
			if pb, ok := peer[a.block]; ok {
				for j, b := range lostT {
					if !usedT[j] && b.block == pb {
						match = j
						break
					}
				}
			}
		}
		for j, b := range lostT {
			if match >= 0 {
				break
			}
			if !usedT[j] && sec(b.section) == sec(a.section) && len(b.Refs) == len(a.Refs) && (b.block < 0 || !peered(b.block)) {
				match = j
			}
		}
		if match < 0 {
			pos := at(sectionStart(dt, sec(a.section)))
			out = append(out, diag.Diagnostic{Pos: pos, End: dt.page.Parsed.Index.LineEnd(pos.Offset), Severity: diag.Error, Rule: diag.TranslationClaims,
				Message: fmt.Sprintf("%s quotes %s as [%s] in this section; this page does not", srcName, key(a), a.Literal) + note(lostSOff[k]),
				Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
			continue
		}
		usedT[match] = true
		b := lostT[match]
		out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
			Message: fmt.Sprintf("[%s] quotes %s where %s's [%s] quotes %s", b.Literal, key(b), srcName, a.Literal, key(a)) + note(lostSOff[k]),
			Related: []diag.Related{{Pos: a.Pos, Message: "the source claim"}}})
	}
	for j, b := range lostT {
		if usedT[j] {
			continue
		}
		out = append(out, diag.Diagnostic{Pos: b.Pos, End: dt.page.Parsed.Index.Pos(b.End), Severity: diag.Error, Rule: diag.TranslationClaims,
			Message: fmt.Sprintf("[%s] quotes %s, which %s does not quote", b.Literal, key(b), srcName),
			Related: []diag.Related{{Pos: ds.page.Parsed.Index.Pos(sectionStart(ds, sec(b.section))), Message: "the source section"}}})
	}
	return out
}
