package translation

import (
	"fmt"
	"sort"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Set is the pages of a site grouped into translations.
//
// Languages are ordered with the source language first. Groups maps a
// pairing key (page kind and translation key) to the page of each
// language; a language with two pages for one key keeps the first by path
// and the duplicate is reported by Check.
type Set struct {
	Source    string
	Languages []Language
	Pages     []*Page
	// Units gives the unit of the evidence value a claim's reference
	// names, for Check and Status (see CheckPair); nil when not known.
	Units  ValueUnits
	groups map[string]map[string]*Page
	order  []string
	dups   diag.List
}

// groupKey is the pairing key of p: Hugo pairs pages of one kind only.
func groupKey(p *Page) string { return p.kind() + "/" + p.Key }

// Pair groups pages into translations. langs must be ordered with the
// source language first (source is its code). Pages are taken in order of
// their Path, so the result does not depend on the order given.
func Pair(source string, langs []Language, pages []*Page) *Set {
	s := &Set{Source: source, Languages: langs, groups: map[string]map[string]*Page{}}
	s.Pages = append([]*Page(nil), pages...)
	sort.SliceStable(s.Pages, func(i, j int) bool { return s.Pages[i].Path < s.Pages[j].Path })
	for _, p := range s.Pages {
		k := groupKey(p)
		g := s.groups[k]
		if g == nil {
			g = map[string]*Page{}
			s.groups[k] = g
			s.order = append(s.order, k)
		}
		if first, dup := g[p.Lang]; dup {
			how := fmt.Sprintf("translationKey %q", p.Key)
			if !p.ExplicitKey || !first.ExplicitKey {
				how = fmt.Sprintf("the path %q (translationKey or file path)", p.Key)
			}
			pos, end := fieldSpan(p, "translationKey")
			firstPos, _ := fieldSpan(first, "translationKey")
			s.dups = append(s.dups, diag.Diagnostic{
				Pos: pos, End: end, Severity: diag.Error, Rule: diag.TranslationDuplicateKey,
				Message: fmt.Sprintf("%s and %s are both %s pages with %s; Hugo pairs a translation with one of them only: give each page its own translationKey",
					first.Path, p.Path, p.Lang, how),
				Related: []diag.Related{{Pos: firstPos, Message: "the other page with this key"}},
			})
			continue
		}
		g[p.Lang] = p
	}
	return s
}

// Codes returns the codes of the set's languages, in order (the
// languages i18n.Check compares).
func (s *Set) Codes() []string {
	codes := make([]string, len(s.Languages))
	for i, l := range s.Languages {
		codes[i] = l.Code
	}
	return codes
}

// Translation returns the page of lang paired with p, or nil.
func (s *Set) Translation(p *Page, lang string) *Page {
	g := s.groups[groupKey(p)]
	if g == nil || g[p.Lang] != p {
		return nil
	}
	return g[lang]
}

// Original returns the source-language page p translates, or nil (also
// when p itself is a source page).
func (s *Set) Original(p *Page) *Page {
	if p.Lang == s.Source {
		return nil
	}
	return s.Translation(p, s.Source)
}

// Pairs returns each target-language page that has a source page with it,
// in path order of the source pages then language order.
func (s *Set) Pairs() []PagePair {
	var out []PagePair
	for _, k := range s.order {
		g := s.groups[k]
		src := g[s.Source]
		if src == nil {
			continue
		}
		for _, l := range s.Languages {
			if l.Code == s.Source {
				continue
			}
			if t := g[l.Code]; t != nil {
				out = append(out, PagePair{Source: src, Target: t})
			}
		}
	}
	return out
}

// PagePair is a source page and one of its translations (which may be an
// empty placeholder).
type PagePair struct {
	Source, Target *Page
}

// CheckPairing reports duplicate keys and target-language pages that
// cannot pair with a source page: an empty placeholder with nothing to
// fall back to is an error, a page whose key matches no source page a
// warning.
func (s *Set) CheckPairing() diag.List {
	ds := append(diag.List(nil), s.dups...)
	for _, k := range s.order {
		g := s.groups[k]
		if g[s.Source] != nil {
			continue
		}
		for _, l := range s.Languages {
			p := g[l.Code]
			if p == nil || l.Code == s.Source {
				continue
			}
			_, _, ix := p.head()
			if p.IsEmpty() && !p.Section {
				pos, end := ix.Pos(0), ix.LineEnd(0)
				ds = append(ds, diag.Errorf(pos, diag.TranslationOrphan,
					"page has no body and no %s page with translationKey %q to fall back to", s.Source, p.Key).Spanning(end))
				continue
			}
			pos, end := ix.Pos(0), ix.LineEnd(0)
			ds = append(ds, diag.Diagnostic{Pos: pos, End: end, Severity: diag.Warning, Rule: diag.TranslationOrphan,
				Message: fmt.Sprintf("no %s page has translationKey %q; this page has no source-language original", s.Source, p.Key)})
		}
	}
	return ds
}
