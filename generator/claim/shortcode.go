package claim

import (
	"bytes"
	"unicode"
	"unicode/utf8"

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
}

// scanShortcodes reads the shortcode calls of src from body on as Hugo
// does before it reads Markdown (in code blocks and spans too: Hugo
// runs shortcodes there). It stops at the first call Hugo cannot read
// and returns it as a page-shortcode error: Hugo fails the build on it,
// naming the page. Which names have a template is the site's to judge
// (site.shortcodeFindings).
func scanShortcodes(ix *diag.LineIndex, src []byte, body int) ([]ShortcodeCall, *diag.Diagnostic) {
	var calls []ShortcodeCall
	// names met so far: Hugo's lexer accepts a closing tag of any name it
	// met before (an opening or a closing tag), and fails on another
	seen := map[string]bool{}
	fail := func(at int, format string, args ...any) ([]ShortcodeCall, *diag.Diagnostic) {
		d := diag.Errorf(ix.Pos(at), diag.PageShortcode, format, args...).Spanning(ix.LineEnd(at))
		return calls, &d
	}
	for i := body; ; {
		j := indexShortcodeStart(src, i)
		if j < 0 {
			return calls, nil
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
				k = e + 1
			case '`':
				e := bytes.IndexByte(src[k+1:], '`')
				if e < 0 {
					return fail(k, "argument of shortcode %s: raw string is not closed; expected a closing `", name)
				}
				k += e + 2
			default:
				// an unquoted argument, name=value or a positional word
				e := k
				for e < len(src) && !isSpaceByte(src[e]) && !bytes.HasPrefix(src[e:], right) && src[e] != '"' && src[e] != '`' {
					e++
				}
				k = e
			}
		}
		seen[name] = true
		_, end := ix.Span(j, k)
		calls = append(calls, ShortcodeCall{Name: name, Closing: closing, Pos: ix.Pos(j), End: end})
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
