package slots

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// The evidence viewer's citations table (the component's evdoc/evidence
// shortcode) lists, for each cited line of a window, every claim citing
// it with a link to its page: at 500 pages some 750 KB of HTML a
// window, which Hugo would hold as the page's .Content for the whole
// build. With slots the stage writes the window's citations file in
// the slot form (CitesSlotHeader): the shortcode then writes one
// placeholder for the table's rows, <evdoc-c d="ev:#-ID">, holding only
// the link to each citing page (evdoc/page-link.html, through the same
// partialCached call the rows make) as <evdoc-l>LINK</evdoc-l>, and
// Fill writes the rows the shortcode writes from the citations file,
// byte for byte (CitesFill).

// CitesSlotHeader begins a citations file in the slot form: after it
// the fields "i" and the placeholder's id (after Scheme), then "p" and
// each citing page's path, once each in the order the rows first name
// them.
const CitesSlotHeader = "evdoc-cites-slot"

// citesLink opens and closes one page's link in a citations
// placeholder.
const (
	citesLinkOpen  = "<evdoc-l>"
	citesLinkClose = "</evdoc-l>"
)

// cites is one window's citations in one language: the fields of its
// citations file (without the header), each tagged by its first byte
// ("n" a cited line's number, "p" a citing page's path, "t" a claim's
// text).
type cites struct {
	fields []string
}

// AddCites records the citations of one viewer window (the fields of
// its citations file after the header) and returns the fields of its
// citations file in the slot form, after CitesSlotHeader: its id and
// its citing pages. It is called by one goroutine, before Fill; it is
// SetCites of the next id ReserveCites hands out.
func (t *Table) AddCites(fields []string) []string {
	return t.SetCites(t.ReserveCites(1), fields)
}

// ReserveCites reserves the ids of n citation tables, numbered on from
// those the table holds, and returns the first: the stage numbers the
// tables in its order before writing the windows' citations files side
// by side (SetCites). It is called by one goroutine, before the
// SetCites of the ids it reserves and before Fill.
func (t *Table) ReserveCites(n int) int {
	first := len(t.cites)
	t.cites = append(t.cites, make([]cites, n)...)
	return first
}

