package claim

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// ShortcodeCall is one shortcode call of a page's body as Hugo's page
// lexer reads it, before Markdown: {{< NAME … >}} or {{% NAME … %}}, or
// its closing tag {{< /NAME >}}. Calls written as comments
// ({{</* NAME */>}}, shown as text) are not calls.
type ShortcodeCall struct {
	// Name is the name as written ("evtable", "docs/note").
	Name string
	// Closing marks a closing tag.
	Closing bool
	// Pos is the call's "{{"; End the position just past its ">}}".
	Pos, End diag.Position
	// Args are the call's arguments in order.
	Args []ShortcodeArg
}

// ShortcodeArg is one argument of a shortcode call as Hugo's lexer reads
// it: a named one (caption="…", width=600) or a positional one ("…").
type ShortcodeArg struct {
	// Name is the argument's name, "" for a positional argument.
	Name string
	// Start and End are the byte offsets of the value in the page, inside
	// its quotes when quoted.
	Start, End int
	// Quoted marks a value written in "…" or `…`.
	Quoted bool
}

// scanShortcodes reads the shortcode calls of src from body on as Hugo
// does before it reads Markdown (in code blocks and spans too: Hugo
// runs shortcodes there). It stops at the first call Hugo cannot read
// and returns it as a page-shortcode error: Hugo fails the build on it,
// naming the page. Which names have a template is the site's to judge
// (site.shortcodeFindings).
func scanShortcodes(ix *diag.LineIndex, src []byte, body int) ([]ShortcodeCall, *diag.Diagnostic) {
	calls, _, d := scanHugoSyntax(ix, src, body)
	return calls, d
}

// HugoSyntax returns the byte ranges of src, a page whose body starts at
// body, that Hugo's goldmark never reads as written (see
// Page.HugoSyntax), up to the first shortcode call Hugo cannot read.
func HugoSyntax(src []byte, body int) [][2]int {
	if indexShortcodeStart(src, body) < 0 {
		return nil
	}
	_, spans, _ := scanHugoSyntax(diag.NewLineIndex("", src), src, body)
	return spans
}

// scanHugoSyntax is scanShortcodes that also returns the page's Hugo
// syntax (Page.HugoSyntax) in order: each call's bytes, and the "/*" and
// "*/" of each call written as a comment.
func scanHugoSyntax(ix *diag.LineIndex, src []byte, body int) ([]ShortcodeCall, [][2]int, *diag.Diagnostic) {
	var calls []ShortcodeCall
	var spans [][2]int
	// names met so far: Hugo's lexer accepts a closing tag of any name it
	// met before (an opening or a closing tag), and fails on another
	seen := map[string]bool{}
	fail := func(at int, format string, args ...any) ([]ShortcodeCall, [][2]int, *diag.Diagnostic) {
		d := diag.Errorf(ix.Pos(at), diag.PageShortcode, format, args...).Spanning(ix.LineEnd(at))
		return calls, spans, &d
	}
	for i := body; ; {
		j := indexShortcodeStart(src, i)
		if j < 0 {
			return calls, spans, nil
		}
		right := []byte(">}}")
		if src[j+2] == '%' {
			right = []byte("%}}")
		}
		k := j + 3
		if bytes.HasPrefix(src[k:], []byte("/*")) {
			// {{</* x */>}}: the call shown as text
			end := bytes.Index(src[k:], append([]byte("*/"), right...))
			if end <= 1 {
				return fail(j, "shortcode comment %s/* is not closed; expected */%s", src[j:j+3], right)
			}
			i = k + end + 2 + len(right)
			// Hugo shows {{< x >}}: the markers are not in its text
			spans = append(spans, [2]int{k, k + 2}, [2]int{k + end, k + end + 2})
			continue
		}
		k = skipSpace(src, k)
		closing := k < len(src) && src[k] == '/'
		if closing {
			k = skipSpace(src, k+1)
		}
		nameStart := k
		for k < len(src) {
			r, n := utf8.DecodeRune(src[k:])
			if r == '_' || r == '-' || r == '/' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
				k += n
				continue
			}
			break
		}
		name := string(src[nameStart:k])
		if name == "" || name[0] == '-' || name[0] == '/' || name[0] == '.' {
			if k >= len(src) {
				return fail(j, "shortcode call %s is not closed; expected %s", src[j:j+3], right)
			}
			return fail(j, "shortcode call %s has no name; expected %s NAME …%s", src[j:j+3], src[j:j+3], right)
		}
		if closing && !seen[name] {
			return fail(j, "closing tag of shortcode %q, which no call opened before it; expected {{< %s >}} before it, or no closing tag", name, name)
		}
		// the arguments, up to the right delimiter
		var args []ShortcodeArg
		named := "" // the name of a "name=" whose value follows
		for {
			k = skipSpace(src, k)
			if k >= len(src) {
				return fail(j, "shortcode call %s %s is not closed; expected %s", src[j:j+3], name, right)
			}
			if bytes.HasPrefix(src[k:], right) {
				k += len(right)
				break
			}
			switch c := src[k]; c {
			case '"':
				e := k + 1
				for e < len(src) && src[e] != '"' && src[e] != '\n' {
					if src[e] == '\\' && e+1 < len(src) && src[e+1] == '"' {
						e++
					}
					e++
				}
				if e >= len(src) || src[e] != '"' {
					return fail(k, "argument of shortcode %s: quoted string is not closed on its line; expected a closing \"", name)
				}
				args = append(args, ShortcodeArg{Name: named, Start: k + 1, End: e, Quoted: true})
				named = ""
				k = e + 1
			case '`':
				e := bytes.IndexByte(src[k+1:], '`')
				if e < 0 {
					return fail(k, "argument of shortcode %s: raw string is not closed; expected a closing `", name)
				}
				args = append(args, ShortcodeArg{Name: named, Start: k + 1, End: k + 1 + e, Quoted: true})
				named = ""
				k += e + 2
			default:
				// an unquoted argument, name=value or a positional word
				e := k
				for e < len(src) && !isSpaceByte(src[e]) && !bytes.HasPrefix(src[e:], right) && src[e] != '"' && src[e] != '`' {
					e++
				}
				word := string(src[k:e])
				if n, v, ok := strings.Cut(word, "="); ok && n != "" {
					named = n
					if v != "" {
						args = append(args, ShortcodeArg{Name: n, Start: k + len(n) + 1, End: e})
						named = ""
					}
				} else {
					args = append(args, ShortcodeArg{Name: named, Start: k, End: e})
					named = ""
				}
				k = e
			}
		}
		seen[name] = true
		_, end := ix.Span(j, k)
		calls = append(calls, ShortcodeCall{Name: name, Closing: closing, Pos: ix.Pos(j), End: end, Args: args})
		spans = append(spans, [2]int{j, k})
		i = k
	}
}

