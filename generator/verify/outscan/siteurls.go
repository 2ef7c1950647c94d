package outscan

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Root is one directory tree of a built site and the URL it is served
// at: Dir is its path in the output, "" for the whole site or "ko/" for
// a language of a multihost site (a baseURL per language, which Hugo
// writes to public/ko/ and serves at that language's baseURL); URL is
// the baseURL Hugo built it for ("https://example.org/lab/", "/sub/",
// "" for "/").
type Root struct {
	Dir, URL string
}

// Site is where a built site's files are served: the URL of each of its
// directory trees (Root). A link is resolved as a browser resolves it
// from the URL of the file it is in, and names a file of the site when
// the URL it resolves to is under one of the trees' URLs (the same
// scheme and host, a path under the baseURL's path): a page-relative
// link ("../../x", relativeURLs), a link from the root ("/lab/x"), and a
// full URL on a baseURL of the site (canonifyURLs; a page of another
// language on its own host under multihost). A URL on another host, or
// on the same host outside the baseURL's path, leaves the site and is not
// checked.
type Site struct {
	roots []siteRoot // longest Dir first
	// hosted: some root has a host, so full URLs may name the site's
	// files
	hosted bool
}

// siteRoot is a Root as parsed.
type siteRoot struct {
	dir                string
	scheme, host, path string // path: "/" or "/lab/"
}

// NewSite returns the Site of roots. Two roots may not have the same
// Dir. Of a URL that is not an http, https or scheme-relative
// (//host/) URL with a host, only the path counts: full URLs do not
// name the tree's files.
func NewSite(roots []Root) (*Site, error) {
	s := &Site{}
	seen := map[string]bool{}
	for _, r := range roots {
		if seen[r.Dir] {
			return nil, fmt.Errorf("output directory %q given twice", r.Dir)
		}
		seen[r.Dir] = true
		u, err := url.Parse(strings.TrimSpace(r.URL))
		if err != nil {
			return nil, fmt.Errorf("baseURL %q: %v", r.URL, err)
		}
		scheme := strings.ToLower(u.Scheme)
		sr := siteRoot{dir: r.Dir, scheme: scheme, host: hostOf(scheme, u.Host), path: "/"}
		if p := strings.Trim(u.Path, "/"); p != "" {
			sr.path = "/" + p + "/"
		}
		// a baseURL without a scheme (//example.org/) is served over
		// whichever of http and https the reader came by
		if (sr.scheme == "http" || sr.scheme == "https" || sr.scheme == "") && sr.host != "" {
			s.hosted = true
		} else {
			// only the path of another URL is the site's (Hugo's
			// RelPermalinks); its full URLs are not resolved
			sr.scheme, sr.host = "", ""
		}
		s.roots = append(s.roots, sr)
	}
	if len(s.roots) == 0 {
		s.roots = []siteRoot{{path: "/"}}
	}
	sort.SliceStable(s.roots, func(i, j int) bool { return len(s.roots[i].dir) > len(s.roots[j].dir) })
	return s, nil
}

// PathSite returns the Site served under basePath ("/" or "/sub/") on
// no host in particular: a full URL leaves it.
func PathSite(basePath string) *Site {
	s, err := NewSite([]Root{{URL: basePath}})
	if err != nil {
		return &Site{roots: []siteRoot{{path: "/"}}}
	}
	return s
}

// site returns s, or the Site served at "/" when s is nil.
func (s *Site) site() *Site {
	if s == nil {
		return rootSite
	}
	return s
}

var rootSite = PathSite("/")

// rootOf returns the tree output file rel (a slash path in the output)
// is in.
func (s *Site) rootOf(rel string) siteRoot {
	for _, r := range s.roots {
		if r.dir == "" || strings.HasPrefix(rel, r.dir) {
			return r
		}
	}
	return s.roots[len(s.roots)-1]
}

// mayName reports whether href, a link's URL without fragment and query
// (see linkHref), may name a file of the site: a link without a scheme,
// or a full or protocol-relative URL when some tree is served on a host.
func (s *Site) mayName(href string) bool {
	if strings.HasPrefix(href, "//") {
		return s.hosted
	}
	i := strings.IndexAny(href, ":/")
	if i < 0 || href[i] == '/' {
		return true
	}
	if !s.hosted {
		return false
	}
	scheme := strings.ToLower(href[:i])
	return scheme == "http" || scheme == "https"
}

// target resolves href, a link of output file rel, as a browser
// resolves it from the file's URL: the path in the output of the file it
// names (its directory's index.html when it ends in "/", see siteFile),
// and whether it lies in the site at all.
func (s *Site) target(rel, href string) (string, bool, error) {
	u, err := url.Parse(href)
	if err != nil {
		return "", false, err
	}
	from := s.rootOf(rel)
	base := &url.URL{Scheme: from.scheme, Host: from.host, Path: from.path + strings.TrimPrefix(rel, from.dir)}
	r := base.ResolveReference(u)
	var best *siteRoot
	for i := range s.roots {
		c := &s.roots[i]
		if !sameScheme(r.Scheme, c.scheme) || hostOf(r.Scheme, r.Host) != c.host {
			continue
		}
		if !strings.HasPrefix(r.Path, c.path) && r.Path+"/" != c.path {
			continue
		}
		if best == nil || len(c.path) > len(best.path) {
			best = c
		}
	}
	if best == nil {
		return "", false, nil
	}
	p := strings.TrimPrefix(r.Path, best.path)
	if r.Path+"/" == best.path {
		p = ""
	}
	return best.dir + p, true, nil
}

// hostOf returns host (a URL's host[:port]) as a browser compares it
// within scheme: in lower case, without the scheme's default port
// (example.org:443 is example.org over https, :80 over http; an empty
// port, "example.org:", is the default one too). A
// scheme-relative root (//example.org/) names no port of its own.
func hostOf(scheme, host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ":") // an empty port is the default one
	switch strings.ToLower(scheme) {
	case "https":
		return strings.TrimSuffix(host, ":443")
	case "http":
		return strings.TrimSuffix(host, ":80")
	}
	return host
}

// sameScheme reports whether a URL of scheme u lies on a root of scheme
// root: the same scheme, or any of http and https for a root whose
// baseURL has none (//example.org/), whose links resolve without one.
func sameScheme(u, root string) bool {
	if root == "" {
		return u == "" || strings.EqualFold(u, "http") || strings.EqualFold(u, "https")
	}
	return strings.EqualFold(u, root)
}

// sameFromEverywhere reports whether href names the same target from
// every file of tree dir: a full URL, or a path from the root.
func sameFromEverywhere(href string) bool {
	if strings.HasPrefix(href, "/") {
		return true
	}
	i := strings.IndexAny(href, ":/")
	return i >= 0 && href[i] == ':'
}
