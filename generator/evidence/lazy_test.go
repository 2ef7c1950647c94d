package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// accessLogSet writes an evidence set "al" reading an Envoy access log
// of n lines (6 numeric fields a line) without select, under root.
func accessLogSet(t testing.TB, root string, n int) {
	t.Helper()
	dir := filepath.Join(root, "evidence", "al")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[2024-03-01T08:15:02.%03dZ] \"GET /api/items%d HTTP/1.1\" %d - 0 %d %d %d \"-\" \"hey/0.0.1\" \"5f1c9a1e-%012d\" \"items.lab:8080\" \"10.1.4.7:8080\"\n",
			i%1000, i, 200+303*(i%3/2), 1000+i%4000, 100+i%900, 50+i%700, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "access.log"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"al\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n\n" +
		"[[read]]\nfile = \"access.log\"\nformat = \"envoy-access-log\"\nname = \"a\"\n"
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadedSetLiveMemory holds the cost of a loaded set (RELIABILITY.md,
// "Cost bounds"): a [[read]] without select keeps its readings, not a
// Value each (about 300 bytes), so the set of a 20,000-line access log
// (120,000 readings, 3.3 MB) holds at most 100 bytes live per reading,
// the file's own bytes included, counted by the runtime after a
// collection. A value looked up is the reading's, and is one Value for
// every lookup.
func TestLoadedSetLiveMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("heap figures are those of a build without the race detector")
	}
	root := t.TempDir()
	const lines = 20000
	accessLogSet(t, root, lines)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	set, errs := LoadSet(root, "evidence/al")
	runtime.GC()
	runtime.ReadMemStats(&after)
	if set == nil || errs.HasErrors() {
		t.Fatalf("set %v, errs %v", set, errs)
	}
	n := set.Len()
	if n != 6*lines {
		t.Fatalf("%d values; want %d", n, 6*lines)
	}
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
	t.Logf("%d values: %.0f bytes live per value", n, per)
	if per > 100 {
		t.Errorf("a loaded set of %d readings holds %.0f bytes per reading; want at most 100", n, per)
	}
	v, _ := set.Value("a.r12345.bytes_sent")
	if v == nil || v.Value.String() != fmt.Sprint(1000+12344%4000) || v.Ref != "al/a.r12345.bytes_sent" || v.Pos.Line != 12345 {
		t.Fatalf("a.r12345.bytes_sent = %+v", v)
	}
	if w, _ := set.Value("a.r12345.bytes_sent"); w != v {
		t.Errorf("two lookups of one value give two Values")
	}
	runtime.KeepAlive(set)
}
