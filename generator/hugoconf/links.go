package hugoconf

import (
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// Linkable reports whether a page with front matter fm has a URL a link
// can name, as the render hook sees it: Hugo's GetPage does not find a
// draft, a page whose publish date is after now or whose expiry date is
// before now (unless c's buildDrafts, buildFuture, buildExpired say so),
// and a headless page or one with build.render never has an empty
// RelPermalink, which the hook treats as no page. The dates are read from
// Hugo's default front matter keys (publishDate, pubDate, published,
// date; expiryDate, unpublishDate).
func Linkable(c *Config, fm map[string]any, now time.Time) bool {
	return LinkWindow(c, fm).Includes(now)
}

// LinkWindow is when Linkable holds for a page with front matter fm: the
// front matter read once for any time (a re-check keeps it per page).
func LinkWindow(c *Config, fm map[string]any) Window {
	w := publishWindow(c, fm)
	if w.Never {
		return w
	}
	if b, ok := FmValue(fm, "headless").(bool); ok && b {
		return Window{Never: true}
	}
	for _, k := range []string{"build", "_build"} {
		if b, ok := FmValue(fm, k).(map[string]any); ok {
			switch r := FmValue(b, "render").(type) {
			case bool:
				if !r {
					return Window{Never: true}
				}
			case string:
				if strings.EqualFold(r, "never") || r == "false" {
					return Window{Never: true}
				}
			}
		}
	}
	return w
}

// Cascaded returns p's front matter with the values the cascades of its
// own section (a section page's cascade applies to itself) and of the
// sections above it set for keys p does not set, the nearest section
// first, as Hugo applies cascade: a page under a section with
// `cascade: {draft: true}` or `{build: {render: never}}` is not built
// either. It returns p.FrontMatter itself when no cascade applies.
func Cascaded(p *translation.Page, cascades map[string][]map[string]any) map[string]any {
	if len(cascades) == 0 {
		return p.FrontMatter
	}
	fm := p.FrontMatter
	copied := false
	dir := NormPath(p.Logical)
	if !p.Section {
		dir = parentLogical(dir)
	}
	for {
		for _, e := range cascades[p.Lang+"\x00"+dir] {
			for k, v := range e {
				if FmValue(fm, k) != nil {
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

// FmValue returns the value of front matter key k, compared
// case-insensitively as Hugo compares keys.
func FmValue(fm map[string]any, k string) any {
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

// FmTime reads a front matter date: a TOML or YAML date or date-time, or
// a string in one of the forms Hugo reads most often (RFC 3339, a date
// and time without zone, a date). ok is false for anything else.
func FmTime(v any) (time.Time, bool) {
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

// NormPath normalizes a content path as Hugo's path parser does for
// lookups: lower case, spaces as hyphens.
func NormPath(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), " ", "-")
}

// InternalLinks returns the links of a parsed page that checkLinks
// resolves (see linkKind): root-relative and relative ones.
func InternalLinks(p *claim.Page) []claim.Link {
	var out []claim.Link
	for _, l := range p.Links {
		if LinkKind(l.Destination) != LinkOther {
			out = append(out, l)
		}
	}
	return out
}

// Kinds of link destination, as the theme's render hook tells them apart.
const (
	LinkOther    = iota // a URL with a scheme, "//host", "#fragment", "?query" or empty: left as written
	linkRoot            // "/path": a content path from the site's root
	LinkRelative        // "path", "./path", "../path", "x.md": relative to the page
)

// LinkKind tells how the render hook treats destination d: a path
// starting with "/" (not "//") is root-relative; a destination with no
// scheme, not starting with "#" or "?", is relative; anything else
// (external URLs, mailto:, tel:, a fragment of the same page) is left as
// written. A destination url.Parse rejects is root-relative or relative
// by its first byte, so checkLinks reports it as link-malformed.
func LinkKind(d string) int {
	switch {
	case d == "" || strings.HasPrefix(d, "#") || strings.HasPrefix(d, "?") || strings.HasPrefix(d, "//"):
		return LinkOther
	case strings.HasPrefix(d, "/"):
		return linkRoot
	}
	u, err := url.Parse(d)
	if err != nil {
		if strings.Contains(d, ":") && !strings.ContainsAny(d[:strings.IndexByte(d, ':')], "/?#") {
			return LinkOther // scheme-like ("foo:%zz"): not a path the hook resolves
		}
		return LinkRelative
	}
	if u.Scheme != "" || u.Host != "" || u.Path == "" {
		return LinkOther
	}
	return LinkRelative
}

// ContentExts are the file extensions Hugo reads as content (its media
// types for markdown, HTML, AsciiDoc, Pandoc, reStructuredText and Org):
// its path parser drops them when it names a page, so GetPage "x.html"
// finds the page x.
var ContentExts = map[string]bool{"md": true, "mdown": true, "markdown": true, "html": true, "htm": true,
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
	p = NormPath(strings.Trim(p, "/"))
	dir, name := path.Split(p)
	if i := strings.LastIndexByte(name, '.'); i > 0 && ContentExts[name[i+1:]] {
		name = name[:i]
		if name == "index" || name == "_index" {
			return strings.TrimSuffix(dir, "/")
		}
	}
	return dir + name
}

// GetPage resolves ref from page p as Hugo's GetPage does
// (hugolib/pagecollections.go, getContentNode): a trailing slash is
// dropped; a ref without extension names ref.md (ref/index.md first for
// ".../index", /_index.md for "/"); a ref not starting with "/" is tried
// first relative to the page (a section page's own directory; for a
// regular page or a leaf bundle, its container directory, except that a
// ref with an extension starting with "../" is relative to the file's
// directory), then, unless it starts with ".", from the content root.
// has reports whether a logical path is a page. It returns the logical
// path found.
func GetPage(p *translation.Page, ref string, has func(string) bool) (string, bool) {
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
func getPageRef(p *translation.Page, ref string, hadExt bool, has func(string) bool) (string, bool) {
	if !strings.HasPrefix(ref, "/") {
		dir := path.Dir("/" + p.Rel) // the file's directory
		base := dir
		if !p.Section && !(hadExt && strings.HasPrefix(ref, "../")) && IsIndex(p.Rel) {
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

// IsIndex reports whether the content file rel is a leaf bundle's
// index file (index.md, index.ja.md).
func IsIndex(rel string) bool {
	name, _, _ := strings.Cut(path.Base(rel), ".")
	return name == "index"
}

// ResolveLink resolves the path of a relative link destination from page
// p as the theme's render hook does: a leading "./" is dropped ("./"
// alone is "."), then Hugo's GetPage resolves it (getPage); failing that,
// it is resolved as a reader's browser resolves it from the page's URL
// (/LOGICAL/), as a content path from the root. It returns the logical
// path found.
func ResolveLink(p *translation.Page, ref string, has func(string) bool) (string, bool) {
	ref = strings.TrimPrefix(ref, "./")
	if ref == "" {
		ref = "."
	}
	if l, ok := GetPage(p, ref, has); ok {
		return l, true
	}
	return GetPage(p, path.Join("/"+p.Logical, ref), has)
}

// PageLike reports whether an unresolved relative link path names a page
// rather than a file: it has no extension (the last segment has no dot,
// or is "." or ".."), or a content extension (x.md). A relative link to
// a file (a bundle resource, a static file) is left as written.
func PageLike(ref string) bool {
	ref = strings.TrimSuffix(ref, "/")
	name := path.Base(ref)
	if name == "." || name == ".." || ref == "" {
		return true
	}
	ext := strings.TrimPrefix(path.Ext(name), ".")
	return ext == "" || ContentExts[strings.ToLower(ext)]
}
