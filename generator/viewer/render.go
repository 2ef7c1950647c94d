package viewer

import (
	"fmt"
	"html"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// lexerName picks the chroma lexer of a raw file by its format: Markdown
// reports, TOML manifests, JSON, Envoy admin stats ("name: value", read
// as YAML), shell transcripts (a .txt or .log file with a line starting
// "$ ": console); anything else is plain text.
func lexerName(file string, console bool) string {
	name := ""
	switch strings.ToLower(path.Ext(file)) {
	case ".md":
		name = "markdown"
	case ".toml":
		name = "toml"
	case ".json":
		name = "json"
	case ".stats", ".yaml", ".yml":
		name = "yaml"
	case ".txt", ".log":
		if console {
			name = "console"
		}
	}
	if name == "" || lexers.Get(name) == nil {
		return lexers.Get("plaintext").Config().Name
	}
	return lexers.Get(name).Config().Name
}

// highlightLines returns the HTML of each line of one window of a raw
// file: chroma token spans of the named lexer with the classes of
// themes/evdoc/static/evdoc/css/chroma.css, text escaped.
//
// marks holds, by index in lines, byte ranges of the line to mark (the
// raw tokens claims cite and the numbers no reading took): each is
// wrapped in <mark class="ev-token"> or <mark class="ev-unread">, split
// where it crosses a token span.
func HighlightLines(lexer string, lines []string, marks map[int][]TokenMark) []string {
	src := strings.Join(lines, "\n") + "\n"
	out := make([]string, len(lines))
	it, err := chroma.Coalesce(untimedLexer(lexer)).Tokenise(nil, src)
	if err != nil {
		for i, l := range lines {
			out[i] = markedText(l, 0, marks[i])
		}
		return out
	}
	for i, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
		if i >= len(lines) {
			break
		}
		var b strings.Builder
		off := 0
		for _, t := range toks {
			text := strings.TrimSuffix(t.Value, "\n")
			if text == "" {
				continue
			}
			if c := tokenClass(t.Type); c != "" {
				fmt.Fprintf(&b, `<span class="%s">%s</span>`, c, markedText(text, off, marks[i]))
			} else {
				b.WriteString(markedText(text, off, marks[i]))
			}
			off += len(text)
		}
		out[i] = b.String()
	}
	// A lexer that dropped text would hide raw data: fall back to
	// plain escaped lines when the highlighted text differs.
	for i, l := range lines {
		if stripTags(out[i]) != html.EscapeString(l) {
			out[i] = markedText(l, 0, marks[i])
		}
	}
	return out
}

// markedText returns text, which starts at byte off of its line, HTML
// escaped, with the parts inside marks (byte ranges of the line) in
// <mark class="ev-token"> (a cited token) or <mark class="ev-unread"> (a
// number no reading took). A range is marked only where it falls on
// character boundaries of text. A cited token's first piece carries its
// id (tokenMark.id) and any later piece (a token split by the lexer's
// spans) data-ev-tok with the same id; a token's id that no piece can
// carry (it starts inside another mark, or off a character boundary) is
// an empty span before the text, so every claim's link has its anchor.
func markedText(text string, off int, marks []TokenMark) string {
	if len(marks) == 0 {
		return html.EscapeString(text)
	}
	var b strings.Builder
	pos := 0 // in text
	// anchors writes the ids of the marks starting in [from, to) but the
	// one skip names as empty spans.
	anchors := func(from, to int, skip string) {
		for _, m := range marks {
			if s := m.Start - off; m.Id != "" && m.Id != skip && s >= from && s < to {
				fmt.Fprintf(&b, `<span id="%s"></span>`, m.Id)
			}
		}
	}
	for pos < len(text) {
		// the first mark covering or after pos
		next, end := len(text), len(text)
		var cover *TokenMark
		for k := range marks {
			m := &marks[k]
			s, e := m.Start-off, m.end-off
			if e <= pos || s >= len(text) || s >= e {
				continue
			}
			if s <= pos {
				cover, end = m, min(e, len(text))
				break
			}
			next = min(next, s)
		}
		if cover != nil && utf8.ValidString(text[pos:end]) && (end == len(text) || utf8.RuneStart(text[end])) && utf8.RuneStart(text[pos]) {
			own := ""
			if cover.Id != "" && cover.Start-off == pos {
				own = cover.Id
			}
			anchors(pos, end, own)
			switch {
			case cover.unread:
				b.WriteString(`<mark class="ev-unread">`)
			case own != "":
				fmt.Fprintf(&b, `<mark class="ev-token" id="%s">`, own)
			case cover.Id != "":
				fmt.Fprintf(&b, `<mark class="ev-token" data-ev-tok="%s">`, cover.Id)
			default:
				b.WriteString(`<mark class="ev-token">`)
			}
			b.WriteString(html.EscapeString(text[pos:end]))
			b.WriteString(`</mark>`)
			pos = end
			continue
		}
		if cover != nil { // not on character boundaries: shown unmarked
			next = end
		}
		// anchors go at a character boundary
		k := pos
		for k < next && !utf8.RuneStart(text[k]) {
			k++
		}
		b.WriteString(html.EscapeString(text[pos:k]))
		anchors(pos, next, "")
		b.WriteString(html.EscapeString(text[k:next]))
		pos = next
	}
	return b.String()
}

// TokenID is the anchor of the cited token at byte column col (1-based)
// of raw line line: "L12-34".
func TokenID(line, col int) string { return fmt.Sprintf("L%d-%d", line, col) }

var tagRe = regexp.MustCompile(`<[^>]*>`)

func stripTags(s string) string { return tagRe.ReplaceAllString(s, "") }

func tokenClass(t chroma.TokenType) string {
	for _, c := range []chroma.TokenType{t, t.SubCategory(), t.Category()} {
		if s, ok := chroma.StandardTypes[c]; ok && s != "" {
			return s
		}
	}
	return ""
}
