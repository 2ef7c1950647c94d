package gobench_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzGoBench(f *testing.F) {
	rawtest.ToolFuzz(f, "go-bench", "BenchmarkX/y-8 \t 1 \t 2 ns/op \t 3 B/op \t 4.5 MB/s\nok  \tp\t1e3s\n")
}

func FuzzBenchstat(f *testing.F) {
	rawtest.ToolFuzz(f, "benchstat", "name  old a/op  new a/op  delta\nX-2  1k ±1%  2G ± 3%  ~  (p=1 n=2)\n[Geo mean]  1  2  +3%\n", " │ a.txt │\n │ sec/op │ sec/op vs base │\nX-8 1µ ± 1% 2m ± 1% -1% (p=0.1 n=10)\n")
}
