package raw

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// lfCase is one reader input: the readings it must give (key -> value and
// raw text), keys it must not give, and diagnostics it must report (each
// a substring of one diagnostic's String(), such as "f:2:3: error:").
type lfCase struct {
	name   string
	src    string
	opt    ReadOptions
	want   map[string][2]string
	absent []string
	diags  []string
	count  int // exact number of readings when > 0
}

// lfValid asserts the invariants of every reader: positions inside src,
// Raw at Pos (aggregates named in aggregates excepted), Start/End over Raw.
func lfValid(t *testing.T, src []byte, rs []Reading, errs diag.List, aggregates map[string]string) {
	t.Helper()
	for _, e := range errs {
		inside(t, src, e.Pos)
	}
	for _, r := range rs {
		inside(t, src, r.Pos)
		for _, p := range r.Inputs {
			inside(t, src, p)
		}
		if pred, ok := aggregates[r.Key]; ok {
			if r.Raw != pred {
				t.Fatalf("count %s: raw %q, want the predicate %q", r.Key, r.Raw, pred)
			}
			continue
		}
		if r.Pos.Offset+len(r.Raw) > len(src) || string(src[r.Pos.Offset:r.Pos.Offset+len(r.Raw)]) != r.Raw {
			t.Fatalf("reading %s: raw %q is not at %v", r.Key, r.Raw, r.Pos)
		}
		if r.Raw == "" || r.Number.Start != 0 || r.Number.End != len(r.Raw) {
			t.Fatalf("reading %s: raw %q, number range [%d,%d)", r.Key, r.Raw, r.Number.Start, r.Number.End)
		}
	}
}

func runLFCases(t *testing.T, format string, cases []lfCase) {
	t.Helper()
	read, err := ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, errs := read("f", []byte(c.src), c.opt)
			lfValid(t, []byte(c.src), rs, errs, c.opt.CountWhere)
			got := map[string]Reading{}
			for _, r := range rs {
				if _, dup := got[r.Key]; dup {
					t.Errorf("duplicate key %q", r.Key)
				}
				got[r.Key] = r
			}
			for k, w := range c.want {
				r, ok := got[k]
				if !ok {
					t.Errorf("no reading %q; got %v", k, lfKeys(rs))
					continue
				}
				if r.Number.Value.String() != w[0] || r.Raw != w[1] {
					t.Errorf("%s = %s raw %q, want %s raw %q", k, r.Number.Value, r.Raw, w[0], w[1])
				}
			}
			for _, k := range c.absent {
				if _, ok := got[k]; ok {
					t.Errorf("unexpected reading %q", k)
				}
			}
			if c.count > 0 && len(rs) != c.count {
				t.Errorf("got %d readings %v, want %d", len(rs), lfKeys(rs), c.count)
			}
			for _, e := range errs {
				matched := false
				for _, d := range c.diags {
					if strings.Contains(e.String(), d) {
						matched = true
					}
				}
				if !matched {
					t.Errorf("unexpected diagnostic %v", e)
				}
			}
			for _, d := range c.diags {
				found := false
				for _, e := range errs {
					if strings.Contains(e.String(), d) {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic containing %q in %v", d, errs)
				}
			}
		})
	}
}

func lfKeys(rs []Reading) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

func TestLabFormatsRegistered(t *testing.T) {
	for _, f := range []string{"fortio-json", "fortio-text", "curl-writeout", "csv", "json", "istioctl-table", "dig"} {
		if _, err := ReaderFor(f); err != nil {
			t.Errorf("ReaderFor(%q): %v", f, err)
		}
	}
}

