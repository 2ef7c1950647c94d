package claim

import (
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
)

// quantities describes a literal's numbers as "value/decimals/unit/delta",
// space separated, with its kind (as the literal package's tests do).
func quantities(l literal.Literal) string {
	var got []string
	for _, q := range l.Quantities {
		got = append(got, q.Value.String()+"/"+strconv.Itoa(q.Decimals)+"/"+q.Unit+"/"+strconv.FormatBool(q.Delta))
	}
	return strings.Join(got, " ") + " " + string(l.Kind)
}

// TestLiteralDecoded: a claim's literal is its link text as CommonMark
// reads it (escapes and character references decoded), and its offsets
// map each byte to the source it was read from.
func TestLiteralDecoded(t *testing.T) {
	tests := []struct {
		src, lit string
		units    string // the literal's quantities (see quantities)
		// numSrc is the source of the first number (SourceRange), "" if
		// it has none; end is the source text up to SourceEnd of the
		// literal's last byte.
		numSrc, end string
	}{
		{"[86&percnt;](ev:t/a)", "86%", "86/0/%/false single", "86", "[86&percnt;"},
		{"[86&#x25;](ev:t/a)", "86%", "86/0/%/false single", "86", "[86&#x25;"},
		{"[86&#37;](ev:t/a)", "86%", "86/0/%/false single", "86", "[86&#37;"},
		{`[86\%](ev:t/a)`, "86%", "86/0/%/false single", "86", `[86\%`},
		{"[104035637&nbsp;ms](ev:t/a)", "104035637\u00a0ms", "104035637/0/ms/false single", "104035637", "[104035637&nbsp;ms"},
		{"[*86*&#160;%](ev:t/a)", "86\u00a0%", "86/0/%/false single", "86", "[*86*&#160;%"},
		{"[`86&nbsp;ms`](ev:t/a)", "86&nbsp;ms", "", "", ""}, // a code span stays as written
		{"[&#56;6](ev:t/a)", "86", "86/0//false single", "", "[&#56;6"},
	}
	for _, tt := range tests {
		src := []byte(tt.src + "\n")
		p, _ := Parse(NewMarkdown(), "p.md", src)
		if len(p.Claims) != 1 {
			t.Fatalf("%s: %d claims", tt.src, len(p.Claims))
		}
		c := p.Claims[0]
		if c.Literal != tt.lit || len(c.Offsets) != len(c.Literal) {
			t.Errorf("%s: literal %q (%d offsets), want %q", tt.src, c.Literal, len(c.Offsets), tt.lit)
			continue
		}
		if tt.units == "" {
			continue
		}
		if c.ParseErr != nil || quantities(c.Parsed) != tt.units {
			t.Errorf("%s: read %s (%v), want %s", tt.src, quantities(c.Parsed), c.ParseErr, tt.units)
		}
		if len(c.Parsed.Quantities) == 0 {
			continue
		}
		q := c.Parsed.Quantities[0]
		a, b, ok := c.SourceRange(src, q.NumStart, q.NumEnd)
		if got := string(src[a:b]); ok != (tt.numSrc != "") || ok && got != tt.numSrc {
			t.Errorf("%s: number's source %q (%v), want %q", tt.src, got, ok, tt.numSrc)
		}
		if !ok && !c.Decoded(src, q.NumStart, q.NumEnd) {
			t.Errorf("%s: the number is not reported as decoded", tt.src)
		}
		if e := c.SourceEnd(src, len(c.Literal)); e < 0 || string(src[:e]) != tt.end {
			t.Errorf("%s: SourceEnd = %d, want the end of %q", tt.src, e, tt.end)
		}
	}
}
