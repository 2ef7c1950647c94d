package raw

import "testing"

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
		{"dig", ";; Query time: 4 msec\n;; MSG SIZE  rcvd: 108\nx. 300 IN A 1.2.3.4\n",
			map[string]string{"query_time_ms": "ms", "msg_size": "B", "answer.x.A.ttl": "s"}},
		{"envoy-stats", "cluster.c.upstream_rq_time: P50(1,2) P99(3,4)\ncluster.c.upstream_cx_length_ms: P50(5,6)\ncluster.c.upstream_cx_total: 7\nh.rq_time: B1(0,1)\n",
			map[string]string{"cluster.c.upstream_rq_time.p50": "ms", "cluster.c.upstream_rq_time.p99.cumulative": "ms",
				"cluster.c.upstream_cx_length_ms.p50": "ms", "cluster.c.upstream_cx_total": "", "h.rq_time.b1": ""}},
		{"envoy-stats-json", `{"stats": [{"histograms": {"supported_quantiles": [50], "computed_quantiles": [{"name": "cluster.c.upstream_rq_time", "values": [{"interval": 1, "cumulative": 2}]}]}}]}`,
			map[string]string{"cluster.c.upstream_rq_time.p50": "ms", "cluster.c.upstream_rq_time.p50.cumulative": "ms"}},
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
