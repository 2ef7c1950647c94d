package literal

import (
	"fmt"
	"testing"
)

// TestSpreadLiteral (offsets are bytes: ± is two): a number written after ± is the spread of the number
// before it, read as written (value, decimals, unit, position), never
// folded into a tolerance; a unit written once is both numbers'; a
// percentage after a number in another unit is a relative spread, and
// after a percentage it is in points.
func TestSpreadLiteral(t *testing.T) {
	tests := []struct {
		lit  string
		want string // "mean unit ± spread/decimals unit [rel] @spread's digits"
	}{
		{"319.5 ± 11.2ms", "319.5 ms ± 11.2/1 ms @9:13"},
		{"319.5ms ± 11.2ms", "319.5 ms ± 11.2/1 ms @11:15"},
		{"319.5ms ± 11.2", "319.5 ms ± 11.2/1 ms @11:15"},
		{"0.3195s ± 11.2ms", "0.3195 s ± 11.2/1 ms @11:15"},
		{"43±1秒", "43 s ± 1/0 s @4:5"},
		{"43秒±1秒", "43 s ± 1/0 s @7:8"},
		{"43 +/- 1 s", "43 s ± 1/0 s @7:8"},
		{"120ms ±11%", "120 ms ± 11/0 % rel @8:10"},
		{"825µs ± 11%", "825 us ± 11/0 % rel @10:12"},
		{"44% ± 2%", "44 % ± 2/0 % @7:8"},
		{"44% ± 2%p", "44 % ± 2/0 %p @7:8"},
		{"60.74 ± 2.49", "60.74  ± 2.49/2  @9:13"},
		{"40", "40 "},
	}
	for _, tt := range tests {
		l, err := ParseLiteral(tt.lit)
		if err != nil || len(l.Quantities) != 1 {
			t.Errorf("ParseLiteral(%q) = %v, %v", tt.lit, l.Quantities, err)
			continue
		}
		q := l.Quantities[0]
		got := q.Value.String() + " " + q.Unit
		if sp := q.Spread; sp != nil {
			rel := ""
			if q.SpreadRelative() {
				rel = " rel"
			}
			got += fmt.Sprintf(" ± %s/%d %s%s @%d:%d", sp.Value, sp.Decimals, sp.Unit, rel, sp.NumStart, sp.NumEnd)
			if tt.lit[sp.NumStart:sp.NumEnd] != sp.Value.String() {
				t.Errorf("%q: spread digits %q", tt.lit, tt.lit[sp.NumStart:sp.NumEnd])
			}
		}
		if got != tt.want {
			t.Errorf("ParseLiteral(%q): %q, want %q", tt.lit, got, tt.want)
		}
	}
	for _, lit := range []string{"43 ±", "43ms ± 1%p", "43ms ± 2KB"} {
		if _, err := ParseLiteral(lit); err == nil {
			t.Errorf("ParseLiteral(%q) reads; want an error", lit)
		}
	}
}
