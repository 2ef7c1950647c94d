package figure

import (
	"math"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestHistogramQuantile: percentiles are interpolated linearly inside
// the bucket their rank falls in, as Prometheus' histogram_quantile
// does; the bucket's upper bound (what a reader might take as the
// value) or the midpoint would be wrong, and the test fails on either.
func TestHistogramQuantile(t *testing.T) {
	h := promHistogram{unit: "s", buckets: []promBucket{
		{le: 0.005, n: 10}, {le: 0.01, n: 30}, {le: 0.05, n: 38}, {le: math.Inf(1), n: 40},
	}}
	for _, tc := range []struct {
		q    float64
		want float64
		ok   bool
	}{
		{10, 0.002, true},       // rank 4 of the first bucket [0, 0.005]: 0.005·4/10
		{50, 0.0075, true},      // rank 20: 10 below, 20 in (0.005, 0.01]: 0.005 + 0.005·10/20
		{90, 0.04, true},        // rank 36: 30 below, 8 in (0.01, 0.05]: 0.01 + 0.04·6/8
		{95, 0.05, true},        // rank 38: the bucket's top
		{99, math.NaN(), false}, // rank 39.6: in +Inf, no upper bound
	} {
		got, ok := h.quantile(tc.q)
		if ok != tc.ok || ok && math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("p%v = %v, %v; want %v, %v", tc.q, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := (promHistogram{buckets: []promBucket{{le: 1}, {le: math.Inf(1)}}}).quantile(50); ok {
		t.Error("a histogram counting nothing gave a percentile")
	}
}

// TestHistogramBound: the bounds are the le values as written, converted
// exactly to the figure's unit (0.005 s is 5 ms, not 5.000000000000001).
func TestHistogramBound(t *testing.T) {
	h := promHistogram{unit: "s", buckets: []promBucket{{le: 0.005, leTxt: "0.005", leDec: decimal.RequireFromString("0.005")}, {le: math.Inf(1), leTxt: "+Inf"}}}
	if v, txt := h.bound(0, "ms"); v != 5 || txt != "5" {
		t.Errorf("bound = %v %q; want 5 \"5\"", v, txt)
	}
	if _, txt := h.bound(1, "ms"); txt != "+Inf" {
		t.Errorf("last bound %q; want +Inf", txt)
	}
}

// TestParsePromLabels reads the label sets the prometheus reader writes
// into keys, values unescaped (a value may hold a comma or a quote).
func TestParsePromLabels(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // k=v;… sorted as written, "!" for not a label set
	}{
		{``, ``},
		{`{a="x",le="0.5"}`, `a=x;le=0.5`},
		{`{path="/a,b",le="+Inf"}`, `path=/a,b;le=+Inf`},
		{`{q="say "hi"",le="1"}`, `q=say "hi";le=1`},
		{`{a="x"`, `!`},
		{`{a="x",a="y"}`, `!`},
	} {
		m, ok := parsePromLabels(tc.in)
		got := "!"
		if ok {
			var parts []string
			for _, k := range []string{"a", "path", "q", "le"} {
				if v, ok := m[k]; ok {
					parts = append(parts, k+"="+v)
				}
			}
			got = strings.Join(parts, ";")
			if len(parts) != len(m) {
				got = "extra labels"
			}
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzParsePromLabels: no label set panics the parser, and every name
// and value it returns is text of its input.
func FuzzParsePromLabels(f *testing.F) {
	for _, s := range []string{``, `{a="x",le="0.5"}`, `{path="/a,b",le="+Inf"}`, `{q="say "hi"",le="1"}`, `{a="x"`, `{="x"}`, `{a=""}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := parsePromLabels(s)
		if !ok {
			return
		}
		for k, v := range m {
			if !strings.Contains(s, k+`="`+v+`"`) {
				t.Errorf("%q: label %s=%q is not in the input", s, k, v)
			}
		}
	})
}