// indexShortcodeStart returns the offset of the first "{{<" or "{{%" of
// src at or after from, or -1.
func indexShortcodeStart(src []byte, from int) int {
	for i := from; i < len(src); {
		j := bytes.Index(src[i:], []byte("{{"))
		if j < 0 {
			return -1
		}
		i += j
		if i+2 < len(src) && (src[i+2] == '<' || src[i+2] == '%') {
			return i
		}
		i++
	}
	return -1
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func skipSpace(src []byte, k int) int {
	for k < len(src) && isSpaceByte(src[k]) {
		k++
	}
	return k
}

// textArgNames are the names of shortcode arguments whose value a reader
// sees as text (lower case): Hugo's figure caption, title, alt and attr,
// its details summary, and the names themes give their captions, labels,
// headings and badges (Hextra's badge content and card tag).
var textArgNames = map[string]bool{
	"caption": true, "title": true, "alt": true, "attr": true, "summary": true,
	"description": true, "label": true, "text": true, "subtitle": true,
	"heading": true, "header": true, "footer": true, "content": true, "tag": true,
}

// nonTextShortcodes are shortcodes (lower case) whose positional
// arguments are references, identifiers or options, never text a reader
// sees: Hugo's embedded ref, relref, param, highlight and embeds, and
// evdoc's own.
var nonTextShortcodes = map[string]bool{
	"ref": true, "relref": true, "param": true, "highlight": true, "youtube": true,
	"vimeo": true, "gist": true, "instagram": true, "tweet": true, "twitter": true,
	"x": true, "qr": true, "comment": true, "evfigure": true, "evtable": true,
}

// textArg is a shortcode argument whose value is published text: the
// byte range of the value and what it is, for messages ("argument caption
// of shortcode figure").
type textArg struct {
	start, end int
	in         string
}

// textArgs returns the arguments of calls whose value a reader sees as
// text, in source order: a named argument of textArgNames, or a quoted
// positional argument of a shortcode that is not a diagram or formula
// (prose.Diagram) and not in nonTextShortcodes. Their numbers are
// published like prose and are judged like prose.
func textArgs(calls []ShortcodeCall) []textArg {
	var out []textArg
	for _, c := range calls {
		name := strings.ToLower(c.Name)
		if c.Closing || prose.Diagram(name) {
			continue
		}
		for i, a := range c.Args {
			switch {
			case a.Name != "" && textArgNames[strings.ToLower(a.Name)]:
				out = append(out, textArg{a.Start, a.End, "argument " + a.Name + " of shortcode " + c.Name})
			case a.Name == "" && a.Quoted && !nonTextShortcodes[name]:
				out = append(out, textArg{a.Start, a.End, "argument " + strconv.Itoa(i) + " of shortcode " + c.Name})
			}
		}
	}
	return out
}

// cutSpans returns spans (sorted [start, end) pairs) with the ranges of
// args removed: a number inside a text argument is no longer covered by
// its shortcode call's span.
func cutSpans(spans [][]int, args []textArg) [][]int {
	if len(args) == 0 {
		return spans
	}
	out := make([][]int, 0, len(spans)+len(args))
	i := 0
	for _, sp := range spans {
		at := sp[0]
		for ; i < len(args) && args[i].start < sp[1]; i++ {
			if args[i].start < at {
				continue
			}
			out = append(out, []int{at, args[i].start})
			at = args[i].end
		}
		if at < sp[1] {
			out = append(out, []int{at, sp[1]})
		}
	}
	return out
}

// Unseen returns the byte ranges of p's body a reader never sees as
// written, in order: its Hugo syntax (Page.HugoSyntax: each shortcode
// call, and the comment markers of a call written as a comment) without
// the values of the arguments a reader sees as text (a figure's caption,
// a quoted positional argument of a shortcode that shows it: see
// textArgs). A reader sees what a shortcode renders, not the rest of its
// call: a class name, a URL, an option.
func (p *Page) Unseen() [][2]int {
	if len(p.HugoSyntax) == 0 {
		return nil
	}
	spans := make([][]int, len(p.HugoSyntax))
	for i, s := range p.HugoSyntax {
		spans[i] = []int{s[0], s[1]}
	}
	cut := cutSpans(spans, textArgs(p.Shortcodes))
	out := make([][2]int, 0, len(cut))
	for _, s := range cut {
		if s[0] < s[1] {
			out = append(out, [2]int{s[0], s[1]})
		}
	}
	return out
}
