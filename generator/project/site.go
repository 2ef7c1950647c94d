package project

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/evdoc-lab/evdoc/generator/config"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/figure/output"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/style"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/crash"
)

// Fallbacks returns, for each target language, the generated pages that
// show a source page it has no translation of (see translation.Set).
func (s *Site) Fallbacks() map[string][]Fallback { return s.Translations.Fallbacks() }

// Fallback is one generated target-language page (see translation.Fallback).
type Fallback = translation.Fallback

// FigureProject returns what rendering the site's figures needs: its
// specs, evidence, languages and per-language font chains.
func (s *Site) FigureProject() (*output.Project, error) {
	var langs []string
	for _, l := range s.Config.Ordered() {
		langs = append(langs, l.Code)
	}
	p := &output.Project{Root: s.Root, Store: s.Store, Specs: s.Figures, Langs: langs}
	if len(s.Figures) == 0 {
		return p, nil // no figure: no font needed
	}
	fonts, err := typeset.LoadFonts(filepath.Join(s.Root, FontsDir), langs)
	if err != nil {
		return nil, err
	}
	p.Fonts = fonts
	return p, nil
}

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
	Config  *hugoconf.Config
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

	// EvidenceFindings are the Findings of loading the evidence, which a
	// Checker replaces when it reads the evidence again; siteFindings
	// those about no content file besides (figures, the glossary);
	// pageFindings those of each content file by repository path
	// (SetPageFindings, AddPageFindings): a Checker replaces a file's
	// entry when it re-reads the file.
	EvidenceFindings diag.List
	siteFindings     diag.List
	pageFindings     map[string]diag.List
	// lazy: pages are loaded without their parse (LoadOptions.Lazy), also
	// when a Checker re-reads one (ReloadPage).
	lazy bool
	// EvidenceOpt is LoadOptions.Evidence, for a Checker reading the
	// evidence again.
	EvidenceOpt evidence.Options
	// overlay holds the content of pages an editor holds unsaved, by
	// repository path (SetOverlay): read instead of the files.
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
	cfg, err := hugoconf.LoadConfig(root)
	if err != nil {
		return nil, err
	}
	ecfg, err := config.Load(root)
	if err != nil {
		return nil, err
	}
	s := &Site{Root: root, Config: cfg, Rules: ecfg.Rules, lazy: opt.Lazy, EvidenceOpt: opt.Evidence}
	// The evidence is read while the pages are: neither reads a file of
	// the other or the Site. A panic reading it panics again here, as a
	// worker's does (RunWorkers).
	evDone := make(chan struct{})
	var evPanic WorkerPanic
	go func() {
		defer crash.Guard()
		defer close(evDone)
		defer evPanic.Recover(func() {})
		s.Store, s.EvidenceFindings = evidence.LoadWith(root, EvidenceDir, opt.Evidence)
	}()
	pages, perrs, err := loadPages(root, cfg, cfg.NewMarkdown, opt.Lazy)
	<-evDone
	evPanic.Repanic()
	if err != nil {
		return nil, err
	}
	s.Pages = pages
	s.pageFindings = perrs
	s.Translations = translation.Pair(cfg.Source().Code, cfg.Ordered(), pages)
	s.Translations.Units = s.ValueUnit
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
	s.Findings = s.AllFindings()
	return s, nil
}

// ValueUnit returns the unit of the evidence value ref names in the
// site's current evidence (translation.ValueUnits): a translation pair
// compares a claim written without a unit in it.
func (s *Site) ValueUnit(ref string) (string, bool) {
	if s.Store == nil {
		return "", false
	}
	v, ok := s.Store.Lookup(ref)
	if !ok {
		return "", false
	}
	return v.Unit, true
}

// SetPageFindings replaces the findings of the content file at the
// repository path file with ds (none when ds is empty).
func (s *Site) SetPageFindings(file string, ds diag.List) {
	if s.pageFindings == nil {
		s.pageFindings = map[string]diag.List{}
	}
	delete(s.pageFindings, file)
	if len(ds) > 0 {
		s.pageFindings[file] = ds
	}
}

// AddPageFindings appends ds to the findings of the content file at the
// repository path file.
func (s *Site) AddPageFindings(file string, ds diag.List) {
	if len(ds) == 0 {
		return
	}
	if s.pageFindings == nil {
		s.pageFindings = map[string]diag.List{}
	}
	s.pageFindings[file] = append(s.pageFindings[file], ds...)
}

// AllFindings returns the site's and every content file's findings, files
// in path order.
func (s *Site) AllFindings() diag.List {
	ds := append(append(diag.List(nil), s.EvidenceFindings...), s.siteFindings...)
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
