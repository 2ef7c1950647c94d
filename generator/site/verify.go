package site

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// hookHint tells a site what verifyOutput found missing: evdoc's theme
// component must come before the site's own theme, and neither the site
// nor its theme may shadow the component's render hook and evidence
// templates.
const hookHint = `add "evdoc" to theme before your theme (theme = ["evdoc", "mytheme"]) and remove any layouts/_markup/render-link.html of your own or your theme's that shadows evdoc's`

// evidenceHint is hookHint for the evidence viewer's template.
const evidenceHint = `add "evdoc" to theme before your theme (theme = ["evdoc", "mytheme"]) and remove any layouts/evidence/ templates of your own or your theme's that shadow evdoc's`

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
}

var (
	attrEvAt     = regexp.MustCompile(`\sdata-ev-at=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
	attrEv       = regexp.MustCompile(`\sdata-ev=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
	attrEvWindow = regexp.MustCompile(`\sdata-ev-window=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
	attrClass    = regexp.MustCompile(`\sclass=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
	attrLineID   = regexp.MustCompile(`\sid=["']?L[0-9]+["'\s/>]`)
)

func attrValue(re *regexp.Regexp, tag []byte) (string, bool) {
	m := re.FindSubmatch(tag)
	if m == nil {
		return "", false
	}
	return html.UnescapeString(string(m[1]) + string(m[2]) + string(m[3])), true
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

// scanOutput reads every HTML and XML file under dir once, streaming
// (a token at a time, so memory stays bounded however many pages the site
// has), and collects evdoc's claim and evidence markers and the files
// with #ZgotmplZ.
func scanOutput(ctx context.Context, dir string) (*outputScan, error) {
	sc := &outputScan{claims: map[pageKey]map[string]bool{}, windows: map[windowKey]int{}}
	buf := make([]byte, 64<<10)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if !d.Type().IsRegular() || (ext != ".html" && ext != ".htm" && ext != ".xml") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		s := bufio.NewScanner(f)
		s.Buffer(buf, 512<<10)
		s.Split(splitTags)
		var tail []byte // the last bytes of the previous token
		var win *windowKey
		lines, zg := 0, false
		for s.Scan() {
			tok := s.Bytes()
			if !zg {
				head := tok
				if len(head) > len(zgotmplZ) {
					head = head[:len(zgotmplZ)]
				}
				zg = bytes.Contains(tok, []byte(zgotmplZ)) || bytes.Contains(append(tail, head...), []byte(zgotmplZ))
			}
			n := len(tok)
			if n > len(zgotmplZ) {
				n = len(zgotmplZ)
			}
			tail = append(tail[:0], tok[len(tok)-n:]...)
			i := bytes.LastIndexByte(tok, '<')
			if i < 0 {
				continue
			}
			tag := tok[i:]
			if len(tag) < 6 || !bytes.Contains(tag, []byte("data-ev")) && !bytes.HasPrefix(tag, []byte("<span")) {
				continue
			}
			if at, ok := attrValue(attrEvAt, tag); ok {
				dest, _ := attrValue(attrEv, tag)
				if k, pos, ok := splitClaimAt(at); ok {
					if sc.claims[k] == nil {
						sc.claims[k] = map[string]bool{}
					}
					sc.claims[k][pos+"|"+dest] = true
				}
			}
			if w, ok := attrValue(attrEvWindow, tag); ok {
				parts := strings.SplitN(w, ":", 3)
				if len(parts) == 3 {
					if part, err := strconv.Atoi(parts[1]); err == nil {
						win = &windowKey{parts[0], part, parts[2]}
					}
				}
			}
			if win != nil && isLineSpan(tag) {
				lines++
			}
		}
		if err := s.Err(); err != nil {
			return fmt.Errorf("reading %s: %v", rel, err)
		}
		if zg {
			sc.problems = append(sc.problems, fmt.Sprintf("%s: contains #ZgotmplZ, a link or attribute Hugo's template escaper rejected (a claim link rendered by a render hook other than evdoc's?)", filepath.ToSlash(rel)))
		}
		if win != nil {
			if seen, ok := sc.windows[*win]; !ok || lines > seen {
				sc.windows[*win] = lines
			}
		}
		return nil
	})
	return sc, err
}

// isLineSpan reports whether tag opens one raw line of evdoc's evidence
// template: <span class="line …" id="L12">.
func isLineSpan(tag []byte) bool {
	if !bytes.HasPrefix(tag, []byte("<span")) || !attrLineID.Match(tag) {
		return false
	}
	class, _ := attrValue(attrClass, tag)
	first, _, _ := strings.Cut(class, " ")
	return first == "line"
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
// data-ev-window marker and one line span per raw line), and no file
// holds Hugo's sanitised-URL marker #ZgotmplZ. Without it a site whose
// own theme shadows evdoc's templates builds with every claim an empty
// link and every evidence page empty. The error lists the problems (at
// most maxVerifyErrors) with the page and what is missing; out names the
// published directory the message says was left as it was.
func (s *Site) verifyOutput(ctx context.Context, dir, out string, v *viewer, data *StageData) error {
	sc, err := scanOutput(ctx, dir)
	if err != nil {
		return fmt.Errorf("verifying the built site: %v", err)
	}
	problems := append([]string{}, sc.problems...)
	byPath := map[string]*Page{}
	for _, p := range s.Pages {
		byPath[p.Path] = p
	}
	want := map[pageKey]int{}
	for _, u := range data.units {
		for _, pc := range u.want {
			p := byPath[pc.page]
			if p == nil || !renderedByHugo(p.FrontMatter) {
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
		if got := len(sc.claims[k]); got < want[k] {
			hookMissing = true
			problems = append(problems, fmt.Sprintf("%s (%s): %d of its %d claims were not rendered by evdoc's claim render hook", k.rel, k.lang, want[k]-got, want[k]))
		}
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
		b.WriteString("\nclaim links were not rendered by evdoc's render hook (layouts/_markup/render-link.html from the evdoc theme component); " + hookHint)
	}
	if windowMissing {
		b.WriteString("\nevidence pages were not rendered by evdoc's evidence template (layouts/evidence/page.html from the evdoc theme component); " + evidenceHint)
	}
	b.WriteString("\n" + out + " left as it was")
	return &OutputError{Problems: problems, msg: b.String()}
}

// OutputError is Build's error when Hugo succeeded but the site it built
// is not what evdoc expects (verifyOutput): claims not rendered by evdoc's
// claim render hook, evidence pages not rendered by its evidence
// template, or #ZgotmplZ links. The published site was left as it was.
type OutputError struct {
	// Problems lists what is wrong, one line each (page or output file
	// first).
	Problems []string
	msg      string
}

// Error returns the problems (at most maxVerifyErrors) and what the site
// needs.
func (e *OutputError) Error() string { return e.msg }
