package serve

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/yuin/goldmark"
)

// Kind is what a changed project file is to evdoc serve.
type Kind int

// Kinds of changed files (see Classify).
const (
	// KindOther is a file Hugo reads that evdoc does not check (static/,
	// data/, assets/, archetypes/, a page bundle's resources): it is
	// staged again, nothing is re-checked.
	KindOther Kind = iota
	// KindPage is a Markdown page of a language's content directory.
	KindPage
	// KindEvidence is a file of an evidence set (evidence/SET/…).
	KindEvidence
	// KindFigure is a figure spec (figures/NAME.toml).
	KindFigure
	// KindSite is a file whose findings are site-wide, not a page's:
	// layouts, themes, i18n strings.
	KindSite
	// KindConfig is a file that can change every page's verdict: the
	// Hugo or evdoc configuration, the figure fonts.
	KindConfig
	// KindIgnored is not part of the project (editor backups, evdoc's
	// work directory, the output directory).
	KindIgnored
)

// String names the kind as the terminal output does.
func (k Kind) String() string {
	return [...]string{"file", "page", "evidence", "figure", "site file", "configuration", "ignored"}[k]
}

// configFiles are the root files whose change affects every page.
var configFiles = append([]string{"evdoc.toml"}, hugoconf.RootConfigFiles...)

// Classify tells what the project file (a slash-separated path relative
// to the root) is, and its key: the evidence set id of KindEvidence, the
// figure name of KindFigure, "" otherwise. cfg gives the languages'
// content directories.
func Classify(cfg *hugoconf.Config, file string) (Kind, string) {
	base := path.Base(file)
	if ignoredName(base) {
		return KindIgnored, ""
	}
	top, rest, _ := strings.Cut(file, "/")
	if cfg != nil {
		for _, l := range cfg.Ordered() {
			dir := strings.Trim(l.ContentDir, "/") + "/"
			if strings.HasPrefix(file, dir) {
				if strings.HasSuffix(file, ".md") {
					return KindPage, ""
				}
				return KindOther, ""
			}
		}
	}
	switch {
	case rest == "":
		if slices.Contains(configFiles, file) {
			return KindConfig, ""
		}
		return KindIgnored, ""
	case top == project.EvidenceDir:
		// evidence/SET itself: the set's directory, moved or removed.
		set, _, _ := strings.Cut(rest, "/")
		return KindEvidence, set
	case top == project.FiguresDir:
		if strings.Contains(rest, "/") || !strings.HasSuffix(rest, ".toml") {
			return KindIgnored, ""
		}
		return KindFigure, strings.TrimSuffix(rest, ".toml")
	case strings.HasPrefix(file, project.FontsDir+"/"), top == hugoconf.ConfigDir:
		return KindConfig, ""
	case top == "layouts", top == "themes", top == "i18n":
		return KindSite, ""
	case top == "static", top == "data", top == "assets", top == "archetypes", top == "content":
		return KindOther, ""
	}
	return KindIgnored, ""
}

// ignoredName reports editor and tool temporaries: vim's swap files and
// write test (4913), Emacs locks and backups, backup copies.
func ignoredName(base string) bool {
	return strings.HasPrefix(base, ".#") || strings.HasSuffix(base, "~") ||
		strings.HasSuffix(base, ".swp") || strings.HasSuffix(base, ".swx") ||
		strings.HasSuffix(base, ".tmp") || base == "4913" || base == ".DS_Store"
}

// Scope is what a batch of changed files affects: the pages to re-check
// and the files whose findings are reported.
type Scope struct {
	// All is set when every page is affected (configuration, fonts, a
	// page added or removed, which changes links and fallbacks).
	All bool
	// Pages are the repository paths of the affected pages, sorted.
	Pages []string
	// Files are the changed files evdoc checks (pages, evidence files,
	// figure specs, site files), sorted.
	Files []string
	// Prefixes are directories whose every finding belongs to the scope
	// (evidence/SET/ of a changed evidence file).
	Prefixes []string
	// Site is set when site-wide findings (those outside any page:
	// i18n strings, layouts) belong to the scope.
	Site bool
	// Restage is set when the served project must be staged again
	// (every change but an ignored file).
	Restage bool
}

// Includes reports whether a finding at file belongs to the scope.
func (sc Scope) Includes(file string, pages map[string]bool) bool {
	if sc.All {
		return true
	}
	if slices.Contains(sc.Pages, file) || slices.Contains(sc.Files, file) {
		return true
	}
	for _, p := range sc.Prefixes {
		if strings.HasPrefix(file, p) {
			return true
		}
	}
	return sc.Site && !pages[file]
}

var (
	evtableSetRe = regexp.MustCompile(`\{\{[<%]\s*evtable\b[^}]*\bset\s*=\s*"([^"]*)"`)
	evfigureRe   = regexp.MustCompile(`\{\{[<%]\s*evfigure\s+name\s*=\s*"([^"]*)"`)
)

