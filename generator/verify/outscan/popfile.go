package outscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
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
	// hrefs are the distinct links of its bodies (fileScan.hrefs);
	// checked is whether they were checked for files the site lacks.
	hrefs   []string
	checked bool
	broken  []string
}

// popFiles reads each popover file the pages of one built site (dir,
// served under basePath) name, once.
type popFiles struct {
	dir, basePath string
	files         map[string]*popFile // by target (siteTarget)
	maps          map[string]map[string]string
}

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
			if hs, ok := internalHref(h); ok && !seen[hs] {
				seen[hs] = true
				f.hrefs = append(f.hrefs, hs)
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
	target, inside, err := siteTarget(p.basePath, rel, u)
	if err != nil || !inside {
		return nil, "", fmt.Errorf("its popover file %s is not in the site", u)
	}
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

// unresolved returns the number of the page's claim popovers (f.pops)
// whose body the reader does not get, and the first with the reason.
func (p *popFiles) unresolved(rel string, f fileScan) (int, unresolvedPop) {
	var n int
	var first unresolvedPop
	miss := func(at, why string) {
		if n == 0 {
			first = unresolvedPop{at, why}
		}
		n++
	}
	m := p.setFiles(f.popFiles)
	for _, need := range f.pops {
		u, ok := m[need.set]
		if !ok {
			miss(need.at, fmt.Sprintf("the page names no popover file for evidence set %q (its <meta name=%q>, which evdoc's head partial writes)", need.set, PopoverMeta))
			continue
		}
		pf, _, err := p.file(rel, u)
		if err != nil {
			miss(need.at, err.Error())
			continue
		}
		if pf.set != need.set {
			miss(need.at, fmt.Sprintf("its popover file %s is set %q's, not %q's", u, pf.set, need.set))
			continue
		}
		if _, ok := pf.bodies[need.key]; !ok {
			miss(need.at, fmt.Sprintf("its popover file %s has no body for %q", u, need.key))
		}
	}
	return n, first
}

// broken returns the links inside the bodies of the popover files page
// rel loads that name no file of the site, "FILE: link to HREF …",
// each popover file's once (its links are absolute: RelPermalinks).
func (p *popFiles) broken(rel string, f fileScan, exists map[string]bool) []string {
	var out []string
	for _, u := range sortedKeys(p.setFiles(f.popFiles)) {
		pf, target, err := p.file(rel, p.setFiles(f.popFiles)[u])
		if err != nil || pf.checked {
			continue
		}
		pf.checked = true
		for _, h := range missingTargets(p.dir, p.basePath, target, pf.hrefs, exists) {
			out = append(out, fmt.Sprintf("%s: link to %s: the built site has no such file (a 404)", target, h))
		}
	}
	return out
}
