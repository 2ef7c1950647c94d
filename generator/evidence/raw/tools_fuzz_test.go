package raw

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzTool fuzzes the reader of format with the samples under
// testdata/tools/FORMAT and seeds of its own line shapes, holding the
// Reader contract and the no-vanish property (checkNoVanish).
func fuzzTool(f *testing.F, format string, seeds ...string) {
	files, _ := filepath.Glob(filepath.Join("testdata/tools", format, "*"))
	for _, p := range files {
		if filepath.Ext(p) == ".golden" {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkNoVanish(t, format, src, ReadOptions{}) })
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

func FuzzK6(f *testing.F) {
	fuzzTool(f, "k6", "  █ THRESHOLDS\n    x\n    ✓ 'p(95)<1e3' p(95)=1m2s\n  ✗ y\n    ↳  9% — ✓ 1 / ✗ 2\nz....: 1 out of 2 3 MB/s ✓ 4 ✗\n",
		`{"metrics":{"a":{"contains":"time","values":{"p(99.9)":1}},"b":{"count":1,"rate":"2"}},"state":{"testRunDurationMs":3}}`)
}
