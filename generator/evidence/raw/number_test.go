package raw

import "testing"

func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"**18 (+1)**", "1 (Δ0)", "`60s`", "23(56.1%)", "10.250.147.30(a)", "−3", "Δ+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseCell(s)
		if ok && (n.Start < 0 || n.End > len(s) || n.Start >= n.End) {
			t.Fatalf("ParseCell(%q) range [%d,%d)", s, n.Start, n.End)
		}
	})
}

func TestParseCell(t *testing.T) {
	tests := []struct {
		in    string
		ok    bool
		value string
		unit  string
		raw   string
	}{
		{"17", true, "17", "", "17"},
		{"**18 (+1)**", true, "18", "", "18"},
		{"1 (Δ0)", true, "1", "", "1"},
		{"`60s`", true, "60", "s", "60s"},
		{"23(56.1%)", true, "23", "", "23"},
		{"51.7%", true, "51.7", "%", "51.7%"},
		{"**0.21%**", true, "0.21", "%", "0.21%"},
		{"+46", true, "46", "", "+46"},
		{"−3", true, "-3", "", "−3"},
		{"Δ+1", true, "1", "", "Δ+1"},
		{"1,234", true, "1234", "", "1,234"},
		{"**39 (Δ+1, 완료 직후)**", true, "39", "", "39"},
		{"10.250.147.30(a)", false, "", "", ""},
		{"N/A", false, "", "", ""},
		{"pod-A", false, "", "", ""},
		{"exit=28(connect timeout) 13", false, "", "", ""},
		{"", false, "", "", ""},
		{"1.2.3", false, "", "", ""},
	}
	for _, tt := range tests {
		n, ok := ParseCell(tt.in)
		if ok != tt.ok {
			t.Errorf("ParseCell(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if n.Value.String() != tt.value || n.Unit != tt.unit || tt.in[n.Start:n.End] != tt.raw {
			t.Errorf("ParseCell(%q) = %s %q raw %q, want %s %q raw %q", tt.in, n.Value, n.Unit, tt.in[n.Start:n.End], tt.value, tt.unit, tt.raw)
		}
	}
}
