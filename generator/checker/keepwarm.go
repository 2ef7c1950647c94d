package checker

import (
	"bytes"
	"slices"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// CitedSets returns the evidence set ids the claims of page p name, as
// the reverse index (CheckerOptions.CitesIndex) holds them: nil when p
// has no verdict or the index is not kept.
func (c *Checker) CitedSets(p *project.Page) []string {
	v := c.pages[p]
	if v == nil || !c.citesIndex {
		return nil
	}
	return slices.Clone(v.cites)
}

// ToKeep returns the pages whose claims name one of sets (the reverse
// index, CheckerOptions.CitesIndex), set by set in the order given,
// each set's by path, without those whose claims are kept (KeepCiting)
// already, as many as fit in what is left of KeepCiting (by their size
// when loaded): the pages a RecheckEvidence of a change of those sets
// would parse, and could judge from their kept claims instead if they
// were kept (Keep).
func (c *Checker) ToKeep(sets ...string) []*project.Page {
	if c.keepBytes <= 0 || !c.citesIndex {
		return nil
	}
	var out []*project.Page
	seen := map[*project.Page]bool{}
	room := c.keepBytes - c.keptSize
	for _, set := range sets {
		var ps []*project.Page
		for p := range c.cites[set] {
			if c.kept[p] == nil && !seen[p] && c.pages[p] != nil && c.pages[p].read {
				ps = append(ps, p)
			}
		}
		slices.SortFunc(ps, func(a, b *project.Page) int { return strings.Compare(a.Path, b.Path) })
		for _, p := range ps {
			n := 0
			if p.Parsed != nil {
				n = len(p.Parsed.Source)
			} else if p.Header != nil {
				n = p.Header.Size
			}
			if keptSize(n) > room {
				return out
			}
			room -= keptSize(n)
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Keep offers parsed, a parse of page p made outside c (Site.ParsePage
// of c's site, with a goldmark of the site's configuration), as the
// claims the next RecheckEvidence judges p from instead of parsing it
// (KeepCiting): it is kept when p is a page c judged from its source,
// its claims are not kept already, and they fit in what is left of
// KeepCiting. RecheckEvidence uses them only while p's source is still
// parsed's (as the claims it keeps itself), so a parse of an older
// source changes nothing. It reports whether parsed was kept. Parsing
// while c re-checks is safe when the site has no overlay (SetOverlay):
// ParsePage then reads only the page's file and the site's root and
// configuration, which a re-check does not change.
func (c *Checker) Keep(p *project.Page, parsed *claim.Page) bool {
	if c.keepBytes <= 0 || !c.citesIndex || parsed == nil || len(parsed.Claims) == 0 || c.kept[p] != nil {
		return false
	}
	if v := c.pages[p]; v == nil || !v.read {
		return false
	}
	if src, err := c.site.PageSource(p); err != nil || !bytes.Equal(src, parsed.Source) {
		return false
	}
	n := keptSize(len(parsed.Source))
	if c.keptSize+n > c.keepBytes {
		return false
	}
	if c.kept == nil {
		c.kept = map[*project.Page]*claim.Page{}
	}
	c.kept[p] = keptClaims(parsed)
	c.keptSize += n
	return true
}
