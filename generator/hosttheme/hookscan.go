package hosttheme

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A theme evdoc does not know (Known) usually still calls a partial of
// its own in every page's <head> that a site overrides to add to it: an
// empty file the theme ships (Ananke's head-additions.html) or one it
// calls only when it exists (templates.Exists). ScanHooks finds them, so
// that init names the exact file a site creates rather than asking it to
// copy the theme's whole base template.

// partialCallRe finds partial calls with a literal name:
// partial "NAME" …, partialCached "NAME" …, partials.Include "NAME".
var partialCallRe = regexp.MustCompile(`\b(?:partial|partialCached|partials\.Include|partials\.IncludeCached)\s+"([^"]+)"`)

// existsRe finds templates.Exists "partials/NAME" (or _partials/NAME).
var existsRe = regexp.MustCompile(`\btemplates\.Exists\s+"_?partials/([^"]+)"`)

// templateCommentRe matches Go template comments and HTML comments.
var templateCommentRe = regexp.MustCompile(`(?s)\{\{-?\s*/\*.*?\*/\s*-?\}\}|<!--.*?-->`)

// Hook is a partial a theme calls that a site can override to add to
// every page: Layout is where the site creates it, relative to its
// layouts/ ("partials/head-additions.html"); Empty tells the theme's own
// copy is empty (or absent, the call guarded by templates.Exists), so the
// site's file needs only evdoc's call; CalledFrom is a theme template
// that calls it (relative to the project).
type Hook struct {
	Layout     string
	Empty      bool
	CalledFrom string
}

// ScanHooks returns the head and body hook partials of the theme in the
// theme list entry dir of the project at root (see Dir), found in its
// layouts: a partial whose name says head (or, for the body hook, footer,
// foot or body end) that the theme calls and ships empty or calls only
// when it exists. ok is false for a hook it finds none of. A theme with
// several candidates gives the one whose name sorts first among those
// called from a base template (baseof), else among all.
func ScanHooks(root, dir string) (head, body Hook, headOK, bodyOK bool) {
	layouts := filepath.Join(root, filepath.FromSlash(Dir(root, dir)), "layouts")
	type cand struct {
		Hook
		base bool
	}
	var heads, bodies []cand
	exists := map[string]bool{}
	calls := map[string]string{} // partial name → a template calling it
	base := map[string]bool{}
	_ = filepath.WalkDir(layouts, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		for _, m := range existsRe.FindAllSubmatch(b, -1) {
			exists[string(m[1])] = true
		}
		for _, m := range partialCallRe.FindAllSubmatch(b, -1) {
			name := string(m[1])
			if _, ok := calls[name]; !ok {
				calls[name] = rel
			}
			if strings.HasPrefix(path.Base(rel), "baseof") {
				base[name] = true
			}
		}
		return nil
	})
	names := make([]string, 0, len(calls))
	for n := range calls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		file := name
		if path.Ext(file) == "" {
			file += ".html"
		}
		var h Hook
		for _, sub := range []string{"_partials", "partials"} {
			b, err := os.ReadFile(filepath.Join(layouts, sub, filepath.FromSlash(file)))
			if err != nil {
				continue
			}
			h = Hook{Layout: sub + "/" + file, CalledFrom: calls[name],
				Empty: strings.TrimSpace(templateCommentRe.ReplaceAllString(string(b), "")) == ""}
			break
		}
		if h.Layout == "" {
			if !exists[file] && !exists[name] {
				continue // neither shipped nor guarded: not a hook
			}
			h = Hook{Layout: "partials/" + file, Empty: true, CalledFrom: calls[name]}
		}
		if !h.Empty {
			continue // the theme's own head template, not a hook
		}
		c := cand{h, base[name]}
		// The whole name: a hook in a directory of its kind
		// (Stack's head/custom.html, footer/custom.html).
		lower := strings.ToLower(file)
		switch {
		case strings.Contains(lower, "head") && !strings.Contains(lower, "header"):
			heads = append(heads, c)
		case strings.Contains(lower, "foot") || strings.Contains(lower, "body"):
			bodies = append(bodies, c)
		}
	}
	pick := func(cs []cand) (Hook, bool) {
		for _, c := range cs {
			if c.base {
				return c.Hook, true
			}
		}
		if len(cs) > 0 {
			return cs[0].Hook, true
		}
		return Hook{}, false
	}
	head, headOK = pick(heads)
	body, bodyOK = pick(bodies)
	return head, body, headOK, bodyOK
}

// DocsLayout reports whether the theme in the theme list entry dir of the
// project at root has page layouts of its own for pages of type "docs"
// (layouts/docs/ holding a base, list, single, page or section template,
// as Docsy and Hextra do): the layouts that draw its docs sidebar and
// title, which evidence pages of that type get.
func DocsLayout(root, dir string) bool {
	d := filepath.Join(root, filepath.FromSlash(Dir(root, dir)), "layouts", "docs")
	for _, name := range []string{"baseof.html", "list.html", "single.html", "page.html", "section.html"} {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}
