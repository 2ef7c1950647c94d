package raw_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

func FuzzCurlWriteout(f *testing.F) {
	fuzzLabFormat(f, []string{
		"time_namelookup:  0.001\ntime_total: 1,232s\n", "TIME=40,045811 CODE=200 url=http://x:80/?a=1\n",
		"1,232\n0.534 + 0.545 = 0.545\nhttp://x/a,0.1,4682\n", `{"time_total":0.5,"x":{"y":1}}` + "\n", "$ curl \\\n  -w x=1\n",
	}, "curl-writeout")
}

func TestReadCurlWriteout(t *testing.T) {
	runFormatCases(t, "curl-writeout", []formatCase{
		{name: "key colon lines", src: "    time_namelookup:  0.001\n         time_total:  1.844000\n", count: 2, want: map[string][2]string{
			"time_namelookup": {"0.001", "0.001"}, "time_total": {"1.844", "1.844000"}}},
		{name: "key=value tokens", src: "CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200 who=backend-a\n", count: 4, want: map[string][2]string{
			"CURL_EXIT": {"0", "0"}, "SIZE": {"409610", "409610"}, "TIME": {"40.045811", "40.045811"}, "CODE": {"200", "200"}}},
		{name: "unit s", src: "time_total: 0.5s\n", want: map[string][2]string{"time_total": {"0.5", "0.5s"}}},
		{name: "locale comma keyed", src: "TIME=40,045811 CODE=200\n", want: map[string][2]string{"TIME": {"40.045811", "40,045811"}},
			diags: []string{"f:1:6: warning: decimal comma in \"40,045811\" read as 40.045811", "[evidence-curl-locale]"}},
		{name: "locale comma line", src: "1,232\n1.232\n", want: map[string][2]string{"value": {"1.232", "1,232"}, "value#2": {"1.232", "1.232"}},
			diags: []string{"f:1:1: warning:"}},
		{name: "three-digit locale comma is a decimal mark: curl never groups thousands", src: "TIME=1,232\n", want: map[string][2]string{"TIME": {"1.232", "1,232"}},
			diags: []string{`f:1:6: warning: decimal comma in "1,232" read as 1.232`, "[evidence-curl-locale]"}},
		{name: "declared decimal comma: no warning", src: "TIME=1,232 SIZE=409610\n", opt: raw.ReadOptions{Decimal: raw.DecimalComma},
			want: map[string][2]string{"TIME": {"1.232", "1,232"}, "SIZE": {"409610", "409610"}}},
		{name: "decimal comma contradicts declared point", src: "TIME=40,045811\n", opt: raw.ReadOptions{Decimal: raw.DecimalPoint}, count: 0,
			diags: []string{`f:1:6: error: "40,045811" has a decimal comma but the manifest declares decimal = "."`, "[evidence-decimal]"}},
		{name: "decimal point contradicts declared comma", src: "time_total: 0.534\n", opt: raw.ReadOptions{Decimal: raw.DecimalComma}, count: 0,
			diags: []string{`f:1:13: error: "0.534" has a decimal point but the manifest declares decimal = ","`}},
		{name: "point never groups thousands in curl", src: "time_total: 1.232\n", opt: raw.ReadOptions{Decimal: raw.DecimalComma},
			diags: []string{`error: "1.232" has a decimal point`}},
		{name: "e-notation and full-width digits", src: "time_total: 8.9e-05\nSIZE=１２\n", want: map[string][2]string{
			"time_total": {"0.000089", "8.9e-05"}, "SIZE": {"12", "１２"}}},
		{name: "repeated keys", src: "time_total: 0.1\ntime_total: 0.2\ntime_total: 0.3\n", want: map[string][2]string{
			"time_total": {"0.1", "0.1"}, "time_total#2": {"0.2", "0.2"}, "time_total#3": {"0.3", "0.3"}}},
		{name: "commands comments prose skipped", src: "# time_total=9\n$ curl -w 'time_total=%{time_total}\\n' \\\n    time_total=8 http://x\nThe request took a while: about 3 seconds\n< Content-Length: 4682\ntime_total=0.25\n",
			count: 1, want: map[string][2]string{"time_total": {"0.25", "0.25"}}, diags: []string{`f:4:33: warning: number "3" is not read by the curl-writeout format`}},
		{name: "value lines", src: "http://localhost/a,0.001196,4682,4682000.000\n0.534 + 0.545 = 0.545\n", count: 6, want: map[string][2]string{
			"value": {"0.001196", "0.001196"}, "value#3": {"4682000", "4682000.000"}, "value#6": {"0.545", "0.545"}}},
		{name: "json write-out", src: `{"time_total":0.5,"http_code":200,"url":"http://x"}` + "\n", count: 2, want: map[string][2]string{
			"time_total": {"0.5", "0.5"}, "http_code": {"200", "200"}}},
		{name: "no values", src: "# only a comment\nsome prose here\n", diags: []string{"f:1:1: error: no curl write-out values"}},
		// curl 7.74.0 printed time_* in integer microseconds (curl#6367).
		{name: "integer seconds", src: "time_total=74602\ntime_connect: 0\ntime_total_us=74602\n", count: 3,
			diags: []string{`f:1:12: warning: time_total = 74602 is read in seconds (74602 s), but curl prints seconds with a fraction; curl 7.74.0 printed time_* in integer microseconds (curl#6367), which would make it 0.074602 s`, "[evidence-plausible]"}},
		{name: "CRLF and BOM", src: "\xef\xbb\xbftime_total: 1.5\r\nSIZE=2\r\n", want: map[string][2]string{"time_total": {"1.5", "1.5"}, "SIZE": {"2", "2"}}},
	})
}
