package raw

import "testing"

func FuzzFortioText(f *testing.F) {
	fuzzLabFormat(f, []string{
		"Code 200 : 18 (90.0 %)\nCode -1 : 2 (10.0 %)\nSockets used: 3 (for perfect keepalive, would be 2)\n",
		"All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n# target 99.9% 0.0144\n",
		"Aggregated Sleep Time : count 2 avg 1e-05 +/- 0 min -0.5 max 0.001 sum 2\nEnded after 1s : 3 calls. qps=1.0301e+05\ntcp OK : 100 (100.0 %)\n",
	}, ReadFortioText)
}

func TestReadFortioText(t *testing.T) {
	runFormatCases(t, "fortio-text", []formatCase{
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
			"ended.calls": {"100000", "100000"}, "ended.qps": {"103010", "1.0301e+05"}, "ended.duration": {"1.24", "1.24s"}}},
		{name: "run duration in ms and compound", src: "Ended after 59.8524ms : 20 calls. qps=334.16\nEnded after 1m0.5s : 3 calls. qps=0.0496\n", count: 6, want: map[string][2]string{
			"ended.duration": {"0.0598524", "59.8524ms"}, "ended.duration#2": {"60.5", "1m0.5s"}}},
		{name: "run duration unreadable", src: "Ended after 12parsecs : 20 calls. qps=334.16\n", count: 2, diags: []string{"f:1:13: warning: fortio run duration \"12parsecs\" is not a Go duration"}},
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
