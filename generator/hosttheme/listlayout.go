package hosttheme

import (
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
	var names []string
	if typ != "" {
		names = append(names, typ+"/section.html", typ+"/list.html")
	}
	names = append(names, "section.html", "list.html", "_default/section.html", "_default/list.html")
	tmpl, b := find(names...)
	if tmpl == "" {
		return Section{}
	}
	out := Section{Template: tmpl}
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
