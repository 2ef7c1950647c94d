package hosttheme

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"regexp"
)

// The evidence index and each evidence set's page are section pages
// whose content (evdoc's evidence shortcode) is the whole page: the sets,
// a set's origin, date, environment and files. Many themes' section
// layouts show a section's pages instead of its content (Stack, FixIt),
// or page through them, showing the content again on every page of the
// listing. SectionLayout tells those apart, so that evdoc build gives the
// evidence section pages the theme's single-page layout, which shows a
// page's content inside the theme's base template like any other page.

// contentRe finds a template's use of the page's content (.Content,
// $.Content, .Page.Content; not .ContentWithoutSummary).
var contentRe = regexp.MustCompile(`\.Content\b`)

// paginateRe finds a template's pager (.Paginate, .Paginator).
var paginateRe = regexp.MustCompile(`\.Paginat(?:e|or)\b`)

// Section is what SectionLayout found: the template Hugo renders a
// section page with ("" when the project and its themes have none), and
// whether it, or a partial it calls by a literal name, shows the page's
// .Content and pages through the section's pages.
type Section struct {
	Template string // relative to the project
	Content  bool
	Paginate bool
	// Breadcrumb: the template, or the base template it fills,
	// calls a partial named for breadcrumbs itself (not through another
	// partial, not with "enable" false: Hextra's list layout, and not
	// under a setting that is off unless the site sets it, around the
	// call or at the partial's start: PaperMod's ShowBreadCrumbs): the
	// theme draws a page's trail (Docsy, Hextra, Relearn), and evdoc's
	// evidence pages leave theirs out.
	Breadcrumb bool
}

// NeedsSingle reports whether section pages whose content is the whole
// page need the single-page layout: the section template found shows no
// .Content, or pages through its section.
func (s Section) NeedsSingle() bool {
	return s.Template != "" && (!s.Content || s.Paginate)
}

// SectionLayout returns the section template of type typ that Hugo
// takes from the project at root and its theme list themes (evdoc's
// component aside): the first of TYPE/section.html, TYPE/list.html,
// section.html, list.html (and the _default/ names Hugo still reads)
// found in the project's layouts, then in each theme's in the list's
// order. It reads the template and the partials it calls with a literal
// name, transitively. A partial called with a computed name is not
// followed: a template whose content shows only through one reads as
// not showing it, and evdoc build then gives the pages the single-page
// layout, which shows it too.
func SectionLayout(root string, themes []string, typ string) Section {
	var names []string
	if typ != "" {
		names = append(names, typ+"/section.html", typ+"/list.html")
	}
	names = append(names, "section.html", "list.html", "_default/section.html", "_default/list.html")
	return pageLayout(root, themes, typ, names)
}

// SingleLayout is SectionLayout for a regular page of type typ, or a
// section page given the layout "single": TYPE/single.html,
// TYPE/page.html, single.html, page.html, _default/single.html.
func SingleLayout(root string, themes []string, typ string) Section {
	var names []string
	if typ != "" {
		names = append(names, typ+"/single.html", typ+"/page.html")
	}
	names = append(names, "single.html", "page.html", "_default/single.html")
	return pageLayout(root, themes, typ, names)
}

// breadcrumbCallRe finds a direct call of a partial named for
// breadcrumbs, with what follows it in the same action.
var breadcrumbCallRe = regexp.MustCompile(`\b(?:partial|partialCached)\s+"[^"]*(?i:breadcrumb)[^"]*"([^}]*)\}\}`)

// breadcrumbNameRe takes the partial's name from a breadcrumbCallRe match.
var breadcrumbNameRe = regexp.MustCompile(`"([^"]+)"`)

// ifRe is a template's {{ if COND }}, COND captured.
var ifRe = regexp.MustCompile(`\{\{-?\s*if\s+([^}]*)\}\}`)

// siteSettingRe finds a site setting in a condition: .Param "X" (the
// page's, else the site's), site.Params, .Site.Params.
var siteSettingRe = regexp.MustCompile(`\.Param\s+["(` + "`" + `]|\bsite\.Params\b|\.Site\.Params\b`)

