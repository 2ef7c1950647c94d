package slots

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
)

// Feed is how Hugo rewrites the URLs of the files it writes with the
// rss output format: on the bytes it publishes, after every "src=",
// "href=", "url=" and "action=", an optional quote as XML escapes it
// ("&#34;" or "&#39;"), then a "/" not followed by another "/" (a
// root-relative URL) is replaced by the site's baseURL (with a trailing
// slash); when the URL goes on with the baseURL's path (without its
// leading slash), that path is dropped, as the baseURL holds it. A
// claim filled in after Hugo gets the same rewrite.
type Feed struct {
	// File is the base name of the rss output format's files
	// ("index.xml").
	File string
	// Base is the baseURL, ending with "/"; root is its path without
	// the leading slash.
	Base, root string
}

// NewFeed returns the Feed of files named file of a site whose baseURL
// is baseURL ("" and "/" leave root-relative URLs as they are, as
// Hugo's "/" does).
func NewFeed(file, baseURL string) (*Feed, error) {
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("baseURL %q: %v", baseURL, err)
	}
	if strings.ContainsAny(baseURL, "=") {
		return nil, fmt.Errorf("baseURL %q holds a \"=\", which the rewrite of feed URLs would read again", baseURL)
	}
	return &Feed{File: file, Base: baseURL, root: strings.TrimLeft(u.Path, "/")}, nil
}

// feedAttrs are the attribute names (with their "=") whose values the
// rewrite reads; feedSrcset is the one whose value is a list of URLs.
var feedAttrs = []string{"src=", "href=", "url=", "action="}

const feedSrcset = "srcset="

// feedQuotes are the quotes the rewrite skips before a URL.
var feedQuotes = []string{"&#34;", "&#39;"}

// maxAttr is the length of the longest attribute name the rewrite reads.
const maxAttr = len("action=")

// rewrite returns b, a feed file with the claims' markup filled in at
// spans (offsets of b, in order, not overlapping), with the feed's
// rewrite applied to every URL whose attribute name, quote, slash or
// the bytes the rewrite looks at after them lie in a span: those Hugo
// did not see as they are now (it saw a placeholder there). Every other
// URL is as Hugo wrote it. A "srcset=" in a span, or one outside whose
// list of URLs reaches into one, is an error: the rewrite of a list is
// not reproduced.
func (f *Feed) rewrite(b []byte, spans [][2]int) ([]byte, *feedError) {
	var out []byte
	last := 0  // b[:last] is in out
	next := 0  // the first offset not yet searched for "="
	lastE := 0 // the end of the previous span
	for _, sp := range spans {
		if sp[0] < len(feedQuotes[0])+2+len(f.root) {
			// Hugo reads a file's first bytes as if after an
			// attribute name, several times
			return nil, &feedError{sp[0], "a claim's markup at the start of a feed (Hugo's rss output format), whose URL rewrite there evdoc does not reproduce"}
		}
		if f.rewroteBefore(b, sp[0]) {
			return nil, &feedError{sp[0], "a claim's markup right after a root-relative URL's slash, whose rewrite in a feed (Hugo's rss output format) depends on the markup; evdoc does not reproduce it"}
		}
		from := max(sp[0]-maxAttr-len(feedQuotes[0])-1, next)
		to := min(sp[1]+maxAttr, len(b))
		// a srcset= before the span whose list may reach into it
		for i := max(sp[0]-2000-maxAttr-len(feedQuotes[0]), lastE); i < sp[0]; {
			k := bytes.Index(b[i:sp[0]], []byte(feedSrcset))
			if k < 0 {
				break
			}
			if end := srcsetEnd(b, i+k+len(feedSrcset)); end > sp[0] {
				return nil, &feedError{i + k, "a srcset= list of URLs before a claim reaches into its markup, where the URL rewrite Hugo gives a feed (the rss output format) cannot be reproduced"}
			}
			i += k + 1
		}
		for i := from; i < to; {
			k := bytes.IndexByte(b[i:to], '=')
			if k < 0 {
				break
			}
			eq := i + k
			i = eq + 1
			name := ""
			for _, a := range append(feedAttrs, feedSrcset) {
				if eq+1 >= len(a) && string(b[eq+1-len(a):eq+1]) == a {
					name = a
				}
			}
			if name == "" {
				continue
			}
			start := eq + 1 - len(name)
			p := eq + 1
			for _, q := range feedQuotes {
				if bytes.HasPrefix(b[p:], []byte(q)) {
					p += len(q)
					break
				}
			}
			// the bytes the rewrite reads: the name, the quote, the
			// slash, the byte after it and the baseURL's path
			readEnd := min(p+2+len(f.root), len(b))
			if start >= sp[1] || readEnd <= sp[0] {
				continue // Hugo read these bytes as they are
			}
			if name == feedSrcset {
				return nil, &feedError{start, "the claim's markup holds a srcset= list of URLs, whose rewrite in a feed (Hugo's rss output format) evdoc does not reproduce"}
			}
			if p+1 >= len(b) || b[p] != '/' || b[p+1] == '/' {
				continue
			}
			out = append(out, b[last:p]...)
			out = append(out, f.Base...)
			last = p + 1
			if f.root != "" && bytes.HasPrefix(b[last:], []byte(f.root)) {
				last += len(f.root)
			}
			i = max(i, last)
		}
		next = max(next, to)
		lastE = sp[1]
	}
	if out == nil {
		return b, nil
	}
	return append(out, b[last:]...), nil
}

// srcsetEnd returns the end of the list of URLs the rewrite takes after
// a "srcset=" ending at p (a quoted value starting with a root-relative
// URL, up to its closing quote, at most 2000 bytes on), or p when it
// takes none.
func srcsetEnd(b []byte, p int) int {
	for _, q := range feedQuotes {
		if !bytes.HasPrefix(b[p:], []byte(q)) {
			continue
		}
		v := p + len(q)
		if v+1 >= len(b) || b[v] != '/' || b[v+1] == '/' {
			return p
		}
		e := bytes.Index(b[v:], []byte(q))
		if e < 0 || e > 2000 {
			return p
		}
		return v + e + 1
	}
	return p
}

// feedError is an error of Feed.rewrite at offset at.
type feedError struct {
	at  int
	msg string
}

// rewroteBefore reports whether the bytes before the span at start end
// with an attribute name, an optional quote and the baseURL (Hugo
// rewrote a slash there: it saw the placeholder after it) and the span
// starts with what would have changed that rewrite (a second slash, the
// baseURL's path).
func (f *Feed) rewroteBefore(b []byte, start int) bool {
	rest := b[start:]
	if len(rest) == 0 || rest[0] != '/' && (f.root == "" || !bytes.HasPrefix(rest, []byte(f.root))) {
		return false
	}
	for _, a := range feedAttrs {
		for _, q := range append([]string{""}, feedQuotes...) {
			if bytes.HasSuffix(b[:start], []byte(a+q+f.Base)) {
				return true
			}
		}
	}
	return false
}
