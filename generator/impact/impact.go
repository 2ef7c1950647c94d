// Package impact compares the evidence of a project with its evidence at
// a base revision and reports what the change moves: each value that
// changed (old → new, with both positions), each value added or removed,
// every claim citing a changed value with its verdict on the old and the
// new value, the figures drawn from changed values, the pages whose
// claims or figures changed, and the translations of those pages that
// quote the same values. An edit that changes no value moves nothing.
package impact

import (
	"bytes"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// Side is a value as one revision records it.
type Side struct {
	Value string        `json:"value"`
	Unit  string        `json:"unit,omitempty"`
	Raw   string        `json:"raw"`
	Pos   diag.Position `json:"pos"`
}

// Change is one evidence value that differs between the revisions: Kind
// is "changed" (its number or unit), "added" or "removed".
type Change struct {
	Ref     string `json:"ref"`
	Kind    string `json:"kind"`
	Old     *Side  `json:"old,omitempty"`
	New     *Side  `json:"new,omitempty"`
	Derived bool   `json:"derived,omitempty"`
}

// Claim is a claim that cites a changed value: its verdict on the base
// revision's values (OldOK; Removed when a value it cites no longer
// exists) and on the current ones (NewOK), the literal each would need at
// the written precision (OldExpected, NewExpected) when they differ, and
// the changed values it cites.
type Claim struct {
	Page        string        `json:"page"`
	Pos         diag.Position `json:"pos"`
	Literal     string        `json:"literal"`
	Refs        []string      `json:"refs"`
	OldOK       bool          `json:"old_ok"`
	NewOK       bool          `json:"new_ok"`
	OldExpected string        `json:"old_expected,omitempty"`
	NewExpected string        `json:"new_expected,omitempty"`
}

// Verdict names the claim's change of verdict: "still passes", "now
// fails", "now passes", "still fails".
func (c Claim) Verdict() string {
	switch {
	case c.OldOK && c.NewOK:
		return "still passes"
	case c.OldOK:
		return "now fails"
	case c.NewOK:
		return "now passes"
	}
	return "still fails"
}

// Rounds reports whether a claim that passes on both revisions would be
// written differently at its precision: the new value rounds to another
// literal than the old one (an approximate or bounded claim that still
// holds).
func (c Claim) Rounds() bool {
	return c.OldExpected != "" && c.NewExpected != "" && c.OldExpected != c.NewExpected
}

// Figure is a figure spec that reads a changed value.
type Figure struct {
	Name string   `json:"name"`
	Refs []string `json:"refs"`
}

// Translation is a page quoting a changed value whose source-language
// page also quotes it: when the source's number is updated, this page
// must be too.
type Translation struct {
	Page   string `json:"page"`
	Source string `json:"source"`
}

// Report is what a change of evidence moves.
type Report struct {
	Base         string        `json:"base"`
	Values       []Change      `json:"values"`
	Claims       []Claim       `json:"claims"`
	Figures      []Figure      `json:"figures"`
	Pages        []string      `json:"pages"`
	Translations []Translation `json:"translations"`
	// Unloaded names the evidence sets that did not load at one of the
	// revisions ("SET at BASE" or "SET now"): their values are not
	// compared (evdoc check reports a set that does not load now).
	Unloaded []string `json:"unloaded,omitempty"`
}

// Empty reports whether the change moves no value.
func (r *Report) Empty() bool { return len(r.Values) == 0 }

// Input is what Compute compares: the base revision's store and the
// current project (its store, pages, figure specs and translation pairs).
type Input struct {
	Base    string
	Old     *evidence.Store
	New     *evidence.Store
	Pages   []*translation.Page
	Figures []*figure.Spec
	Source  string // the source language
	Options check.Options
	// Read, when set, gives a page's bytes and WithParsed its parse for
	// the duration of a call: pages loaded lazily (project.LoadOptions.Lazy)
	// are then read only to look for a changed value's name, and parsed
	// only when they mention one. When nil, each page's Parsed is used.
	Read       func(p *translation.Page) ([]byte, error)
	WithParsed func(p *translation.Page, fn func(*claim.Page) error) error
}

// Compute compares in.Old with in.New and judges every claim of in.Pages
// that cites a changed value on both.
func Compute(in Input) *Report {
	r := &Report{Base: in.Base}
	changed := map[string]bool{}
	broken := map[string]bool{}
	for _, st := range []struct {
		s    *evidence.Store
		when string
	}{{in.Old, "at " + in.Base}, {in.New, "now"}} {
		for set := range st.s.Broken {
			broken[set] = true
			r.Unloaded = append(r.Unloaded, set+" "+st.when)
		}
	}
	sort.Strings(r.Unloaded)
	oldVals := map[string]*evidence.Value{}
	for _, v := range in.Old.Values() {
		if !broken[v.Set] {
			oldVals[v.Ref] = v
		}
	}
	seen := map[string]bool{}
	for _, v := range in.New.Values() {
		if broken[v.Set] {
			continue
		}
		seen[v.Ref] = true
		o, ok := oldVals[v.Ref]
		switch {
		case !ok:
			r.Values = append(r.Values, Change{Ref: v.Ref, Kind: "added", New: side(v), Derived: v.Derived})
			changed[v.Ref] = true
		case !o.Value.Equal(v.Value) || o.Unit != v.Unit:
			r.Values = append(r.Values, Change{Ref: v.Ref, Kind: "changed", Old: side(o), New: side(v), Derived: v.Derived})
			changed[v.Ref] = true
		}
	}
	for ref, o := range oldVals {
		if !seen[ref] {
			r.Values = append(r.Values, Change{Ref: ref, Kind: "removed", Old: side(o), Derived: o.Derived})
			changed[ref] = true
		}
	}
	sort.Slice(r.Values, func(i, j int) bool { return r.Values[i].Ref < r.Values[j].Ref })
	if len(changed) == 0 {
		return r
	}

	pages := map[string]bool{}
	cites := map[string]map[string]bool{} // page path → changed refs it cites
	// A page can cite a changed value only if it holds the value's name
	// (a reference after the first of a claim may omit its set).
	var names [][]byte
	for ref := range changed {
		_, name, _ := strings.Cut(ref, "/")
		names = append(names, []byte(name))
	}
	mentions := func(src []byte, words [][]byte) bool {
		for _, w := range words {
			if bytes.Contains(src, w) {
				return true
			}
		}
		return false
	}
	withParsed := func(p *translation.Page, fn func(*claim.Page) error) error {
		if in.WithParsed == nil {
			if p.Parsed == nil {
				return nil
			}
			return fn(p.Parsed)
		}
		return in.WithParsed(p, fn)
	}
	for _, p := range in.Pages {
		if in.Read != nil {
			src, err := in.Read(p)
			if err != nil || !mentions(src, names) {
				continue // an unreadable page is check's finding
			}
		}
		_ = withParsed(p, func(cp *claim.Page) error {
			judgePage(r, in, p, cp, changed, cites, pages)
			return nil
		})
	}

	for _, f := range in.Figures {
		inputs, _ := f.Inputs(in.New)
		olds, _ := f.Inputs(in.Old)
		var refs []string
		hit := map[string]bool{}
		for _, list := range [][]figure.Input{inputs, olds} {
			for _, x := range list {
				if changed[x.Ref] && !hit[x.Ref] {
					hit[x.Ref] = true
					refs = append(refs, x.Ref)
				}
			}
		}
		if len(refs) > 0 {
			sort.Strings(refs)
			r.Figures = append(r.Figures, Figure{Name: f.Name, Refs: refs})
		}
	}
	figs := map[string]bool{}
	for _, f := range r.Figures {
		figs[f.Name] = true
	}
	if len(figs) > 0 {
		for _, p := range in.Pages {
			if pages[p.Path] {
				continue
			}
			var src []byte
			switch {
			case in.Read != nil:
				src, _ = in.Read(p)
			case p.Parsed != nil:
				src = p.Parsed.Source
			}
			for _, name := range figure.Calls(src) {
				if figs[name] {
					pages[p.Path] = true
				}
			}
		}
	}
	for p := range pages {
		r.Pages = append(r.Pages, p)
	}
	sort.Strings(r.Pages)

	// A translation quoting a changed value that its source page quotes.
	byKey := map[string][]*translation.Page{}
	for _, p := range in.Pages {
		byKey[p.Key] = append(byKey[p.Key], p)
	}
	for _, group := range byKey {
		var src *translation.Page
		for _, p := range group {
			if p.Lang == in.Source {
				src = p
			}
		}
		if src == nil || cites[src.Path] == nil {
			continue
		}
		for _, p := range group {
			if p == src {
				continue
			}
			for ref := range cites[p.Path] {
				if cites[src.Path][ref] {
					r.Translations = append(r.Translations, Translation{Page: p.Path, Source: src.Path})
					break
				}
			}
		}
	}
	sort.Slice(r.Translations, func(i, j int) bool { return r.Translations[i].Page < r.Translations[j].Page })
	return r
}

// judgePage adds to r each claim of page p (parsed as cp) that cites a
// changed value, judged on both revisions, and records what it cites.
func judgePage(r *Report, in Input, p *translation.Page, cp *claim.Page, changed map[string]bool, cites map[string]map[string]bool, pages map[string]bool) {
	var idx []int
	for i, c := range cp.Claims {
		if !c.Exempt && citesAny(c, changed) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	oldRes, _ := check.Claims(cp, in.Old, in.Options)
	newRes, _ := check.Claims(cp, in.New, in.Options)
	for _, i := range idx {
		c := cp.Claims[i]
		ic := Claim{Page: p.Path, Pos: c.Pos, Literal: c.Literal}
		for _, ref := range c.Refs {
			if changed[ref] {
				ic.Refs = append(ic.Refs, ref)
				if cites[p.Path] == nil {
					cites[p.Path] = map[string]bool{}
				}
				cites[p.Path][ref] = true
			}
		}
		if i < len(oldRes) && i < len(newRes) {
			ic.OldOK, ic.NewOK = oldRes[i].OK, newRes[i].OK
		}
		ic.OldExpected, ic.NewExpected = expected(c, in.Old, in.Options), expected(c, in.New, in.Options)
		if ic.OldExpected == ic.NewExpected {
			ic.OldExpected, ic.NewExpected = "", ""
		}
		r.Claims = append(r.Claims, ic)
	}
	pages[p.Path] = true
}

func side(v *evidence.Value) *Side {
	return &Side{Value: v.Value.String(), Unit: v.Unit, Raw: v.Raw, Pos: v.Pos}
}

func citesAny(c claim.Claim, changed map[string]bool) bool {
	for _, ref := range c.Refs {
		if changed[ref] {
			return true
		}
	}
	return false
}

// expected is the literal a one-number claim would be written as at its
// precision on st's value, or "" (several numbers, no value, no parse).
func expected(c claim.Claim, st *evidence.Store, opt check.Options) string {
	if c.ParseErr != nil || len(c.Refs) != 1 || len(c.Parsed.Quantities) != 1 || c.Parsed.Range || c.Parsed.Cmp != "" {
		return ""
	}
	v, ok := st.Lookup(c.Refs[0])
	if !ok {
		return ""
	}
	q := c.Parsed.Quantities[0]
	if q.Unit != "" && v.Unit != "" && !check.UnitsCompatible(q.Unit, v.Unit) {
		return ""
	}
	val := check.InUnitOf(q, v)
	if len(q.Parts) > 0 || q.NumStart < 0 || q.NumEnd > len(c.Literal) || q.NumStart > q.NumEnd {
		return check.Expected(q, c.Parsed.Approx, val)
	}
	// The literal as it would be written: its number replaced, every
	// other character (unit, approximation word, counter) kept.
	return c.Literal[:q.NumStart] + q.Format(val) + c.Literal[q.NumEnd:]
}
