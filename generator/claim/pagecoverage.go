package claim

import "github.com/evdoc-lab/evdoc/generator/claim/prose"

// Coverage counts a page's measured numbers: Bound are the numbers inside
// claims, Unbound the prose numbers no exemption covers.
type Coverage struct {
	Page    string         `json:"page"`
	Bound   int            `json:"bound"`
	Unbound []prose.Number `json:"unbound,omitempty"`
	Exempt  int            `json:"exempt"`
}

// Measured is Bound plus the unbound numbers.
func (c Coverage) Measured() int { return c.Bound + len(c.Unbound) }

// PageCoverage computes the coverage of a parsed page. Numbers inside
// exemption markers count as exempt.
func PageCoverage(p *Page) Coverage {
	c := Coverage{Page: p.Path}
	for _, cl := range p.Claims {
		n := len(cl.Parsed.Quantities)
		if cl.ParseErr != nil {
			n = 1
		}
		if cl.Exempt {
			c.Exempt += n
			continue
		}
		c.Bound += n
	}
	for _, pn := range p.Prose {
		if pn.Rule != "" {
			c.Exempt++
			continue
		}
		c.Unbound = append(c.Unbound, pn)
	}
	return c
}