// SetCites records the citations of one viewer window as AddCites does,
// under id, one ReserveCites reserved, and returns the fields of its
// citations file in the slot form. Goroutines may call it at the same
// time for different ids; each id is set once, before Fill.
func (t *Table) SetCites(id int, fields []string) []string {
	t.cites[id] = cites{fields: fields}
	out := []string{"i-" + strconv.FormatInt(int64(id), 36)}
	seen := map[string]bool{}
	for _, f := range fields {
		if strings.HasPrefix(f, "p") && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// CitesLen returns the number of citation tables the table holds
// (AddCites).
func (t *Table) CitesLen() int { return len(t.cites) }

// citesID returns the index of the citations placeholder id (after
// Scheme: "-" and a number in base 36), and whether it is one.
func citesID(id []byte) (int, bool) {
	if len(id) < 2 || id[0] != '-' {
		return 0, false
	}
	return base36(id[1:])
}

// fillCites appends the rows of the citations placeholder with id (a
// citesID) and text (the links it holds, as found in form fm) to out.
func (t *Table) fillCites(out []byte, n int, text []byte, fm form) ([]byte, error) {
	if n >= len(t.cites) {
		return out, fmt.Errorf("the citations placeholder %s-%s names no viewer window of this build", Scheme, strconv.FormatInt(int64(n), 36))
	}
	if fm != raw {
		// The rows hold newlines, which the escapers Hugo and themes use
		// spell differently (html keeps them, transform.XMLEscape writes
		// &#xA;): a copy escaped is not filled.
		return out, fmt.Errorf("the evidence viewer's citations placeholder is escaped here (a template writes a viewer page's .Content escaped or as JSON); evdoc build fills it only where the page's .Content is written as it is")
	}
	links, err := citesLinks(text)
	if err != nil {
		return out, err
	}
	c := t.cites[n]
	for _, f := range c.fields {
		if strings.HasPrefix(f, "n") && !citesDigits(f[1:]) {
			return out, fmt.Errorf("the citations of a viewer window name line %q", f[1:])
		}
	}
	link := make(map[string]string, len(links))
	for _, f := range c.fields {
		if !strings.HasPrefix(f, "p") {
			continue
		}
		if _, ok := link[f]; ok {
			continue
		}
		if len(link) == len(links) {
			return out, fmt.Errorf("the citations placeholder holds %d page link(s), fewer than the pages citing the window", len(links))
		}
		link[f] = links[len(link)]
	}
	if len(link) != len(links) {
		return out, fmt.Errorf("the citations placeholder holds %d page link(s), the window is cited from %d page(s)", len(links), len(link))
	}
	return appendCiteRows(out, c.fields, link), nil
}

// citesLinks reads the links a citations placeholder holds: each as
// <evdoc-l>LINK</evdoc-l>, nothing between them, no LINK holding either
// tag.
func citesLinks(text []byte) ([]string, error) {
	var links []string
	for len(text) > 0 {
		if !bytes.HasPrefix(text, []byte(citesLinkOpen)) {
			return nil, fmt.Errorf("the citations placeholder holds %q where a page link (%sLINK%s) was expected", cut(text), citesLinkOpen, citesLinkClose)
		}
		text = text[len(citesLinkOpen):]
		e := bytes.Index(text, []byte(citesLinkClose))
		if e < 0 || bytes.Contains(text[:e], []byte(citesLinkOpen)) {
			return nil, fmt.Errorf("a page link of the citations placeholder has no closing %s", citesLinkClose)
		}
		links = append(links, string(text[:e]))
		text = text[e+len(citesLinkClose):]
	}
	return links, nil
}

// cut returns the start of b, for a message.
func cut(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// appendCiteRows appends to out the rows the evdoc/evidence shortcode
// writes from a citations file's fields (its loop, step for step), with
// link the output of evdoc/page-link.html for each "p" field:
//
//	{{- $open := false }}{{ $link := "" }}
//	{{- range after 1 $cites }}
//	  {{- if hasPrefix . "n" }}{{ if $open }}</ul></td></tr>{{ end }}{{ $n := strings.TrimPrefix "n" . }}
//	<tr id="cite-L{{ $n }}"><td><a href="#L{{ $n }}">{{ $n }}</a></td><td><ul>
//	  {{- $open = true }}
//	  {{- else if hasPrefix . "p" }}{{ $page := … }}{{ $link = partialCached "evdoc/page-link.html" … }}
//	  {{- else }}<li>{{ $link }}: <q>{{ strings.TrimPrefix "t" . }}</q></li>
//	  {{- end }}
//	{{- end }}{{ if $open }}</ul></td></tr>{{ end }}
func appendCiteRows(out []byte, fields []string, link map[string]string) []byte {
	open := false
	cur := ""
	for _, f := range fields {
		switch {
		case strings.HasPrefix(f, "n"):
			if open {
				out = append(out, "</ul></td></tr>"...)
			}
			// a line number: digits (citesDigits), which html/template
			// writes as they are in the attribute, the URL and the text
			n := f[1:]
			out = append(out, "\n  <tr id=\"cite-L"...)
			out = append(out, n...)
			out = append(out, "\"><td><a href=\"#L"...)
			out = append(out, n...)
			out = append(out, "\">"...)
			out = append(out, n...)
			out = append(out, "</a></td><td><ul>"...)
			open = true
		case strings.HasPrefix(f, "p"):
			cur = link[f]
		default:
			out = append(out, "<li>"...)
			out = append(out, cur...)
			out = append(out, ": <q>"...)
			out = appendHTMLText(out, strings.TrimPrefix(f, "t"))
			out = append(out, "</q></li>"...)
		}
	}
	if open {
		out = append(out, "</ul></td></tr>"...)
	}
	return out
}

// appendHTMLText appends s escaped as html/template escapes text in an
// element's content (its htmlEscaper): NUL as U+FFFD and " & ' + < >
// as character references.
func appendHTMLText(out []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		out = append(append(out, s[last:i]...), r...)
		last = i + 1
	}
	return append(out, s[last:]...)
}

// citesDigits reports whether s is a line number: one or more ASCII
// digits.
func citesDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
