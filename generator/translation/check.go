package translation

import (
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
		ds = append(ds, parity(pr.Source, pr.Target)...)
		ds = append(ds, checkStale(pr.Source, pr.Target)...)
	}
	return ds
}

// Rules returns the rules Check reports.
func Rules() []diag.RuleID {
	return []diag.RuleID{diag.TranslationClaims, diag.TranslationOrphan, diag.TranslationDuplicateKey,
		diag.TranslationApprox, diag.TranslationNumbers, diag.TranslationStructure, diag.TranslationStale,
		diag.TranslationI18nString, diag.PageEmphasis}
}
