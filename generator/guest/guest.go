// Package guest compares a host site built without evdoc's component and
// with it, and reports every page evdoc changed beyond what it adds.
//
// The invariant: adopting evdoc (its component first in the theme list)
// changes nothing of a site but
//   - its injections: the output of evdoc's head partial
//     (themes/evdoc/layouts/_partials/evdoc/head.html: evdoc's two
//     stylesheet links and its script, under evdoc/) wherever a theme's
//     head hook calls it, and the output of its end-of-body hook
//     partial (evdoc/serve-banner.html, empty outside evdoc serve);
//   - its claim elements: in a page built with evdoc, each element its
//     claim render hook writes for an ev: link (<span class="ev">,
//     "ev-exempt", "ev-claim-plain" or "ev-claim-broken", with everything
//     inside), where the page built without evdoc has whatever the host
//     renders for that link;
//   - its own files: everything it publishes under evdoc/ and the pages
//     Own names (evidence pages).
//
// Every other byte of every file both builds publish is the same.
package guest

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// headInjection matches one output of evdoc/head.html (its relURL'd
// paths under any base path, and the popover files' meta element after
// the script when evdoc's data is there), with the newline the partial
// ends in; also minified (no newlines).
var headInjection = regexp.MustCompile(`<link rel="?stylesheet"? href="?[^" >]*/evdoc/css/chroma\.css"?>\n?<link rel="?stylesheet"? href="?[^" >]*/evdoc/css/site\.css"?>\n?<script src="?[^" >]*/evdoc/js/evdoc\.js"? defer></script>(?:<meta name="?evdoc-popovers"?[^>]*>)?\n?`)

// StripInjections returns page without evdoc's head injections.
func StripInjections(page []byte) []byte {
	return headInjection.ReplaceAll(page, nil)
}

// claimStart matches the opening tag of a claim element.
var claimStart = regexp.MustCompile(`<span class="ev(?:"|-exempt"|-claim-plain"|-claim-broken")`)

// ClaimElements returns the byte ranges [start, end) of the claim
// elements of page, outermost only, in order.
func ClaimElements(page []byte) [][2]int {
	var out [][2]int
	pos := 0
	for {
		loc := claimStart.FindIndex(page[pos:])
		if loc == nil {
			return out
		}
		start := pos + loc[0]
		end := matchSpan(page, start)
		if end < 0 {
			// unbalanced: the rest of the page is the element
			out = append(out, [2]int{start, len(page)})
			return out
		}
		out = append(out, [2]int{start, end})
		pos = end
	}
}

