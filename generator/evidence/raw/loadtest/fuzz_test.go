package loadtest_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzVegeta(f *testing.F) {
	rawtest.ToolFuzz(f, "vegeta", "Latencies     [min, mean, 50, max]  1h2m3.5s, 2.66ms, 1e3ms, 9µs\nStatus Codes  [code:count]  0:1  200:x\nError Set:\n500 x\n",
		`{"latencies":{"99th":1,"50th":"2"},"status_codes":{"200":3}}`)
}

func FuzzWrk(f *testing.F) {
	rawtest.ToolFuzz(f, "wrk", "Running 2h test @ x\n  Latency Distribution\n 99.990%  1.5m\n  Detailed Percentile spectrum:\n 1 2 3 inf\n#[Mean = 1, StdDeviation = x]\n",
		"    Req/Sec     8.74G     -nan%   1e9k    71.99%\n")
}

func FuzzHey(f *testing.F) {
	rawtest.ToolFuzz(f, "hey", "Summary:\n  Total:\t1 secs\nResponse time histogram:\n  1.5 [2]\t|\nLatency distribution:\n  99.9 % in 3 ms\nError distribution:\n  [7]\tGet 500\n")
}

func FuzzOha(f *testing.F) {
	rawtest.ToolFuzz(f, "oha", "Summary:\n  Success rate:\t99.50%\n  Total:\t1.2345 10 sec\n  Size/sec:\t6.44 MiB\nResponse time histogram:\n  0.001 [1] |\n  2.5 ms [3] |\nResponse time distribution (2xx only):\n  99.90% in 0.0020 secs\nDetails (average, fastest, slowest):\n  DNS+dialup:\t1 ms, 2 ms, 3 ms\n")
}

func FuzzK6(f *testing.F) {
	rawtest.ToolFuzz(f, "k6", "  █ THRESHOLDS\n    x\n    ✓ 'p(95)<1e3' p(95)=1m2s\n  ✗ y\n    ↳  9% — ✓ 1 / ✗ 2\nz....: 1 out of 2 3 MB/s ✓ 4 ✗\n",
		`{"metrics":{"a":{"contains":"time","values":{"p(99.9)":1}},"b":{"count":1,"rate":"2"}},"state":{"testRunDurationMs":3}}`)
}

func FuzzGhz(f *testing.F) {
	rawtest.ToolFuzz(f, "ghz", `ghz_run,a="x\"y",n=1i count=2i,p95=,x="a b" 1`+"\n", `{"latencyDistribution":[{"percentage":"9","latency":1},{"latency":2}]}`)
}
