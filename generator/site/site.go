package site

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/config"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/style"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// Directories of a project, relative to its root.
const (
	EvidenceDir = "evidence"
	FiguresDir  = "figures"
	FontsDir    = "assets/fonts"
)

// Site is a loaded evdoc project: Hugo config, pages of every language,
// evidence and figure specs.
type Site struct {
	Root    string
	Config  *Config
	Store   *evidence.Store
	Pages   []*Page
	Figures []*figure.Spec
	// Translations pairs the pages of each language (see package
	// translation).
	Translations *translation.Set
	// Findings are problems found while loading (malformed evidence,
	// front matter or claim syntax); Check reports them too.
	Findings diag.List
	// Rules are the project's rule severities (evdoc.toml [rules]); Check
	// applies them to every diagnostic.
	Rules diag.RuleConfig
	// FigureCache, when set, keeps the figures Stage renders for the next
	// Stage (evdoc serve re-stages after every save); nil renders every
	// figure each time.
	FigureCache *FigureCache
	// Glossary is the project's glossary.toml (package style); nil when
	// the project has none.
	Glossary *style.Glossary

	// evidenceFindings are the Findings of loading the evidence, which a
	// Checker replaces when it reads the evidence again; siteFindings
	// those about no content file besides (figures, the glossary);
	// pageFindings those of each content file by repository path. A
	// Checker replaces a file's entry when it re-reads the file.
	evidenceFindings diag.List
	siteFindings     diag.List
	pageFindings     map[string]diag.List
	// lazy: pages are loaded without their parse (LoadOptions.Lazy), also
	// when a Checker re-reads one.
	lazy bool
	// evidenceOpt is LoadOptions.Evidence, for a Checker reading the
	// evidence again.
	evidenceOpt evidence.Options
	// overlay holds the content of pages an editor holds unsaved, by
	// repository path (Checker.SetOverlay): read instead of the files.
	overlay map[string][]byte
}

// Load reads the project at root. It returns an error only when the
// project cannot be read at all (no hugo.toml, unreadable content
// directory); malformed inputs become Findings.
func Load(root string) (*Site, error) {
	return LoadWith(root, LoadOptions{})
}

// LoadOptions tunes LoadWith.
type LoadOptions struct {
	// Evidence bounds the reading of evidence files (size per file).
	Evidence evidence.Options
	// Lazy reads of each content page only what pairing needs (its front
	// matter; Page.Header) instead of parsing it: Page.Parsed stays nil.
	// A Checker then parses each page when it judges it and drops the
	// parse afterwards, so that checking holds a few pages at a time
	// instead of the whole site; the page findings of parsing (claim
	// syntax, raw HTML) join Findings as the Checker reads the pages.
	// Code that reads Page.Parsed must not be given a lazily loaded
	// site.
	Lazy bool
	// Component is the running evdoc's theme component (the files `evdoc
	// init` writes into themes/evdoc) and ComponentVersion the evdoc
	// version that names it. When set, a themes/evdoc Hugo would use that
	// differs from it is a finding (rule site-component,
	// hosttheme.CheckComponent).
	Component        fs.FS
	ComponentVersion string
}

// LoadWith is Load with options.
func LoadWith(root string, opt LoadOptions) (*Site, error) {
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	ecfg, err := config.Load(root)
	if err != nil {
		return nil, err
	}
	s := &Site{Root: root, Config: cfg, Rules: ecfg.Rules, lazy: opt.Lazy, evidenceOpt: opt.Evidence}
	s.Store, s.evidenceFindings = evidence.LoadWith(root, EvidenceDir, opt.Evidence)
	pages, perrs, err := loadPages(root, cfg, cfg.NewMarkdown, opt.Lazy)
	if err != nil {
		return nil, err
	}
	s.Pages = pages
	s.pageFindings = perrs
	s.Translations = translation.Pair(cfg.Source().Code, cfg.Ordered(), pages)
	s.Translations.Units = s.valueUnit
	specs, ferrs := figure.LoadSpecs(root, FiguresDir)
	s.Figures = specs
	s.siteFindings = append(s.siteFindings, ferrs...)
	if opt.Component != nil {
		msg, err := hosttheme.CheckComponent(root, cfg.Themes, cfg.ThemesDir, opt.Component, opt.ComponentVersion)
		if err != nil {
			msg = fmt.Sprintf("cannot compare themes/evdoc with this evdoc's component: %v", err)
		}
		if msg != "" {
			at := diag.Position{File: "themes/" + hosttheme.Component}
			s.siteFindings = append(s.siteFindings, diag.Errorf(at, diag.SiteComponent, "%s", msg))
		}
	}
	for _, o := range hosttheme.Overrides(root, cfg.Themes) {
		s.siteFindings = append(s.siteFindings, diag.Diagnostic{Pos: diag.Position{File: o.File}, Severity: diag.Warning, Rule: diag.SiteThemeHook,
			Message: fmt.Sprintf("evdoc's component fills layouts/%s for the themes whose hook it is, and, listed before %s, replaces this file, which has content of its own; expected the theme's content kept: create layouts/%s in the project with this file's content and the call in themes/%s/layouts/%s", o.Layout, o.Theme, o.Layout, hosttheme.Component, o.Layout)})
	}
	g, gerrs := loadGlossary(root)
	s.Glossary = g
	s.siteFindings = append(s.siteFindings, gerrs...)
	s.Findings = s.allFindings()
	return s, nil
}