// matchSpan returns the end of the span element opening at start (after
// its matching </span>), or -1.
func matchSpan(page []byte, start int) int {
	depth := 0
	i := start
	for i < len(page) {
		j := bytes.IndexByte(page[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		switch {
		case bytes.HasPrefix(page[i:], []byte("<span")) && len(page) > i+5 && (page[i+5] == ' ' || page[i+5] == '>'):
			depth++
		case bytes.HasPrefix(page[i:], []byte("</span>")):
			depth--
			if depth == 0 {
				return i + len("</span>")
			}
		}
		i++
	}
	return -1
}

// Diff is one file that differs beyond evdoc's injections, claim
// elements and own files.
type Diff struct {
	// File is the file's path in the published site, slash-separated.
	File string
	// Offset is the byte offset of the first difference in the file
	// built without evdoc, -1 for a file only one build has.
	Offset int
	// Without and With are the bytes from the first difference on (a
	// few dozen), or the build that has the file.
	Without, With string
	// Why says what differs.
	Why string
}

func (d Diff) String() string {
	if d.Offset < 0 {
		return fmt.Sprintf("%s: %s", d.File, d.Why)
	}
	return fmt.Sprintf("%s: %s at byte %d: without evdoc %q, with evdoc %q", d.File, d.Why, d.Offset, d.Without, d.With)
}

// excerpt is how many bytes a Diff shows from the first difference.
const excerpt = 80

func cut(b []byte, at int) string {
	if at >= len(b) {
		return ""
	}
	e := min(len(b), at+excerpt)
	return string(b[at:e])
}

// ComparePage compares one HTML page built without evdoc (without) and
// with it (with): equal once evdoc's injections are left out of with and
// each of with's claim elements stands for any text in without. It
// returns nil when they are, else the first difference (offsets in
// without; With from the page with evdoc, injections left out).
//
// Whitespace between two tags is not compared when that is all that
// differs: a theme that calls its hook partial only when the partial
// exists (Blowfish's `if templates.Exists "partials/extend-footer.html"`)
// writes the whitespace around the call only with evdoc's component,
// which fills the hook. The first difference is then reported as the
// pages stand.
func ComparePage(without, with []byte) *Diff {
	d := comparePage(without, with)
	if d == nil {
		return nil
	}
	if comparePage(interTag.ReplaceAll(without, []byte("><")), interTag.ReplaceAll(StripInjections(with), []byte("><"))) == nil {
		return nil
	}
	return d
}

// interTag matches whitespace between two tags.
var interTag = regexp.MustCompile(`>[ \t\r\n]+<`)

func comparePage(without, with []byte) *Diff {
	w := StripInjections(with)
	claims := ClaimElements(w)
	// with = S0 C1 S1 … Cn Sn: without must be S0 X1 S1 … Xn Sn.
	var segs [][]byte
	prev := 0
	for _, c := range claims {
		segs = append(segs, w[prev:c[0]])
		prev = c[1]
	}
	segs = append(segs, w[prev:])
	at := 0  // in without
	wat := 0 // in w, start of the segment
	for i, s := range segs {
		var found int
		switch {
		case i == 0:
			if !bytes.HasPrefix(without[at:], s) {
				n := commonPrefix(without[at:], s)
				return &Diff{Offset: at + n, Without: cut(without, at+n), With: cut(w, wat+n), Why: "differs"}
			}
			found = at
		case i == len(segs)-1:
			// the last segment ends the page
			if len(without)-at < len(s) || !bytes.HasSuffix(without[at:], s) {
				n := commonSuffix(without[at:], s)
				off := len(without) - n - 1
				return &Diff{Offset: max(off, at), Without: cut(without, max(off, at)), With: cut(w, wat+len(s)-n-1), Why: "differs after a claim"}
			}
			found = len(without) - len(s)
		default:
			found = bytes.Index(without[at:], s)
			if found < 0 {
				return &Diff{Offset: at, Without: cut(without, at), With: cut(w, wat), Why: "differs after a claim (the text following it is not in the page without evdoc)"}
			}
			found += at
		}
		at = found + len(s)
		if i < len(claims) {
			wat = claims[i][1]
		}
	}
	if len(segs) == 1 && at != len(without) {
		return &Diff{Offset: at, Without: cut(without, at), With: "", Why: "the page without evdoc is longer"}
	}
	return nil
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// Options say which files are evdoc's own.
type Options struct {
	// Own reports a published file (slash-separated path) that only the
	// build with evdoc has and is evdoc's to have (an evidence page).
	// Files under evdoc/ are always evdoc's.
	Own func(file string) bool
}

// CompareDirs compares the sites published into without and with: every
// file of either, HTML pages by ComparePage, XML files (feeds, sitemaps)
// byte for byte or else as their unescaped text by ComparePage, every
// other file byte for byte. It returns the files that differ, in path order.
func CompareDirs(without, with string, opt Options) ([]Diff, error) {
	a, err := files(without)
	if err != nil {
		return nil, err
	}
	b, err := files(with)
	if err != nil {
		return nil, err
	}
	var out []Diff
	for _, f := range a {
		if _, ok := slices.BinarySearch(b, f); !ok {
			out = append(out, Diff{File: f, Offset: -1, Why: "published without evdoc, missing with evdoc"})
			continue
		}
		x, err := os.ReadFile(filepath.Join(without, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		y, err := os.ReadFile(filepath.Join(with, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		var d *Diff
		switch {
		case isHTML(f):
			d = ComparePage(x, y)
		case bytes.Equal(x, y):
		case strings.EqualFold(path.Ext(f), ".xml"):
			// A feed or sitemap holds pages' HTML escaped (an RSS
			// description): compared as text, claim elements unescaped.
			d = ComparePage([]byte(html.UnescapeString(string(x))), []byte(html.UnescapeString(string(y))))
			if d != nil {
				d.Why += " (its text unescaped)"
			}
		default:
			n := commonPrefix(x, y)
			d = &Diff{Offset: n, Without: cut(x, n), With: cut(y, n), Why: "differs"}
		}
		if d != nil {
			d.File = f
			out = append(out, *d)
		}
	}
	for _, f := range b {
		if _, ok := slices.BinarySearch(a, f); ok || strings.HasPrefix(f, "evdoc/") || opt.Own != nil && opt.Own(f) {
			continue
		}
		out = append(out, Diff{File: f, Offset: -1, Why: "published only with evdoc"})
	}
	return out, nil
}

func isHTML(f string) bool {
	e := strings.ToLower(filepath.Ext(f))
	return e == ".html" || e == ".htm"
}

// files returns the regular files under dir, slash-separated, sorted.
func files(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}
