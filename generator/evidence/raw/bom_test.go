package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestBOMPositions holds that a raw file saved with a UTF-8 byte order
// mark is read as the same file without one: every sample under
// testdata/tools, and a small file of each generic format, gives, with "\ufeff" before it, the same readings at the
// same lines and columns (as an editor shows them: the mark takes no
// column), and the same findings at the same places.
func TestBOMPositions(t *testing.T) {
	type sample struct{ format, name, src string }
	samples := []sample{
		{"csv", "a.csv", "name,latency_ms\nA,1.5\nB,2\n"},
		{"csv", "first-cell.csv", "7,8\n9,10\n"},
		{"json", "a.json", `{"a": 1.5, "b": [2, 3]}` + "\n"},
		{"envoy-stats", "stats.txt", "cluster.x.upstream_rq_200: 86\ncluster.x.upstream_rq_503: 2\n"},
		{"markdown-tables", "t.md", "| a | b |\n|---|---|\n| 1 | 2.5 |\n"},
		{"prometheus", "m.txt", "# TYPE x counter\nx{a=\"b\"} 5\n"},
		{"csv", "bad.csv", "a,b\n\"1,2\n"},
	}
	files, _ := filepath.Glob("testdata/tools/*/*")
	for _, p := range files {
		if strings.HasSuffix(p, ".golden") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, sample{filepath.Base(filepath.Dir(p)), filepath.Base(p), string(src)})
	}
	n := 0
	for _, sm := range samples {
		n++
		format := sm.format
		t.Run(format+"/"+sm.name, func(t *testing.T) {
			src := []byte(sm.src)
			read, err := formats.ReaderFor(format)
			if err != nil {
				t.Fatal(err)
			}
			base := sm.name
			plain, perrs := read(base, src, raw.ReadOptions{})
			marked, merrs := read(base, append([]byte("\ufeff"), src...), raw.ReadOptions{})
			lc := func(p diag.Position) [2]int { return [2]int{p.Line, p.Column} }
			if len(plain) != len(marked) {
				t.Fatalf("%d readings, with a BOM %d", len(plain), len(marked))
			}
			for i := range plain {
				a, b := plain[i], marked[i]
				if a.Key != b.Key || a.Raw != b.Raw || lc(a.Pos) != lc(b.Pos) || b.Pos.Offset != a.Pos.Offset+3 {
					t.Errorf("reading %d: %s %q at %s, with a BOM %s %q at %s", i, a.Key, a.Raw, a.Pos, b.Key, b.Raw, b.Pos)
				}
			}
			if len(perrs) != len(merrs) {
				t.Fatalf("findings %v, with a BOM %v", perrs, merrs)
			}
			for i := range perrs {
				if lc(perrs[i].Pos) != lc(merrs[i].Pos) || perrs[i].Message != merrs[i].Message {
					t.Errorf("finding %d: %s, with a BOM %s", i, perrs[i], merrs[i])
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no samples")
	}
}
