package site

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"golang.org/x/sync/errgroup"
)

// themeOrderAdvice says what keeps the component's template layout (a
// path under layouts/) from being the one Hugo uses, when something does:
// the theme list lacks the component, or a file of the project or of a
// theme listed before it replaces the template. what names the templates
// for the message. It returns "" when the component's template is the one
// Hugo uses.
func (s *Site) themeOrderAdvice(layout, what string) string {
	themes := s.Config.Themes
	if !slices.Contains(themes, hosttheme.Component) {
		return fmt.Sprintf(`the theme list (theme in %s) does not name evdoc's component: add "evdoc" before your theme (theme = ["evdoc", "mytheme"])`, strings.Join(s.Config.Files, ", "))
	}
	if sh := hosttheme.Shadows(s.Root, themes, layout); len(sh) > 0 {
		return fmt.Sprintf(`%s replace(s) evdoc's %s (Hugo takes the project's layouts and earlier themes first): remove it, or list "evdoc" before that theme`, strings.Join(sh, ", "), what)
	}
	return ""
}

// hookAdvice names why claims are missing from the built site: the
// component's claim render hook not in use (themeOrderAdvice), or, when
// it is, what else keeps a page's claims out of the output. zgotmpl: some
// page has a link Hugo's escaper rejected.
func (s *Site) hookAdvice(zgotmpl bool) string {
	if a := s.themeOrderAdvice("_markup/render-link.html", "claim render hook (layouts/_markup/render-link.html)"); a != "" {
		return "claim links were not rendered by evdoc's render hook: " + a
	}
	if zgotmpl {
		return "evdoc's claim render hook is the one Hugo uses (theme list and layouts checked); a link Hugo's escaper rejected (#ZgotmplZ) comes from a template of the site or its theme that writes an ev: link itself"
	}
	return "evdoc's claim render hook is the one Hugo uses (theme list and layouts checked), so the pages above were published without their claims: Hugo did not publish the page (its content directory, a section the theme leaves out), or its layout shows .Summary or text of its own instead of .Content"
}

// headAdvice names why pages show claims without evdoc's stylesheet:
// the head hook of a theme the component fills replaced by a file of the
// project, evdoc's stylesheet replaced, or a theme without a hook evdoc
// knows.
func (s *Site) headAdvice() string {
	themes := s.Config.Themes
	if sh := s.staticShadows("css/site.css"); len(sh) > 0 {
		return fmt.Sprintf("%s replace(s) evdoc's stylesheet css/site.css: rename it, or list \"evdoc\" before that theme", strings.Join(sh, ", "))
	}
	for _, f := range hosttheme.Detect(s.Root, themes) {
		if sh := hosttheme.Shadows(s.Root, themes, f.Head); len(sh) > 0 {
			return fmt.Sprintf("%s replace(s) the head hook of %s that evdoc's component fills: add %s to it", strings.Join(sh, ", "), f.Name, hosttheme.HeadCall)
		}
		if a := s.themeOrderAdvice(f.Head, "head hook"); a != "" {
			return fmt.Sprintf("%s calls layouts/%s, which evdoc's component fills with its stylesheets, but %s", f.Name, f.Head, a)
		}
	}
	return fmt.Sprintf("the theme links no stylesheet of evdoc's: add %s before </head> in its head template, or to a head hook it calls (docs/guide/adopting.md lists the themes whose hooks evdoc fills)", hosttheme.HeadCall)
}

