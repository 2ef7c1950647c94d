package project

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/internal/nesting"
)

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

// screenPage checks a page's bytes before it is parsed: text that is not
// UTF-8 (Hugo would publish the bytes as they are into pages declared
// UTF-8) and container nesting deeper than nesting.MaxDepth (a parser
// takes quadratic time on it). It returns the findings, and false when
// the page must not be parsed.
func screenPage(file string, src []byte) (diag.List, bool) {
	var ds diag.List
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		pos, end := diag.NewLineIndex(file, src).Span(off, off+1) // the first invalid byte
		ds = append(ds, diag.Errorf(pos, diag.PageEncoding,
			"invalid UTF-8 (byte 0x%02X); expected UTF-8 text: re-save the page as UTF-8", src[off]).Spanning(end))
	}
	if d := nesting.Markdown(src, nesting.MaxDepth); d != nil {
		ix := diag.NewLineIndex(file, src) // the line that nests too deep
		ds = append(ds, diag.Errorf(ix.Pos(d.Offset), diag.PageLimit,
			"lists or block quotes nest deeper than %d levels; expected a flatter page", d.Limit).Spanning(ix.LineEnd(d.Offset)))
		return ds, false
	}
	return ds, true
}

// rawHTMLFindings reports the raw HTML of a page when cfg does not set
// markup.goldmark.renderer.unsafe: Hugo then omits it from the page (an
// HTML comment "raw HTML omitted") with a warning, which fails the build
// under --strict. With unsafe = true Hugo publishes
// raw HTML as written, and there is nothing to report.
func rawHTMLFindings(cfg *hugoconf.Config, p *claim.Page) diag.List {
	if cfg.Unsafe {
		return nil
	}
	where := "Hugo's configuration"
	if len(cfg.Files) > 0 {
		where = strings.Join(cfg.Files, ", ")
	}
	var ds diag.List
	for _, r := range p.RawHTML {
		ds = append(ds, diag.Errorf(r.Pos, diag.PageHTML,
			"raw HTML; Hugo omits it from the page, since markup.goldmark.renderer.unsafe is not true (%s), and warns (a failure under --strict); expected Markdown (a line break: a backslash or two spaces at the end of the line), or unsafe = true under [markup.goldmark.renderer] to publish raw HTML", where).Spanning(r.End))
	}
	return ds
}

// parseFindings are the findings on a parsed page that Hugo would fail
// the build on: raw HTML (rawHTMLFindings), links the template escaper
// rejects (schemeFindings) and shortcodes without a template
// (shortcodeFindings).
func parseFindings(root string, cfg *hugoconf.Config, p *claim.Page) diag.List {
	ds := rawHTMLFindings(cfg, p)
	ds = append(ds, schemeFindings(p.Links)...)
	return append(ds, shortcodeFindings(root, cfg, p.Shortcodes)...)
}

// hugoShortcodes are the shortcodes Hugo v0.165.0 embeds
// (tpl/tplimpl/embedded/templates/_shortcodes), and evdoc's own, which
// build stages with its theme component.
var hugoShortcodes = map[string]bool{"comment": true, "details": true, "figure": true, "gist": true, "highlight": true,
	"instagram": true, "param": true, "qr": true, "ref": true, "relref": true, "twitter": true, "vimeo": true, "x": true,
	"youtube": true, "evtable": true, "evfigure": true}

// shortcodeFindings reports each shortcode call of calls whose name has
// no template: not one of Hugo's or evdoc's, and no file NAME.* under
// layouts/_shortcodes or layouts/shortcodes of the project or of any
// directory under themes/. Hugo fails the build on it ("template for
// shortcode not found"). When templates may come from elsewhere (Hugo
// modules, themesDir, layoutDir: Config.OtherLayouts) nothing is
// reported; nor for an inline shortcode (NAME.inline).
func shortcodeFindings(root string, cfg *hugoconf.Config, calls []claim.ShortcodeCall) diag.List {
	if cfg.OtherLayouts || len(calls) == 0 {
		return nil
	}
	var ds diag.List
	known := map[string]bool{}
	for _, c := range calls {
		if c.Closing || hugoShortcodes[c.Name] || strings.Contains(c.Name, ".") {
			continue
		}
		ok, seen := known[c.Name]
		if !seen {
			ok = hasShortcodeTemplate(root, c.Name)
			known[c.Name] = ok
		}
		if !ok {
			ds = append(ds, diag.Errorf(c.Pos, diag.PageShortcode,
				"shortcode %q has no template (Hugo fails the build on it); expected layouts/_shortcodes/%s.html in the project or a theme, one of Hugo's shortcodes, or the call written as text: {{</* %s */>}}", c.Name, c.Name, c.Name).Spanning(c.End))
		}
	}
	return ds
}

// hasShortcodeTemplate reports whether the project or a directory under
// themes/ has a template for the shortcode name: a file whose name up to
// its first dot is name's last segment (NAME.html, NAME.ja.html,
// NAME.json) in layouts/_shortcodes or layouts/shortcodes.
func hasShortcodeTemplate(root, name string) bool {
	layouts := []string{filepath.Join(root, "layouts")}
	themes, _ := filepath.Glob(filepath.Join(root, "themes", "*", "layouts"))
	layouts = append(layouts, themes...)
	dir, base := path.Split(name)
	for _, l := range layouts {
		for _, sc := range []string{"_shortcodes", "shortcodes"} {
			es, _ := os.ReadDir(filepath.Join(l, sc, filepath.FromSlash(dir)))
			for _, e := range es {
				if n, _, _ := strings.Cut(e.Name(), "."); n == base && !e.IsDir() {
					return true
				}
			}
		}
	}
	return false
}
