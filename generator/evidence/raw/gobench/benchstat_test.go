package gobench_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/gobench"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"

	"strings"
	"testing"
)

// TestBenchstatRowNames holds where a benchstat row's name comes from: the
// row, or the ".fullname:" heading above a table whose rows have none; a
// row whose name cannot be known is an error at the row, never a value
// read under another name (the first value taken as the name shifted
// every value one column left).
func TestBenchstatRowNames(t *testing.T) {
	const hdr = " │   a    │          b           │\n │ sec/op │ sec/op   vs base     │\n"
	for _, tc := range []struct {
		name, src string
		want      []string // key=value of the readings without _var, p, n
		err       string   // a substring of the one error, "" for none
	}{
		{"heading names the row", ".fullname: Get/1_B-10\n" + hdr + "   9.5n ± 1%   9.9n ± 1%  +4.21% (p=0.000 n=10)\n",
			[]string{"Get/1_B.sec_op.a=9.5", "Get/1_B.sec_op.b=9.9", "Get/1_B.sec_op.delta=4.21"}, ""},
		{"no heading: an error, not a shift", hdr + "   9.5n ± 1%   9.9n ± 1%  +4.21% (p=0.000 n=10)\n",
			nil, "without a name"},
		{"a heading of another key names nothing", "/size: 1B\n" + hdr + "   9.5n ± 1%   9.9n ± 1%  +4.21% (p=0.000 n=10)\n",
			nil, "without a name"},
		{"second unnamed row", ".fullname: X-8\n" + hdr + "   9.5n ± 1%   9.9n ± 1%  ~ (p=0.3 n=10)\n   8.5n ± 1%   8.9n ± 1%  ~ (p=0.3 n=10)\n",
			[]string{"X.sec_op.a=9.5", "X.sec_op.b=9.9"}, "second benchstat row without a name"},
		{"empty base cell keeps b in b", " │   a    │          b           │\n │ sec/op │ sec/op   vs base     │\nR-8            9.9n ± 1%\n",
			[]string{"R.sec_op.b=9.9"}, ""},
		{"old format, empty old cell", "name  old time/op  new time/op  delta\nR-8                  451µs ± 5%\n",
			[]string{"R.time_op.new=451"}, ""},
		{"tab in a row", "name  old time/op  new time/op  delta\nR-8\t825µs ±11%   451µs ± 5%\n", nil, "tab in a benchstat row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, errs := rawtest.AllOf(gobench.ReadBenchstat("f", []byte(tc.src), raw.ReadOptions{}))
			var got []string
			for _, r := range rs {
				if strings.HasSuffix(r.Key, "_var") || strings.HasSuffix(r.Key, ".p") || strings.HasSuffix(r.Key, ".n") {
					continue
				}
				got = append(got, r.Key+"="+r.Number.Value.String())
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("readings %q, want %q", got, tc.want)
			}
			switch {
			case tc.err == "" && errs.HasErrors():
				t.Errorf("errors: %v", errs)
			case tc.err != "" && (len(errs) != 1 || !strings.Contains(errs[0].Message, tc.err)):
				t.Errorf("diagnostics %v, want one error with %q", errs, tc.err)
			}
		})
	}
}

// TestGoBenchPairsNeverShift holds that a go test -bench line whose
// metrics are not value-unit pairs (a value missing) is a warning and not
// read: 12 ns/op, B/op 3, allocs/op 4.5 would pair 4.5 with allocs/op.
func TestGoBenchPairsNeverShift(t *testing.T) {
	src := "BenchmarkA-8   100   12 ns/op   B/op   3 allocs/op   4.5\nBenchmarkB-8   100   12 ns/op   64 B/op   3 allocs/op\n"
	rs, errs := rawtest.AllOf(gobench.ReadGoBench("f", []byte(src), raw.ReadOptions{}))
	for _, r := range rs {
		if strings.HasPrefix(r.Key, "A.") {
			t.Errorf("reading %s = %s from a line whose pairs are shifted", r.Key, r.Number.Value)
		}
	}
	if len(rs) != 4 {
		t.Errorf("%d readings, want the 4 of B", len(rs))
	}
	if len(errs) != 1 || errs[0].Pos.Line != 1 || !strings.Contains(errs[0].Message, "not \"value unit\" pairs") {
		t.Errorf("diagnostics %v, want one warning on line 1", errs)
	}
}
