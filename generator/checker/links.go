package checker

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// checkLinks resolves the root-relative and relative links of page p
// (links, see internalLinks) against the pages of the page's language
// (index, see pageIndex), counting pages the build will generate from
// the source language as present, exactly as the theme's render hook
// resolves them (themes/evdoc/layouts/_markup/render-link.html).
//
// A root-relative path is resolved with Hugo's GetPage from the page;
// failing that, a path whose first segment is a language's code
// ("/ja/docs/theme/", the URL the reader sees with
// defaultContentLanguageInSubdir) names the rest of the path in that
// language; failing both, a path with a file extension (see pageLike)
// names a static file, a finding when static/ has no such file. A
// relative path is resolved by resolveLink; one that names no
// page is a finding when it looks like a page (pageLike), and a link to
// a file otherwise (left to the build's output check).
func checkLinks(s *project.Site, p *project.Page, links []claim.Link, index map[string]bool) diag.List {
	var ds diag.List
	src := s.Config.Source().Code
	inLang := func(lang string) func(string) bool {
		return func(l string) bool { return index[lang+"\x00"+l] || index[src+"\x00"+l] }
	}
	for _, l := range links {
		kind := hugoconf.LinkKind(l.Destination)
		if kind == hugoconf.LinkOther {
			continue
		}
		u, err := url.Parse(l.Destination)
		if err != nil {
			ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMalformed, Message: fmt.Sprintf("cannot parse link %q: %v", l.Destination, err)})
			continue
		}
		if kind == hugoconf.LinkRelative {
			found, ok := hugoconf.ResolveLink(p, u.Path, inLang(p.Lang))
			if ok {
				// a fallback at another path resolves it from there
				for _, t := range s.FallbackTargets(p) {
					if _, ok := hugoconf.ResolveLink(t, u.Path, inLang(t.Lang)); !ok {
						ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
							Message: fmt.Sprintf("link to %s: %s shows this page's text as its fallback at /%s/, where the link names no page in %s; write it from the root (/%s/)", l.Destination, t.Path, t.Logical, s.ContentDirs(t.Lang, src), found)})
					}
				}
			}
			if ok || !hugoconf.PageLike(u.Path) {
				continue
			}
			ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
				Message: fmt.Sprintf("link to %s: the site has no such page in %s (resolved from %s as Hugo's GetPage does, and from the page's URL /%s/)", l.Destination, s.ContentDirs(p.Lang, src), p.Path, p.Logical)})
			continue
		}
		if _, ok := hugoconf.GetPage(p, u.Path, inLang(p.Lang)); ok {
			continue
		}
		if !hugoconf.PageLike(u.Path) {
			if !s.StaticFile(u.Path) {
				ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
					Message: fmt.Sprintf("link to %s: the site has no such page in %s, and no such file in static/", l.Destination, s.ContentDirs(p.Lang, src))})
			}
			continue
		}
		lang, rest, _ := strings.Cut(hugoconf.NormPath(strings.Trim(u.Path, "/")), "/")
		if _, ok := s.Config.Languages[lang]; ok {
			if _, ok := hugoconf.GetPage(p, "/"+rest, inLang(lang)); ok {
				continue
			}
			ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
				Message: fmt.Sprintf("link to %s: the site has no such page in %s", l.Destination, s.ContentDirs(lang, src))})
			continue
		}
		ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
			Message: fmt.Sprintf("link to %s: the site has no such page in %s", l.Destination, s.ContentDirs(p.Lang, src))})
	}
	return ds
}
