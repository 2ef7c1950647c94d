package loadtest_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzFortioJSON(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		`{"RetCodes": {"200": 4, "-1": "2"}, "RequestedQPS": "30", "DurationHistogram": {"Count": "53", "Percentiles": [{"Percentile": 99.9, "Value": 1e-3}]}}`,
		`{"RetCodes": []}`, `[1]`, `{"RetCodes": {"200": 1e999}}`, `{"a": "\u00e9\"x"}`,
	}, "fortio-json")
}

func TestReadFortioJSON(t *testing.T) {
	src := `{
  "RequestedQPS": "30",
  "ActualQPS": 27.5,
  "ActualDuration": 2000000429,
  "NumThreads": 2,
  "Labels": "x",
  "RequestedDuration": "1m0.5s",
  "DurationHistogram": {
    "Count": "53", "Min": 0.05, "Max": 0.3, "Sum": 4.1, "Avg": 0.078, "StdDev": 0.05,
    "Data": [{"Start": 0.05, "End": 0.06, "Percent": 10, "Count": 5}],
    "Percentiles": [{"Percentile": 50, "Value": 0.065}, {"Value": 0.09, "Percentile": 99.9}]
  },
  "RetCodes": {"200": 56, "-1": "2"},
  "Sizes": {"Count": 56, "Avg": 847},
  "HeaderSizes": {"Count": 56, "Avg": 47314.5}
}
`
	rawtest.RunFormatCases(t, "fortio-json", []rawtest.FormatCase{
		{Name: "full", Src: src, Count: 23, Want: map[string][2]string{
			"RequestedDuration": {"60.5", "1m0.5s"}, "DurationHistogram.data.1.start": {"0.05", "0.05"}, "DurationHistogram.data.1.percent": {"10", "10"},
			"DurationHistogram.data.1.count": {"5", "5"},
			"RequestedQPS":                   {"30", "30"}, "ActualQPS": {"27.5", "27.5"}, "ActualDuration": {"2000000429", "2000000429"}, "NumThreads": {"2", "2"},
			"DurationHistogram.Count": {"53", "53"}, "DurationHistogram.StdDev": {"0.05", "0.05"},
			"DurationHistogram.p50": {"0.065", "0.065"}, "DurationHistogram.p99_9": {"0.09", "0.09"},
			"RetCodes.200": {"56", "56"}, "RetCodes.-1": {"2", "2"}, "Sizes.Avg": {"847", "847"}, "HeaderSizes.Avg": {"47314.5", "47314.5"}},
			Absent: []string{"Labels"}},
		{Name: "requested qps as number", Src: `{"RequestedQPS": 30, "RetCodes": {}}`, Want: map[string][2]string{"RequestedQPS": {"30", "30"}}},
		{Name: "syntax error", Src: "{\n  \"RetCodes\": {\"200\": 4,}\n}\n", Diags: []string{"f:2:25: error: invalid JSON: invalid character '}'", "[evidence-fortio-json]"}},
		{Name: "truncated", Src: "{\"RetCodes\": {", Diags: []string{"f:1:15: error: invalid JSON: unexpected end of JSON input"}},
		{Name: "not fortio", Src: "[1, 2]", Diags: []string{"f:1:1: error: JSON array is not a fortio result"}},
		{Name: "bad retcode", Src: `{"RetCodes": {"200": "many"}}`, Diags: []string{"f:1:22: error: RetCodes \"200\" is a string; expected a count"}},
		{Name: "huge exponent", Src: `{"RetCodes": {}, "X": 1e999}`, Diags: []string{"f:1:23: error: number 1e999"}},
	})
}
