package viewer

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/shopspring/decimal"
)

func TestExplainDerived(t *testing.T) {
	st := referenceStore(t)
	tests := []struct {
		ref                   string
		places                int
		expr, numbers, result string
		approx                bool
		inputs                int
	}{
		{"dns-inflight-part2/strict.upstream_cx_destroy.d_after", 0, "after − mid2", "", "+1", false, 2},
		{"dns-inflight-part2/strict.upstream_cx_destroy_with_active_rq.d_run", 0, "after − before", "1 − 1", "0", false, 2},
	}
	for _, tc := range tests {
		v, ok := st.Lookup(tc.ref)
		if !ok {
			t.Fatalf("no value %s", tc.ref)
		}
		d, ok := explainDerived(v, st, tc.places)
		if !ok {
			t.Fatalf("%s: not explained", tc.ref)
		}
		if d.Expr != tc.expr || (tc.numbers != "" && d.Numbers != tc.numbers) || d.Result != tc.result || d.Approx != tc.approx || len(d.Inputs) != tc.inputs {
			t.Errorf("%s: got %q = %q = %q (approx %v, %d inputs); want %q = %q = %q", tc.ref, d.Expr, d.Numbers, d.Result, d.Approx, len(d.Inputs), tc.expr, tc.numbers, tc.result)
		}
	}
}

func TestRenderDerivation(t *testing.T) {
	tests := []struct {
		expr, want string
	}{
		{"delta(s.a.before, s.a.after)", "after − before"},
		{"percent(ok, total)", "ok / total"},
		{"sum(r.run1.x, r.run2.x)", "run1.x + run2.x"},
		{"(a - b) / c", "(a − b) / c"},
		{"mean(a, b)", "mean(a, b)"},
		{"a * 2", "a × 2"},
	}
	for _, tc := range tests {
		tree, err := parserParse(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		names := collectNames(tree)
		short := shortNames(names)
		got, ok := renderExpr(tree, func(n string) string { return short[n] })
		if !ok || got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.expr, got, tc.want)
		}
	}
}

func TestFormatQuantity(t *testing.T) {
	tests := []struct {
		v      string
		unit   string
		signed bool
		want   string
	}{
		{"56.1", "%", false, "56.1%"},
		{"1", "", true, "+1"},
		{"-2", "count", true, "−2"},
		{"0", "", true, "0"},
		{"18.1", "s", false, "18.1 s"},
		{"3", "/s", false, "3 /s"},
	}
	for _, tc := range tests {
		if got := formatQuantity(decimal.RequireFromString(tc.v), tc.unit, tc.signed); got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}

// TestShownDecimal holds, over every value of the reference site, that
// pages show no number with more than maxShownDigits significant digits,
// that a value short enough is shown exactly (not marked ≈), and that a
// rounded one is the value rounded (within half a unit of its last
// shown digit) and marked ≈; and, on the quotients the Q&A page cites,
// the digits their inputs justify.
func TestShownDecimal(t *testing.T) {
	st := referenceStore(t)
	n, rounded := 0, 0
	{
		for _, v := range st.Values() {
			n++
			r, approx := shownDecimal(v, st)
			s := shownQuantity(v, st)
			if d := sigDigits(r); d > maxShownDigits {
				t.Errorf("%s: shown %s has %d significant digits", v.Ref, s, d)
			}
			if sigDigits(v.Value) <= maxShownDigits {
				if approx || !r.Equal(v.Value) || strings.HasPrefix(s, "≈") {
					t.Errorf("%s: %s shown as %s", v.Ref, v.Value, s)
				}
				continue
			}
			rounded++
			half := decimal.New(5, r.Exponent()-1)
			if !approx || !strings.HasPrefix(s, "≈") || r.Sub(v.Value).Abs().GreaterThan(half) {
				t.Errorf("%s: %s shown as %s (approx %v)", v.Ref, v.Value, s, approx)
			}
		}
	}
	if n < 100 || rounded == 0 {
		t.Errorf("%d values, %d rounded: the reference site should have long quotients", n, rounded)
	}
	// 18/41 as a percentage: inputs of 2 digits justify 5.
	v, ok := st.Lookup("dns-passthrough-tcp/d1.tcp.fail_pct")
	if !ok {
		t.Fatal("no value dns-passthrough-tcp/d1.tcp.fail_pct")
	}
	if got := shownQuantity(v, st); v.Value.String() != "43.9024390243902439024390243902" || got != "≈43.902%" {
		t.Errorf("d1.tcp.fail_pct %s shown as %q, want ≈43.902%%", v.Value, got)
	}
}

func TestSigDigits(t *testing.T) {
	for _, tc := range []struct {
		in     string
		digits int
		round  int
		want   string
	}{
		{"409610", 6, 3, "410000"},
		{"0.21", 2, 1, "0.2"},
		{"0.210", 2, 2, "0.21"},
		{"43.9024390243902439024390243902", 30, 5, "43.902"},
		{"-56.0975609756097560975609756098", 30, 5, "-56.098"},
		{"0.000123456", 6, 2, "0.00012"},
		{"0", 1, 3, "0"},
	} {
		d := decimal.RequireFromString(tc.in)
		if got := sigDigits(d); got != tc.digits {
			t.Errorf("sigDigits(%s) = %d, want %d", tc.in, got, tc.digits)
		}
		if got := roundSignificant(d, tc.round).String(); got != tc.want {
			t.Errorf("roundSignificant(%s, %d) = %s, want %s", tc.in, tc.round, got, tc.want)
		}
	}
}

// referenceStore is the evidence of the reference site at the
// repository's root.
func referenceStore(t *testing.T) *evidence.Store {
	t.Helper()
	s, err := project.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	return s.Store
}
