package cmdtools_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzCurlWriteout(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		"time_namelookup:  0.001\ntime_total: 1,232s\n", "TIME=40,045811 CODE=200 url=http://x:80/?a=1\n",
		"1,232\n0.534 + 0.545 = 0.545\nhttp://x/a,0.1,4682\n", `{"time_total":0.5,"x":{"y":1}}` + "\n", "$ curl \\\n  -w x=1\n",
	}, "curl-writeout")
}

func TestReadCurlWriteout(t *testing.T) {
	rawtest.RunFormatCases(t, "curl-writeout", []rawtest.FormatCase{
		{Name: "key colon lines", Src: "    time_namelookup:  0.001\n         time_total:  1.844000\n", Count: 2, Want: map[string][2]string{
			"time_namelookup": {"0.001", "0.001"}, "time_total": {"1.844", "1.844000"}}},
		{Name: "key=value tokens", Src: "CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200 who=backend-a\n", Count: 4, Want: map[string][2]string{
			"CURL_EXIT": {"0", "0"}, "SIZE": {"409610", "409610"}, "TIME": {"40.045811", "40.045811"}, "CODE": {"200", "200"}}},
		{Name: "unit s", Src: "time_total: 0.5s\n", Want: map[string][2]string{"time_total": {"0.5", "0.5s"}}},
		{Name: "locale comma keyed", Src: "TIME=40,045811 CODE=200\n", Want: map[string][2]string{"TIME": {"40.045811", "40,045811"}},
			Diags: []string{"f:1:6: warning: decimal comma in \"40,045811\" read as 40.045811", "[evidence-curl-locale]"}},
		{Name: "locale comma line", Src: "1,232\n1.232\n", Want: map[string][2]string{"value": {"1.232", "1,232"}, "value#2": {"1.232", "1.232"}},
			Diags: []string{"f:1:1: warning:"}},
		{Name: "three-digit locale comma is a decimal mark: curl never groups thousands", Src: "TIME=1,232\n", Want: map[string][2]string{"TIME": {"1.232", "1,232"}},
			Diags: []string{`f:1:6: warning: decimal comma in "1,232" read as 1.232`, "[evidence-curl-locale]"}},
		{Name: "declared decimal comma: no warning", Src: "TIME=1,232 SIZE=409610\n", Opt: raw.ReadOptions{Decimal: raw.DecimalComma},
			Want: map[string][2]string{"TIME": {"1.232", "1,232"}, "SIZE": {"409610", "409610"}}},
		{Name: "decimal comma contradicts declared point", Src: "TIME=40,045811\n", Opt: raw.ReadOptions{Decimal: raw.DecimalPoint}, Count: 0,
			Diags: []string{`f:1:6: error: "40,045811" has a decimal comma but the manifest declares decimal = "."`, "[evidence-decimal]"}},
		{Name: "decimal point contradicts declared comma", Src: "time_total: 0.534\n", Opt: raw.ReadOptions{Decimal: raw.DecimalComma}, Count: 0,
			Diags: []string{`f:1:13: error: "0.534" has a decimal point but the manifest declares decimal = ","`}},
		{Name: "point never groups thousands in curl", Src: "time_total: 1.232\n", Opt: raw.ReadOptions{Decimal: raw.DecimalComma},
			Diags: []string{`error: "1.232" has a decimal point`}},
		{Name: "e-notation and full-width digits", Src: "time_total: 8.9e-05\nSIZE=１２\n", Want: map[string][2]string{
			"time_total": {"0.000089", "8.9e-05"}, "SIZE": {"12", "１２"}}},
		{Name: "repeated keys", Src: "time_total: 0.1\ntime_total: 0.2\ntime_total: 0.3\n", Want: map[string][2]string{
			"time_total": {"0.1", "0.1"}, "time_total#2": {"0.2", "0.2"}, "time_total#3": {"0.3", "0.3"}}},
		{Name: "commands comments prose skipped", Src: "# time_total=9\n$ curl -w 'time_total=%{time_total}\\n' \\\n    time_total=8 http://x\nThe request took a while: about 3 seconds\n< Content-Length: 4682\ntime_total=0.25\n",
			Count: 1, Want: map[string][2]string{"time_total": {"0.25", "0.25"}}, Diags: []string{`f:4:33: warning: number "3" is not read by the curl-writeout format`}},
		{Name: "value lines", Src: "http://localhost/a,0.001196,4682,4682000.000\n0.534 + 0.545 = 0.545\n", Count: 6, Want: map[string][2]string{
			"value": {"0.001196", "0.001196"}, "value#3": {"4682000", "4682000.000"}, "value#6": {"0.545", "0.545"}}},
		{Name: "json write-out", Src: `{"time_total":0.5,"http_code":200,"url":"http://x"}` + "\n", Count: 2, Want: map[string][2]string{
			"time_total": {"0.5", "0.5"}, "http_code": {"200", "200"}}},
		{Name: "no values", Src: "# only a comment\nsome prose here\n", Diags: []string{"f:1:1: error: no curl write-out values"}},
		// curl 7.74.0 printed time_* in integer microseconds (curl#6367).
		{Name: "integer seconds", Src: "time_total=74602\ntime_connect: 0\ntime_total_us=74602\n", Count: 3,
			Diags: []string{`f:1:12: warning: time_total = 74602 is read in seconds (74602 s), but curl prints seconds with a fraction; curl 7.74.0 printed time_* in integer microseconds (curl#6367), which would make it 0.074602 s`, "[evidence-plausible]"}},
		{Name: "CRLF and BOM", Src: "\xef\xbb\xbftime_total: 1.5\r\nSIZE=2\r\n", Want: map[string][2]string{"time_total": {"1.5", "1.5"}, "SIZE": {"2", "2"}}},
	})
}
