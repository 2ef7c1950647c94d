package slots

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// format is one of claim.html's printf formats, as the render hook
// applies it: fmt.Sprintf(f, where, line, col, text, pageID) (Hugo's
// printf is fmt.Sprintf; where, text and pageID are strings, line and
// col ints). A format made of literal text, "%%" and at least one of
// the five arguments, each with its own verb (%[1]s %[2]d %[3]d %[4]s
// %[5]s), as claim.html writes them, is compiled into parts; any other
// runs through fmt.Sprintf.
type format struct {
	src   string
	parts []part // nil: fmt.Sprintf
}

// part is literal text (arg 0) or argument arg (1–5).
type part struct {
	lit string
	arg int
}

// compile reads f into parts, or returns a format that runs f through
// fmt.Sprintf when f uses anything else.
func compile(f string) format {
	var parts []part
	var lit strings.Builder
	for i := 0; i < len(f); {
		c := f[i]
		if c != '%' {
			lit.WriteByte(c)
			i++
			continue
		}
		if strings.HasPrefix(f[i:], "%%") {
			lit.WriteByte('%')
			i += 2
			continue
		}
		// %[n]v
		if len(f) < i+5 || f[i+1] != '[' || f[i+3] != ']' || f[i+2] < '1' || f[i+2] > '5' {
			return format{src: f}
		}
		n := int(f[i+2] - '0')
		want := byte('s')
		if n == 2 || n == 3 {
			want = 'd'
		}
		if f[i+4] != want {
			return format{src: f}
		}
		if lit.Len() > 0 {
			parts = append(parts, part{lit: lit.String()})
			lit.Reset()
		}
		parts = append(parts, part{arg: n})
		i += 5
	}
	if lit.Len() > 0 {
		parts = append(parts, part{lit: lit.String()})
	}
	for _, p := range parts {
		if p.arg > 0 {
			return format{src: f, parts: parts}
		}
	}
	// without an argument index fmt.Sprintf reports the arguments left
	// over ("%!(EXTRA …)")
	return format{src: f}
}

// appendTo appends the format applied to the claim's arguments to b.
func (f format) appendTo(b []byte, p *Page, s *slot, text []byte) []byte {
	if f.parts == nil {
		return fmt.Appendf(b, f.src, p.where, int(s.line), int(s.col), string(text), p.id)
	}
	for _, pt := range f.parts {
		switch pt.arg {
		case 0:
			b = append(b, pt.lit...)
		case 1:
			b = append(b, p.where...)
		case 2:
			b = strconv.AppendInt(b, int64(s.line), 10)
		case 3:
			b = strconv.AppendInt(b, int64(s.col), 10)
		case 4:
			b = append(b, text...)
		case 5:
			b = append(b, p.id...)
		}
	}
	return b
}

// textMark stands for the link text in a format applied to find what
// comes before and after it (appendEscaped).
const textMark = "\x00evdoc-text\x00"

// appendEscaped appends the format applied to the claim's arguments
// and link text, escaped by esc, where text is the link text already
// escaped as esc escapes: the escaping of each character does not
// depend on the others, so the escaped markup is the escaped text
// before the link text, the link text as found, and the escaped text
// after it. It fails when the format does not hold the text once, or
// when the text around it holds a character the escapers Hugo and
// themes use (transform.XMLEscape, html, htmlEscape, html/template;
// jsonify) do not escape alike.
func (f format) appendEscaped(b []byte, p *Page, s *slot, text []byte, esc form) ([]byte, error) {
	whole := string(f.appendTo(nil, p, s, []byte(textMark)))
	before, after, ok := strings.Cut(whole, textMark)
	if !ok || strings.Contains(after, textMark) {
		return b, fmt.Errorf("the claim's markup does not hold its link text once")
	}
	for _, half := range []string{before, after} {
		if !esc.escapable(half) {
			return b, fmt.Errorf("the claim's markup holds characters an escaped copy of it may write in more than one way")
		}
	}
	b = esc.appendEscape(b, before)
	b = append(b, text...)
	return esc.appendEscape(b, after), nil
}

// escapable reports whether s escapes alike under every escaper of
// form f.
func (f form) escapable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			return false
		case f == escaped && (r == '+' || r == 0xfffe || r == 0xffff):
			return false
		case f == jsonEscaped && (r == 0x2028 || r == 0x2029):
			return false
		}
	}
	return true
}

// appendEscape appends s escaped as form f writes text.
func (f form) appendEscape(b []byte, s string) []byte {
	switch f {
	case escaped:
		return append(b, html.EscapeString(s)...)
	case jsonEscaped:
		j, _ := json.Marshal(s)
		return append(b, j[1:len(j)-1]...)
	}
	return append(b, s...)
}

// htmlAttrStart is the pattern of a run of HTML Hugo's automatic
// summary does not count as a word because it looks like the start of
// an attribute (hugolib's isProbablyHTMLToken).
var htmlAttrStart = regexp.MustCompile(`^[A-Za-z]+=["']`)

// countsText reports whether the run of the format's markup holding its
// link text's first word counts as a word in Hugo's automatic summary
// (ExtractSummaryFromHTML, which counts whitespace-separated runs of a
// page's HTML): not when the text follows an attribute opening without
// a space ("title=\"x\">TEXT"). The stage leaves out of slots the claims
// in the words a summary may count, relying on each claim's markup
// counting at least this one.
func (f format) countsText() bool {
	whole := string(f.appendTo(nil, &Page{where: "x", id: "x"}, &slot{line: 1, col: 1}, []byte(textMark)))
	before, _, ok := strings.Cut(whole, textMark)
	if !ok {
		return false
	}
	if before == "" || strings.TrimRightFunc(before, unicode.IsSpace) != before {
		return true
	}
	fs := strings.Fields(before)
	return !htmlAttrStart.MatchString(fs[len(fs)-1])
}
