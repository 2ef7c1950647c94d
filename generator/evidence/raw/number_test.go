package raw

import (
	"regexp"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

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
		{"40,045811", true, "40.045811", "", "40,045811"},
		{"1.234,5", true, "1234.5", "", "1.234,5"},
		{"1,234,567.5", true, "1234567.5", "", "1,234,567.5"},
		{"1e3", true, "1000", "", "1e3"},
		{"8.9e-05s", true, "0.000089", "s", "8.9e-05s"},
		{"1e999", false, "", "", ""},
		{`"40.5"`, true, "40.5", "", "40.5"},
		{"１２", true, "12", "", "１２"},
		{"１２．５％", true, "12.5", "%", "１２．５％"},
		{"1m0.5s", true, "60.5", "s", "1m0.5s"},
		{"1h2m3s", true, "3723", "s", "1h2m3s"},
		{"1,2,3", false, "", "", ""},
		{"-1,5e3", true, "-1500", "", "-1,5e3"},
		{"500µs", true, "500", "us", "500µs"},
		{"500us", true, "500", "us", "500us"},
		{"12 ns", true, "12", "ns", "12 ns"},
		{"2h", true, "2", "h", "2h"},
		{"1.5MiB", true, "1.5", "MiB", "1.5MiB"},
		{"１，２３４．５", true, "1234.5", "", "１，２３４．５"},
		{"409,6100", true, "409.61", "", "409,6100"},
		{"1,23", true, "1.23", "", "1,23"},
		{"1.234.567", false, "", "", ""},
		{"192.168.100.200", false, "", "", ""},
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

func TestParseCellComma(t *testing.T) {
	tests := []struct {
		in    string
		comma Comma
	}{
		{"17", NoComma}, {"1,234", CommaAmbiguous}, {"1,234,567", CommaGroups}, {"1,234.5", CommaGroups},
		{"40,045811", CommaDecimal}, {"0,5", CommaDecimal}, {"1234,567", CommaDecimal}, {"1.234,5", CommaDecimal},
		{"0.5", PointDecimal}, {"1234.5", PointDecimal}, {"1.234", PointAmbiguous}, {"12.345", PointAmbiguous}, {"1234.567", PointDecimal}, {"１，２３４", CommaAmbiguous},
		{"-1,5e3", CommaDecimal}, {"1.234.567,5", CommaDecimal}, {"0,534", CommaDecimal}, {"0.534", PointDecimal},
	}
	for _, tt := range tests {
		n, ok := ParseCell(tt.in)
		if !ok || n.Comma != tt.comma {
			t.Errorf("ParseCell(%q) = %v comma %d, want comma %d", tt.in, ok, n.Comma, tt.comma)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		in               string
		dec, seen        Decimal
		value, warn, err string
	}{
		{"1,232", DecimalUndeclared, DecimalUndeclared, "", "", `"1,232" is ambiguous: 1232 with a thousands separator or 1.232 with a decimal comma`},
		{"1,232", DecimalPoint, DecimalUndeclared, "1232", "", ""},
		{"1,232", DecimalComma, DecimalUndeclared, "1.232", "", ""},
		{"1,232", DecimalUndeclared, DecimalComma, "1.232", `comma in "1,232" read as a decimal mark (1.232)`, ""},
		{"1,232", DecimalUndeclared, DecimalPoint, "1232", `comma in "1,232" read as a thousands separator (1232)`, ""},
		{"40,045811", DecimalUndeclared, DecimalUndeclared, "40.045811", `decimal comma in "40,045811" read as 40.045811`, ""},
		{"40,045811", DecimalComma, DecimalUndeclared, "40.045811", "", ""},
		{"40,045811", DecimalPoint, DecimalUndeclared, "", "", `"40,045811" has a decimal comma but the manifest declares decimal = "."`},
		{"1,234,567", DecimalComma, DecimalUndeclared, "", "", `groups thousands with commas but the manifest declares decimal = ","`},
		{"1.5", DecimalComma, DecimalUndeclared, "", "", `"1.5" has a decimal point but the manifest declares decimal = ","`},
		{"1.5", DecimalPoint, DecimalUndeclared, "1.5", "", ""},
		{"1.234", DecimalUndeclared, DecimalComma, "1.234", "", ""},
		{"1.234", DecimalComma, DecimalUndeclared, "1234", "", ""},
	}
	for _, tt := range tests {
		n, ok := ParseCell(tt.in)
		if !ok {
			t.Fatalf("ParseCell(%q) failed", tt.in)
		}
		got, warn, err := n.Resolve(tt.in, tt.dec, tt.seen)
		if !strings.Contains(err, tt.err) || (tt.err == "") != (err == "") || !strings.Contains(warn, tt.warn) || (tt.warn == "") != (warn == "") {
			t.Errorf("Resolve(%q, %q, %q): warning %q error %q, want %q %q", tt.in, tt.dec, tt.seen, warn, err, tt.warn, tt.err)
			continue
		}
		if err == "" && got.Value.String() != tt.value {
			t.Errorf("Resolve(%q, %q, %q) = %s, want %s", tt.in, tt.dec, tt.seen, got.Value, tt.value)
		}
	}
}

func TestUnreadable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"backend-a", ""}, {"10.244.0.7", ""}, {"10.244.0.7:80", ""}, {"fd00:10:244::7", ""}, {"1.2.3", ""},
		{"2026-07-09", ""}, {"12:00:01", ""}, {"0x1f", ""}, {"5xx", ""}, {"46/46 ok (retried)", ""}, {"N/A", ""},
		{"10.250.147.30(a)", ""},
		{"200,200,503", "a list of numbers"}, {"1e999", "an exponent beyond"}, {"12 parsec", "an unknown unit"}, {"12 furlongs", ""},
		{"12qps", "an unknown unit"}, {"12 qps", "an unknown unit"}, {"1/3", "not one number"}, {"1..2", "not one number"},
	}
	for _, tt := range tests {
		if got := Unreadable(tt.in); !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("Unreadable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// machineNumberRe is the JSON number grammar (leading zeros allowed) that
// IsMachineNumber implements with the shared digit scanner.
var machineNumberRe = regexp.MustCompile(`^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

func FuzzMachineNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.5", "1e3", "8.9e-05", "1,234", "１２", "5.", ".5", "1.2.3", "007", "1E+2", "-", "1e", "1 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := machineNumberRe.MatchString(s)
		// More than unit.MaxDigits digits before the exponent is no
		// measurement: IsMachineNumber refuses it.
		if mant, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(s, "-")), "e"); len(strings.Replace(mant, ".", "", 1)) > unit.MaxDigits {
			want = false
		}
		if got := IsMachineNumber(s); got != want {
			t.Errorf("isMachineNumber(%q) = %v, want %v", s, got, want)
		}
	})
}
