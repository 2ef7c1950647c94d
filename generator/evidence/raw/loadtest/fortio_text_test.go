package loadtest_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzFortioText(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		"Code 200 : 18 (90.0 %)\nCode -1 : 2 (10.0 %)\nSockets used: 3 (for perfect keepalive, would be 2)\n",
		"All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n# target 99.9% 0.0144\n",
		"Aggregated Sleep Time : count 2 avg 1e-05 +/- 0 min -0.5 max 0.001 sum 2\nEnded after 1s : 3 calls. qps=1.0301e+05\ntcp OK : 100 (100.0 %)\n",
	}, "fortio-text")
}

func TestReadFortioText(t *testing.T) {
	rawtest.RunFormatCases(t, "fortio-text", []rawtest.FormatCase{
		{Name: "codes with percent", Src: "Code 200 : 18 (90.0 %)\nCode 503 : 2 (10.0 %)\n", Count: 4, Want: map[string][2]string{
			"code.200": {"18", "18"}, "code.200.pct": {"90", "90.0 %"}, "code.503": {"2", "2"}, "code.503.pct": {"10", "10.0 %"}}},
		{Name: "2017 code without percent", Src: "Code 200 : 300000\n", Count: 1, Want: map[string][2]string{"code.200": {"300000", "300000"}}},
		{Name: "socket error code", Src: "Code -1 : 3 (1.5 %)\n", Want: map[string][2]string{"code.-1": {"3", "3"}, "code.-1.pct": {"1.5", "1.5 %"}}},
		{Name: "sockets", Src: "Sockets used: 3 (for perfect keepalive, would be 2)\n", Count: 2, Want: map[string][2]string{"sockets_used": {"3", "3"}, "sockets_ideal": {"2", "2"}}},
		{Name: "all done", Src: "All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n", Count: 4, Want: map[string][2]string{
			"calls": {"20", "20"}, "warmup": {"0", "0"}, "avg_ms": {"7.917", "7.917 ms"}, "qps": {"2517.8", "2517.8"}}},
		{Name: "targets", Src: "# target 50% 0.00625\n# target 99.9% 0.0144242\n", Want: map[string][2]string{
			"target.p50": {"0.00625", "0.00625"}, "target.p99_9": {"0.0144242", "0.0144242"}}},
		{Name: "sleep targets are prefixed", Src: "Aggregated Sleep Time : count 2 avg 1e-05 +/- 0 min -0.5 max 0.001 sum 2\n# target 50% 0.0004\nAggregated Function Time : count 300 avg 0.0009 +/- 0.0007 min 0.0005 max 0.03 sum 283.8\n# target 50% 0.0008\n",
			Want: map[string][2]string{"sleep_time.target.p50": {"0.0004", "0.0004"}, "target.p50": {"0.0008", "0.0008"},
				"sleep_time.avg": {"0.00001", "1e-05"}, "sleep_time.min": {"-0.5", "-0.5"}, "function_time.count": {"300", "300"}, "function_time.sum": {"283.8", "283.8"}}},
		{Name: "tcp ok", Src: "tcp OK : 100000 (100.0 %)\n", Want: map[string][2]string{"tcp.ok": {"100000", "100000"}, "tcp.ok.pct": {"100", "100.0 %"}}},
		{Name: "e-notation qps", Src: "Ended after 1.24s : 100000 calls. qps=1.0301e+05\n", Want: map[string][2]string{
			"ended.calls": {"100000", "100000"}, "ended.qps": {"103010", "1.0301e+05"}, "ended.duration": {"1.24", "1.24s"}}},
		{Name: "run duration in ms and compound", Src: "Ended after 59.8524ms : 20 calls. qps=334.16\nEnded after 1m0.5s : 3 calls. qps=0.0496\n", Count: 6, Want: map[string][2]string{
			"ended.duration": {"0.0598524", "59.8524ms"}, "ended.duration#2": {"60.5", "1m0.5s"}}},
		{Name: "run duration unreadable", Src: "Ended after 12parsecs : 20 calls. qps=334.16\n", Count: 2, Diags: []string{"f:1:13: warning: fortio run duration \"12parsecs\" is not a Go duration"}},
		{Name: "bytes and threads", Src: "Starting at max qps with 4 thread(s) [gomax 16] for exactly 100 calls\nTotal Bytes sent: 2400, received: 2401\n",
			Want:  map[string][2]string{"threads": {"4", "4"}, "bytes_sent": {"2400", "2400"}, "bytes_received": {"2401", "2401"}},
			Diags: []string{`f:1:61: warning: number "100" is not read by the fortio-text format`}},
		{Name: "sizes", Src: "Response Header Sizes : count 20 avg 195.65 +/- 82.19 min 0 max 231 sum 3913\nResponse Body/Total Sizes : count 20 avg 729.9 +/- 205.4 min 241 max 817 sum 14598\n",
			Count: 12, Want: map[string][2]string{"header_sizes.avg": {"195.65", "195.65"}, "body_total_sizes.max": {"817", "817"}}},
		{Name: "two runs are numbered", Src: "Code 200 : 1\nlog line\nCode 200 : 2\n", Want: map[string][2]string{"code.200": {"1", "1"}, "code.200#2": {"2", "2"}}},
		{Name: "logs are skipped; buckets and the falling-behind warning read", Src: "20:33:46 I logger.go:97> Log level is now 3 Warning\nCode 200 : 17 (85.0 %)\n> 0.001 <= 0.002 , 0.0015 , 15.00, 1\nWARNING 8.58% of sleep were falling behind\n", Count: 8,
			Want: map[string][2]string{"histogram.bucket.1.start": {"0.001", "0.001"}, "histogram.bucket.1.end": {"0.002", "0.002"}, "histogram.bucket.1.percent": {"15", "15.00"},
				"histogram.bucket.1.count": {"1", "1"}, "sleep_falling_behind.pct": {"8.58", "8.58%"}}},
		{Name: "run header, thread lines and buckets per histogram", Src: "Fortio 1.3.1 running at 8 queries per second, 8->8 procs, for 5s: http://x:8000/get\n" +
			"Starting at 8 qps with 4 thread(s) [gomax 8] for 5s : 10 calls each (total 40)\n" +
			"19:10:39 I periodic.go:314> T002 ended after 5.056753279s : 10 calls. qps=1.9775534712220633\n" +
			"Aggregated Function Time : count 40 avg 0.06 +/- 0.006 min 0.05 max 0.09 sum 2.4\n>= 0.052549 < 0.06 , 0.0562745 , 47.50, 19\n>= 0.06 < 0.07 , 0.065 , 92.50, 18\n" +
			"Starting at max qps with 2 thread(s) [gomax 6] for exactly 20 calls (10 per thread + 0)\n< 0 , 0 , 8.58, 25726\n",
			Want: map[string][2]string{"running.qps": {"8", "8"}, "gomaxprocs": {"8", "8"}, "running.duration": {"5", "5s"}, "start.qps": {"8", "8"},
				"threads": {"4", "4"}, "gomax": {"8", "8"}, "start.duration": {"5", "5s"}, "calls_per_thread": {"10", "10"}, "start.calls": {"40", "40"},
				"t002.ended.duration": {"5.056753279", "5.056753279s"}, "t002.ended.calls": {"10", "10"}, "function_time.bucket.2.end": {"0.07", "0.07"},
				"function_time.bucket.2.count": {"18", "18"}, "threads#2": {"2", "2"}, "start.calls#2": {"20", "20"}, "function_time.bucket.3.end": {"0", "0"},
				"function_time.bucket.3.count": {"25726", "25726"}}},
		{Name: "an unread number is a warning", Src: "Code 200 : 17 (85.0 %)\nJitter: 12 ms\n", Count: 2,
			Diags: []string{`f:2:9: warning: number "12" is not read by the fortio-text format`}},
		{Name: "nothing to read", Src: "hello\n", Diags: []string{"f:1:1: error: no fortio result lines", "[evidence-fortio-text]"}},
		{Name: "not UTF-8", Src: "Code 200 : \xff\n", Diags: []string{"f:1:12: error: invalid UTF-8"}},
	})
}
