package structured_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// bigCSV returns a CSV of rows data rows: a request id, a status code (500
// on every 1000th row) and a latency.
func bigCSV(rows int) []byte {
	var b strings.Builder
	b.Grow(rows * 24)
	b.WriteString("id,code,latency_ms\n")
	for i := 1; i <= rows; i++ {
		code := 200
		if i%1000 == 0 {
			code = 500
		}
		fmt.Fprintf(&b, "%d,%d,%d.%d\n", i, code, i%97, i%10)
	}
	return []byte(b.String())
}

// heapGrowth runs fn with the collector driven by a memory limit budget
// bytes above what the process holds now, and returns how far the heap
// the runtime obtained grew: about budget when fn's live memory stays
// under it, more when fn holds more (the collector cannot free it). It
// measures memory, not time, so a busy machine does not change it.
func heapGrowth(fn func(), budget int64) int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := int64(ms.HeapSys)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(ms.Sys) + budget))
	fn()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapSys) - before
}

// TestCSVCountWhereStreams (issue 26, fault 9): count_where over a CSV of
// 200,000 rows with nothing else kept (a [[read]] whose select names only
// the count) holds a row at a time: the heap grows by less than the
// budget (24 MiB), where keeping every numeric cell as a reading took
// about 100 MiB.
func TestCSVCountWhereStreams(t *testing.T) {
	src := bigCSV(200_000)
	opt := raw.ReadOptions{CountWhere: map[string]string{"errors": "code == 500"}, Keep: func(k string) bool { return k == "errors" }}
	var rs []raw.Reading
	const budget = 24 << 20
	grew := heapGrowth(func() {
		var errs []string
		got, ds := rawtest.AllOf(structured.ReadCSV("big.csv", src, opt))
		for _, d := range ds {
			errs = append(errs, d.String())
		}
		if len(errs) > 0 {
			t.Errorf("findings: %v", errs)
		}
		rs = got
	}, budget)
	if len(rs) != 1 || rs[0].Key != "errors" || rs[0].Number.Value.IntPart() != 200 || len(rs[0].Inputs) != 200 {
		t.Fatalf("readings %+v; want errors = 200 with 200 inputs", rs)
	}
	if grew > 2*budget {
		t.Errorf("reading a %d-byte CSV for one count grew the heap by %d MiB; want under %d MiB (a row at a time)", len(src), grew>>20, 2*budget>>20)
	}
}

// TestCSVKeepFilters: with Keep, ReadCSV returns exactly the kept
// readings of the whole read, with the same findings (a comma the file
// leaves ambiguous is reported whether its cell is kept or not).
func TestCSVKeepFilters(t *testing.T) {
	src := []byte("name,ok,lat,size\na,1,\"1,5\",12\nb,0,2.25,\"1,234\"\nc,1,3,7\n")
	opt := raw.ReadOptions{Key: "name", CountWhere: map[string]string{"n_ok": "ok == 1"}}
	all, allErrs := rawtest.AllOf(structured.ReadCSV("f.csv", src, opt))
	for _, keep := range [][]string{nil, {"n_ok"}, {"a.lat", "c.size"}, {"b.size", "n_ok"}} {
		want := map[string]bool{}
		for _, k := range keep {
			want[k] = true
		}
		opt.Keep = func(k string) bool { return want[k] }
		got, errs := rawtest.AllOf(structured.ReadCSV("f.csv", src, opt))
		var filtered []raw.Reading
		for _, r := range all {
			if want[r.Key] {
				filtered = append(filtered, r)
			}
		}
		if !reflect.DeepEqual(got, filtered) {
			t.Errorf("keep %v: readings %+v, want %+v", keep, got, filtered)
		}
		if fmt.Sprint(errs) != fmt.Sprint(allErrs) {
			t.Errorf("keep %v: findings %v, want %v", keep, errs, allErrs)
		}
	}
}

// BenchmarkCSVCountWhere reads a million-row CSV for one count_where;
// its B/op is what the read allocates in all (garbage included), and
// TestCSVCountWhereStreams bounds what it holds at once.
func BenchmarkCSVCountWhere(b *testing.B) {
	src := bigCSV(1_000_000)
	opt := raw.ReadOptions{CountWhere: map[string]string{"errors": "code == 500"}, Keep: func(k string) bool { return k == "errors" }}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if rs, _ := rawtest.AllOf(structured.ReadCSV("big.csv", src, opt)); len(rs) != 1 {
			b.Fatal(len(rs))
		}
	}
}
