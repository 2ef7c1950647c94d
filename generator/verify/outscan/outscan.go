// Package outscan reads the site Hugo built, for evdoc build's check of
// its output: the claim markers evdoc's claim render hook writes
// (data-ev-at, data-ev), the evidence windows of its evidence template
// (data-ev-window and one line span per raw line), the links inside the
// site and whether the site has the files they name, the stylesheets a
// page showing claims links, and Hugo's sanitised-URL marker #ZgotmplZ.
// It reads every HTML and XML file once, a tag at a time, as the HTML
// tokenizer reads tags; what the findings mean for a site is
// generator/verify's (VerifyOutput).
package outscan

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/internal/crash"
	"golang.org/x/sync/errgroup"
)

// PageKey names a content page as evdoc's claim render hook writes it in
// data-ev-at: the language and the path within its content directory.
type PageKey struct{ Lang, Rel string }

// WindowKey names one evidence viewer window as evdoc's evidence template
// writes it in data-ev-window.
type WindowKey struct {
	Lang string
	Part int
	File string
}

// Scan is what one pass over the built HTML found.
type Scan struct {
	// Claims holds, per page, the distinct claims (LINE:COL|DEST)
	// evdoc's render hook rendered.
	Claims map[PageKey]map[string]bool
	// Windows holds, per evidence window, the most line spans one file
	// showing it had.
	Windows map[WindowKey]int
	// Lists holds the evidence index and set listings evdoc's evidence
	// template rendered, as it writes them in data-ev-list ("ko:index",
	// "ko:set:ID"): an index or set page whose layout does not show its
	// .Content has none.
	Lists map[string]bool
	// Problems are files with a sanitised URL (#ZgotmplZ).
	Problems []string
	// Broken are the links inside the site (Site) to files it does not
	// have, "FILE:LINE:COL: link to HREF …" (the link's tag; in a
	// popover file, the body holding it), in the walk's order.
	Broken []string
	// Unstyled are the files that show claims without evdoc's
	// stylesheet (see evdocStyled), in the walk's order.
	Unstyled []string
	// Unresolved are the files with claims whose popover body the
	// reader does not get: the popover names an evidence set (data-ev-s)
	// for which the file's <meta name="evdoc-popovers"> gives no popover
	// file, the file it gives is not in the built site or is not a
	// popover file, or the file lacks the claim's data key (its data-ev,
	// with data-ev-k after it). "FILE: …", one line a file, in the walk's
	// order.
	Unresolved []string
	// MDLinks holds, per file (its path in the site), the distinct URLs
	// of its links, inside the site or not, whose path names a Markdown
	// file (ends in ".md": a theme's "edit this page" link built from a
	// page's file), without query and fragment, in document order.
	MDLinks map[string][]string
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
	// list is the value of a data-ev-list attribute (see Scan.Lists).
	list string
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
	// set is the value of a data-ev-s attribute (the evidence set whose
	// popover file holds a claim popover's body), hasSet whether the tag
	// has one; keyTail the value of its data-ev-k (what follows the
	// claim's data-ev in its data key).
	setRaw  []byte
	hasSet  bool
	keyTail string
	// popMeta: a <meta name="evdoc-popovers">, whose content (content)
	// maps each evidence set to its popover file's URL.
	popMeta bool
	content string
	id      []byte
}

// readEvTag reads evdoc's markers off one start tag (the first value of
// a repeated attribute counts, as in HTML).
func readEvTag(tag []byte) evTag {
	var t evTag
	span := len(tag) > 5 && bytes.EqualFold(tag[1:5], []byte("span")) && (isHTMLSpace(tag[5]) || tag[5] == '>' || tag[5] == '/')
	ua := urlAttr(tag)
	var classLine, idLine, seenClass, seenID, seenDest, seenRel, seenName, seenContent bool
	meta := len(tag) > 5 && bytes.EqualFold(tag[1:5], []byte("meta")) && (isHTMLSpace(tag[5]) || tag[5] == '>' || tag[5] == '/')
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
		case !t.hasSet && bytes.EqualFold(name, []byte("data-ev-s")):
			t.setRaw, t.hasSet = val, true
		case t.keyTail == "" && bytes.EqualFold(name, []byte("data-ev-k")):
			t.keyTail = attrString(val)
		case meta && !seenName && bytes.EqualFold(name, []byte("name")):
			seenName = true
			t.popMeta = attrString(val) == PopoverMeta
		case meta && !seenContent && bytes.EqualFold(name, []byte("content")):
			seenContent = true
			t.content = attrString(val)
		case t.list == "" && bytes.EqualFold(name, []byte("data-ev-list")):
			t.list = attrString(val)
		case !t.hasWindow && bytes.EqualFold(name, []byte("data-ev-window")):
			t.window, t.hasWindow = attrString(val), true
		case span && !seenClass && bytes.EqualFold(name, []byte("class")):
			seenClass = true
			classLine = firstClass(val) == "line"
		case span && !seenID && bytes.EqualFold(name, []byte("id")):
			seenID = true
			t.id = val
			idLine = len(val) > 1 && val[0] == 'L'
			for i := 1; idLine && i < len(val); i++ {
				idLine = '0' <= val[i] && val[i] <= '9'
			}
		}
		return true
	})
	t.lineSpan = span && classLine && idLine
	if t.popMeta = t.popMeta && seenContent; !t.popMeta {
		t.content = ""
	}
	return t
}