func TestReadFortioText(t *testing.T) {
	runLFCases(t, "fortio-text", []lfCase{
		{name: "codes with percent", src: "Code 200 : 18 (90.0 %)\nCode 503 : 2 (10.0 %)\n", count: 4, want: map[string][2]string{
			"code.200": {"18", "18"}, "code.200.pct": {"90", "90.0 %"}, "code.503": {"2", "2"}, "code.503.pct": {"10", "10.0 %"}}},
		{name: "2017 code without percent", src: "Code 200 : 300000\n", count: 1, want: map[string][2]string{"code.200": {"300000", "300000"}}},
		{name: "socket error code", src: "Code -1 : 3 (1.5 %)\n", want: map[string][2]string{"code.-1": {"3", "3"}, "code.-1.pct": {"1.5", "1.5 %"}}},
		{name: "sockets", src: "Sockets used: 3 (for perfect keepalive, would be 2)\n", count: 1, want: map[string][2]string{"sockets_used": {"3", "3"}}},
		{name: "all done", src: "All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n", count: 4, want: map[string][2]string{
			"calls": {"20", "20"}, "warmup": {"0", "0"}, "avg_ms": {"7.917", "7.917 ms"}, "qps": {"2517.8", "2517.8"}}},
		{name: "targets", src: "# target 50% 0.00625\n# target 99.9% 0.0144242\n", want: map[string][2]string{
			"target.p50": {"0.00625", "0.00625"}, "target.p99_9": {"0.0144242", "0.0144242"}}},
		{name: "sleep targets are prefixed", src: "Aggregated Sleep Time : count 2 avg 1e-05 +/- 0 min -0.5 max 0.001 sum 2\n# target 50% 0.0004\nAggregated Function Time : count 300 avg 0.0009 +/- 0.0007 min 0.0005 max 0.03 sum 283.8\n# target 50% 0.0008\n",
			want: map[string][2]string{"sleep_time.target.p50": {"0.0004", "0.0004"}, "target.p50": {"0.0008", "0.0008"},
				"sleep_time.avg": {"0.00001", "1e-05"}, "sleep_time.min": {"-0.5", "-0.5"}, "function_time.count": {"300", "300"}, "function_time.sum": {"283.8", "283.8"}}},
		{name: "tcp ok", src: "tcp OK : 100000 (100.0 %)\n", want: map[string][2]string{"tcp.ok": {"100000", "100000"}, "tcp.ok.pct": {"100", "100.0 %"}}},
		{name: "e-notation qps", src: "Ended after 1.24s : 100000 calls. qps=1.0301e+05\n", want: map[string][2]string{
			"ended.calls": {"100000", "100000"}, "ended.qps": {"103010", "1.0301e+05"}}},
		{name: "bytes and threads", src: "Starting at max qps with 4 thread(s) [gomax 16] for exactly 100 calls\nTotal Bytes sent: 2400, received: 2401\n",
			want: map[string][2]string{"threads": {"4", "4"}, "bytes_sent": {"2400", "2400"}, "bytes_received": {"2401", "2401"}}},
		{name: "sizes", src: "Response Header Sizes : count 20 avg 195.65 +/- 82.19 min 0 max 231 sum 3913\nResponse Body/Total Sizes : count 20 avg 729.9 +/- 205.4 min 241 max 817 sum 14598\n",
			count: 12, want: map[string][2]string{"header_sizes.avg": {"195.65", "195.65"}, "body_total_sizes.max": {"817", "817"}}},
		{name: "two runs are numbered", src: "Code 200 : 1\nlog line\nCode 200 : 2\n", want: map[string][2]string{"code.200": {"1", "1"}, "code.200#2": {"2", "2"}}},
		{name: "prose and logs are skipped", src: "20:33:46 I logger.go:97> Log level is now 3 Warning\nCode 200 : 17 (85.0 %)\n> 0.001 <= 0.002 , 0.0015 , 15.00, 1\nWARNING 8.58% of sleep were falling behind\n", count: 2},
		{name: "nothing to read", src: "hello\n", diags: []string{"f:1:1: error: no fortio result lines", "[evidence-fortio-text]"}},
		{name: "not UTF-8", src: "Code 200 : \xff\n", diags: []string{"f:1:12: error: invalid UTF-8"}},
	})
}

