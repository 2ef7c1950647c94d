package translation

import (
	"fmt"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// CheckOptions configures Set.Check.
type CheckOptions struct {
	// Root is the project directory (for reading i18n/ string tables);
	// empty skips the i18n string check.
	Root string
}

// Check reports pairing problems (duplicate keys, orphans) and, for each
// translated page, where it disagrees with its source page.
func (s *Set) Check(opt CheckOptions) diag.List {
	ds := s.checkPairing()
	for _, p := range s.Pages {
		ds = append(ds, CheckEmphasis(p)...)
	}
	if opt.Root != "" {
		ds = append(ds, CheckI18nStrings(opt.Root, s.Languages)...)
	}
	for _, pr := range s.Pairs() {
		if pr.Target.IsEmpty() {
			continue
		}
		ds = append(ds, pairedClaims(pr.Source, pr.Target)...)
	}
	return ds
}

// pairedClaims reports evidence values quoted on one side only.
func pairedClaims(p, q *Page) diag.List {
	firstClaim := func(p *Page) (map[string]diag.Position, []string) {
		pos := map[string]diag.Position{}
		var order []string
		for _, c := range p.Parsed.Claims {
			for i, ref := range c.Refs {
				if _, ok := pos[ref]; !ok {
					at := c.Pos
					if i < len(c.RefPositions) {
						at = c.RefPositions[i]
					}
					pos[ref] = at
					order = append(order, ref)
				}
			}
		}
		return pos, order
	}
	var ds diag.List
	pRefs, pOrder := firstClaim(p)
	qRefs, qOrder := firstClaim(q)
	for _, ref := range pOrder {
		if _, ok := qRefs[ref]; !ok {
			ds = append(ds, diag.Diagnostic{Pos: pRefs[ref], Severity: diag.Warning, Rule: diag.TranslationClaims,
				Message: fmt.Sprintf("%s is quoted here but not in the %s translation %s", ref, q.Lang, q.Path)})
		}
	}
	for _, ref := range qOrder {
		if _, ok := pRefs[ref]; !ok {
			ds = append(ds, diag.Diagnostic{Pos: qRefs[ref], Severity: diag.Warning, Rule: diag.TranslationClaims,
				Message: fmt.Sprintf("%s is quoted here but not in the %s original %s", ref, p.Lang, p.Path)})
		}
	}
	return ds
}
