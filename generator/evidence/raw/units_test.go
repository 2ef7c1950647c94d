package raw

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestFormatUnits: readers attach the unit their format defines.
func TestFormatUnits(t *testing.T) {
	tests := []struct {
		format, src string
		want        map[string]string // key -> unit
	}{
		{"fortio-json", `{"ActualDuration": 10004567890, "ActualQPS": 99.9, "NumThreads": 4,
"DurationHistogram": {"Count": 1000, "Avg": 0.0123, "Percentiles": [{"Percentile": 99, "Value": 0.0281}]},
"ErrorsDurationHistogram": {"Count": 0, "Max": 0.5}, "Sizes": {"Avg": 847}, "RetCodes": {"200": 1000}}`,
			map[string]string{"ActualDuration": "ns", "ActualQPS": "/s", "NumThreads": "", "DurationHistogram.Count": "", "DurationHistogram.Avg": "s",
				"DurationHistogram.p99": "s", "ErrorsDurationHistogram.Max": "s", "Sizes.Avg": "B", "RetCodes.200": ""}},
		{"fortio-text", "All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n# target 50% 0.00625\n",
			map[string]string{"calls": "", "avg_ms": "ms", "qps": "/s", "target.p50": "s"}},
		{"curl-writeout", "time_total: 0.534\ntime_connect_us: 1200\nsize_download: 4096\nhttp_code: 200\nTIME=1.5\n",
			map[string]string{"time_total": "s", "time_connect_us": "us", "size_download": "B", "http_code": "", "TIME": ""}},
		{"dig", ";; Query time: 4 msec\n;; MSG SIZE  rcvd: 108\nx. 300 IN A 1.2.3.4\n; EDNS: version: 0, flags:; udp: 1232\n" +
			"s. 8 IN SRV 10 5 25395 t.\nm. 5 IN MX 10 mail.\nz. 5 IN SOA ns1.z. host.z. 1 3600 600 604800 3600\n",
			map[string]string{"query_time_ms": "ms", "msg_size": "B", "answer.x.A.ttl": "s", "edns_version": "", "edns_udp_size": "B",
				"answer.s.SRV.priority": "", "answer.s.SRV.weight": "", "answer.s.SRV.port": "", "answer.m.MX.preference": "",
				"answer.z.SOA.serial": "", "answer.z.SOA.refresh": "s", "answer.z.SOA.minimum": "s"}},
		{"envoy-stats", "cluster.c.upstream_rq_time: P50(1,2) P99(3,4) P99.5(5,6) P99.9(7,8)\ncluster.c.upstream_cx_length_ms: P50(5,6)\ncluster.c.upstream_cx_total: 7\nh.rq_time: B1(0,1)\n",
			map[string]string{"cluster.c.upstream_rq_time.p50": "ms", "cluster.c.upstream_rq_time.p99.cumulative": "ms",
				"cluster.c.upstream_rq_time.p99.5": "ms", "cluster.c.upstream_rq_time.p99.9.cumulative": "ms",
				"cluster.c.upstream_cx_length_ms.p50": "ms", "cluster.c.upstream_cx_total": "", "h.rq_time.b1": ""}},
		// a "#" inside a stat name is not a repeated key's "#N" suffix
		{"envoy-stats", "a#b.rq_time: P0(0,0)\nc#2.rq_time: P50(1,2)\n",
			map[string]string{"a#b.rq_time.p0": "ms", "a#b.rq_time.p0.cumulative": "ms", "c#2.rq_time.p50": "ms"}},
		{"curl-writeout", "time_total: 0.5\ntime_total: 0.6\n", map[string]string{"time_total": "s", "time_total#2": "s"}},
		{"envoy-stats-json", `{"stats": [{"histograms": {"supported_quantiles": [50], "computed_quantiles": [{"name": "cluster.c.upstream_rq_time", "values": [{"interval": 1, "cumulative": 2}]}]}}]}`,
			map[string]string{"cluster.c.upstream_rq_time.p50": "ms", "cluster.c.upstream_rq_time.p50.cumulative": "ms"}},
		{"prometheus", "a_seconds 1.5\na_seconds_sum 3\na_seconds_count 2\na_seconds_bucket{le=\"0.5\"} 1\n" +
			"b_bytes_total 4096\nc_ms{quantile=\"0.99\"} 12\nd_total 7\nenvoy_cluster_upstream_rq_time_sum{x=\"y\"} 1234.5\n" +
			"envoy_cluster_upstream_rq_time_bucket{le=\"0.5\"} 3\ne_ratio 0.5\nf_microseconds 3\n",
			map[string]string{"a_seconds": "s", "a_seconds_sum": "s", "a_seconds_count": "", `a_seconds_bucket{le="0.5"}`: "",
				"b_bytes_total": "B", `c_ms{quantile="0.99"}`: "ms", "d_total": "", `envoy_cluster_upstream_rq_time_sum{x="y"}`: "ms",
				`envoy_cluster_upstream_rq_time_bucket{le="0.5"}`: "", "e_ratio": "", "f_microseconds": "us"}},
		{"csv", "host,latency_ms,dur_s,Elapsed_Seconds,size_bytes,p (ms),n [bytes],errors,ok_pct,miss\nh,12,1.5,2,4096,7,8,3,99.5,5ms\n",
			map[string]string{"r1.latency_ms": "ms", "r1.dur_s": "s", "r1.Elapsed_Seconds": "s", "r1.size_bytes": "B", "r1.p (ms)": "ms",
				"r1.n [bytes]": "B", "r1.errors": "", "r1.ok_pct": "%", "r1.miss": "ms"}},
	}
	for _, tt := range tests {
		read, _ := ReaderFor(tt.format)
		rs, errs := read("f", []byte(tt.src), ReadOptions{})
		if errs.HasErrors() {
			t.Fatalf("%s: %v", tt.format, errs)
		}
		got := map[string]string{}
		for _, r := range rs {
			got[r.Key] = r.Number.Unit
		}
		for k, u := range tt.want {
			if g, ok := got[k]; !ok || g != u {
				t.Errorf("%s: %s unit %q (read %v), want %q", tt.format, k, g, ok, u)
			}
		}
	}
}