func TestReadFortioJSON(t *testing.T) {
	src := `{
  "RequestedQPS": "30",
  "ActualQPS": 27.5,
  "ActualDuration": 2000000429,
  "NumThreads": 2,
  "Labels": "x",
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
	runLFCases(t, "fortio-json", []lfCase{
		{name: "full", src: src, count: 18, want: map[string][2]string{
			"RequestedQPS": {"30", "30"}, "ActualQPS": {"27.5", "27.5"}, "ActualDuration": {"2000000429", "2000000429"}, "NumThreads": {"2", "2"},
			"DurationHistogram.Count": {"53", "53"}, "DurationHistogram.StdDev": {"0.05", "0.05"},
			"DurationHistogram.p50": {"0.065", "0.065"}, "DurationHistogram.p99_9": {"0.09", "0.09"},
			"RetCodes.200": {"56", "56"}, "RetCodes.-1": {"2", "2"}, "Sizes.Avg": {"847", "847"}, "HeaderSizes.Avg": {"47314.5", "47314.5"}},
			absent: []string{"Labels", "DurationHistogram.Data"}},
		{name: "requested qps as number", src: `{"RequestedQPS": 30, "RetCodes": {}}`, want: map[string][2]string{"RequestedQPS": {"30", "30"}}},
		{name: "syntax error", src: "{\n  \"RetCodes\": {\"200\": 4,}\n}\n", diags: []string{"f:2:25: error: invalid JSON: invalid character '}'", "[evidence-fortio-json]"}},
		{name: "truncated", src: "{\"RetCodes\": {", diags: []string{"f:1:15: error: invalid JSON: unexpected end of JSON input"}},
		{name: "not fortio", src: "[1, 2]", diags: []string{"f:1:1: error: JSON array is not a fortio result"}},
		{name: "bad retcode", src: `{"RetCodes": {"200": "many"}}`, diags: []string{"f:1:22: error: RetCodes \"200\" is a string; expected a count"}},
		{name: "huge exponent", src: `{"RetCodes": {}, "X": 1e999}`, diags: []string{"f:1:23: error: number 1e999"}},
	})
}

func TestReadCurlWriteout(t *testing.T) {
	runLFCases(t, "curl-writeout", []lfCase{
		{name: "key colon lines", src: "    time_namelookup:  0.001\n         time_total:  1.844000\n", count: 2, want: map[string][2]string{
			"time_namelookup": {"0.001", "0.001"}, "time_total": {"1.844", "1.844000"}}},
		{name: "key=value tokens", src: "CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200 who=backend-a\n", count: 4, want: map[string][2]string{
			"CURL_EXIT": {"0", "0"}, "SIZE": {"409610", "409610"}, "TIME": {"40.045811", "40.045811"}, "CODE": {"200", "200"}}},
		{name: "unit s", src: "time_total: 0.5s\n", want: map[string][2]string{"time_total": {"0.5", "0.5s"}}},
		{name: "locale comma keyed", src: "TIME=40,045811 CODE=200\n", want: map[string][2]string{"TIME": {"40.045811", "40,045811"}},
			diags: []string{"f:1:6: warning: decimal comma in \"40,045811\" read as 40.045811", "[evidence-curl-locale]"}},
		{name: "locale comma line", src: "1,232\n1.232\n", want: map[string][2]string{"value": {"1.232", "1,232"}, "value#2": {"1.232", "1.232"}},
			diags: []string{"f:1:1: warning:"}},
		{name: "repeated keys", src: "time_total: 0.1\ntime_total: 0.2\ntime_total: 0.3\n", want: map[string][2]string{
			"time_total": {"0.1", "0.1"}, "time_total#2": {"0.2", "0.2"}, "time_total#3": {"0.3", "0.3"}}},
		{name: "commands comments prose skipped", src: "# time_total=9\n$ curl -w 'time_total=%{time_total}\\n' \\\n    time_total=8 http://x\nThe request took a while: about 3 seconds\n< Content-Length: 4682\ntime_total=0.25\n",
			count: 1, want: map[string][2]string{"time_total": {"0.25", "0.25"}}},
		{name: "value lines", src: "http://localhost/a,0.001196,4682,4682000.000\n0.534 + 0.545 = 0.545\n", count: 6, want: map[string][2]string{
			"value": {"0.001196", "0.001196"}, "value#3": {"4682000", "4682000.000"}, "value#6": {"0.545", "0.545"}}},
		{name: "json write-out", src: `{"time_total":0.5,"http_code":200,"url":"http://x"}` + "\n", count: 2, want: map[string][2]string{
			"time_total": {"0.5", "0.5"}, "http_code": {"200", "200"}}},
		{name: "no values", src: "# only a comment\nsome prose here\n", diags: []string{"f:1:1: error: no curl write-out values"}},
		{name: "CRLF", src: "time_total: 1\r\n", diags: []string{"f:1:14: error: CRLF"}},
	})
}

func TestReadCSV(t *testing.T) {
	src := "pod,code,latency_ms,note\na,200,12.5,ok\nb,503,\"1,234\",slow\nc,200,7,\n"
	runLFCases(t, "csv", []lfCase{
		{name: "row numbers", src: src, count: 6, want: map[string][2]string{
			"r1.code": {"200", "200"}, "r1.latency_ms": {"12.5", "12.5"}, "r2.latency_ms": {"1234", "1,234"}, "r3.latency_ms": {"7", "7"}},
			absent: []string{"r1.pod", "r1.note"}},
		{name: "key column", src: src, opt: ReadOptions{Key: "pod"}, count: 6, want: map[string][2]string{
			"a.code": {"200", "200"}, "b.latency_ms": {"1234", "1,234"}}},
		{name: "count where", src: src, opt: ReadOptions{CountWhere: map[string]string{"ok": "code == 200", "slow": `latency_ms > 10 && note != ""`, "none": "code == 404"}},
			count: 9, want: map[string][2]string{"ok": {"2", "code == 200"}, "slow": {"2", `latency_ms > 10 && note != ""`}, "none": {"0", "code == 404"}}},
		{name: "unknown column in predicate", src: src, opt: ReadOptions{CountWhere: map[string]string{"x": "status == 200"}},
			diags: []string{"f:1:1: error: count_where \"x\": cannot compile \"status == 200\": unknown name status"}},
		{name: "bad predicate", src: src, opt: ReadOptions{CountWhere: map[string]string{"x": "code =="}}, diags: []string{"cannot compile"}},
		{name: "predicate fails on a row", src: src, opt: ReadOptions{CountWhere: map[string]string{"x": "note > 1"}}, diags: []string{"f:2:1: error: count_where \"x\""}},
		{name: "missing key column", src: src, opt: ReadOptions{Key: "name"}, diags: []string{"f:1:1: error: key column \"name\" is not in the header"}},
		{name: "field count", src: "a,b\n1,2\n3\n4,5\n", count: 4, want: map[string][2]string{"r3.a": {"4", "4"}},
			diags: []string{"f:3:1: error: record has 1 fields; expected 2"}},
		{name: "bare quote", src: "a,b\n1,x\"y\n", diags: []string{"f:2:4: error: bare \" in non-quoted-field", "[evidence-csv]"}},
		{name: "quoted number and unit", src: "a,b\n\"42\",60s\n", want: map[string][2]string{"r1.a": {"42", "42"}, "r1.b": {"60", "60s"}}},
		{name: "empty", src: "", diags: []string{"f:1:1: error: empty CSV file"}},
	})
	// Inputs of a count point at the first cell of each matching row.
	rs, _ := ReadCSV("f", []byte(src), ReadOptions{CountWhere: map[string]string{"ok": "code == 200"}})
	for _, r := range rs {
		if r.Key == "ok" {
			if len(r.Inputs) != 2 || r.Inputs[0].Line != 2 || r.Inputs[1].Line != 4 || r.Inputs[0].Column != 1 || r.Pos.Line != 1 {
				t.Errorf("count ok: pos %v inputs %v", r.Pos, r.Inputs)
			}
		}
	}
}

func TestReadJSON(t *testing.T) {
	src := `{"a": {"b": [{"c": 1.5}, {"c": "2"}]}, "s": "x", "n": null, "e": -1.0301e+05, "t": true}`
	runLFCases(t, "json", []lfCase{
		{name: "all numbers", src: src, count: 3, want: map[string][2]string{
			"a.b[0].c": {"1.5", "1.5"}, "a.b[1].c": {"2", "2"}, "e": {"-103010", "-1.0301e+05"}}},
		{name: "paths", src: src, opt: ReadOptions{Paths: []string{"a.b[1].c"}}, count: 1, want: map[string][2]string{"a.b[1].c": {"2", "2"}}},
		{name: "missing path", src: src, opt: ReadOptions{Paths: []string{"a.b[5].c"}}, diags: []string{"f:1:13: error: path \"a.b[5].c\" is not in the document (nearest existing path \"a.b\")"}},
		{name: "non-number path", src: src, opt: ReadOptions{Paths: []string{"s"}}, diags: []string{"f:1:45: error: path \"s\" is a string; expected a number"}},
		{name: "top-level array", src: "[{\"x\": 1}, 2]\n", want: map[string][2]string{"[0].x": {"1", "1"}, "[1]": {"2", "2"}}},
		{name: "scalar", src: "42\n", want: map[string][2]string{"$": {"42", "42"}}},
		{name: "duplicate keys", src: `{"a": 1, "a": 2}`, want: map[string][2]string{"a": {"1", "1"}, "a#2": {"2", "2"}}},
		{name: "escaped key", src: `{"a\"b": 1}`, want: map[string][2]string{`a"b`: {"1", "1"}}},
		{name: "syntax error", src: "{\n \"a\": [1 2]\n}", diags: []string{"f:2:10: error: invalid JSON: invalid character '2' after array element", "[evidence-json]"}},
		{name: "empty", src: "", diags: []string{"f:1:1: error: invalid JSON: unexpected end"}},
	})
}

