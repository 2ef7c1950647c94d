package site

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
)

// pageIndex returns the set of "lang\x00logical" of every page a link
// can name, which checkLinks resolves links against: those Hugo builds
// with a URL (see linkable). Logical paths are normalized as Hugo's
// GetPage normalizes them (normPath). Besides the content files it holds
// the pages Hugo makes without one: each language's home page ("") and
// the section of every top-level content directory.
func (s *Site) pageIndex() map[string]bool {
	index := make(map[string]bool, len(s.Pages)+2*len(s.Config.Languages))
	for code := range s.Config.Languages {
		index[code+"\x00"] = true
	}
	now := time.Now()
	cascades := s.cascades()
	for _, p := range s.Pages {
		if !linkable(s.Config, cascaded(p, cascades), now) {
			continue
		}
		logical := normPath(p.Logical)
		index[p.Lang+"\x00"+logical] = true
		if top, _, ok := strings.Cut(logical, "/"); ok {
			index[p.Lang+"\x00"+top] = true
		}
	}
	return index
}

// fallbackTargets returns the translations of source page p that the
// build fills with p's text (translation fallbacks: present with front
// matter only) at another path than p's: the render hook resolves p's
// relative links from there.
func (s *Site) fallbackTargets(p *Page) []*Page {
	if s.Translations == nil || p.Lang != s.Config.Source().Code {
		return nil
	}
	var out []*Page
	for code := range s.Config.Languages {
		if code == p.Lang {
			continue
		}
		t := s.Translations.Translation(p, code)
		if t == nil || !t.IsEmpty() || t.Section != p.Section {
			continue
		}
		if normPath(t.Logical) != normPath(p.Logical) || path.Dir(t.Rel) != path.Dir(p.Rel) || isIndex(t.Rel) != isIndex(p.Rel) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lang < out[j].Lang })
	return out
}

// linkable reports whether a page with front matter fm has a URL a link
// can name, as the render hook sees it: Hugo's GetPage does not find a
// draft, a page whose publish date is after now or whose expiry date is
// before now (unless c's buildDrafts, buildFuture, buildExpired say so),
// and a headless page or one with build.render never has an empty
// RelPermalink, which the hook treats as no page. The dates are read from
// Hugo's default front matter keys (publishDate, pubDate, published,
// date; expiryDate, unpublishDate).
func linkable(c *Config, fm map[string]any, now time.Time) bool {
	if !published(c, fm, now) {
		return false
	}
	if b, ok := fmValue(fm, "headless").(bool); ok && b {
		return false
	}
	for _, k := range []string{"build", "_build"} {
		if b, ok := fmValue(fm, k).(map[string]any); ok {
			switch r := fmValue(b, "render").(type) {
			case bool:
				if !r {
					return false
				}
			case string:
				if strings.EqualFold(r, "never") || r == "false" {
					return false
				}
			}
		}
	}
	return true
}

