package verify

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/verify/outscan"
)

// maxMissingClaims caps the claims missingClaims names for one page.
const maxMissingClaims = 5

// missingClaims names the claims of page p that the built site does not
// show on it (got: the LINE:COL|DEST keys evdoc's render hook wrote for
// the page; elsewhere: the pages each key was rendered for instead), each
// as "FILE:LINE:COL: [TEXT] …" with, for a claim inside a shortcode's
// inner content, the shortcode and what its template does with that
// content. It reads the page again from the project; nil when it cannot.
func missingClaims(s *project.Site, p *project.Page, got map[string]bool, elsewhere map[string][]outscan.PageKey) []string {
	src, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(p.Path)))
	if err != nil {
		return nil
	}
	cp, _ := claim.Parse(s.Config.NewMarkdown(), p.Path, src)
	pairs := shortcodePairs(src, cp.Shortcodes)
	var out []string
	n := 0
	shown := renderedAt(cp.Claims, got)
	for i, c := range cp.Claims {
		key := fmt.Sprintf("%d:%d|%s", c.Pos.Line, c.Pos.Column, c.Destination)
		if c.Exempt || shown[i] {
			continue
		}
		n++
		if n > maxMissingClaims {
			continue
		}
		line := fmt.Sprintf("%s: [%s](%s)", c.Pos, c.Literal, c.Destination)
		var where []string
		for _, k := range elsewhere[key] {
			if pageAt(s, k) {
				where = append(where, k.Rel+" ("+k.Lang+")")
			} else {
				u := "/"
				if r := strings.Trim(k.Rel, "/"); r != "" {
					u += r + "/"
				}
				where = append(where, "the page without a content file at "+u+" ("+k.Lang+")")
			}
		}
		if len(where) > 0 {
			line += " was rendered for " + strings.Join(where, ", ") + " instead of this page"
		} else {
			line += " is not in the page"
		}
		if sc, ok := enclosingShortcode(pairs, c.Pos.Offset); ok {
			end := ">"
			if sc.delim == "%" {
				end = "%"
			}
			line += fmt.Sprintf("; it is inside {{%s %s %s}} (line %d), ", sc.delim, sc.name, end, sc.line) + shortcodeCause(s, sc.name)
		}
		out = append(out, line)
	}
	if n > maxMissingClaims {
		out = append(out, fmt.Sprintf("… and %d more", n-maxMissingClaims))
	}
	return out
}

// renderedAt reports, for each of a page's claims (in page order),
// whether the render hook wrote it (got: the LINE:COL|DEST keys written
// for the page). Where evdoc build wrote marks into the staged page (a
// precision, a repeated key's mark) before a claim on its line, Hugo's
// column of it is that many bytes right of its own, and the marks keep
// the claims' order: each claim takes the key at its own position, then
// each claim left takes the first key of its line and destination not
// taken, right of its own column.
func renderedAt(claims []claim.Claim, got map[string]bool) []bool {
	cols := map[string][]int{} // LINE|DEST → the columns written, ascending
	for k := range got {
		at, dest, ok := strings.Cut(k, "|")
		line, col, ok2 := strings.Cut(at, ":")
		n, err := strconv.Atoi(col)
		if !ok || !ok2 || err != nil {
			continue
		}
		cols[line+"|"+dest] = append(cols[line+"|"+dest], n)
	}
	for _, cs := range cols {
		sort.Ints(cs)
	}
	shown := make([]bool, len(claims))
	take := func(i int, exact bool) {
		c := claims[i]
		lk := strconv.Itoa(c.Pos.Line) + "|" + c.Destination
		cs := cols[lk]
		j := sort.SearchInts(cs, c.Pos.Column)
		if j < len(cs) && (!exact || cs[j] == c.Pos.Column) {
			shown[i] = true
			cols[lk] = append(cs[:j:j], cs[j+1:]...)
		}
	}
	// a claim at its own position first, then the moved ones
	for i := range claims {
		take(i, true)
	}
	for i := range claims {
		if !shown[i] {
			take(i, false)
		}
	}
	return shown
}

// pageAt reports whether a content page of the site is at k.
func pageAt(s *project.Site, k outscan.PageKey) bool {
	for _, p := range s.Pages {
		if p.Lang == k.Lang && p.Rel == k.Rel {
			return true
		}
	}
	return false
}

// scPair is a shortcode call with a closing tag: its name, how it is
// written ("<" or "%", from src), its line, and the byte range of its inner content.
type scPair struct {
	name, delim string
	line        int
	start, end  int
}

