package raw_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// fuzzTool fuzzes the reader of format with its samples (addSamples:
// testdata/tools/FORMAT) and seeds of its own line shapes, holding the
// Reader contract and the no-vanish property (checkNoVanish).
func fuzzTool(f *testing.F, format string, seeds ...string) {
	addSamples(f, format, seeds...)
	f.Fuzz(func(t *testing.T, src []byte) { checkNoVanish(t, format, src, raw.ReadOptions{}) })
}

func FuzzVegeta(f *testing.F) {
	fuzzTool(f, "vegeta", "Latencies     [min, mean, 50, max]  1h2m3.5s, 2.66ms, 1e3ms, 9µs\nStatus Codes  [code:count]  0:1  200:x\nError Set:\n500 x\n",
		`{"latencies":{"99th":1,"50th":"2"},"status_codes":{"200":3}}`)
}

func FuzzWrk(f *testing.F) {
	fuzzTool(f, "wrk", "Running 2h test @ x\n  Latency Distribution\n 99.990%  1.5m\n  Detailed Percentile spectrum:\n 1 2 3 inf\n#[Mean = 1, StdDeviation = x]\n",
		"    Req/Sec     8.74G     -nan%   1e9k    71.99%\n")
}

func FuzzHey(f *testing.F) {
	fuzzTool(f, "hey", "Summary:\n  Total:\t1 secs\nResponse time histogram:\n  1.5 [2]\t|\nLatency distribution:\n  99.9 % in 3 ms\nError distribution:\n  [7]\tGet 500\n")
}

func FuzzOha(f *testing.F) {
	fuzzTool(f, "oha", "Summary:\n  Success rate:\t99.50%\n  Total:\t1.2345 10 sec\n  Size/sec:\t6.44 MiB\nResponse time histogram:\n  0.001 [1] |\n  2.5 ms [3] |\nResponse time distribution (2xx only):\n  99.90% in 0.0020 secs\nDetails (average, fastest, slowest):\n  DNS+dialup:\t1 ms, 2 ms, 3 ms\n")
}

func FuzzK6(f *testing.F) {
	fuzzTool(f, "k6", "  █ THRESHOLDS\n    x\n    ✓ 'p(95)<1e3' p(95)=1m2s\n  ✗ y\n    ↳  9% — ✓ 1 / ✗ 2\nz....: 1 out of 2 3 MB/s ✓ 4 ✗\n",
		`{"metrics":{"a":{"contains":"time","values":{"p(99.9)":1}},"b":{"count":1,"rate":"2"}},"state":{"testRunDurationMs":3}}`)
}

func FuzzGhz(f *testing.F) {
	fuzzTool(f, "ghz", `ghz_run,a="x\"y",n=1i count=2i,p95=,x="a b" 1`+"\n", `{"latencyDistribution":[{"percentage":"9","latency":1},{"latency":2}]}`)
}

func FuzzGoBench(f *testing.F) {
	fuzzTool(f, "go-bench", "BenchmarkX/y-8 \t 1 \t 2 ns/op \t 3 B/op \t 4.5 MB/s\nok  \tp\t1e3s\n")
}

func FuzzBenchstat(f *testing.F) {
	fuzzTool(f, "benchstat", "name  old a/op  new a/op  delta\nX-2  1k ±1%  2G ± 3%  ~  (p=1 n=2)\n[Geo mean]  1  2  +3%\n", " │ a.txt │\n │ sec/op │ sec/op vs base │\nX-8 1µ ± 1% 2m ± 1% -1% (p=0.1 n=10)\n")
}

func FuzzTime(f *testing.F) {
	fuzzTool(f, "time", "real 1.5\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.5\n\tMaximum resident set size (kbytes): x\n", "./a  0.01s user 0.00s system 81% cpu 0.012 total\n")
}

func FuzzKubectl(f *testing.F) {
	fuzzTool(f, "kubectl", "NAME  READY  RESTARTS  AGE  TARGETS\na  1/x  2 (3h ago)  2y34d  cpu: 1%/2%, memory: 3Mi/4Mi\nb\n", `{"items":[{"metadata":{"name":"n"},"usage":{"cpu":"1m","memory":"2Gi"},"window":"1m0s"}]}`)
}

func FuzzAccessLog(f *testing.F) {
	fuzzTool(f, "envoy-access-log", `[t] "- - -" 0 - - - "-" 1 2 3 - "-" "-" "-" "-" "x" c 1.1.1.1:1 - - - -`+"\n", `{"duration":"7","bytes_sent":[1]}`+"\n")
}

func FuzzPing(f *testing.F) {
	fuzzTool(f, "ping", "Reply from 1.1.1.1: bytes=32 time=14ms TTL=117\n    Packets: Sent = 4, Received = 4, Lost = 0 (0% loss),\n    Minimum = 13ms, Maximum = 15ms, Average = 14ms\n", "round-trip min/avg/max = 1/2/3/4 ms\n")
}

func FuzzMtr(f *testing.F) {
	fuzzTool(f, "mtr", "HOST: a  Loss%  Snt  Last\n  1.|-- x  5%  1  2\n 22. y 1 2\n")
}