// cascades returns what each section page's cascade front matter sets,
// keyed "lang\x00logical" (see cascaded). A cascade is a map, or a list
// of maps; an entry with a _target (or target) is left out, so a page it
// might apply to keeps its own values.
func (s *Site) cascades() map[string][]map[string]any {
	var out map[string][]map[string]any
	for _, p := range s.Pages {
		if !p.Section {
			continue
		}
		var entries []map[string]any
		switch c := fmValue(p.FrontMatter, "cascade").(type) {
		case map[string]any:
			entries = append(entries, c)
		case []any:
			for _, e := range c {
				if m, ok := e.(map[string]any); ok {
					entries = append(entries, m)
				}
			}
		case []map[string]any:
			entries = c
		}
		var kept []map[string]any
		for _, e := range entries {
			if fmValue(e, "_target") == nil && fmValue(e, "target") == nil {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			if out == nil {
				out = map[string][]map[string]any{}
			}
			out[p.Lang+"\x00"+normPath(p.Logical)] = kept
		}
	}
	return out
}

// cascaded returns p's front matter with the values the cascades of its
// own section (a section page's cascade applies to itself) and of the
// sections above it set for keys p does not set, the nearest section
// first, as Hugo applies cascade: a page under a section with
// `cascade: {draft: true}` or `{build: {render: never}}` is not built
// either. It returns p.FrontMatter itself when no cascade applies.
func cascaded(p *Page, cascades map[string][]map[string]any) map[string]any {
	if len(cascades) == 0 {
		return p.FrontMatter
	}
	fm := p.FrontMatter
	copied := false
	dir := normPath(p.Logical)
	if !p.Section {
		dir = parentLogical(dir)
	}
	for {
		for _, e := range cascades[p.Lang+"\x00"+dir] {
			for k, v := range e {
				if fmValue(fm, k) != nil {
					continue
				}
				if !copied {
					fm = make(map[string]any, len(p.FrontMatter)+len(e))
					for k2, v2 := range p.FrontMatter {
						fm[k2] = v2
					}
					copied = true
				}
				fm[k] = v
			}
		}
		if dir == "" {
			return fm
		}
		dir = parentLogical(dir)
	}
}

// parentLogical is the logical path of the section above logical path
// l ("docs/x" → "docs", "docs" → "", the home page).
func parentLogical(l string) string {
	if i := strings.LastIndexByte(l, '/'); i >= 0 {
		return l[:i]
	}
	return ""
}

// fmValue returns the value of front matter key k, compared
// case-insensitively as Hugo compares keys.
func fmValue(fm map[string]any, k string) any {
	if v, ok := fm[k]; ok {
		return v
	}
	for key, v := range fm {
		if strings.EqualFold(key, k) {
			return v
		}
	}
	return nil
}

// fmTime reads a front matter date: a TOML or YAML date or date-time, or
// a string in one of the forms Hugo reads most often (RFC 3339, a date
// and time without zone, a date). ok is false for anything else.
func fmTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, !x.IsZero()
	case interface{ String() string }:
		v = x.String() // toml.LocalDate, LocalDateTime
	}
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// normPath normalizes a content path as Hugo's path parser does for
// lookups: lower case, spaces as hyphens.
func normPath(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), " ", "-")
}

// internalLinks returns the links of a parsed page that checkLinks
// resolves (see linkKind): root-relative and relative ones.
func internalLinks(p *claim.Page) []claim.Link {
	var out []claim.Link
	for _, l := range p.Links {
		if linkKind(l.Destination) != linkOther {
			out = append(out, l)
		}
	}
	return out
}

// Kinds of link destination, as the theme's render hook tells them apart.
const (
	linkOther    = iota // a URL with a scheme, "//host", "#fragment", "?query" or empty: left as written
	linkRoot            // "/path": a content path from the site's root
	linkRelative        // "path", "./path", "../path", "x.md": relative to the page
)

// linkKind tells how the render hook treats destination d: a path
// starting with "/" (not "//") is root-relative; a destination with no
// scheme, not starting with "#" or "?", is relative; anything else
// (external URLs, mailto:, tel:, a fragment of the same page) is left as
// written. A destination url.Parse rejects is root-relative or relative
// by its first byte, so checkLinks reports it as link-malformed.
func linkKind(d string) int {
	switch {
	case d == "" || strings.HasPrefix(d, "#") || strings.HasPrefix(d, "?") || strings.HasPrefix(d, "//"):
		return linkOther
	case strings.HasPrefix(d, "/"):
		return linkRoot
	}
	u, err := url.Parse(d)
	if err != nil {
		if strings.Contains(d, ":") && !strings.ContainsAny(d[:strings.IndexByte(d, ':')], "/?#") {
			return linkOther // scheme-like ("foo:%zz"): not a path the hook resolves
		}
		return linkRelative
	}
	if u.Scheme != "" || u.Host != "" || u.Path == "" {
		return linkOther
	}
	return linkRelative
}

// contentExts are the file extensions Hugo reads as content (its media
// types for markdown, HTML, AsciiDoc, Pandoc, reStructuredText and Org):
// its path parser drops them when it names a page, so GetPage "x.html"
// finds the page x.
var contentExts = map[string]bool{"md": true, "mdown": true, "markdown": true, "html": true, "htm": true,
	"adoc": true, "asciidoc": true, "ad": true, "pandoc": true, "pdc": true, "rst": true, "org": true}

// hasExt reports whether the last segment of p contains a dot, as Hugo's
// paths.HasExt does ("." and ".." count).
func hasExt(p string) bool {
	for i := len(p) - 1; i >= 0; i-- {
		switch p[i] {
		case '.':
			return true
		case '/':
			return false
		}
	}
	return false
}

// contentBase is the logical path (see pageIndex) Hugo's path parser
// gives the content file path p ("/docs/x.md" → "docs/x",
// "/docs/_index.md" → "docs", "/_index.md" → ""): normalized, without a
// content extension, an index or _index file named by its directory. A
// path with another extension keeps it (it names no page).
func contentBase(p string) string {
	p = normPath(strings.Trim(p, "/"))
	dir, name := path.Split(p)
	if i := strings.LastIndexByte(name, '.'); i > 0 && contentExts[name[i+1:]] {
		name = name[:i]
		if name == "index" || name == "_index" {
			return strings.TrimSuffix(dir, "/")
		}
	}
	return dir + name
}