// staticShadows returns the project's files that Hugo publishes at rel
// (a path under static/) instead of the component's: the project's
// static/REL and those of every theme listed before the component.
func (s *Site) staticShadows(rel string) []string {
	dirs := []string{""}
	for _, t := range s.Config.Themes {
		if t == hosttheme.Component {
			break
		}
		dirs = append(dirs, path.Join("themes", t))
	}
	var out []string
	for _, d := range dirs {
		p := path.Join(d, "static", rel)
		if fi, err := os.Stat(filepath.Join(s.Root, filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// maxVerifyErrors caps the problems verifyOutput lists.
const maxVerifyErrors = 20

// pageKey names a content page as evdoc's claim render hook writes it in
// data-ev-at: the language and the path within its content directory.
type pageKey struct{ lang, rel string }

// windowKey names one evidence viewer window as evdoc's evidence template
// writes it in data-ev-window.
type windowKey struct {
	lang string
	part int
	file string
}

// outputScan is what one pass over the built HTML found.
type outputScan struct {
	// claims holds, per page, the distinct claims (LINE:COL|DEST)
	// evdoc's render hook rendered.
	claims map[pageKey]map[string]bool
	// windows holds, per evidence window, the most line spans one file
	// showing it had.
	windows map[windowKey]int
	// problems are files with a sanitised URL (#ZgotmplZ).
	problems []string
	// broken are the links inside the site to files it does not have,
	// "FILE: link to HREF …", in the walk's order.
	broken []string
	// unstyled are the files that show claims without evdoc's
	// stylesheet (see evdocStyled), in the walk's order.
	unstyled []string
}

// tagAttrs calls fn for each attribute of tag, one start tag as
// splitTags yields it ("<span class=line id=L5>"), with its name as
// written and its raw value (character references not yet decoded; an
// attribute without a value has an empty one). It reads the tag as the
// HTML tokenizer does (WHATWG HTML, 13.2.5.32–13.2.5.40: attribute
// names end at whitespace, '/', '>' or '='; values are double-quoted,
// single-quoted or unquoted), so a name inside another attribute's
// quoted value is not taken for an attribute. fn returns false to stop.
func tagAttrs(tag []byte, fn func(name, val []byte) bool) {
	i := 1
	for i < len(tag) && !isHTMLSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' {
		i++ // the tag name
	}
	for i < len(tag) {
		for i < len(tag) && (isHTMLSpace(tag[i]) || tag[i] == '/') {
			i++
		}
		if i >= len(tag) || tag[i] == '>' {
			return
		}
		n := i
		i++ // a name may start with '='
		for i < len(tag) && !isHTMLSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' && tag[i] != '=' {
			i++
		}
		name := tag[n:i]
		for i < len(tag) && isHTMLSpace(tag[i]) {
			i++
		}
		var val []byte
		if i < len(tag) && tag[i] == '=' {
			i++
			for i < len(tag) && isHTMLSpace(tag[i]) {
				i++
			}
			if i < len(tag) && (tag[i] == '"' || tag[i] == '\'') {
				q := tag[i]
				j := bytes.IndexByte(tag[i+1:], q)
				if j < 0 {
					val, i = tag[i+1:], len(tag)
				} else {
					val, i = tag[i+1:i+1+j], i+2+j
				}
			} else {
				v := i
				for i < len(tag) && !isHTMLSpace(tag[i]) && tag[i] != '>' {
					i++
				}
				val = tag[v:i]
			}
		}
		if !fn(name, val) {
			return
		}
	}
}

// isHTMLSpace reports whether c is ASCII whitespace as HTML defines it
// (tab, LF, FF, CR, space).
func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// firstClass returns the first class name in a raw class attribute value.
func firstClass(val []byte) string {
	i := 0
	for i < len(val) && isHTMLSpace(val[i]) {
		i++
	}
	j := i
	for j < len(val) && !isHTMLSpace(val[j]) {
		j++
	}
	return attrString(val[i:j])
}

// attrString decodes a raw attribute value's character references,
// copying only when it has one.
func attrString(v []byte) string {
	if bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	return html.UnescapeString(string(v))
}

// evTag is what one start tag carries of evdoc's markers.
type evTag struct {
	at, dest, window string
	hasAt, hasWindow bool
	// href is the raw URL attribute of a tag urlAttrs names (<a href>,
	// <img src>, …; a slice of the tag, character references not
	// decoded), hasHref whether it has one.
	href    []byte
	hasHref bool
	// lineSpan: a <span> whose first class is "line" and whose id is
	// L followed by digits, one raw line of evdoc's evidence template.
	lineSpan bool
	// stylesheet: a <link> whose rel names "stylesheet" (its href is
	// href); icon: a <link> to the site's icons or web app manifest
	// (rel icon, apple-touch-icon, mask-icon, manifest), which themes
	// link by default for a site to add and a browser does without.
	stylesheet, icon bool
}

// readEvTag reads evdoc's markers off one start tag (the first value of
// a repeated attribute counts, as in HTML).
func readEvTag(tag []byte) evTag {
	var t evTag
	span := len(tag) > 5 && bytes.EqualFold(tag[1:5], []byte("span")) && (isHTMLSpace(tag[5]) || tag[5] == '>' || tag[5] == '/')
	ua := urlAttr(tag)
	var classLine, idLine, seenClass, seenID, seenDest, seenRel bool
	link := ua == "href" && !isATag(tag)
	tagAttrs(tag, func(name, val []byte) bool {
		switch {
		case link && !seenRel && bytes.EqualFold(name, []byte("rel")):
			seenRel = true
			for _, r := range strings.Fields(strings.ToLower(attrString(val))) {
				switch r {
				case "stylesheet":
					t.stylesheet = true
				case "icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "manifest":
					t.icon = true
				}
			}
		case ua != "" && !t.hasHref && bytes.EqualFold(name, []byte(ua)):
			t.href, t.hasHref = val, true
		case !t.hasAt && bytes.EqualFold(name, []byte("data-ev-at")):
			t.at, t.hasAt = attrString(val), true
		case !seenDest && bytes.EqualFold(name, []byte("data-ev")):
			t.dest, seenDest = attrString(val), true
		case !t.hasWindow && bytes.EqualFold(name, []byte("data-ev-window")):
			t.window, t.hasWindow = attrString(val), true
		case span && !seenClass && bytes.EqualFold(name, []byte("class")):
			seenClass = true
			classLine = firstClass(val) == "line"
		case span && !seenID && bytes.EqualFold(name, []byte("id")):
			seenID = true
			idLine = len(val) > 1 && val[0] == 'L'
			for i := 1; idLine && i < len(val); i++ {
				idLine = '0' <= val[i] && val[i] <= '9'
			}
		}
		return true
	})
	t.lineSpan = span && classLine && idLine
	return t
}

// isATag reports whether tag is an <a> start tag.
func isATag(tag []byte) bool {
	return len(tag) > 2 && tag[0] == '<' && (tag[1] == 'a' || tag[1] == 'A') && (isHTMLSpace(tag[2]) || tag[2] == '>' || tag[2] == '/')
}

// urlAttrs names, per start tag whose URL attribute a reader's browser
// follows or fetches, that attribute (HTML's <a href>, <link href> for
// stylesheets, icons, feeds and alternates, and the src of embedded
// content and scripts). srcset and poster are not read.
var urlAttrs = map[string]string{
	"a": "href", "link": "href", "img": "src", "script": "src", "iframe": "src",
	"source": "src", "video": "src", "audio": "src", "track": "src", "embed": "src",
}

// urlAttr returns the name of the URL attribute of start tag (see
// urlAttrs), or "" for any other tag.
func urlAttr(tag []byte) string {
	if len(tag) < 2 || tag[0] != '<' {
		return ""
	}
	i := 1
	for i < len(tag) && i < 8 && ('a' <= tag[i]|0x20 && tag[i]|0x20 <= 'z') {
		i++
	}
	if i == 1 || i >= len(tag) || !(isHTMLSpace(tag[i]) || tag[i] == '>' || tag[i] == '/') {
		return ""
	}
	var name [8]byte
	for j := 1; j < i; j++ {
		name[j-1] = tag[j] | 0x20
	}
	return urlAttrs[string(name[:i-1])]
}

// rawTextTag returns "script" or "style" when tag is that start tag,
// whose content HTML reads as raw text up to its end tag, else "".
func rawTextTag(tag []byte) string {
	for _, name := range []string{"script", "style"} {
		n := len(name) + 1
		if len(tag) > n && bytes.EqualFold(tag[1:n], []byte(name)) && (isHTMLSpace(tag[n]) || tag[n] == '>' || tag[n] == '/') {
			return name
		}
	}
	return ""
}

// containsFold reports whether b holds sub, ASCII case-insensitively.
func containsFold(b, sub []byte) bool {
	for i := 0; i+len(sub) <= len(b); i++ {
		if bytes.EqualFold(b[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// zgotmplZ is the value Go's html/template (and so Hugo) writes for a URL
// or attribute it rejected as unsafe: a claim rendered by a theme's plain
// link hook (href="ev:…") becomes href="#ZgotmplZ".
const zgotmplZ = "ZgotmplZ"

// splitTags is a bufio.SplitFunc yielding the output up to and
// including each '>' (so a token ends with one whole tag), or 256 KiB
// without one.
func splitTags(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '>'); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	if len(data) >= 256<<10 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// fileScan is what scanFile found in one output file.
type fileScan struct {
	// claims are the claim markers in document order.
	claims []claimMark
	// win is the evidence window the file shows, if any, and lines the
	// line spans after its marker.
	win   *windowKey
	lines int
	// zg: the file holds #ZgotmplZ.
	zg bool
	// hrefs are the distinct hrefs of its <a> tags that name no scheme
	// and no host (links inside the site), without their fragment, in
	// document order; emptyHref: an <a> has an empty href.
	hrefs     []string
	emptyHref bool
	// styles are the hrefs of its stylesheet links inside the site
	// (<link rel=stylesheet>), without query and fragment; evStyle: a
	// <style> element of the file holds evdoc's popover rule
	// (evdocCSSMark).
	styles  []string
	evStyle bool
}

// evdocCSSMark is the selector of the rule that keeps a claim's popover
// out of the prose until it is opened: a stylesheet holding it is
// evdoc's (css/site.css of the component, or a theme's bundle that
// includes it, fingerprinted or minified).
const evdocCSSMark = ".ev-pop"

// claimMark is one claim marker: its page and LINE:COL|DEST.
type claimMark struct {
	page pageKey
	key  string
}

// scanOutput reads every HTML and XML file under dir once, streaming
// (a token at a time, so memory stays bounded however many pages the site
// has), on GOMAXPROCS workers, and collects evdoc's claim and evidence
// markers and the files with #ZgotmplZ. The result does not depend on the
// order the workers finish in: problems are in the walk's (lexical)
// order.
func scanOutput(ctx context.Context, dir, basePath string) (*outputScan, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if d.Type().IsRegular() && (ext == ".html" || ext == ".htm" || ext == ".xml") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	scans := make([]fileScan, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, p := range files {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			res, err := scanFile(p)
			if err != nil {
				rel, _ := filepath.Rel(dir, p)
				return fmt.Errorf("reading %s: %v", filepath.ToSlash(rel), err)
			}
			scans[i] = res
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	sc := &outputScan{claims: map[pageKey]map[string]bool{}, windows: map[windowKey]int{}}
	exists, evdocCSS := map[string]bool{}, map[string]bool{}
	for i, f := range scans {
		if len(f.claims) > 0 {
			rel, _ := filepath.Rel(dir, files[i])
			if rel = filepath.ToSlash(rel); !evdocStyled(dir, basePath, rel, f, evdocCSS) {
				sc.unstyled = append(sc.unstyled, rel)
			}
		}
		if f.emptyHref {
			rel, _ := filepath.Rel(dir, files[i])
			sc.broken = append(sc.broken, fmt.Sprintf("%s: a link with an empty href (a link to nothing)", filepath.ToSlash(rel)))
		}
		if len(f.hrefs) > 0 {
			rel, _ := filepath.Rel(dir, files[i])
			rel = filepath.ToSlash(rel)
			for _, h := range missingTargets(dir, basePath, rel, f.hrefs, exists) {
				sc.broken = append(sc.broken, fmt.Sprintf("%s: link to %s: the built site has no such file (a 404)", rel, h))
			}
		}
		for _, c := range f.claims {
			if sc.claims[c.page] == nil {
				sc.claims[c.page] = map[string]bool{}
			}
			sc.claims[c.page][c.key] = true
		}
		if f.zg {
			rel, _ := filepath.Rel(dir, files[i])
			sc.problems = append(sc.problems, fmt.Sprintf("%s: contains #ZgotmplZ, a link or attribute Hugo's template escaper rejected (a claim link rendered by a render hook other than evdoc's?)", filepath.ToSlash(rel)))
		}
		if f.win != nil {
			if seen, ok := sc.windows[*f.win]; !ok || f.lines > seen {
				sc.windows[*f.win] = f.lines
			}
		}
	}
	return sc, nil
}

// scanFile reads one output file a tag at a time (splitTags) for
// scanOutput.
func scanFile(p string) (fileScan, error) {
	var res fileScan
	f, err := os.Open(p)
	if err != nil {
		return res, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 512<<10)
	s.Split(splitTags)
	var tail []byte // the last bytes of the previous token
	// joint holds tail and the head of the next token, where a
	// #ZgotmplZ split between two tokens shows (on the stack: one
	// allocation per token here was a fifth of the scan's CPU).
	var joint [2 * len(zgotmplZ)]byte
	var seen map[string]bool // hrefs of this file already looked at
	var inComment bool       // inside <!-- … -->
	var rawEnd []byte        // inside a script or style: its end tag
	var inStyle bool         // inside a style element
	for s.Scan() {
		tok := s.Bytes()
		if !res.zg {
			head := tok
			if len(head) > len(zgotmplZ) {
				head = head[:len(zgotmplZ)]
			}
			res.zg = bytes.Contains(tok, []byte(zgotmplZ)) || bytes.Contains(append(append(joint[:0], tail...), head...), []byte(zgotmplZ))
		}
		n := len(tok)
		if n > len(zgotmplZ) {
			n = len(zgotmplZ)
		}
		tail = append(tail[:0], tok[len(tok)-n:]...)
		// A script's or style's text and a comment hold no tags a
		// browser follows ("<a href='" + u + "'>" in a script).
		switch {
		case inComment:
			inComment = !bytes.HasSuffix(tok, []byte("-->"))
			continue
		case rawEnd != nil:
			if inStyle && !res.evStyle && bytes.Contains(tok, []byte(evdocCSSMark)) {
				res.evStyle = true
			}
			if containsFold(tok, rawEnd) {
				rawEnd, inStyle = nil, false
			}
			continue
		}
		if c := bytes.Index(tok, []byte("<!--")); c >= 0 {
			inComment = !(bytes.HasSuffix(tok[c:], []byte("-->")) && (len(tok)-c >= len("<!---->") || bytes.Equal(tok[c:], []byte("<!-->"))))
			continue
		}
		i := bytes.LastIndexByte(tok, '<')
		if i < 0 {
			continue
		}
		tag := tok[i:]
		if name := rawTextTag(tag); name != "" {
			rawEnd, inStyle = []byte("</"+name), name == "style"
		}
		a, u := isATag(tag), urlAttr(tag) != ""
		if !u && (len(tag) < 6 || !bytes.Contains(tag, []byte("data-ev")) && !(res.win != nil && bytes.HasPrefix(tag, []byte("<span")))) {
			continue
		}
		t := readEvTag(tag)
		if t.hasHref {
			h := t.href
			if bytes.IndexByte(h, '&') >= 0 {
				h = []byte(html.UnescapeString(string(h)))
			}
			if a && len(bytes.TrimSpace(h)) == 0 {
				res.emptyHref = true
			}
			if i := bytes.IndexAny(h, "#?"); i >= 0 {
				h = h[:i]
			}
			h = bytes.TrimSpace(h)
			if !seen[string(h)] { // no allocation for a href seen before
				if seen == nil {
					seen = map[string]bool{}
				}
				hs := string(h)
				seen[hs] = true
				if hs, ok := internalHref(hs); ok && !t.icon {
					res.hrefs = append(res.hrefs, hs)
				}
			}
			if t.stylesheet {
				if hs, ok := internalHref(string(h)); ok {
					res.styles = append(res.styles, hs)
				}
			}
		}
		if t.hasAt {
			if k, pos, ok := splitClaimAt(t.at); ok {
				res.claims = append(res.claims, claimMark{k, pos + "|" + t.dest})
			}
		}
		if t.hasWindow {
			parts := strings.SplitN(t.window, ":", 3)
			if len(parts) == 3 {
				if part, err := strconv.Atoi(parts[1]); err == nil {
					res.win = &windowKey{parts[0], part, parts[2]}
				}
			}
		}
		if res.win != nil && t.lineSpan {
			res.lines++
		}
	}
	return res, s.Err()
}

// internalHref returns href without its fragment when it is a link
// inside the site: no scheme, no host, a path. A link with a scheme or
// host (https://…, //host/…, mailto:) is external; a full URL to the
// site's own host is not checked either, so a theme can link to what
// another server publishes under the same host by writing it in full.
func internalHref(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	if i := strings.IndexByte(href, '?'); i >= 0 {
		href = href[:i]
	}
	if href == "" || strings.HasPrefix(href, "//") {
		return "", false
	}
	if i := strings.IndexAny(href, ":/"); i >= 0 && href[i] == ':' {
		return "", false // a scheme
	}
	return href, true
}

// missingTargets returns, for the hrefs of output file rel (see
// fileScan.hrefs) served under basePath ("/" or "/sub/", baseURL's
// path), those that name no file of the built site in dir (see
// siteFile). A link outside basePath leaves the site and is not checked.
// exists caches what was looked up.
func missingTargets(dir, basePath, rel string, hrefs []string, exists map[string]bool) []string {
	var out []string
	for _, h := range hrefs {
		target, inside, err := siteTarget(basePath, rel, h)
		if err != nil {
			out = append(out, h)
			continue
		}
		if !inside {
			continue
		}
		ok, seen := exists[target]
		if !seen {
			_, ok = siteFile(dir, target)
			exists[target] = ok
		}
		if !ok {
			out = append(out, h)
		}
	}
	return out
}

// siteTarget resolves href, a link of output file rel served under
// basePath, as a browser resolves it from the file's URL: the path it
// names relative to basePath, and whether it lies under basePath at all.
func siteTarget(basePath, rel, href string) (string, bool, error) {
	u, err := url.Parse(href)
	if err != nil {
		return "", false, err
	}
	p := (&url.URL{Path: basePath + rel}).ResolveReference(u).Path
	if !strings.HasPrefix(p, basePath) {
		if p+"/" != basePath {
			return "", false, nil
		}
		p = basePath
	}
	return strings.TrimPrefix(p, basePath), true, nil
}

// siteFile returns the file of the built site in dir that target (a path
// relative to the site's root, see siteTarget) names, and whether it
// exists: a path ending in "/", or naming a directory, is that
// directory's index.html.
func siteFile(dir, target string) (string, bool) {
	f := filepath.Join(dir, filepath.FromSlash(target))
	if target == "" || strings.HasSuffix(target, "/") {
		f = filepath.Join(f, "index.html")
	} else if fi, err := os.Stat(f); err == nil && fi.IsDir() {
		f = filepath.Join(f, "index.html")
	}
	fi, err := os.Stat(f)
	return f, err == nil && fi.Mode().IsRegular()
}

// evdocStyled reports whether output file rel, which shows claims, gets
// evdoc's popover rules (evdocCSSMark): from a <style> element of its
// own (f.evStyle) or a stylesheet it links that the built site in dir
// has. evdocCSS caches, per stylesheet, whether it holds them.
func evdocStyled(dir, basePath, rel string, f fileScan, evdocCSS map[string]bool) bool {
	if f.evStyle {
		return true
	}
	for _, h := range f.styles {
		target, inside, err := siteTarget(basePath, rel, h)
		if err != nil || !inside {
			continue
		}
		has, seen := evdocCSS[target]
		if !seen {
			if file, ok := siteFile(dir, target); ok {
				b, err := os.ReadFile(file)
				has = err == nil && bytes.Contains(b, []byte(evdocCSSMark))
			}
			evdocCSS[target] = has
		}
		if has {
			return true
		}
	}
	return false
}

// splitClaimAt splits a data-ev-at value, LANG:PAGE:LINE:COL.
func splitClaimAt(at string) (pageKey, string, bool) {
	lang, rest, ok := strings.Cut(at, ":")
	if !ok {
		return pageKey{}, "", false
	}
	i := strings.LastIndexByte(rest, ':')
	if i < 0 {
		return pageKey{}, "", false
	}
	j := strings.LastIndexByte(rest[:i], ':')
	if j < 0 {
		return pageKey{}, "", false
	}
	return pageKey{lang, strings.TrimPrefix(path.Clean("/"+rest[:j]), "/")}, rest[j+1:], true
}

// renderedByHugo reports whether Hugo publishes page p as its own output
// page: not a draft and not set never to render (build.render).
func renderedByHugo(fm map[string]any) bool {
	if d, ok := fm["draft"].(bool); ok && d {
		return false
	}
	if h, ok := fm["headless"].(bool); ok && h {
		return false
	}
	for _, k := range []string{"build", "_build"} {
		if b, ok := fm[k].(map[string]any); ok {
			switch r := b["render"].(type) {
			case bool:
				if !r {
					return false
				}
			case string:
				if r != "always" {
					return false
				}
			}
		}
	}
	return true
}

// verifyOutput checks the site Hugo built into dir before it replaces
// the published one: every claim of every published page was rendered by
// evdoc's claim render hook (its data-ev-at and data-ev attributes),
// every evidence viewer window by evdoc's evidence template (its
// data-ev-window marker and one line span per raw line), no file
// holds Hugo's sanitised-URL marker #ZgotmplZ, every page showing claims
// links evdoc's stylesheet, and every URL inside the site (no scheme or
// host, under baseURL's path) that a reader's browser follows or fetches
// (urlAttrs; not the icons and manifest a theme links for the site to
// add, which a browser does without) names a file the built site has: a theme has no legitimate reason to link to a 404, and
// a link to what another server publishes on the same host can be
// written as a full URL. Without it a site whose
// own theme shadows evdoc's templates builds with every claim an empty
// link and every evidence page empty. The error lists the problems (at
// most maxVerifyErrors) with the page and what is missing; out names the
// published directory the message says was left as it was.
//
// The broken links are rule link-output-missing: an error unless
// evdoc.toml sets it lower; as a warning or note (and not under strict,
// where a warning fails the build) each is written to log as
// "evdoc: warning: OUT/FILE: … [link-output-missing]" and the build goes
// on; off drops them.
func (s *Site) verifyOutput(ctx context.Context, dir, out string, v *viewer, data *StageData, log io.Writer, strict bool) error {
	sc, err := scanOutput(ctx, dir, s.Config.BasePath())
	if err != nil {
		return fmt.Errorf("verifying the built site: %v", err)
	}
	broken := sc.broken
	switch sev := s.Rules.Severity(diag.LinkOutputMissing); {
	case sev == diag.Off:
		broken = nil
	case sev == diag.Error, strict && sev == diag.Warning:
	default:
		if log != nil {
			for _, b := range broken {
				fmt.Fprintf(log, "evdoc: %s: %s/%s [%s]\n", sev, filepath.ToSlash(out), b, diag.LinkOutputMissing)
			}
		}
		broken = nil
	}
	problems := append(append([]string{}, sc.problems...), broken...)
	byPath := map[string]*Page{}
	for _, p := range s.Pages {
		byPath[p.Path] = p
	}
	want := map[pageKey]int{}
	now, cascades := time.Now(), s.cascades()
	for _, u := range data.units {
		for _, pc := range u.want {
			p := byPath[pc.page]
			if p == nil {
				continue
			}
			// a page Hugo does not publish (a draft, a future or
			// expired page, one a section's cascade hides) shows no
			// claims
			if fm := cascaded(p, cascades); !renderedByHugo(fm) || !linkable(s.Config, fm, now) {
				continue
			}
			want[pageKey{p.Lang, p.Rel}] += pc.n
		}
	}
	keys := make([]pageKey, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].rel != keys[j].rel {
			return keys[i].rel < keys[j].rel
		}
		return keys[i].lang < keys[j].lang
	})
	var hookMissing bool
	for _, k := range keys {
		switch got := len(sc.claims[k]); {
		case got == 0:
			hookMissing = true
			problems = append(problems, fmt.Sprintf("%s (%s): none of its %d claims is in the built site as evdoc's claim render hook renders it", k.rel, k.lang, want[k]))
		case got < want[k]:
			hookMissing = true
			problems = append(problems, fmt.Sprintf("%s (%s): %d of its %d claims were not rendered by evdoc's claim render hook", k.rel, k.lang, want[k]-got, want[k]))
		}
	}
	for _, f := range sc.unstyled {
		problems = append(problems, fmt.Sprintf("%s/%s: shows claims without evdoc's stylesheet (no stylesheet it links has the %s rule), so every popover prints inline in the prose", filepath.ToSlash(out), f, evdocCSSMark))
	}
	var windowMissing bool
	for _, f := range v.order {
		vf := v.files[f]
		for w := range vf.Starts {
			if !vf.hasPage(w) {
				continue
			}
			first, last := vf.Starts[w], vf.Total
			if w+1 < len(vf.Starts) {
				last = vf.Starts[w+1] - 1
			}
			for _, l := range s.Config.Ordered() {
				got, ok := sc.windows[windowKey{l.Code, w + 1, vf.File}]
				switch {
				case !ok:
					windowMissing = true
					problems = append(problems, fmt.Sprintf("evidence page %s (%s), lines %d–%d: not rendered by evdoc's evidence template", vf.pagePath(w), l.Code, first, last))
				case got < last-first+1:
					windowMissing = true
					problems = append(problems, fmt.Sprintf("evidence page %s (%s): shows %d of its raw lines %d–%d", vf.pagePath(w), l.Code, got, first, last))
				}
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the built site is not what evdoc expects (%d problem(s)):", len(problems))
	for i, p := range problems {
		if i == maxVerifyErrors {
			fmt.Fprintf(&b, "\n  … and %d more", len(problems)-i)
			break
		}
		b.WriteString("\n  " + p)
	}
	if hookMissing || len(sc.problems) > 0 {
		b.WriteString("\n" + s.hookAdvice(len(sc.problems) > 0))
	}
	if len(sc.unstyled) > 0 {
		b.WriteString("\n" + s.headAdvice())
	}
	if len(broken) > 0 {
		b.WriteString("\nlinks inside the site must name a file it publishes: fix the link (a relative link resolves from the page's URL, /ja/… for a Japanese page), add the file under static/, or write a link to something another server publishes under the same host as a full URL [" + string(diag.LinkOutputMissing) + `; evdoc.toml [rules] link-output-missing = "warning" lists them and builds]`)
	}
	if windowMissing {
		b.WriteString("\nevidence pages were not rendered by evdoc's evidence template (layouts/evidence/page.html from the evdoc theme component); " + s.themeOrderAdvice("evidence/page.html", "layouts/evidence/ templates"))
	}
	b.WriteString("\n" + out + " left as it was")
	return &OutputError{Problems: problems, msg: b.String()}
}

// OutputError is Build's error when Hugo succeeded but the site it built
// is not what evdoc expects (verifyOutput): claims not rendered by evdoc's
// claim render hook, evidence pages not rendered by its evidence
// template, #ZgotmplZ links, or links inside the site to files it does
// not have. The published site was left as it was.
type OutputError struct {
	// Problems lists what is wrong, one line each (page or output file
	// first).
	Problems []string
	msg      string
}

// Error returns the problems (at most maxVerifyErrors) and what the site
// needs.
func (e *OutputError) Error() string { return e.msg }