// shortcodePairs pairs each opening call of calls with its closing tag;
// a call no closing tag closes has no inner content and is left out.
func shortcodePairs(src []byte, calls []claim.ShortcodeCall) []scPair {
	var stack []claim.ShortcodeCall
	var out []scPair
	for _, c := range calls {
		if !c.Closing {
			stack = append(stack, c)
			continue
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].Name == c.Name {
				o := stack[i]
				delim := "<"
				if at := o.Pos.Offset + 2; at < len(src) && src[at] == '%' {
					delim = "%"
				}
				out = append(out, scPair{name: o.Name, delim: delim, line: o.Pos.Line, start: o.End.Offset, end: c.Pos.Offset})
				stack = stack[:i]
				break
			}
		}
	}
	return out
}

// enclosingShortcode returns the innermost pair whose inner content holds
// the byte offset off.
func enclosingShortcode(pairs []scPair, off int) (scPair, bool) {
	best, ok := scPair{}, false
	for _, p := range pairs {
		if p.start <= off && off < p.end && (!ok || p.start > best.start) {
			best, ok = p, true
		}
	}
	return best, ok
}

var (
	markdownifyCall  = regexp.MustCompile(`\bmarkdownify\b`)
	renderStringCall = regexp.MustCompile(`\.RenderString\b`)
	pageRenderString = regexp.MustCompile(`\.Page\.RenderString\b`)
	innerUse         = regexp.MustCompile(`\.Inner(?:Deindent)?\b`)
)

// shortcodeCause says what the template of shortcode name (the one Hugo
// takes: shortcodeTemplate) does that keeps a claim in its inner content
// off the page, and what to do.
func shortcodeCause(s *project.Site, name string) string {
	tpl := shortcodeTemplate(s, name)
	if tpl == "" {
		return "whose template evdoc did not find (Hugo modules, themesDir or layoutDir)"
	}
	b, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(tpl)))
	if err != nil {
		return "whose template " + tpl + " evdoc cannot read"
	}
	t := string(b)
	edit := "Copy the template to " + path.Join("layouts/_shortcodes", name+".html") + " and in the copy render"
	if strings.HasPrefix(tpl, "layouts/") {
		edit = "In it, render"
	}
	switch {
	case markdownifyCall.MatchString(t):
		return fmt.Sprintf("whose template %s renders its inner content with markdownify, which Hugo (since v0.93) runs as the home page's .RenderString: evdoc's claim render hook runs, but for the home page, not this one. %s the inner content with .Page.RenderString (.Inner | .Page.RenderString) instead of markdownify; writing the call as {{%% %s %%}} does not help while the template renders the content itself", tpl, edit, name)
	case renderStringCall.MatchString(t) && !pageRenderString.MatchString(t):
		return fmt.Sprintf("whose template %s renders its inner content with the .RenderString of another page than .Page (site.Home, a partial's context): evdoc's claim render hook renders the claim for that page. %s it with .Inner | .Page.RenderString", tpl, edit)
	case !innerUse.MatchString(t):
		return fmt.Sprintf("whose template %s does not show its inner content (.Inner): take the claim out of the shortcode, or use a shortcode that shows .Inner", tpl)
	}
	return fmt.Sprintf("whose template is %s", tpl)
}

// shortcodeTemplate returns the project path of the template Hugo takes
// for shortcode name (NAME.html or NAME.LANG.html under layouts/_shortcodes
// or layouts/shortcodes): the project's, else the first theme's of the
// theme list, or "" when there is none there or templates may come from
// elsewhere (Config.OtherLayouts).
func shortcodeTemplate(s *project.Site, name string) string {
	if s.Config.OtherLayouts && len(s.Config.Imports) == 0 {
		return ""
	}
	dirs := []string{"layouts"}
	for _, t := range s.Config.Themes {
		dirs = append(dirs, path.Join(hosttheme.Dir(s.Root, t), "layouts"))
	}
	dir, base := path.Split(name)
	for _, d := range dirs {
		for _, sc := range []string{"_shortcodes", "shortcodes"} {
			p := path.Join(d, sc, dir)
			es, _ := os.ReadDir(filepath.Join(s.Root, filepath.FromSlash(p)))
			var names []string
			for _, e := range es {
				if n, _, _ := strings.Cut(e.Name(), "."); n == base && !e.IsDir() && strings.HasSuffix(e.Name(), ".html") {
					names = append(names, e.Name())
				}
			}
			if len(names) > 0 {
				sort.Strings(names)
				return path.Join(p, names[0])
			}
		}
	}
	return ""
}