// getPage resolves ref from page p as Hugo's GetPage does
// (hugolib/pagecollections.go, getContentNode): a trailing slash is
// dropped; a ref without extension names ref.md (ref/index.md first for
// ".../index", /_index.md for "/"); a ref not starting with "/" is tried
// first relative to the page (a section page's own directory; for a
// regular page or a leaf bundle, its container directory, except that a
// ref with an extension starting with "../" is relative to the file's
// directory), then, unless it starts with ".", from the content root.
// has reports whether a logical path is a page. It returns the logical
// path found.
func getPage(p *Page, ref string, has func(string) bool) (string, bool) {
	ref = strings.TrimSuffix(ref, "/")
	if ref == "" {
		ref = "/"
	}
	if hasExt(ref) {
		return getPageRef(p, ref, true, has)
	}
	switch {
	case ref == "/":
		return getPageRef(p, "/_index.md", false, has)
	case strings.HasSuffix(ref, "/index"):
		if l, ok := getPageRef(p, ref+"/index.md", false, has); ok {
			return l, ok
		}
		return getPageRef(p, ref+".md", false, has)
	}
	return getPageRef(p, ref+".md", false, has)
}

// getPageRef is Hugo's getContentNodeForRef for getPage.
func getPageRef(p *Page, ref string, hadExt bool, has func(string) bool) (string, bool) {
	if !strings.HasPrefix(ref, "/") {
		dir := path.Dir("/" + p.Rel) // the file's directory
		base := dir
		if !p.Section && !(hadExt && strings.HasPrefix(ref, "../")) && isIndex(p.Rel) {
			base = path.Dir(dir) // a leaf bundle's container
		}
		if l := contentBase(path.Join(base, ref)); has(l) {
			return l, true
		}
		if strings.HasPrefix(ref, ".") {
			return "", false
		}
	}
	l := contentBase(ref)
	return l, has(l)
}

// isIndex reports whether the content file rel is a leaf bundle's
// index file (index.md, index.ja.md).
func isIndex(rel string) bool {
	name, _, _ := strings.Cut(path.Base(rel), ".")
	return name == "index"
}

// resolveLink resolves the path of a relative link destination from page
// p as the theme's render hook does: a leading "./" is dropped ("./"
// alone is "."), then Hugo's GetPage resolves it (getPage); failing that,
// it is resolved as a reader's browser resolves it from the page's URL
// (/LOGICAL/), as a content path from the root. It returns the logical
// path found.
func resolveLink(p *Page, ref string, has func(string) bool) (string, bool) {
	ref = strings.TrimPrefix(ref, "./")
	if ref == "" {
		ref = "."
	}
	if l, ok := getPage(p, ref, has); ok {
		return l, true
	}
	return getPage(p, path.Join("/"+p.Logical, ref), has)
}

// pageLike reports whether an unresolved relative link path names a page
// rather than a file: it has no extension (the last segment has no dot,
// or is "." or ".."), or a content extension (x.md). A relative link to
// a file (a bundle resource, a static file) is left as written.
func pageLike(ref string) bool {
	ref = strings.TrimSuffix(ref, "/")
	name := path.Base(ref)
	if name == "." || name == ".." || ref == "" {
		return true
	}
	ext := strings.TrimPrefix(path.Ext(name), ".")
	return ext == "" || contentExts[strings.ToLower(ext)]
}