// TestCSVColumnUnitConflict: a cell writing a unit other than its
// column's is an error at the cell, and the cell is not read.
func TestCSVColumnUnitConflict(t *testing.T) {
	rs, errs := ReadCSV("f.csv", []byte("latency_ms,n\n1.5s,2\n12ms,3\n"), ReadOptions{})
	if len(errs) != 1 || errs[0].Pos.String() != "f.csv:2:1" || !strings.Contains(errs[0].Message, `"latency_ms" is in ms`) {
		t.Fatalf("errs = %v", errs)
	}
	got := map[string]string{}
	for _, r := range rs {
		got[r.Key] = r.Number.Value.String() + r.Number.Unit
	}
	if want := map[string]string{"r2.latency_ms": "12ms", "r1.n": "2", "r2.n": "3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("readings %v, want %v", got, want)
	}
}

// Case n4: every quantile of an Envoy time histogram, P99.5 and P99.9
// included, gets the ms its siblings get.
func TestCaseEnvoyQuantileUnits(t *testing.T) {
	a, err := txtar.ParseFile("testdata/cases/n4-envoy-p999-unit.txtar")
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := checkNoVanish(t, "envoy-stats", a.Files[0].Data, ReadOptions{})
	if len(rs) != 20 {
		t.Errorf("%d readings, want 20 (2 histograms × 10 cumulative quantiles; the intervals are nan)", len(rs))
	}
	for _, r := range rs {
		if r.Number.Unit != "ms" {
			t.Errorf("%s = %s has unit %q, want ms", r.Key, r.Raw, r.Number.Unit)
		}
	}
}