// forEachTag calls fn with each start tag of the HTML fragment frag, as
// splitTags yields them.
func forEachTag(frag []byte, fn func(tag []byte)) {
	for len(frag) > 0 {
		n, tok, _ := splitTags(frag, true)
		if n <= 0 {
			return
		}
		frag = frag[n:]
		if i := bytes.LastIndexByte(tok, '<'); i >= 0 && len(tok) > i+1 && tok[i+1] != '/' && tok[i+1] != '!' {
			fn(tok[i:])
		}
	}
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
	win   *WindowKey
	lines int
	// lists are its data-ev-list markers.
	lists []string
	// zg: the file holds #ZgotmplZ.
	zg bool
	// hrefs are the distinct URLs of its links (urlAttrs) that may name
	// a file of the site (linkHref: no scheme, or http, https or no
	// scheme with a host), without fragment and query, in document
	// order, each where its first tag is; emptyHref: an <a> has
	// an empty href, the first's tag at byte emptyAt.
	hrefs     []siteLink
	emptyHref bool
	emptyAt   int
	// md are the distinct hrefs of any kind whose path ends in ".md".
	md []string
	// styles are the hrefs of its stylesheet links that may be inside
	// the site (<link rel=stylesheet>, linkHref); evStyle: a
	// <style> element of the file holds evdoc's popover rule
	// (CSSMark).
	styles  []string
	evStyle bool
	// popFiles is the content of the file's <meta
	// name="evdoc-popovers"> (JSON: set to popover file URL), the
	// first; pops whether a claim of the file has a popover naming its
	// set (claimMark.hasPop).
	popFiles string
	pops     bool
}

// PopoverMeta is the name of the <meta> element evdoc's head partial
// writes: the popover file of each evidence set in the page's language.
const PopoverMeta = "evdoc-popovers"

// CSSMark is the selector of the rule that keeps a claim's popover
// out of the prose until it is opened: a stylesheet holding it is
// evdoc's (css/site.css of the component, or a theme's bundle that
// includes it, fingerprinted or minified).
const CSSMark = ".ev-pop"

// claimMark is one claim marker: its page and LINE:COL|DEST, and the
// popover after it (hasPop): its evidence set (data-ev-s) and what its
// data key adds to DEST (data-ev-k).
type claimMark struct {
	page      PageKey
	key       string
	set, tail string
	hasPop    bool
}

// dataKey returns the claim's data key: its destination and tail.
func (c claimMark) dataKey() string {
	_, d, _ := strings.Cut(c.key, "|")
	if c.tail == "" {
		return d
	}
	return d + c.tail
}

// at returns the claim's data-ev-at as written (LANG:PAGE:LINE:COL).
func (c claimMark) at() string {
	pos, _, _ := strings.Cut(c.key, "|")
	return c.page.Lang + ":" + c.page.Rel + ":" + pos
}

// Dir reads every HTML and XML file under dir once, streaming
// (a token at a time, so memory stays bounded however many pages the site
// has), on GOMAXPROCS workers, and collects evdoc's claim and evidence
// markers and the files with #ZgotmplZ. The result does not depend on the
// order the workers finish in: problems are in the walk's (lexical)
// order.
//
// site says where the site is served (nil: at "/"), for the links it
// resolves (Site).
func Dir(ctx context.Context, dir string, site *Site) (*Scan, error) {
	return DirAfter(ctx, dir, site, nil)
}

