package claim

import (
	"regexp"
	"unicode/utf8"

	"evdoc/generator/diag"
)

// ProseNumber is a number written in prose outside any claim. Rule names
// the exemption that applies ("version", "ip", "date", "time", "identifier",
// "numbering", "port", "shortcode"), or is "" for a number that should be
// bound to evidence and is not.
type ProseNumber struct {
	Text string        `json:"text"`
	Pos  diag.Position `json:"pos"`
	Rule string        `json:"rule,omitempty"`
}

var (
	proseNumber = regexp.MustCompile(`[0-9０-９]+(?:[.,][0-9０-９]+)*`)
	dateRe      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)
	cjkDateRe   = regexp.MustCompile(`^\d{4}\s*[年년]\s*\d{1,2}\s*[月월](\s*\d{1,2}\s*[日일])?`)
	timeRe      = regexp.MustCompile(`^\d{1,2}:\d{2}:\d{2}`)
	shortcodeRe = regexp.MustCompile(`(?s)\{\{[<%].*?[%>]\}\}`)
)

// shortcodeSpans returns the byte ranges of Hugo shortcode calls
// ({{< name … >}} and {{% name … %}}) in src.
func shortcodeSpans(src []byte) [][]int {
	return shortcodeRe.FindAllIndex(src, -1)
}

// scanProse finds the numbers in src[start:stop] and classifies each. When
// headingStart is set the text opens a heading, where a leading number
// followed by "." or ")" is section numbering.
func scanProse(ix *diag.LineIndex, src []byte, start, stop int, headingStart bool, shortcodes [][]int) []ProseNumber {
	var out []ProseNumber
	seg := src[start:stop]
	skipUntil := 0
	for _, m := range proseNumber.FindAllIndex(seg, -1) {
		a, b := start+m[0], start+m[1]
		// goldmark may split one run of text into several nodes: widen the
		// token over digits and dots that continue it in the source, and
		// let the node that holds its first byte report it.
		for a > 0 && (isDigitByte(src[a-1]) || src[a-1] == '.' && a > 1 && isDigitByte(src[a-2])) {
			a--
		}
		if a < start {
			continue
		}
		for b < len(src) && (isDigitByte(src[b]) || (src[b] == '.' || src[b] == ',') && b+1 < len(src) && isDigitByte(src[b+1])) {
			b++
		}
		rule := ""
		for _, r := range []struct {
			re   *regexp.Regexp
			name string
		}{{dateRe, "date"}, {cjkDateRe, "date"}, {timeRe, "time"}} {
			if m := r.re.FindIndex(src[a:]); m != nil && a+m[1] > b && (r.name != "time" || m[1] > 5 || src[a+2] == ':' || src[a+1] == ':') {
				b, rule = a+m[1], r.name
				break
			}
		}
		if a < skipUntil {
			continue
		}
		skipUntil = b
		if rule == "" {
			rule = classify(src, a, b, start, headingStart && m[0] == 0)
		}
		pn := ProseNumber{Text: string(src[a:b]), Pos: ix.Pos(a), Rule: rule}
		for _, sc := range shortcodes {
			if a >= sc[0] && b <= sc[1] {
				pn.Rule = "shortcode"
			}
		}
		out = append(out, pn)
	}
	return out
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// classify applies the exemption rules to the number src[a:b].
func classify(src []byte, a, b, textStart int, atHeadingStart bool) string {
	num := string(src[a:b])
	rest := string(src[a:min(len(src), a+24)])
	dots := 0
	for _, c := range num {
		if c == '.' {
			dots++
		}
	}
	var prev, prev2 byte
	if a > textStart {
		prev = src[a-1]
	}
	if a-1 > textStart {
		prev2 = src[a-2]
	}
	prevRune, _ := utf8.DecodeLastRune(src[textStart:a])
	var next byte
	if b < len(src) {
		next = src[b]
	}
	switch {
	case dots == 3:
		return "ip"
	case dots >= 2 || prev == 'v' || prev == 'V':
		return "version"
	case dateRe.MatchString(rest) || cjkDateRe.MatchString(rest):
		return "date"
	case isASCIILetter(prev) || isASCIILetter(next) && !unitLetterFollows(src, b):
		return "identifier"
	case (prev == '-' || prev == '/') && isASCIILetter(prev2):
		return "identifier" // D-1, HTTP/2
	case prevRune == '§' || prevRune == '#' || prevRune == '第' || prevRune == '제':
		return "numbering"
	case atHeadingStart && (next == '.' || next == ')'):
		return "numbering"
	case prev == ':' && a-2 >= textStart && (isASCIILetter(src[a-2]) || src[a-2] >= '0' && src[a-2] <= '9' || src[a-2] == ']'):
		return "port"
	}
	return ""
}

// unitLetterFollows reports whether the ASCII letters after a number are a
// unit (s, ms, KB, …) rather than part of an identifier.
func unitLetterFollows(src []byte, b int) bool {
	e := b
	for e < len(src) && isASCIILetter(src[e]) {
		e++
	}
	switch string(src[b:e]) {
	case "s", "ms", "m", "h", "KB", "KiB", "MB", "MiB", "B", "x", "qps", "rps":
		return true
	}
	return false
}

// Coverage counts a page's measured numbers: Bound are the numbers inside
// claims, Unbound the prose numbers no exemption covers.
type Coverage struct {
	Page    string        `json:"page"`
	Bound   int           `json:"bound"`
	Unbound []ProseNumber `json:"unbound,omitempty"`
	Exempt  int           `json:"exempt"`
}

// Measured is Bound plus the unbound numbers.
func (c Coverage) Measured() int { return c.Bound + len(c.Unbound) }

// PageCoverage computes the coverage of a parsed page. Numbers inside
// exemption markers count as exempt.
func PageCoverage(p *Page) Coverage {
	c := Coverage{Page: p.Path}
	for _, cl := range p.Claims {
		l, err := ParseLiteral(cl.Literal)
		n := len(l.Quantities)
		if err != nil {
			n = 1
		}
		if cl.Exempt {
			c.Exempt += n
			continue
		}
		c.Bound += n
	}
	for _, pn := range p.Prose {
		if pn.Rule != "" {
			c.Exempt++
			continue
		}
		c.Unbound = append(c.Unbound, pn)
	}
	return c
}
