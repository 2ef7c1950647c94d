package checker

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// Check judges every claim of every page, then runs the site-level
// checks (siteChecks). It returns the verdict on each claim and all
// diagnostics (load findings included) with the project's rule severities
// (evdoc.toml) applied, sorted. Links to pages the site does not have are
// warnings.
func Check(s *project.Site, opt check.Options) ([]check.Result, diag.List) {
	c := NewChecker(s, opt)
	return c.Results(), c.Diagnostics()
}

// siteCheck is a check that needs the whole site rather than one page,
// and the rules it reports.
type siteCheck struct {
	rules []diag.RuleID
	run   func() diag.List
}

// siteChecks lists the site-level checks Check runs, in order.
func siteChecks(s *project.Site, opt check.Options) []siteCheck {
	return []siteCheck{
		{[]diag.RuleID{diag.LinkMalformed, diag.LinkMissingPage}, func() diag.List {
			var ds diag.List
			index := s.PageIndex()
			for _, p := range s.Pages {
				ds = append(ds, checkLinks(s, p, hugoconf.InternalLinks(p.Parsed), index)...)
			}
			return ds
		}},
		// Figure texts are claims too: their numbers are judged like a page's.
		{[]diag.RuleID{diag.FigureSpec, diag.FigureData, diag.FigureUnknown, diag.FigureGlyph, diag.EvtableArgs,
			diag.ClaimSyntax, diag.ClaimLiteral, diag.ClaimExemptReason, diag.ClaimArity, diag.ClaimUnknownRef, diag.ClaimMismatch, diag.ClaimUnbound},
			func() diag.List { return checkFigures(s, opt) }},
		{translation.Rules(), func() diag.List {
			return s.Translations.Check(translation.CheckOptions{Root: s.Root, Themes: s.Config.Themes, Markdown: s.Config.MarkdownConfig()})
		}},
		{[]diag.RuleID{diag.EvidencePageName}, func() diag.List { return checkEvidencePageNames(s) }},
		{[]diag.RuleID{diag.ClaimUnchecked}, func() diag.List {
			var ds diag.List
			for _, p := range s.Pages {
				ds = append(ds, uncheckedNumbers(p)...)
			}
			return ds
		}},
	}
}

// checkFigures validates each figure spec against the evidence and the
// site's languages, and reports evfigure calls naming no spec.
func checkFigures(s *project.Site, opt check.Options) diag.List {
	ds, figures, _ := checkFigureSpecs(s, opt)
	for _, p := range s.Pages {
		ds = append(ds, unknownFigures(p, figures)...)
		evt, _ := evtableFindings(p, s.Store)
		ds = append(ds, evt...)
	}
	return ds
}

// evfigureRe finds evfigure shortcode calls and their name argument.
var evfigureRe = regexp.MustCompile(`\{\{[<%]\s*evfigure\s+name\s*=\s*"([^"]*)"`)

// renderedKeys are front matter fields the layouts print: the title,
// summary and description, and the taxonomy terms themes list on a page
// (Hugo's default tags and categories, and the keywords and series themes
// show).
var renderedKeys = []string{"title", "summary", "description", "linkTitle", "tags", "categories", "keywords", "series"}

// uncheckedNumbers reports the numbers a page publishes where no claim
// can be written, so evdoc cannot check them: front matter fields the
// site renders, an image's alt text and title, a link's title.
func uncheckedNumbers(p *project.Page) diag.List {
	var ds diag.List
	ix := p.Parsed.Index
	src := p.Parsed.Source
	if b, err := frontmatter.Split(src); err == nil {
		for _, f := range frontmatter.Fields(src, b, renderedKeys) {
			for _, n := range prose.ScanText(ix, src, f.Start, f.End) {
				if n.Rule == "" {
					ds = append(ds, diag.Diagnostic{Pos: n.Pos, End: ix.Pos(n.Pos.Offset + len(n.Text)), Severity: diag.Warning, Rule: diag.ClaimUnchecked,
						Message: fmt.Sprintf("number %q in front matter %s cannot be bound to evidence; it is not checked (move it into the body as a claim)", n.Text, f.Key)})
				}
			}
		}
	}
	for _, n := range p.Parsed.Unchecked {
		if n.Rule == "" {
			ds = append(ds, diag.Diagnostic{Pos: n.Pos, End: ix.Pos(max(n.End, n.Pos.Offset+len(n.Text))), Severity: diag.Warning, Rule: diag.ClaimUnchecked,
				Message: fmt.Sprintf("number %q in %s cannot be bound to evidence; it is not checked (state it in the prose as a claim)", n.Text, n.In)})
		}
	}
	return ds
}

// Coverage returns each page's coverage: numbers bound to evidence out of
// the measured numbers in its prose. A lazily loaded page is parsed for
// it and dropped again; one that cannot be read again has no measured
// numbers.
func Coverage(s *project.Site) []claim.Coverage {
	out := make([]claim.Coverage, 0, len(s.Pages))
	md := s.Config.NewMarkdown()
	for _, p := range s.Pages {
		parsed := p.Parsed
		if parsed == nil {
			parsed, _, _ = s.ParsePage(p, md)
		}
		if parsed == nil {
			out = append(out, claim.Coverage{Page: p.Path})
			continue
		}
		c, _ := check.Coverage(parsed)
		out = append(out, c)
	}
	return out
}

// checkFigureSpecs validates each figure spec against the evidence and
// the site's languages; it returns the findings and the declared names.
func checkFigureSpecs(s *project.Site, opt check.Options) (diag.List, map[string]bool, []check.Result) {
	var ds diag.List
	var results []check.Result
	var langs []string
	for _, l := range s.Config.Ordered() {
		langs = append(langs, l.Code)
	}
	figures := map[string]bool{}
	if len(s.Figures) == 0 {
		return nil, figures, nil
	}
	fonts, ferr := typeset.LoadFonts(filepath.Join(s.Root, project.FontsDir), langs)
	if ferr != nil {
		ds = append(ds, diag.Errorf(diag.Position{File: project.FontsDir}, diag.FigureGlyph, "cannot load the figure fonts: %v", ferr))
	}
	for _, f := range s.Figures {
		figures[f.Name] = true
		fds, rs := f.Judge(s.Store, langs, fonts, opt, s.Config.MarkdownConfig())
		ds = append(ds, fds...)
		results = append(results, rs...)
	}
	return ds, figures, results
}

// unknownFigures reports evfigure calls of p naming no figure spec.
func unknownFigures(p *project.Page, figures map[string]bool) diag.List {
	var ds diag.List
	src := p.Parsed.Source
	if !bytes.Contains(src, []byte("evfigure")) {
		return nil
	}
	for _, m := range evfigureRe.FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		if !figures[name] {
			pos, end := p.Parsed.Index.Span(m[2], m[3]) // the name argument
			ds = append(ds, diag.Errorf(pos, diag.FigureUnknown, "figure %q is not declared; expected a file %s/%s.toml", name, project.FiguresDir, name).Spanning(end))
		}
	}
	return ds
}
