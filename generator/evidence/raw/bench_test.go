package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchInput returns about size bytes of synthetic text in format, each
// record with its own key, so the reader's throughput is measured on
// distinct readings.
func benchInput(format string, size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch format {
		case "envoy-stats":
			fmt.Fprintf(&b, "cluster.outbound|80||svc%d.lab.internal.upstream_rq_total: %d\n", i, i*7)
		case "prometheus":
			if i == 0 {
				b.WriteString("# TYPE envoy_cluster_upstream_rq_total counter\n")
			}
			fmt.Fprintf(&b, "envoy_cluster_upstream_rq_total{envoy_cluster_name=\"svc%d\"} %d\n", i, i*7)
		case "csv":
			if i == 0 {
				b.WriteString("run,code,latency_ms\n")
			}
			fmt.Fprintf(&b, "run%d,200,%d.%d\n", i, i%900, i%10)
		case "transcript":
			fmt.Fprintf(&b, "[S%d] run %d\nCURL_EXIT=0 SIZE=%d TIME=%d.%03d CODE=200\n\n", i, i, 4096+i, i%60, i%1000)
		case "markdown-tables":
			if i%50 == 0 {
				fmt.Fprintf(&b, "\n## Table %d\n\n| counter | before | after |\n|---|---:|---:|\n", i/50)
			}
			fmt.Fprintf(&b, "| r%d | %d | **%d (+1)** |\n", i, i, i+1)
		case "json":
			if i == 0 {
				b.WriteString("{")
			} else {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\"k%d\": {\"v\": %d.5, \"n\": [%d, %d]}\n", i, i, i, i+1)
		case "envoy-stats-json":
			if i == 0 {
				b.WriteString("{\"stats\": [")
			} else {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "{\"name\": \"cluster.svc%d.upstream_rq_total\", \"value\": %d}\n", i, i)
		default:
			return nil
		}
	}
	switch format {
	case "json":
		b.WriteString("}\n")
	case "envoy-stats-json":
		b.WriteString("]}\n")
	}
	return []byte(b.String())
}

// BenchmarkReaders measures each format reader's throughput (MB/s) on
// ~1 MB of synthetic input. Run: go test ./generator/evidence/raw -bench Readers
func BenchmarkReaders(b *testing.B) {
	for _, format := range []string{"csv", "envoy-stats", "envoy-stats-json", "json", "markdown-tables", "prometheus", "transcript"} {
		b.Run(format, func(b *testing.B) {
			src := benchInput(format, 1<<20)
			read, err := formats.ReaderFor(format)
			if err != nil {
				b.Fatal(err)
			}
			opt := raw.ReadOptions{Key: "run"}
			if format != "csv" {
				opt = raw.ReadOptions{}
			}
			rs, ds := read("bench", src, opt)
			if ds.HasErrors() || len(rs) < 1000 {
				b.Fatalf("%s: %d readings, %v", format, len(rs), ds)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				read("bench", src, opt)
			}
			b.ReportMetric(float64(len(rs))*float64(b.N)/b.Elapsed().Seconds(), "readings/s")
		})
	}
}

// BenchmarkToolSamples reads every sample under testdata/tools with its
// format's reader, the evidence-number sweep included: the cost of one
// pass over the seeds of the tool formats' fuzz targets (an execution of
// a fuzz target costs about its input's share of this, and Go's fuzzer
// minimizes an input in a number of executions that grows with the
// square of its length). Run: go test ./generator/evidence/raw -bench ToolSamples
func BenchmarkToolSamples(b *testing.B) {
	files, _ := filepath.Glob("testdata/tools/*/*")
	type sample struct {
		read raw.Reader
		src  []byte
	}
	var samples []sample
	size := 0
	for _, p := range files {
		if filepath.Ext(p) == ".golden" {
			continue
		}
		read, err := formats.ReaderFor(filepath.Base(filepath.Dir(p)))
		src, err2 := os.ReadFile(p)
		if err != nil || err2 != nil {
			b.Fatal(err, err2)
		}
		samples = append(samples, sample{read, src})
		size += len(src)
	}
	if len(samples) == 0 {
		b.Fatal("no samples under testdata/tools")
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range samples {
			s.read("f", s.src, raw.ReadOptions{})
		}
	}
}
