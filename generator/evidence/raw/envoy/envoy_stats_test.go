package envoy_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/envoy"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"golang.org/x/tools/txtar"

	"strings"
	"testing"
)

func FuzzEnvoyStats(f *testing.F) {
	rawtest.AddSamples(f, "envoy-stats",
		"cluster.outbound|443||graph.facebook.com.upstream_rq_retry: 0\nh: P0(nan,2.0) P50(1,3.05)\nb: B0.5(0,1) B3.6e+06(2,5)\nn: No recorded values\nt: \"x: y\"\n",
		"h:\n  totals=1,0.25:25, 2,0.25:9\n  intervals=\n  summary=P0(1,1)\n\nx: 1e-05\n",
		"a: b: 3\n  stray=1\nhdr:\nx: 1e999\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, "envoy-stats", src) })
}

func TestReadEnvoyStats(t *testing.T) {
	runEnvoyCases(t, "envoy-stats", []envoyCase{
		{name: "counters and gauges",
			src: "cluster.outbound|443||graph.facebook.com.upstream_rq_retry: 0\n" +
				"listener.[::]:15001.downstream_cx_total: 17\n" +
				"http.async-client.no_cluster: 18446744073709551615\n",
			want: map[string]string{
				"cluster.outbound|443||graph.facebook.com.upstream_rq_retry": "0",
				"listener.[::]:15001.downstream_cx_total":                    "17",
				"http.async-client.no_cluster":                               "18446744073709551615",
			}},
		{name: "split on the last colon-space",
			src:  "a: b: 3\n",
			errs: []string{"1:3: contains white space"}},
		{name: "histogram quantiles, nan intervals give no reading",
			src: "h.rq_time: P0(nan,2.0) P50(1.5,3.05) P99.5(nan,17.985) P100(nan,18)\n",
			want: map[string]string{
				"h.rq_time.p0.cumulative":    "2.0",
				"h.rq_time.p50":              "1.5",
				"h.rq_time.p50.cumulative":   "3.05",
				"h.rq_time.p99.5.cumulative": "17.985",
				"h.rq_time.p100.cumulative":  "18",
			}},
		{name: "quantile labels are normalised decimals",
			src:  "h: P25.0(1,2) P99.90(3,4)\n",
			want: map[string]string{"h.p25": "1", "h.p25.cumulative": "2", "h.p99.9": "3", "h.p99.9.cumulative": "4"}},
		{name: "bucket summary",
			src:  "h: B0.5(0,1) B3.6e+06(2,5)\n",
			want: map[string]string{"h.b0.5": "0", "h.b0.5.cumulative": "1", "h.b3600000": "2", "h.b3600000.cumulative": "5"}},
		{name: "no recorded values, text readout, blank lines, trailing space",
			src:  "h: No recorded values\n\n  \t\nserver.version_text: \"1.30: dev\"\nx: 4  \n",
			want: map[string]string{"x": "4"}},
		{name: "detailed record",
			src: "http.admin.downstream_rq_time:\n" +
				"  totals=1,0.25:25, 2,0.25:9\n" +
				"  intervals=1,0.25:2, 2,0.25:3\n" +
				"  summary=P0(1,1) P50(2.0166,1.068)\n" +
				"next: 1\n",
			want: map[string]string{
				"http.admin.downstream_rq_time.totals.1,0.25":    "25",
				"http.admin.downstream_rq_time.totals.2,0.25":    "9",
				"http.admin.downstream_rq_time.intervals.1,0.25": "2",
				"http.admin.downstream_rq_time.intervals.2,0.25": "3",
				"http.admin.downstream_rq_time.p0":               "1",
				"http.admin.downstream_rq_time.p0.cumulative":    "1",
				"http.admin.downstream_rq_time.p50":              "2.0166",
				"http.admin.downstream_rq_time.p50.cumulative":   "1.068",
				"next": "1",
			}},
		{name: "detailed record with empty bucket lists",
			src:  "h:\n  totals=\n  intervals=\n  summary=P0(nan,1)\n",
			want: map[string]string{"h.p0.cumulative": "1"}},
		{name: "exponents",
			src:  "a: 1e-05\nb: 2.5E+3\nc: 1e999\n",
			want: map[string]string{"a": "1e-05", "b": "2.5E+3"},
			errs: []string{"3:4: exponent beyond"}},
		{name: "errors are positioned",
			src: "Hello from backend!: 51, 51.0%\n" +
				"prose without a colon\n" +
				"  indented=1\n" +
				"x: abc\n" +
				"h: P50(1,x)\n" +
				"h2: P50(1,2)  P99(1,2)\n" +
				"h3: P50[1,2]\n" +
				"hdr:\n" +
				"ok: 2\n" +
				"d:\n  bogus=1\n  totals=1:2\n",
			want: map[string]string{"ok": "2", "h.p50": "1", "h2.p50": "1", "h2.p50.cumulative": "2"},
			errs: []string{
				"1:6: contains white space",
				"2:1: expected \"name: value\"",
				"3:3: outside a histogram_buckets=detailed record",
				"4:4: expected a number",
				"5:10: expected a number or nan",
				"6:14: empty item",
				"7:5: is not a number; expected a number, a histogram summary",
				"8:1: no indented",
				"11:3: expected totals=, intervals= or summary=",
				"12:10: expected lower_bound,width:count",
			}},
		{name: "CRLF read", src: "a: 1\r\nb: 2\r\n", want: map[string]string{"a": "1", "b": "2"}},
		{name: "BOM read", src: "\xef\xbb\xbfa: 1\n", want: map[string]string{"a": "1"}},
		{name: "lone CR rejected", src: "a: 1\rb: 2\n", errs: []string{"1:5: carriage return inside a line"}},
		{name: "empty file", src: ""},
		{name: "no final newline", src: "a: 7", want: map[string]string{"a": "7"}},
	})
	// The error cap: ten errors and one note, nothing more.
	src := []byte(strings.Repeat("not a stat\n", 30))
	out, errs := rawtest.AllOf(envoy.ReadEnvoyStats("f", src, raw.ReadOptions{}))
	checkEnvoyOutput(t, src, out, errs)
	if len(errs) != raw.EnvoyMaxErrors+1 || !strings.Contains(errs[raw.EnvoyMaxErrors].Message, "more errors follow") {
		t.Errorf("error cap: got %d errors:\n%v", len(errs), errs)
	}
}

// TestCaseEnvoyQuantileUnits reads case n4 (testdata/cases): every
// quantile of an Envoy time histogram is in the histogram's unit
// (milliseconds), P99.5 and P99.9 as well as P0…P99 and P100, so a claim
// of the P99.9 in ms matches; the interval values (nan) give no reading.
func TestCaseEnvoyQuantileUnits(t *testing.T) {
	a, err := txtar.ParseFile("testdata/cases/n4-envoy-p999-unit.txtar")
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rawtest.CheckNoVanish(t, "envoy-stats", a.Files[0].Data, raw.ReadOptions{})
	if len(rs) != 20 {
		t.Errorf("%d readings, want 20 (2 histograms × 10 cumulative quantiles; the intervals are nan)", len(rs))
	}
	var p999 []string
	for _, r := range rs {
		if r.Number.Unit != "ms" {
			t.Errorf("%s = %s has unit %q, want ms", r.Key, r.Raw, r.Number.Unit)
		}
		if strings.HasSuffix(r.Key, ".upstream_rq_time.p99.9.cumulative") {
			p999 = append(p999, r.Key+"="+r.Raw)
		}
	}
	if len(p999) != 1 || !strings.HasSuffix(p999[0], "=48.5") {
		t.Errorf("upstream_rq_time's P99.9 readings: %v, want one of 48.5", p999)
	}
}