// valueUnit returns the unit of the evidence value ref names in the
// site's current evidence (translation.ValueUnits): a translation pair
// compares a claim written without a unit in it.
func (s *Site) valueUnit(ref string) (string, bool) {
	if s.Store == nil {
		return "", false
	}
	v, ok := s.Store.Lookup(ref)
	if !ok {
		return "", false
	}
	return v.Unit, true
}

// allFindings returns the site's and every content file's findings, files
// in path order.
func (s *Site) allFindings() diag.List {
	ds := append(append(diag.List(nil), s.evidenceFindings...), s.siteFindings...)
	files := make([]string, 0, len(s.pageFindings))
	for f := range s.pageFindings {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		ds = append(ds, s.pageFindings[f]...)
	}
	return ds
}

// Check judges every claim of every page, then runs the site-level
// checks (siteChecks). It returns the verdict on each claim and all
// diagnostics (load findings included) with the project's rule severities
// (evdoc.toml) applied, sorted. Links to pages the site does not have are
// warnings.
func (s *Site) Check(opt check.Options) ([]check.Result, diag.List) {
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
func (s *Site) siteChecks(opt check.Options) []siteCheck {
	return []siteCheck{
		{[]diag.RuleID{diag.LinkMalformed, diag.LinkMissingPage}, func() diag.List {
			var ds diag.List
			index := s.pageIndex()
			for _, p := range s.Pages {
				ds = append(ds, s.checkLinks(p, internalLinks(p.Parsed), index)...)
			}
			return ds
		}},
		// Figure texts are claims too: their numbers are judged like a page's.
		{[]diag.RuleID{diag.FigureSpec, diag.FigureData, diag.FigureUnknown, diag.FigureGlyph, diag.EvtableArgs,
			diag.ClaimSyntax, diag.ClaimLiteral, diag.ClaimExemptReason, diag.ClaimArity, diag.ClaimUnknownRef, diag.ClaimMismatch, diag.ClaimUnbound},
			func() diag.List { return s.checkFigures(opt) }},
		{translation.Rules(), func() diag.List {
			return s.Translations.Check(translation.CheckOptions{Root: s.Root, Themes: s.Config.Themes, Markdown: s.Config.markdown()})
		}},
		{[]diag.RuleID{diag.EvidencePageName}, s.checkEvidencePageNames},
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
func (s *Site) checkFigures(opt check.Options) diag.List {
	ds, figures, _ := s.checkFigureSpecs(opt)
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
func uncheckedNumbers(p *Page) diag.List {
	var ds diag.List
	ix := p.Parsed.Index
	src := p.Parsed.Source
	if b, err := frontmatter.Split(src); err == nil {
		for _, f := range frontmatter.Fields(src, b, renderedKeys) {
			for _, n := range claim.ScanText(ix, src, f.Start, f.End) {
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
func (s *Site) Coverage() []claim.Coverage {
	out := make([]claim.Coverage, 0, len(s.Pages))
	md := s.Config.NewMarkdown()
	for _, p := range s.Pages {
		parsed := p.Parsed
		if parsed == nil {
			parsed, _, _ = parsePage(s.Root, s.Config, p, md, s.overlay)
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

// contentDirs names where a page of language lang may come from: its
// content directory, or the source language's (src) when the build
// generates the page from the source.
func (s *Site) contentDirs(lang, src string) string {
	where := s.Config.Languages[lang].ContentDir
	if lang != src {
		where += " or " + s.Config.Source().ContentDir
	}
	return where
}
