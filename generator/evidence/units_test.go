package evidence

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestRatioDeclarations: k6 reads a rate metric's rate as a ratio (1 is
// all); a manifest declaring % on it would make 1 read as 1 %, so the
// declaration is an evidence-unit error naming both units. A format that
// does not know (generic JSON) takes the declaration "ratio".
func TestRatioDeclarations(t *testing.T) {
	k6 := `{"metrics": {"checks": {"values": {"rate": 1, "passes": 3, "fails": 0}}}}`
	root := writeSet(t, "s", map[string]string{"k.json": k6, "evidence.toml": manifestHead +
		"[[read]]\nfile = \"k.json\"\nformat = \"k6\"\nname = \"k\"\nunits = { \"checks.rate\" = \"%\" }\n"})
	_, errs := LoadSet(root, "evidence/s")
	var found bool
	for _, e := range errs {
		if e.Rule == diag.EvidenceUnit && strings.Contains(e.Message, "is in ratio (as the k6 format defines it) but the manifest declares %") {
			found = true
		}
	}
	if !found {
		t.Errorf("declaring %% on k6's checks.rate: %v; want an evidence-unit error naming ratio and %%", errs)
	}

	root = writeSet(t, "s", map[string]string{"k.json": `{"success": 0.5}`, "evidence.toml": manifestHead +
		"[[read]]\nfile = \"k.json\"\nformat = \"json\"\nname = \"j\"\nunits = { \"success\" = \"ratio\" }\n"})
	set, errs := LoadSet(root, "evidence/s")
	if set == nil || errs.HasErrors() {
		t.Fatal(errs)
	}
	if u := set.get("j.success").Unit; u != "ratio" {
		t.Errorf("declared ratio: unit %q", u)
	}
}

// TestDerivedUnits: + - sum min max mean convert operands of one
// dimension into a common unit, exactly (Nighthawk's 0s 004ms 083us is
// 4083 us); a difference of two percentages or ratios is in points and
// records the percentage it is taken from; a value without a unit among
// units, or units of two dimensions, is an error.
func TestDerivedUnits(t *testing.T) {
	table := "## T\n| run | s | ms | us | pct | ratio | n |\n|---|---|---|---|---|---|---|\n| a | 1 | 4 | 83 | 44.6% | 0.9 | 7 |\n| b | 0 | 2 | 5 | 52% | 0.95 | 8 |\n"
	for _, tc := range []struct {
		expr, value, unit, from string
		err                     string
	}{
		{"t.a.s + t.a.ms + t.a.us", "1004083", "us", "", ""},
		{"sum(t.a.ms, t.a.us)", "4083", "us", "", ""},
		{"max(t.a.ms, t.b.us)", "4000", "us", "", ""},
		{"mean(t.a.ms, t.b.us)", "2002.5", "us", "", ""},
		{"t.a.ms - t.a.us", "3917", "us", "", ""},
		{"delta(t.a.pct, t.b.pct)", "7.4", "%p", "44.6", ""},
		{"t.b.pct - t.a.pct", "7.4", "%p", "44.6", ""},
		{"t.b.ratio - t.a.ratio", "5", "%p", "90", ""},
		{"delta(t.a.ratio, t.b.pct)", "-38", "%p", "90", ""},
		{"1 - t.b.ratio", "0.05", "ratio", "", ""},
		{"100 - t.b.pct", "48", "%", "", ""},
		{"t.a.pct + t.b.ratio", "139.6", "%", "", ""},
		{"percent(delta(t.a.pct, t.b.pct), t.a.pct)", "16.5919282511210762331838565022", "%", "", ""},
		{"(100 - 2 * 25) + t.a.pct", "94.6", "%", "", ""},
		{"delta(delta(t.a.pct, t.b.pct), delta(t.b.pct, t.a.pct))", "-14.8", "%p", "", ""},
		{"t.a.ms + t.a.n", "", "", "", "+ cannot combine a value without a unit with one in ms"},
		{"t.a.ms + t.a.pct", "", "", "", "+ cannot combine ms and %"},
		{"delta(t.a.pct, t.a.ms)", "", "", "", "delta cannot combine % and ms"},
	} {
		m := manifestHead + "[[table]]\nfile = \"t.md\"\nheading = \"T\"\nname = \"t\"\nunits = { \"*.s\" = \"s\", \"*.ms\" = \"ms\", \"*.us\" = \"us\", \"*.ratio\" = \"ratio\" }\n[derived]\n\"x\" = \"" + tc.expr + "\"\n"
		root := writeSet(t, "s", map[string]string{"t.md": table, "evidence.toml": m})
		set, errs := LoadSet(root, "evidence/s")
		if tc.err != "" {
			if !strings.Contains(errs.Error(), tc.err) {
				t.Errorf("%s: errors %v; want %q", tc.expr, errs, tc.err)
			}
			continue
		}
		if set == nil || errs.HasErrors() {
			t.Errorf("%s: %v", tc.expr, errs)
			continue
		}
		v := set.get("x")
		if v.Value.String() != tc.value || v.Unit != tc.unit {
			t.Errorf("%s = %s %s; want %s %s", tc.expr, v.Value, v.Unit, tc.value, tc.unit)
		}
		from := ""
		if v.PointsFrom != nil {
			from = v.PointsFrom.String()
		}
		if from != tc.from {
			t.Errorf("%s: PointsFrom %q; want %q", tc.expr, from, tc.from)
		}
	}
}

// TestPointsDeclaredOnPercent: a column of percentages the raw text
// writes may be declared %p (differences in points); other declarations
// that contradict % stay errors.
func TestPointsDeclaredOnPercent(t *testing.T) {
	table := "## T\n| run | d |\n|---|---|\n| a | +3.1% |\n"
	for _, tc := range []struct {
		unit string
		ok   bool
	}{{"%p", true}, {"%", true}, {"ratio", false}, {"ms", false}} {
		m := manifestHead + "[[table]]\nfile = \"t.md\"\nheading = \"T\"\nname = \"t\"\nunits = { \"*.d\" = \"" + tc.unit + "\" }\n"
		root := writeSet(t, "s", map[string]string{"t.md": table, "evidence.toml": m})
		set, errs := LoadSet(root, "evidence/s")
		if tc.ok != !errs.HasErrors() {
			t.Errorf("declared %s on 3.1%%: errors %v; want ok %v", tc.unit, errs, tc.ok)
			continue
		}
		if tc.ok && set.get("t.a.d").Unit != tc.unit {
			t.Errorf("declared %s: unit %q", tc.unit, set.get("t.a.d").Unit)
		}
	}
}
