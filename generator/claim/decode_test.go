package claim

import (
	"strings"
	"testing"
)

// quantities describes a literal's numbers as "value/decimals/unit/delta",
// space separated, with its kind.
func quantities(l Literal) string {
	var got []string
	for _, q := range l.Quantities {
		got = append(got, q.Value.String()+"/"+itoa(q.Decimals)+"/"+q.Unit+"/"+boolStr(q.Delta))
	}
	return strings.Join(got, " ") + " " + string(l.Kind)
}

// TestUnicodeSpaceBeforeUnit: any Unicode space separator between a number
// and its unit (or words) reads as a space does.
func TestUnicodeSpaceBeforeUnit(t *testing.T) {
	plain := []string{"104035637 ms", "2 ms", "0.104 s", "1만 2천 건", "약 40 초", "40 초 이상", "두 번", "5 ~ 10 ms", "43 ± 1 s", "초당 38 건", "1,250 건/초", "86 / 86"}
	for _, sp := range []string{"\u00a0", "\u202f", "\u2009", "\u3000", "\u2002"} {
		for _, lit := range plain {
			odd := strings.ReplaceAll(lit, " ", sp)
			want, err := ParseLiteral(lit)
			if err != nil {
				t.Fatalf("ParseLiteral(%q): %v", lit, err)
			}
			got, err := ParseLiteral(odd)
			if err != nil {
				t.Errorf("ParseLiteral(%q): %v; %q reads", odd, err, lit)
				continue
			}
			if g, w := quantities(got), quantities(want); g != w || got.Approx != want.Approx || got.Cmp != want.Cmp {
				t.Errorf("ParseLiteral(%q) = %s %s%s, want %s %s%s as %q", odd, g, got.Approx, got.Cmp, w, want.Approx, want.Cmp, lit)
			}
		}
	}
}

// TestLiteralTextNotDropped: text glued to a number that the grammar
// cannot read, and an entity name HTML does not define, are errors.
func TestLiteralTextNotDropped(t *testing.T) {
	for _, lit := range []string{"86&foo;", "86 &foo;", "&foo; 86", "86$", "86€", "86 ₩", "86‰", "86°", "86\\", "86#", "86μ"} {
		if l, err := ParseLiteral(lit); err == nil {
			t.Errorf("ParseLiteral(%q) = %s, want an error", lit, quantities(l))
		}
	}
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
