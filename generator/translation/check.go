package translation

import (
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/i18n"
)

// CheckOptions configures Set.Check.
type CheckOptions struct {
	// Root is the project directory (for reading i18n/ string tables);
	// empty skips the i18n string check.
	Root string
	// Themes are the site's themes (Hugo's theme setting), in order: their
	// i18n/ and layouts/ under Root/themes count as Hugo merges them.
	Themes []string
	// Markdown is the site's goldmark configuration, which every page is
	// read with.
	Markdown claim.MarkdownConfig
}

// Check reports pairing problems (duplicate keys, orphans) and, for each
// translated page, where it disagrees with its source page.
//
// Check is CheckPairing, emphasis.Check of every page, i18n.Check
// and CheckPair of every pair, in that order; a caller that re-checks
// one edited page (evdoc serve) runs those parts itself.
func (s *Set) Check(opt CheckOptions) diag.List {
	ds := s.CheckPairing()
	for _, p := range s.Pages {
		ds = append(ds, emphasis.Check(p.Parsed, opt.Markdown)...)
	}
	if opt.Root != "" {
		ds = append(ds, i18n.Check(opt.Root, opt.Themes, s.Codes())...)
	}
	for _, pr := range s.Pairs() {
		ds = append(ds, CheckPair(pr, s.Units)...)
	}
	return ds
}

// ValueUnits returns the unit of the evidence value ref names ("" for
// none) and whether ref names one.
type ValueUnits func(ref string) (string, bool)

// CheckPair reports where pr.Target disagrees with pr.Source (parity) or
// was made from an older version of it (staleness). An empty target (a
// placeholder evdoc fills from the source) has nothing to compare. It
// reads the two pages and, through units (nil: none known), the units
// of the evidence values their claims cite: a claim's number written
// without a unit is compared in its value's unit, as the judge reads it
// ([0.9975] on a ratio says what [99.75%] says). Its result changes only
// when one of the pages does or the unit of a value they cite.
func CheckPair(pr PagePair, units ValueUnits) diag.List {
	if pr.Target.IsEmpty() {
		return nil
	}
	ds := parity(pr.Source, pr.Target, units)
	return append(ds, checkStale(pr.Source, pr.Target)...)
}

// Rules returns the rules Check reports.
func Rules() []diag.RuleID {
	return []diag.RuleID{diag.TranslationClaims, diag.TranslationOrphan, diag.TranslationDuplicateKey,
		diag.TranslationApprox, diag.TranslationNumbers, diag.TranslationStructure, diag.TranslationStale,
		diag.TranslationI18nString, diag.PageEmphasis, diag.PageStrikethrough}
}