// staticFile reports whether the root-relative path p names a regular
// file in the project's static/ directory or a theme's (themes/NAME/static/),
// which Hugo publishes at the site's root, or a file in a language's
// content directory (a page bundle's resource, which Hugo publishes
// beside its page: /docs/b/img.png from content/ko/docs/b/img.png, and
// /ja/docs/b/img.png from the Japanese content directory). A bundle
// whose URL differs from its content path (slug, url, permalinks) is not
// found here; the build's output check (link-output-missing) is the
// authority on whether the link works.
func (s *Site) staticFile(p string) bool {
	rel := filepath.FromSlash(path.Clean("/" + p))[1:]
	if rel == "" {
		return false
	}
	dirs := []string{filepath.Join(s.Root, "static")}
	for _, t := range s.Config.Themes {
		dirs = append(dirs, filepath.Join(s.Root, filepath.FromSlash(hosttheme.Dir(s.Root, t)), "static"))
	}
	for _, l := range s.Config.Ordered() {
		cd := filepath.Join(s.Root, filepath.FromSlash(l.ContentDir))
		dirs = append(dirs, cd)
		// with the language's code as the URL's first segment
		if first, rest, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && strings.EqualFold(first, l.Code) {
			if fi, err := os.Stat(filepath.Join(cd, filepath.FromSlash(rest))); err == nil && fi.Mode().IsRegular() && !contentExts[strings.ToLower(strings.TrimPrefix(path.Ext(rest), "."))] {
				return true
			}
		}
	}
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(d, rel)); err == nil && fi.Mode().IsRegular() && !contentExts[strings.ToLower(strings.TrimPrefix(path.Ext(rel), "."))] {
			return true
		}
	}
	return false
}

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
func (s *Site) checkLinks(p *Page, links []claim.Link, index map[string]bool) diag.List {
	var ds diag.List
	src := s.Config.Source().Code
	inLang := func(lang string) func(string) bool {
		return func(l string) bool { return index[lang+"\x00"+l] || index[src+"\x00"+l] }
	}
	for _, l := range links {
		kind := linkKind(l.Destination)
		if kind == linkOther {
			continue
		}
		u, err := url.Parse(l.Destination)
		if err != nil {
			ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMalformed, Message: fmt.Sprintf("cannot parse link %q: %v", l.Destination, err)})
			continue
		}
		if kind == linkRelative {
			found, ok := resolveLink(p, u.Path, inLang(p.Lang))
			if ok {
				// a fallback at another path resolves it from there
				for _, t := range s.fallbackTargets(p) {
					if _, ok := resolveLink(t, u.Path, inLang(t.Lang)); !ok {
						ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
							Message: fmt.Sprintf("link to %s: %s shows this page's text as its fallback at /%s/, where the link names no page in %s; write it from the root (/%s/)", l.Destination, t.Path, t.Logical, s.contentDirs(t.Lang, src), found)})
					}
				}
			}
			if ok || !pageLike(u.Path) {
				continue
			}
			ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
				Message: fmt.Sprintf("link to %s: the site has no such page in %s (resolved from %s as Hugo's GetPage does, and from the page's URL /%s/)", l.Destination, s.contentDirs(p.Lang, src), p.Path, p.Logical)})
			continue
		}
		if _, ok := getPage(p, u.Path, inLang(p.Lang)); ok {
			continue
		}
		if !pageLike(u.Path) {
			if !s.staticFile(u.Path) {
				ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
					Message: fmt.Sprintf("link to %s: the site has no such page in %s, and no such file in static/", l.Destination, s.contentDirs(p.Lang, src))})
			}
			continue
		}
		lang, rest, _ := strings.Cut(normPath(strings.Trim(u.Path, "/")), "/")
		if _, ok := s.Config.Languages[lang]; ok {
			if _, ok := getPage(p, "/"+rest, inLang(lang)); ok {
				continue
			}
			ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
				Message: fmt.Sprintf("link to %s: the site has no such page in %s", l.Destination, s.contentDirs(lang, src))})
			continue
		}
		ds = append(ds, diag.Diagnostic{Pos: l.Pos, End: l.End, Severity: diag.Warning, Rule: diag.LinkMissingPage,
			Message: fmt.Sprintf("link to %s: the site has no such page in %s", l.Destination, s.contentDirs(p.Lang, src))})
	}
	return ds
}

// schemeFindings reports each link whose URL Hugo's template escaper
// rejects: a scheme (the text before a ":" with no "/" in it) other than
// http, https or mailto, as html/template's URL filter reads it. The
// render hook writes such a destination as it is, so the escaper puts
// #ZgotmplZ in its place and the build's output check fails.
func schemeFindings(links []claim.Link) diag.List {
	var ds diag.List
	for _, l := range links {
		scheme, _, ok := strings.Cut(l.Destination, ":")
		if !ok || strings.Contains(scheme, "/") || strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") || strings.EqualFold(scheme, "mailto") {
			continue
		}
		ds = append(ds, diag.Errorf(l.Pos, diag.LinkScheme,
			"link to %s: Hugo's template escaper replaces a URL with the scheme %q by #ZgotmplZ, and the build fails on it; expected an http, https or mailto URL, or a path inside the site", l.Destination, scheme).Spanning(l.End))
	}
	return ds
}