func TestReadIstioctlTable(t *testing.T) {
	clusters := "SERVICE FQDN                    PORT      SUBSET  DIRECTION  TYPE\n" +
		"BlackHoleCluster                -         -       -          STATIC\n" +
		"istiod.istio-system.svc         15010     -       outbound   EDS\n" +
		"istiod.istio-system.svc         15012     -       outbound   EDS\n"
	listeners := "Istio Version:       1.21.0\n\n" +
		"NAME                   ADDRESSES PORT  MATCH DESTINATION\n" +
		"listener/main_internal           0     ALL   Cluster: encap\n" +
		"listener/              0.0.0.0   15021 ALL   Inline Route: /healthz/ready*\n"
	status := "PROXY           CDS        LDS        VERSION\n" +
		"details-v1      SYNCED     SYNCED     1.1.2\n" +
		"x      SYNCED  NOT SENT     7\n"
	runLFCases(t, "istioctl-table", []lfCase{
		{name: "clusters", src: clusters, count: 3, want: map[string][2]string{
			"istiod.istio-system.svc.PORT": {"15010", "15010"}, "istiod.istio-system.svc.PORT#2": {"15012", "15012"}, "t1.rows": {"3", "SERVICE FQDN"}}},
		{name: "single-space column", src: listeners, count: 3, want: map[string][2]string{
			"listener/main_internal.PORT": {"0", "0"}, "listener/.PORT": {"15021", "15021"}, "t1.rows": {"2", "NAME"}}},
		{name: "misaligned row split by column count", src: status, count: 2, want: map[string][2]string{"x.VERSION": {"7", "7"}}},
		{name: "two tables", src: "A  B\nx  1\n\nC  D\ny  2\n", count: 4, want: map[string][2]string{"x.B": {"1", "1"}, "y.D": {"2", "2"}, "t2.rows": {"1", "C"}}},
		{name: "unalignable row with a number", src: "NAME   PORT   TYPE\na      1      EDS\nbbbbbbbbbb 5 x y\n", want: map[string][2]string{"a.PORT": {"1", "1"}}, diags: []string{"f:3:1: error: row has 1 cells that do not line up"}},
		{name: "no table", src: "just prose\n", diags: []string{"f:1:1: error: no table header"}},
	})
}

