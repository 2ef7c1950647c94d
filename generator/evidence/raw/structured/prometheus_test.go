package structured_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzPrometheus(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		"# HELP a x\n# TYPE a counter\na{b=\"c\",d=\"e\\\"f\"} 1.5e3 17\nb NaN\nc +Inf\n",
		"x_bucket{le=\"0.5\"} 3\nx_bucket{le=\"+Inf\"} 4\nx_sum 1.25\nx_count 4\n", "a{b=\"c\"} x\n", "a{b=} 1\n",
	}, "prometheus")
}

func TestReadPrometheus(t *testing.T) {
	envoy := "# TYPE envoy_cluster_upstream_rq_total counter\n" +
		"envoy_cluster_upstream_rq_total{envoy_cluster_name=\"outbound|80||httpbin.default.svc.cluster.local\"} 42\n" +
		"# TYPE envoy_cluster_upstream_rq_time histogram\n" +
		"envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name=\"x\",le=\"0.5\"} 3\n" +
		"envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name=\"x\",le=\"+Inf\"} 7\n" +
		"envoy_cluster_upstream_rq_time_sum{envoy_cluster_name=\"x\"} 1234.5\n" +
		"envoy_cluster_upstream_rq_time_count{envoy_cluster_name=\"x\"} 7\n" +
		"envoy_server_uptime 3600 1700000000000\n" +
		"envoy_server_nan NaN\n"
	rawtest.RunFormatCases(t, "prometheus", []rawtest.FormatCase{
		{Name: "envoy /stats/prometheus", Src: envoy, Count: 6, Want: map[string][2]string{
			`envoy_cluster_upstream_rq_total{envoy_cluster_name="outbound|80||httpbin.default.svc.cluster.local"}`: {"42", "42"},
			`envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name="x",le="0.5"}`:                               {"3", "3"},
			`envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name="x",le="+Inf"}`:                              {"7", "7"},
			`envoy_cluster_upstream_rq_time_sum{envoy_cluster_name="x"}`:                                           {"1234.5", "1234.5"},
			"envoy_server_uptime": {"3600", "3600"}},
			Absent: []string{"envoy_server_nan"}},
		{Name: "escapes, spaces and float forms", Src: "a{ b=\"x\\\"y\" , } .5\nb -5.e2\nc 1e3\n", Want: map[string][2]string{
			`a{b="x"y"}`: {"0.5", ".5"}, "b": {"-500", "-5.e2"}, "c": {"1000", "1e3"}}},
		{Name: "repeated key numbered", Src: "a 1\na 2\n", Want: map[string][2]string{"a": {"1", "1"}, "a#2": {"2", "2"}}},
		{Name: "bad value", Src: "a{b=\"c\"} x\n", Diags: []string{`f:1:10: error: value "x" of a{b="c"} is not a number`}},
		{Name: "bad label", Src: "a{b=c} 1\n", Diags: []string{"f:1:4: error: after label b: expected =\"value\""}},
		{Name: "unterminated label", Src: "a{b=\"c} 1\n", Diags: []string{"unterminated value"}},
		{Name: "not a sample", Src: "cluster.x.rq: 5\n", Diags: []string{"f:1:8: error: after cluster: expected a space"}},
		{Name: "empty", Src: "# only comments\n", Diags: []string{"f:1:1: error: no Prometheus samples"}},
	})
}
