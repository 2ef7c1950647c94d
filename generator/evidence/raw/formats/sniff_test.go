package formats_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"os"
	"testing"
)

func TestSniff(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"r.md", "| a |\n", "markdown-tables"},
		{"x.CSV", "a,b\n", "csv"},
		{"r.json", `{"RetCodes": {"200": 1}}`, "fortio-json"},
		{"c.json", `{"cluster_statuses": []}`, "envoy-clusters-json"},
		{"s.json", `{"stats": [{"name": "a.b", "value": 1}]}`, "envoy-stats-json"},
		{"s.txt", `[{"name": "a.b", "value": 1}]`, "envoy-stats-json"},
		{"bad.json", `{"stats": [1 2]}`, "envoy-stats-json"},
		{"o.json", `{"a": 1}`, "json"},
		{"o.out", `{"a": 1}`, "json"},
		{"result.txt", "[D-2] title\n$ curl -w 'TIME=%{time_total}'\nTIME=1\n", "transcript"},
		{"c.txt", "outbound|80||x::10.0.0.1:80::rq_total::5\n", "envoy-clusters"},
		{"d.txt", ";; ANSWER SECTION:\nx. 5 IN A 1.2.3.4\n", "dig"},
		{"f.txt", "Code 200 : 3 (100.0 %)\n", "fortio-text"},
		{"f2.txt", "All done 3 calls (plus 0 warmup) 1 ms avg, 3 qps\n", "fortio-text"},
		{"w.txt", "time_namelookup: 0.1\n", "curl-writeout"},
		{"i.txt", "NAME   PORT\nx      80\n", "istioctl-table"},
		{"e.txt", "cluster.a.upstream_rq_total: 5\ncluster.a.upstream_rq_200: 5\n", "envoy-stats"},
		{"h.txt", "cluster.a.upstream_rq_time: P0(1000,1) P50(1050,200.161) P100(1100,4500)\n", "envoy-stats"},
		{"h2.txt", "http.admin.downstream_rq_time: No recorded values\n", "envoy-stats"},
		{"h3.txt", "http.admin.rq_time: B0.5(0,0) B1(0,1)\n", "envoy-stats"},
		{"p.txt", "# HELP a x\n# TYPE a counter\na 1\n", "prometheus"},
		{"p2.txt", "envoy_cluster_upstream_rq{envoy_cluster_name=\"x\"} 5\n", "prometheus"},
		{"t.txt", "hello\nx=1\n", "transcript"},
		{"empty", "", "transcript"},
	}
	for _, tt := range tests {
		if got := formats.Sniff(tt.name, []byte(tt.src)); got != tt.want {
			t.Errorf("Sniff(%q, %q) = %q, want %q", tt.name, tt.src, got, tt.want)
		}
	}
}

// Case 20: a one-line /stats?filter=upstream_rq_time save is read as
// envoy-stats, giving every quantile.
func TestSniffSingleHistogramLine(t *testing.T) {
	src, err := os.ReadFile("testdata/cases/20-single-histogram-line-sniff.txt")
	if err != nil {
		t.Fatal(err)
	}
	format := formats.Sniff("20-single-histogram-line-sniff.txt", src)
	if format != "envoy-stats" {
		t.Fatalf("Sniff = %s, want envoy-stats", format)
	}
	read, _ := formats.ReaderFor(format)
	rs, errs := read("f", src, raw.ReadOptions{})
	if errs != nil || len(rs) != 18 {
		t.Fatalf("%d readings, %v; want 18", len(rs), errs)
	}
	if r := rs[len(rs)-1]; r.Key != "cluster.weather-prod/weather/80/da39a3ee5e.upstream_rq_time.p100.cumulative" || r.Number.Value.String() != "4500" {
		t.Errorf("last reading %s = %s", r.Key, r.Number.Value)
	}
}