func TestReadDig(t *testing.T) {
	src := "$ dig example.com\n\n" +
		";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1\n" +
		";; flags: qr rd ra; QUERY: 1, ANSWER: 2, AUTHORITY: 0, ADDITIONAL: 1\n\n" +
		";; QUESTION SECTION:\n;example.com.\t\t\tIN\tA\n\n" +
		";; ANSWER SECTION:\n" +
		"example.com.\t\t5\tIN\tA\t10.0.0.1\n" +
		"example.com.\t\t7\tIN\tA\t10.0.0.2\n" +
		".\t\t100\tIN\tNS\ta.root-servers.net.\n\n" +
		";; ADDITIONAL SECTION:\nns.example.com.  60  IN  AAAA  ::1\n\n" +
		";; Query time: 0 msec\n;; SERVER: 10.0.0.10#53(10.0.0.10) (UDP)\n;; MSG SIZE  rcvd: 108\n"
	runLFCases(t, "dig", []lfCase{
		{name: "full", src: src, count: 10, want: map[string][2]string{
			"query_count": {"1", "1"}, "answer_count": {"2", "2"}, "additional_count": {"1", "1"},
			"answer.example.com.A.ttl": {"5", "5"}, "answer.example.com.A.ttl#2": {"7", "7"}, "answer.root.NS.ttl": {"100", "100"},
			"additional.ns.example.com.AAAA.ttl": {"60", "60"}, "query_time_ms": {"0", "0"}, "msg_size": {"108", "108"}}},
		{name: "noall answer", src: "example.com. 300 IN A 1.2.3.4\nnot a record 5 here\n", count: 1, want: map[string][2]string{"answer.example.com.A.ttl": {"300", "300"}}},
		{name: "usec", src: ";; Query time: 250 usec\n", want: map[string][2]string{"query_time_us": {"250", "250"}}},
		{name: "nothing", src: "hello\n", diags: []string{"f:1:1: error: no dig output", "[evidence-dig]"}},
	})
}

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
		{"t.txt", "hello\nx=1\n", "transcript"},
		{"empty", "", "transcript"},
	}
	for _, tt := range tests {
		if got := Sniff(tt.name, []byte(tt.src)); got != tt.want {
			t.Errorf("Sniff(%q, %q) = %q, want %q", tt.name, tt.src, got, tt.want)
		}
	}
}

