package site

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestExplainDerived(t *testing.T) {
	st := loadReference(t).Store
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
