package outscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"unicode"
)

// A popover file is the script evdoc's component renders for one
// evidence set in one language (the set page's evdocpop output,
// layouts/section.evdocpop.js):
//
//	evdocPopovers("SET",{
//	"KEY":"BODY",
//	…
//	});
//
// one JSON string for the set and one JSON object from each claim data
// key to its popover body (HTML). evdoc.js loads the file a page's
// <meta name="evdoc-popovers"> names for each set its claims' popovers
// name (data-ev-s) and fills each popover with its key's body.

// popFile is one popover file as read: its set and its bodies, or why
// it could not be read.
type popFile struct {
	set    string
	bodies map[string]string
	err    error
	// hrefs are the distinct links of its bodies (fileScan.hrefs),
	// each with the key of the first body holding it; checked is
	// whether they were checked for files the site lacks.
	hrefs   []siteLink
	checked bool
}

// popFiles reads each popover file the pages of one built site (dir,
// served as site says) name, once.
type popFiles struct {
	dir   string
	site  *Site
	files map[string]*popFile // by target (Site.target)
	maps  map[string]map[string]string
	// resolved holds each URL's target ("": outside the site), by the
	// URL (from the root) or the page and URL
	resolved map[string]resolvedURL
	// checkedMaps holds the meta contents whose files' links were checked
	checkedMaps map[string]bool
}

type resolvedURL struct{ target string }