// lfCorpus is the shared corpus of real third-party samples.
const lfCorpus = "../../../../shared/corpus"

// lfCorpusFormat names the format of corpus files Sniff cannot place.
var lfCorpusFormat = map[string]string{
	// Only two bare values and comments: nothing says curl but the source.
	"curl_issue_3489_locale_comma.txt": "curl-writeout",
}

func TestLabFormatsCorpus(t *testing.T) {
	if _, err := os.Stat(lfCorpus); err != nil {
		t.Skip("shared corpus not present")
	}
	type result struct {
		rs   []Reading
		errs diag.List
	}
	results := map[string]result{}
	for _, dir := range []string{"fortio", "curl-writeout", "dig", "istioctl"} {
		files, _ := filepath.Glob(filepath.Join(lfCorpus, dir, "*"))
		if len(files) == 0 {
			t.Errorf("no corpus files in %s", dir)
		}
		sort.Strings(files)
		for _, p := range files {
			base := filepath.Base(p)
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			format := lfCorpusFormat[base]
			if format == "" {
				format = Sniff(base, src)
			}
			read, err := ReaderFor(format)
			if err != nil {
				t.Errorf("%s: %v", base, err)
				continue
			}
			rs, errs := read(base, src, ReadOptions{})
			lfValid(t, src, rs, errs, nil)
			switch {
			case errs.HasErrors():
				for _, e := range errs {
					if !e.Pos.IsValid() || e.Pos.File != base {
						t.Errorf("%s: unpositioned error %v", base, e)
					}
				}
				t.Logf("%s (%s): rejected: %v", base, format, errs)
			case len(rs) == 0:
				t.Errorf("%s (%s): no readings and no error", base, format)
			}
			results[base] = result{rs, errs}
		}
	}
	value := func(file, key string) (Reading, bool) {
		for _, r := range results[file].rs {
			if r.Key == key {
				return r, true
			}
		}
		return Reading{}, false
	}
	for _, c := range []struct{ file, key, val, raw, pos string }{
		{"istio_io_circuit_breaking_2020_fortio_c2_n20.txt", "code.200", "17", "17", "27:12"},
		{"istio_io_circuit_breaking_2020_fortio_c2_n20.txt", "code.503", "3", "3", "28:12"},
		{"istio_io_circuit_breaking_2020_fortio_c2_n20.txt", "code.503.pct", "15", "15.0 %", "28:15"},
		{"istio_io_circuit_breaking_2018_fortio_c3_n30.txt", "code.200", "19", "19", ""},
		{"istio_io_circuit_breaking_2018_fortio_c3_n30.txt", "code.503", "11", "11", ""},
		{"istio_io_circuit_breaking_2018_fortio_c3_n30.txt", "avg_ms", "5.336", "5.336 ms", ""},
		{"fortio_readme_5kqps_2017_text.txt", "code.200", "300000", "300000", ""},
		{"fortio_readme_tcp_text.txt", "tcp.ok", "100000", "100000", ""},
		{"fortio_readme_http_result.json", "RetCodes.200", "4", "4", "55:12"},
		{"fortio_readme_http_result.json", "RequestedQPS", "40", "40", "5:20"},
		{"fortio_readme_http_result.json", "DurationHistogram.p99_9", "0.0009295303506666667", "0.0009295303506666667", ""},
		{"fortio_readme_grpc_result.json", "RetCodes.1", "40", "40", ""},
		{"nighthawk_output_formatter.medium.fortio.gold.json", "DurationHistogram.Count", "53", "53", "8:13"},
		{"nighthawk_output_formatter.medium.fortio.gold.json", "RetCodes.200", "56", "56", ""},
		{"curl_issue_3489_locale_comma.txt", "value", "1.232", "1,232", "4:1"},
		{"susam_timing_with_curl_blog.txt", "time_total", "0.982326", "0.982326", "9:13"},
		{"coredns_nomad_readme_block1_lines150-173.txt", "query_time_ms", "4", "4", ""},
		{"coredns_nomad_readme_block1_lines150-173.txt", "msg_size", "165", "165", ""},
		{"coredns_rewrite_readme_block5_lines524-533.txt", "answer.my-app.com.cdn.example.net.A.ttl#2", "300", "300", ""},
		{"istio_io_debug-vm_proxy-config_clusters_file.txt", "istiod.istio-system.svc.cluster.local.PORT#2", "15010", "15010", ""},
		{"istio_writer__envoy__configdump__testdata__endpoint__emptyfilter_output.txt", "t1.rows", "36", "NAME", "1:1"},
	} {
		if _, ok := results[c.file]; !ok {
			t.Errorf("%s: not read", c.file)
			continue
		}
		r, ok := value(c.file, c.key)
		if !ok {
			t.Errorf("%s: no reading %q", c.file, c.key)
			continue
		}
		if r.Number.Value.String() != c.val || r.Raw != c.raw {
			t.Errorf("%s: %s = %s raw %q, want %s raw %q", c.file, c.key, r.Number.Value, r.Raw, c.val, c.raw)
		}
		if c.pos != "" && !strings.HasSuffix(r.Pos.String(), ":"+c.pos) {
			t.Errorf("%s: %s at %v, want line:col %s", c.file, c.key, r.Pos, c.pos)
		}
	}
	// The locale comma is read with a warning at its position.
	errs := results["curl_issue_3489_locale_comma.txt"].errs
	if len(errs) != 1 || errs[0].Severity != diag.Warning || errs[0].Rule != "evidence-curl-locale" || errs[0].Pos.String() != "curl_issue_3489_locale_comma.txt:4:1" {
		t.Errorf("locale comma diagnostics = %v, want one evidence-curl-locale warning at 4:1", errs)
	}
	// Invalid JSON as Envoy's docs publish it is rejected at the first
	// syntax error.
	if src, err := os.ReadFile(filepath.Join(lfCorpus, "envoy-stats-json", "envoy_docs_admin_stats_format_json_detailed_AS_PUBLISHED_INVALID.json")); err == nil {
		rs, errs := ReadJSON("bad.json", src, ReadOptions{})
		if len(rs) != 0 || len(errs) != 1 || errs[0].Pos.String() != "bad.json:12:34" || errs[0].Rule != "evidence-json" {
			t.Errorf("invalid Envoy JSON: %d readings, diagnostics %v; want one error at 12:34", len(rs), errs)
		}
	}
	// The istioctl JSON sibling is read as generic JSON.
	src, err := os.ReadFile(filepath.Join(lfCorpus, "istioctl", "istio_writer__envoy__configdump__testdata__endpoint__portfilter_output.json"))
	if err == nil {
		rs, errs := ReadJSON("p.json", src, ReadOptions{Paths: []string{"[0].endpoints[0].lbEndpoints[0].endpoint.address.socketAddress.portValue"}})
		if len(errs) != 0 || len(rs) != 1 || rs[0].Number.Value.String() != "8080" {
			t.Errorf("portfilter_output.json portValue: %v %v", rs, errs)
		}
	}
}

func TestReadJSONDepth(t *testing.T) {
	deep := strings.Repeat("[", lfMaxDepth+1) + strings.Repeat("]", lfMaxDepth+1)
	rs, errs := ReadJSON("f", []byte(deep), ReadOptions{})
	if len(rs) != 0 || len(errs) != 1 || errs[0].Pos.Column != lfMaxDepth+1 || !strings.Contains(errs[0].Message, "nested deeper") {
		t.Errorf("deep JSON: %v %v", rs, errs)
	}
	ok := strings.Repeat("[", lfMaxDepth) + "1" + strings.Repeat("]", lfMaxDepth)
	if rs, errs := ReadJSON("f", []byte(ok), ReadOptions{}); len(rs) != 1 || errs != nil {
		t.Errorf("JSON at the depth limit: %v %v", rs, errs)
	}
}