// optInCond reports whether the condition cond of an if depends on a
// site setting and is not a negation ({{ if not (.Param "…_disable") }},
// Docsy's, is on unless the site turns it off; {{ if .Param
// "ShowBreadCrumbs" }}, PaperMod's, Blowfish's and FixIt's are off
// unless the site turns them on).
func optInCond(cond []byte) bool {
	c := bytes.TrimLeft(cond, " \t\n(")
	if bytes.HasPrefix(c, []byte("not ")) || bytes.HasPrefix(c, []byte("not(")) {
		return false
	}
	// a setting that turns something off (Relearn's
	// disableRootBreadcrumb, Docsy's ui.breadcrumb_disable): on unless
	// the site sets it
	return siteSettingRe.Match(cond) && !disableRe.Match(cond)
}

// disableRe finds a setting named for turning something off.
var disableRe = regexp.MustCompile(`(?i)disable`)

// optIn reports whether the text before a call ends inside an if on a
// site setting (optInCond) that no {{ end }} has closed.
func optIn(before []byte) bool {
	if len(before) > 300 {
		before = before[len(before)-300:]
	}
	locs := ifRe.FindAllSubmatchIndex(before, -1)
	if locs == nil {
		return false
	}
	last := locs[len(locs)-1]
	return optInCond(before[last[2]:last[3]]) && !endRe.Match(before[last[1]:])
}

// optInLead reports whether a partial's text before its first tag has an
// if on a site setting (optInCond): it shows only when the site says so.
func optInLead(b []byte) bool {
	if i := bytes.IndexByte(b, '<'); i >= 0 {
		b = b[:i]
	}
	for _, m := range ifRe.FindAllSubmatch(b, -1) {
		if optInCond(m[1]) {
			return true
		}
	}
	return false
}

// endRe is a template's {{ end }}.
var endRe = regexp.MustCompile(`\{\{-?\s*end\b`)

// enableFalseRe is a dict argument turning the partial off.
var enableFalseRe = regexp.MustCompile(`"enable"\s+false`)

func pageLayout(root string, themes []string, typ string, names []string) Section {
	dirs := []string{"layouts"}
	for _, t := range themes {
		if t != Component {
			dirs = append(dirs, path.Join(Dir(root, t), "layouts"))
		}
	}
	find := func(names ...string) (string, []byte) {
		for _, n := range names {
			for _, d := range dirs {
				rel := path.Join(d, n)
				p := filepath.Join(root, filepath.FromSlash(rel))
				if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
					if b, err := os.ReadFile(p); err == nil {
						return rel, b
					}
				}
			}
		}
		return "", nil
	}
	tmpl, b := find(names...)
	if tmpl == "" {
		return Section{}
	}
	out := Section{Template: tmpl}
	crumbs := func(b []byte) bool {
		b = templateCommentRe.ReplaceAll(b, nil)
		for _, loc := range breadcrumbCallRe.FindAllSubmatchIndex(b, -1) {
			if enableFalseRe.Match(b[loc[2]:loc[3]]) || optIn(b[:loc[0]]) {
				continue
			}
			name := breadcrumbNameRe.FindSubmatch(b[loc[0]:loc[1]])
			if name != nil {
				file := string(name[1])
				if path.Ext(file) == "" {
					file += ".html"
				}
				if _, pb := find("_partials/"+file, "partials/"+file); pb != nil && optInLead(templateCommentRe.ReplaceAll(pb, nil)) {
					continue // PaperMod's: only with params.ShowBreadCrumbs
				}
			}
			return true
		}
		return false
	}
	out.Breadcrumb = crumbs(b)
	var bases []string
	if typ != "" {
		bases = append(bases, typ+"/baseof.html")
	}
	if _, base := find(append(bases, "baseof.html", "_default/baseof.html")...); base != nil && crumbs(base) {
		out.Breadcrumb = true
	}
	seen := map[string]bool{}
	var scan func(b []byte, depth int)
	scan = func(b []byte, depth int) {
		b = templateCommentRe.ReplaceAll(b, nil)
		out.Content = out.Content || contentRe.Match(b)
		out.Paginate = out.Paginate || paginateRe.Match(b)
		if depth > 20 {
			return
		}
		for _, m := range partialCallRe.FindAllSubmatch(b, -1) {
			name := string(m[1])
			if path.Ext(name) == "" {
				name += ".html"
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			if rel, pb := find("_partials/"+name, "partials/"+name); rel != "" {
				scan(pb, depth+1)
			}
		}
	}
	scan(b, 0)
	return out
}