// DirAfter is Dir on a site early read while it was being written
// (StartEarly; nil reads every file): it stops early, and of the files
// it read takes those whose bytes are still the ones it read. The
// result is Dir's.
func DirAfter(ctx context.Context, dir string, site *Site, early *Early) (*Scan, error) {
	return DirFill(ctx, dir, site, early, nil)
}

// Filler rewrites an output file's bytes before they are scanned:
// evdoc build's claim slots (slots.Filler), whose placeholders become
// the claims' markup.
type Filler interface {
	// Fill returns b, the bytes of the output file rel (a slash path
	// relative to the site), as the reader gets them, and whether they
	// changed.
	Fill(rel string, b []byte) ([]byte, bool, error)
	// Reads reports whether Fill reads the files with extension ext
	// (lower case, with its dot) besides those scanned.
	Reads(ext string) bool
}

// DirFill is DirAfter on a site whose files fill (nil: none) rewrites
// first: each file it reads is read once, filled, written back when it
// changed, and scanned as filled (a file the fill left as it was is
// taken from early when its bytes are those early read). The files fill
// reads that are not scanned are filled too.
func DirFill(ctx context.Context, dir string, site *Site, early *Early, fill Filler) (*Scan, error) {
	early.Stop()
	site = site.site()
	var files, fillOnly []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		switch {
		case !d.Type().IsRegular():
		case ext == ".html" || ext == ".htm" || ext == ".xml":
			files = append(files, p)
		case fill != nil && fill.Reads(ext):
			fillOnly = append(fillOnly, p)
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
			defer crash.Guard()
			if err := gctx.Err(); err != nil {
				return err
			}
			var res fileScan
			var err error
			if fill == nil {
				res, err = early.scanFile(p)
			} else {
				res, err = early.fillScan(dir, p, fill)
			}
			if fe, ok := err.(fillError); ok {
				return fe.error
			}
			if err != nil {
				rel, _ := filepath.Rel(dir, p)
				return fmt.Errorf("reading %s: %v", filepath.ToSlash(rel), err)
			}
			scans[i] = res
			return nil
		})
	}
	for _, p := range fillOnly {
		g.Go(func() error {
			defer crash.Guard()
			if err := gctx.Err(); err != nil {
				return err
			}
			_, err := fillFile(dir, p, fill)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	sc := &Scan{Claims: map[PageKey]map[string]bool{}, Windows: map[WindowKey]int{}, MDLinks: map[string][]string{}, Lists: map[string]bool{}}
	exists, evdocCSS := map[string]bool{}, map[string]bool{}
	pf := &popFiles{dir: dir, site: site, files: map[string]*popFile{}}
	for i, f := range scans {
		if len(f.claims) > 0 {
			rel, _ := filepath.Rel(dir, files[i])
			if rel = filepath.ToSlash(rel); !evdocStyled(dir, site, rel, f, evdocCSS) {
				sc.Unstyled = append(sc.Unstyled, rel)
			}
		}
		if len(f.md) > 0 {
			rel, _ := filepath.Rel(dir, files[i])
			sc.MDLinks[filepath.ToSlash(rel)] = f.md
		}
		var missing []siteLink
		if len(f.hrefs) > 0 {
			rel, _ := filepath.Rel(dir, files[i])
			missing = missingTargets(dir, site, filepath.ToSlash(rel), f.hrefs, exists)
		}
		if f.emptyHref || len(missing) > 0 {
			// the places of the broken links: the file read again
			// (the bytes scanned: Hugo has finished, the fill wrote
			// them back)
			rel, _ := filepath.Rel(dir, files[i])
			rel = filepath.ToSlash(rel)
			offs := make([]int, 0, len(missing)+1)
			for _, l := range missing {
				offs = append(offs, l.at)
			}
			if f.emptyHref {
				offs = append(offs, f.emptyAt)
			}
			b, _ := os.ReadFile(files[i])
			at := placesOf(b, offs)
			if f.emptyHref {
				sc.Broken = append(sc.Broken, fmt.Sprintf("%s:%s: a link with an empty href (a link to nothing)", rel, at[len(at)-1]))
			}
			for j, l := range missing {
				sc.Broken = append(sc.Broken, fmt.Sprintf("%s:%s: link to %s: the built site has no such file (a 404)", rel, at[j], l.href))
			}
		}
		for _, c := range f.claims {
			if sc.Claims[c.page] == nil {
				sc.Claims[c.page] = map[string]bool{}
			}
			sc.Claims[c.page][c.key] = true
		}
		if f.pops {
			rel, _ := filepath.Rel(dir, files[i])
			rel = filepath.ToSlash(rel)
			if n, first := pf.unresolved(rel, f); n > 0 {
				sc.Unresolved = append(sc.Unresolved, fmt.Sprintf("%s: the popover of the claim at %s has no body: %s (%d such data key(s) in the file)", rel, first.at, first.why, n))
			}
		}
		if f.zg {
			rel, _ := filepath.Rel(dir, files[i])
			sc.Problems = append(sc.Problems, fmt.Sprintf("%s: contains #ZgotmplZ, a link or attribute Hugo's template escaper rejected (a URL whose scheme is not http, https or mailto, written by a template or a render hook other than evdoc's: evdoc check reports such links in pages as link-scheme)", filepath.ToSlash(rel)))
		}
		if f.pops || f.popFiles != "" {
			// the links inside the popover bodies the page loads
			rel, _ := filepath.Rel(dir, files[i])
			sc.Broken = append(sc.Broken, pf.broken(filepath.ToSlash(rel), f, exists)...)
		}
		for _, l := range f.lists {
			sc.Lists[l] = true
		}
		if f.win != nil {
			if seen, ok := sc.Windows[*f.win]; !ok || f.lines > seen {
				sc.Windows[*f.win] = f.lines
			}
		}
	}
	return sc, nil
}

// scanFile reads one output file a tag at a time (splitTags) for
// Dir.
func scanFile(p string) (fileScan, error) {
	f, err := os.Open(p)
	if err != nil {
		return fileScan{}, err
	}
	defer f.Close()
	return scanReader(f)
}

// scanReader reads one output file's bytes a tag at a time for scanFile.
func scanReader(r io.Reader) (fileScan, error) {
	var res fileScan
	s := bufio.NewScanner(r)
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
	var lastSet string       // the data-ev-s of the last popover
	lastClaim := -1          // res.claims' index of the claim before a popover
	// addHref records the URL attribute of a start tag (a: an <a> tag),
	// which begins at byte at of the file.
	addHref := func(t evTag, a bool, at int) {
		if t.hasHref {
			h := t.href
			if bytes.IndexByte(h, '&') >= 0 {
				h = []byte(html.UnescapeString(string(h)))
			}
			if a && len(bytes.TrimSpace(h)) == 0 && !res.emptyHref {
				res.emptyHref, res.emptyAt = true, at
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
				if bytes.HasSuffix(h, []byte(".md")) {
					res.md = append(res.md, hs)
				}
				if hs, ok := linkHref(hs); ok && !t.icon {
					res.hrefs = append(res.hrefs, siteLink{href: hs, at: at})
				}
			}
			if t.stylesheet {
				if hs, ok := linkHref(string(h)); ok {
					res.styles = append(res.styles, hs)
				}
			}
		}
	}
	off := 0 // the offset of the next token in the file
	for s.Scan() {
		tok := s.Bytes()
		at := off
		off += len(tok)
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
			if inStyle && !res.evStyle && bytes.Contains(tok, []byte(CSSMark)) {
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
		if !u && (len(tag) < 6 || !bytes.Contains(tag, []byte("data-ev")) && !bytes.Contains(tag, []byte(PopoverMeta)) && !(res.win != nil && bytes.HasPrefix(tag, []byte("<span")))) {
			continue
		}
		t := readEvTag(tag)
		addHref(t, a, at+i)
		if t.popMeta && res.popFiles == "" {
			res.popFiles = t.content
		}
		if t.hasSet && lastClaim >= 0 {
			// the popover of the claim before it: its set (one string
			// for the file's run of one set) and data key's tail
			if string(t.setRaw) != lastSet {
				lastSet = attrString(t.setRaw)
			}
			c := &res.claims[lastClaim]
			c.set, c.tail, c.hasPop = lastSet, t.keyTail, true
			res.pops = true
			lastClaim = -1
		}
		if t.hasAt {
			lastClaim = -1
			if k, pos, ok := splitClaimAt(t.at); ok {
				res.claims = append(res.claims, claimMark{page: k, key: pos + "|" + t.dest})
				lastClaim = len(res.claims) - 1
			}
		}
		if t.list != "" {
			res.lists = append(res.lists, t.list)
		}
		if t.hasWindow {
			parts := strings.SplitN(t.window, ":", 3)
			if len(parts) == 3 {
				if part, err := strconv.Atoi(parts[1]); err == nil {
					res.win = &WindowKey{Lang: parts[0], Part: part, File: parts[2]}
				}
			}
		}
		if res.win != nil && t.lineSpan {
			res.lines++
		}
	}
	return res, s.Err()
}

// siteLink is a link's URL (see linkHref) and the byte offset of its
// tag in the file; in a popover file, the data key of the body that
// holds it instead.
type siteLink struct {
	href string
	at   int
	key  string
}

// textPos is a place in a file: its 1-based line and byte column (as
// go/token and evdoc's diagnostics count them).
type textPos struct{ line, col int }

// String returns "LINE:COL".
func (p textPos) String() string { return strconv.Itoa(p.line) + ":" + strconv.Itoa(p.col) }

// placesOf returns the place in b of each offset of offs (past b's end:
// its end).
func placesOf(b []byte, offs []int) []textPos {
	out := make([]textPos, len(offs))
	for i, o := range offs {
		o = min(max(o, 0), len(b))
		out[i] = textPos{1, 1}.advance(b[:o])
	}
	return out
}

// advance returns the place after b, which begins at p.
func (p textPos) advance(b []byte) textPos {
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		return textPos{p.line + n, len(b) - bytes.LastIndexByte(b, '\n')}
	}
	return textPos{p.line, p.col + len(b)}
}

// linkHref returns href without its fragment and query when it may
// name a file of the site (see Site.mayName): a link with no scheme (a
// path, from the root or from the page), or a full or protocol-relative
// URL of scheme http or https. Another scheme (mailto:, data:,
// javascript:) and a link to the page itself ("", "#x", "?q") name no
// file.
func linkHref(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	if i := strings.IndexByte(href, '?'); i >= 0 {
		href = href[:i]
	}
	if href == "" || strings.HasPrefix(href, "//") {
		return href, href != ""
	}
	if i := strings.IndexAny(href, ":/"); i >= 0 && href[i] == ':' {
		scheme := strings.ToLower(href[:i])
		return href, scheme == "http" || scheme == "https"
	}
	return href, true
}

// missingTargets returns, for the hrefs of output file rel (see
// fileScan.hrefs) of the site served as site says, those that name no
// file of the built site in dir (see siteFile). A link that leaves the
// site (Site.target) is not checked. exists caches what was looked up.
func missingTargets(dir string, site *Site, rel string, hrefs []siteLink, exists map[string]bool) []siteLink {
	var out []siteLink
	for _, l := range hrefs {
		h := l.href
		if !site.mayName(h) {
			continue
		}
		target, inside, err := site.target(rel, h)
		if err != nil {
			out = append(out, l)
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
			out = append(out, l)
		}
	}
	return out
}

// siteFile returns the file of the built site in dir that target (a path
// in the output, see Site.target) names, and whether it
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
// evdoc's popover rules (CSSMark): from a <style> element of its
// own (f.evStyle) or a stylesheet it links that the built site in dir
// has. evdocCSS caches, per stylesheet, whether it holds them.
func evdocStyled(dir string, site *Site, rel string, f fileScan, evdocCSS map[string]bool) bool {
	if f.evStyle {
		return true
	}
	for _, h := range f.styles {
		if !site.mayName(h) {
			continue
		}
		target, inside, err := site.target(rel, h)
		if err != nil || !inside {
			continue
		}
		has, seen := evdocCSS[target]
		if !seen {
			if file, ok := siteFile(dir, target); ok {
				b, err := os.ReadFile(file)
				has = err == nil && bytes.Contains(b, []byte(CSSMark))
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
func splitClaimAt(at string) (PageKey, string, bool) {
	lang, rest, ok := strings.Cut(at, ":")
	if !ok {
		return PageKey{}, "", false
	}
	i := strings.LastIndexByte(rest, ':')
	if i < 0 {
		return PageKey{}, "", false
	}
	j := strings.LastIndexByte(rest[:i], ':')
	if j < 0 {
		return PageKey{}, "", false
	}
	return PageKey{Lang: lang, Rel: strings.TrimPrefix(path.Clean("/"+rest[:j]), "/")}, rest[j+1:], true
}
