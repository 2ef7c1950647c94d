package literal

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
