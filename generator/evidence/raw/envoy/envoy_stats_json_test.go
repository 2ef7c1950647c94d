package envoy_test

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzEnvoyStatsJSON(f *testing.F) {
	rawtest.AddSamples(f, "envoy-stats-json",
		`{"stats":[{"name":"a","value":1},{"name":"s","value":"53"},{"name":"t","value":"text"},{"histograms":{"supported_quantiles":[0,50],"computed_quantiles":[{"name":"h","values":[{"interval":null,"cumulative":1},{"interval":"2","cumulative":3}]}]}}]}`,
		`{"stats":[{"supported_percentiles":[0,50]},{"histograms":[{"name":"h","totals":[[1,0.25,25]],"intervals":[],"percentiles":[1,2.5]}]}]}`,
		`{"histograms":{"supported_percentiles":[0],"details":[{"name":"h","percentiles":[{"interval":1,"cumulative":2}],"totals":[{"lower_bound":1,"width":0.25,"count":25}]}]}}`,
		`[{"name":"x","value":1e-05},{"name":"y","value":"\u0031"}]`)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, "envoy-stats-json", src) })
}

func TestReadEnvoyStatsJSON(t *testing.T) {
	runEnvoyCases(t, "envoy-stats-json", []envoyCase{
		{name: "counters, gauges, text readouts and numeric strings",
			src: `{"stats":[{"name":"cluster.outbound|80||a.b.upstream_rq_retry","value":5},` +
				`{"value":18446744073709551615,"name":"big"},` +
				`{"name":"server.version_text","value":"1.30.1"},` +
				`{"name":"benchmark.http_2xx","value":"53"},` +
				`{"name":"never_set"},{"name":"nul","value":null}]}`,
			want: map[string]string{
				"cluster.outbound|80||a.b.upstream_rq_retry": "5",
				"big":                "18446744073709551615",
				"benchmark.http_2xx": "53",
			}},
		{name: "computed quantiles",
			src: `{"stats":[{"name":"c","value":1},{"histograms":{"supported_quantiles":[0,25,99.9],` +
				`"computed_quantiles":[{"name":"h","values":[{"interval":null,"cumulative":1.0351851851851852},` +
				`{"interval":2,"cumulative":"3"},{"cumulative":4,"interval":1e-05}]}]}}]}`,
			want: map[string]string{
				"c":                  "1",
				"h.p0.cumulative":    "1.0351851851851852",
				"h.p25":              "2",
				"h.p25.cumulative":   "3",
				"h.p99.9":            "1e-05",
				"h.p99.9.cumulative": "4",
			}},
		{name: "bare array and bare histograms object",
			src:  `[{"value": 0, "name": "a"}, {"value": 3, "name": "b"}]`,
			want: map[string]string{"a": "0", "b": "3"}},
		{name: "detailed",
			src: `{"stats":[{"histograms":{"supported_percentiles":[0,50],"details":[{"name":"h",` +
				`"totals":[{"lower_bound":1,"width":0.25,"count":25}],"intervals":[{"lower_bound":2,"width":0.25,"count":3}],` +
				`"percentiles":[{"interval":null,"cumulative":1},{"interval":1.5,"cumulative":2}]}]}}]}`,
			want: map[string]string{
				"h.totals.1,0.25":    "25",
				"h.intervals.2,0.25": "3",
				"h.p0.cumulative":    "1",
				"h.p50":              "1.5",
				"h.p50.cumulative":   "2",
			}},
		{name: "cumulative buckets",
			src:  `{"histograms":[{"name":"h","buckets":[{"upper_bound":0.5,"interval":0,"cumulative":1},{"upper_bound":3600000,"interval":2,"cumulative":600}]}]}`,
			want: map[string]string{"h.b0.5": "0", "h.b0.5.cumulative": "1", "h.b3600000": "2", "h.b3600000.cumulative": "600"}},
		{name: "combined",
			src: `{"stats":[{"supported_percentiles":[0,50]},{"histograms":[{"name":"h",` +
				`"totals":[[1,0.25,25]],"intervals":[[1,0.25,2]],"percentiles":[1,2.5]}]}]}`,
			want: map[string]string{"h.totals.1,0.25": "25", "h.intervals.1,0.25": "2", "h.p0.cumulative": "1", "h.p50.cumulative": "2.5"}},
		{name: "missing comma",
			src:  "{\n  \"stats\": [\n    {\"interval\": null \"cumulative\": 1}\n  ]\n}\n",
			errs: []string{"3:23: invalid JSON: unexpected '\"' after object value; expected ',' or '}'"}},
		{name: "trailing comma",
			src:  "{\"stats\": [1,]}",
			errs: []string{"1:14: invalid JSON: unexpected ']' after ','; expected a value"}},
		{name: "trailing comma in object",
			src:  "{\"a\": 1,}",
			errs: []string{"1:9: invalid JSON: unexpected '}' after ','; expected a string key"}},
		{name: "unterminated string", src: "{\"stats\": [\"ab", errs: []string{"1:15: unterminated string"}},
		{name: "bad number", src: "[01]", errs: []string{"1:3: invalid JSON: unexpected '1' after array element"}},
		{name: "bad literal", src: "[nul]", errs: []string{"1:2: expected a JSON value"}},
		{name: "trailing garbage", src: "[] x", errs: []string{"1:4: expected end of file"}},
		{name: "duplicate key", src: `{"stats":[], "stats":[]}`, errs: []string{"1:14: duplicate key"}},
		{name: "too deep", src: strings.Repeat("[", 600), errs: []string{"1:513: nesting deeper"}},
		{name: "empty file", src: "", errs: []string{"1:1: unexpected end of file"}},
		{name: "shape errors",
			src: "{\"stats\":[\n7,\n{\"name\":\"b\",\"value\":true},\n{\"value\":1},\n" +
				"{\"histograms\":{\"supported_quantiles\":[0],\"computed_quantiles\":[{\"name\":\"h\",\"values\":[{\"cumulative\":1},{\"cumulative\":2}]}]}},\n" +
				"{\"name\":\"s\",\"value\":\"1e9999\"}\n]}",
			want: map[string]string{"h.p0.cumulative": "1"},
			errs: []string{
				"2:1: stats entry is a number",
				"3:21: value is a boolean",
				"4:1: has no \"name\"",
				"5:103: more values than the 1 supported quantiles",
				"6:22: exponent beyond",
			}},
		{name: "not Envoy", src: `{"a": 1}`, errs: []string{"1:1: without \"stats\""}},
	})
}