// Affected maps changed files (slash-separated, relative to the root) to
// the scope they affect, given the project before (old, nil at first)
// and after the change (cur):
//   - a page: the page and its translations (the pages sharing its
//     translationKey), or every page when it was added or removed;
//   - an evidence file of set SET: the pages with a claim naming SET/…
//     or an evtable of SET, and the pages showing a figure drawn from SET;
//   - a figure spec: the pages showing that figure;
//   - layouts, themes, i18n: the site-wide findings;
//   - configuration (hugo.toml, evdoc.toml, config/, the figure fonts):
//     every page.
func Affected(old, cur *project.Site, changed []string) Scope {
	return affected(old, cur, changed, nil)
}

// affected is Affected with what the pages of cur use, as a Checker
// found when it judged them (IncrementalRechecker); a page not in uses
// is parsed to find it.
func affected(old, cur *project.Site, changed []string, uses map[*project.Page]pageUses) Scope {
	var sc Scope
	pages := map[string]bool{}
	addPage := func(p string) { pages[p] = true }
	files := map[string]bool{}
	prefixes := map[string]bool{}
	for _, f := range changed {
		kind, key := Classify(cur.Config, f)
		if kind != KindIgnored {
			sc.Restage = true
		}
		switch kind {
		case KindConfig:
			sc.All = true
		case KindSite:
			sc.Site = true
			files[f] = true
		case KindPage:
			files[f] = true
			was, is := findPage(old, f), findPage(cur, f)
			if old != nil && (was == nil) != (is == nil) {
				sc.All = true // added or removed: links to it, its fallbacks
			}
			addPage(f)
			for _, p := range []*project.Page{was, is} {
				if p == nil {
					continue
				}
				for _, q := range cur.Pages {
					if q.Key == p.Key {
						addPage(q.Path)
					}
				}
			}
		case KindEvidence:
			files[f] = true
			prefixes[project.EvidenceDir+"/"+key+"/"] = true
			for _, p := range pagesUsingSet(cur, key, uses) {
				addPage(p)
			}
		case KindFigure:
			files[f] = true
			for _, p := range pagesShowing(cur, map[string]bool{key: true}, uses) {
				addPage(p)
			}
		}
	}
	if sc.All {
		sc.Site = true
	}
	sc.Pages = sortedKeys(pages)
	sc.Files = sortedKeys(files)
	sc.Prefixes = sortedKeys(prefixes)
	return sc
}

// findPage returns the page of s at file, or nil.
func findPage(s *project.Site, file string) *project.Page {
	if s == nil {
		return nil
	}
	for _, p := range s.Pages {
		if p.Path == file {
			return p
		}
	}
	return nil
}

// pageUses is what one page uses that scoping needs: the evidence sets
// its claims name (the first segment of a reference "SET/…") and its
// evtable calls read, and the figures its evfigure calls show.
type pageUses struct {
	sets, figures map[string]bool
}

// usesOf returns what the parsed page p uses.
func usesOf(p *claim.Page) pageUses {
	u := pageUses{sets: map[string]bool{}, figures: map[string]bool{}}
	for _, c := range p.Claims {
		for _, r := range c.Refs {
			if set, _, ok := strings.Cut(r, "/"); ok {
				u.sets[set] = true
			}
		}
	}
	for _, m := range evtableSetRe.FindAllSubmatch(p.Source, -1) {
		u.sets[string(m[1])] = true
	}
	for _, m := range evfigureRe.FindAllSubmatch(p.Source, -1) {
		u.figures[string(m[1])] = true
	}
	return u
}

// usesOfPage returns what page p of s uses: from uses, else from its
// parse (project.Site.WithParsed: a lazily loaded page is parsed for the
// call). A page that cannot be read again is in every scope (ok false).
func usesOfPage(s *project.Site, p *project.Page, uses map[*project.Page]pageUses, md *goldmark.Markdown) (u pageUses, ok bool) {
	if u, ok := uses[p]; ok {
		return u, true
	}
	if *md == nil {
		*md = s.Config.NewMarkdown()
	}
	err := s.WithParsed(p, *md, func(pp *claim.Page) error {
		u = usesOf(pp)
		return nil
	})
	return u, err == nil
}

// pagesUsingSet returns the pages whose claims or evtables read the
// evidence set, and those showing a figure whose spec names it.
func pagesUsingSet(s *project.Site, set string, uses map[*project.Page]pageUses) []string {
	var out []string
	var md goldmark.Markdown
	for _, p := range s.Pages {
		if u, ok := usesOfPage(s, p, uses, &md); !ok || u.sets[set] {
			out = append(out, p.Path)
		}
	}
	figs := map[string]bool{}
	refRe := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(set+"/"))
	for _, f := range s.Figures {
		if refRe.Match(f.Src) {
			figs[f.Name] = true
		}
	}
	return append(out, pagesShowing(s, figs, uses)...)
}

// pagesShowing returns the pages with an evfigure call of one of names.
func pagesShowing(s *project.Site, names map[string]bool, uses map[*project.Page]pageUses) []string {
	if len(names) == 0 {
		return nil
	}
	var out []string
	var md goldmark.Markdown
	for _, p := range s.Pages {
		u, ok := usesOfPage(s, p, uses, &md)
		shows := !ok
		for name := range u.figures {
			shows = shows || names[name]
		}
		if shows {
			out = append(out, p.Path)
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
