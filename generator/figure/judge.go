package figure

import (
	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
)

// Validate checks a spec against the evidence store for the given
// languages: every reference resolves to a finite number, every text a
// language needs exists, every rune shown has a glyph in the language's
// font chain (fonts maps language to chain; a language without one is
// not glyph-checked), and every number in a figure text is a claim that
// agrees with the evidence, exactly as in a page: [12 s](ev:SET/NAME).
// A number written bare is a claim-unbound error. Positions point into
// the spec file. Texts are read with the site's goldmark configuration
// md, as its pages are.
func (s *Spec) Validate(st *evidence.Store, langs []string, fonts map[string]*typeset.Fonts, opt check.Options, md claim.MarkdownConfig) diag.List {
	ds, _ := s.Judge(st, langs, fonts, opt, md)
	return ds
}

// Judge is Validate that also returns the verdict on every claim of the
// figure's texts (caption, title, axis labels… in each language), with
// the claim's page the spec file and its positions in it, so they count
// with the pages' claims.
func (s *Spec) Judge(st *evidence.Store, langs []string, fonts map[string]*typeset.Fonts, opt check.Options, mdc claim.MarkdownConfig) (diag.List, []check.Result) {
	_, ds := s.data(st)
	return s.JudgeTexts(ds, st, langs, fonts, opt, mdc)
}