// parsePopFile reads a popover file's bytes.
func parsePopFile(b []byte) (*popFile, error) {
	const head = "evdocPopovers("
	b = bytes.TrimSpace(b)
	if !bytes.HasPrefix(b, []byte(head)) || !bytes.HasSuffix(b, []byte(");")) {
		return nil, errors.New("not a popover file (evdocPopovers(SET,{…});)")
	}
	dec := json.NewDecoder(bytes.NewReader(b[len(head) : len(b)-len(");")]))
	f := &popFile{}
	if err := dec.Decode(&f.set); err != nil {
		return nil, fmt.Errorf("its set: %v", err)
	}
	rest := b[len(head)+int(dec.InputOffset()) : len(b)-len(");")]
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 || rest[0] != ',' {
		return nil, errors.New("no \",\" after its set")
	}
	if err := json.Unmarshal(rest[1:], &f.bodies); err != nil {
		return nil, fmt.Errorf("its bodies: %v", err)
	}
	seen := map[string]bool{}
	for _, k := range sortedKeys(f.bodies) {
		forEachTag([]byte(f.bodies[k]), func(tag []byte) {
			if urlAttr(tag) == "" {
				return
			}
			t := readEvTag(tag)
			if !t.hasHref {
				return
			}
			h := attrString(t.href)
			if i := bytes.IndexAny([]byte(h), "#?"); i >= 0 {
				h = h[:i]
			}
			if hs, ok := linkHref(h); ok && !seen[hs] {
				seen[hs] = true
				f.hrefs = append(f.hrefs, siteLink{href: hs, key: k})
			}
		})
	}
	return f, nil
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// setFiles returns the set-to-URL map of a page's <meta
// name="evdoc-popovers"> content (cached: every page of a language
// has the same).
func (p *popFiles) setFiles(content string) map[string]string {
	if p.maps == nil {
		p.maps = map[string]map[string]string{}
	}
	m, ok := p.maps[content]
	if !ok {
		if json.Unmarshal([]byte(content), &m) != nil {
			m = nil
		}
		p.maps[content] = m
	}
	return m
}

// file returns the popover file that the page rel loads from URL u,
// its target, or an error saying why the reader gets none.
func (p *popFiles) file(rel, u string) (*popFile, string, error) {
	// a URL with a path from the root (as Hugo's RelPermalink writes
	// it) names the same file from every page of its tree, a full URL
	// from every page
	ck := p.site.rootOf(rel).dir + "\x00" + u
	if !sameFromEverywhere(u) {
		ck = rel + "\x01" + u
	}
	if r, ok := p.resolved[ck]; ok {
		if r.target == "" {
			return nil, "", fmt.Errorf("its popover file %s is not in the site", u)
		}
		f := p.files[r.target]
		return f, r.target, f.err
	}
	if p.resolved == nil {
		p.resolved = map[string]resolvedURL{}
	}
	target, inside, err := "", false, error(nil)
	if p.site.mayName(u) {
		target, inside, err = p.site.target(rel, u)
	}
	if err != nil || !inside {
		p.resolved[ck] = resolvedURL{}
		return nil, "", fmt.Errorf("its popover file %s is not in the site", u)
	}
	p.resolved[ck] = resolvedURL{target: target}
	f, ok := p.files[target]
	if !ok {
		f = &popFile{}
		name, exists := siteFile(p.dir, target)
		if !exists {
			f.err = fmt.Errorf("its popover file %s is not in the built site", u)
		} else if b, err := os.ReadFile(name); err != nil {
			f.err = fmt.Errorf("its popover file %s: %v", u, err)
		} else if g, err := parsePopFile(b); err != nil {
			f.err = fmt.Errorf("its popover file %s: %v", u, err)
		} else {
			f = g
		}
		p.files[target] = f
	}
	return f, target, f.err
}

// unresolvedPop is a claim popover without a body, and why.
type unresolvedPop struct{ at, why string }

// unresolved returns the number of the distinct data keys of the
// page's claim popovers (fileScan.claims with hasPop) whose body the
// reader does not get, and the first claim's with the reason.
func (p *popFiles) unresolved(rel string, f fileScan) (int, unresolvedPop) {
	var n int
	var first unresolvedPop
	m := p.setFiles(f.popFiles)
	// the popover file of each set the page's claims name, or why none
	type setFile struct {
		f    *popFile
		u    string
		why  string
		seen map[string]bool // the keys looked at
	}
	var last *setFile
	var lastSet string
	bySet := map[string]*setFile{}
	for _, c := range f.claims {
		if !c.hasPop {
			continue
		}
		sf := last
		if sf == nil || c.set != lastSet {
			if sf = bySet[c.set]; sf == nil {
				sf = &setFile{seen: map[string]bool{}}
				if u, ok := m[c.set]; !ok {
					sf.why = fmt.Sprintf("the page names no popover file for evidence set %q (its <meta name=%q>, which evdoc's head partial writes)", c.set, PopoverMeta)
				} else if pf, _, err := p.file(rel, u); err != nil {
					sf.why = err.Error()
				} else if pf.set != c.set {
					sf.why = fmt.Sprintf("its popover file %s is set %q's, not %q's", u, pf.set, c.set)
				} else {
					sf.f, sf.u = pf, u
				}
				bySet[c.set] = sf
			}
			last, lastSet = sf, c.set
		}
		key := c.dataKey()
		if sf.seen[key] {
			continue
		}
		sf.seen[key] = true
		why := sf.why
		if sf.f != nil {
			if _, ok := sf.f.bodies[key]; ok {
				continue
			}
			why = fmt.Sprintf("its popover file %s has no body for %q", sf.u, key)
		}
		if n == 0 {
			first = unresolvedPop{c.at(), why}
		}
		n++
	}
	return n, first
}

// broken returns the links inside the bodies of the popover files page
// rel loads that name no file of the site, "FILE: link to HREF …",
// each popover file's once (its links are absolute: RelPermalinks).
func (p *popFiles) broken(rel string, f fileScan, exists map[string]bool) []string {
	// a map whose URLs are all from the root or full names the same
	// files from every page of its tree: its files are looked at once
	m := p.setFiles(f.popFiles)
	rooted := true
	for _, u := range m {
		rooted = rooted && sameFromEverywhere(u)
	}
	ck := p.site.rootOf(rel).dir + "\x00" + f.popFiles
	if rooted && p.checkedMaps[ck] {
		return nil
	}
	if p.checkedMaps == nil {
		p.checkedMaps = map[string]bool{}
	}
	p.checkedMaps[ck] = true
	var out []string
	for _, set := range sortedKeys(m) {
		pf, target, err := p.file(rel, m[set])
		if err != nil || pf.checked {
			continue
		}
		pf.checked = true
		var at map[string]textPos
		for _, l := range missingTargets(p.dir, p.site, target, pf.hrefs, exists) {
			if at == nil {
				at = map[string]textPos{}
				if name, ok := siteFile(p.dir, target); ok {
					if b, err := os.ReadFile(name); err == nil {
						at = bodyPositions(b)
					}
				}
			}
			pos := "1:1" // the file changed since it was read
			if tp, ok := at[l.key]; ok {
				pos = tp.String()
			}
			out = append(out, fmt.Sprintf("%s:%s: link to %s: the built site has no such file (a 404)", target, pos, l.href))
		}
	}
	return out
}

// bodyPositions returns where the body of each data key begins in a
// popover file's bytes b (its string's opening quote; a repeated key's
// last, as parsePopFile keeps it), or nil when b is not a popover file.
// Only a file with a broken link is read for it: decoding every body
// again took a twentieth of the output check's allocations.
func bodyPositions(b []byte) map[string]textPos {
	const head = "evdocPopovers("
	lead := len(b) - len(bytes.TrimLeftFunc(b, unicode.IsSpace)) // as TrimSpace
	t := bytes.TrimSpace(b)
	if !bytes.HasPrefix(t, []byte(head)) || !bytes.HasSuffix(t, []byte(");")) {
		return nil
	}
	inner := t[len(head) : len(t)-len(");")]
	dec := json.NewDecoder(bytes.NewReader(inner))
	var set string
	if dec.Decode(&set) != nil {
		return nil
	}
	start := int(dec.InputOffset())
	c := bytes.IndexByte(inner[start:], ',')
	if c < 0 {
		return nil
	}
	start += c + 1 // the object, in inner
	out := map[string]textPos{}
	bd := json.NewDecoder(bytes.NewReader(inner[start:]))
	if _, err := bd.Token(); err != nil { // {
		return out
	}
	for bd.More() {
		k, err := bd.Token()
		if err != nil {
			break
		}
		off := start + int(bd.InputOffset())
		if q := bytes.IndexByte(inner[off:], '"'); q >= 0 {
			off += q
		}
		if key, ok := k.(string); ok {
			out[key] = textPos{1, 1}.advance(b[:lead+len(head)+off])
		}
		if _, err := bd.Token(); err != nil {
			break
		}
	}
	return out
}
