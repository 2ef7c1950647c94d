package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDerivedDigitsBounded: a chain of derived squares would double its
// digits at every step (2^40 digits at d40); every result beyond
// maxDerivedDigits is an evidence-derived error (at the line of the
// value whose evaluation meets it, naming the chain), the
// values before it are computed exactly, and none is cut short.
func TestDerivedDigitsBounded(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "dv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var m strings.Builder
	m.WriteString("id = \"dv\"\ntitle = \"t\"\ndate = \"2026-07-09\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n\n[[read]]\nfile = \"r.csv\"\nformat = \"csv\"\nname = \"c\"\nkey = \"id\"\n\n[derived]\nd0 = \"c.a.v * c.a.v\"\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&m, "d%d = \"d%d * d%d\"\n", i, i-1, i-1)
	}
	files := map[string]string{"r.csv": "id,v\na,123456789.123456789\n", "evidence.toml": m.String()}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set, errs := LoadSet(root, "evidence/dv")
	if set == nil {
		t.Fatalf("the set does not load: %v", errs)
	}
	// 18 digits squared five times: 547 digits at d4, 1094 at d5.
	if v, w := set.get("d4"), set.get("d3"); v == nil || w == nil || v.Value.NumDigits() != 547 || !v.Value.Equal(w.Value.Mul(w.Value)) {
		t.Errorf("d4 = %v, want d3 * d3 exactly (547 digits)", v)
	}
	for _, n := range []string{"d5", "d6", "d40"} {
		if set.get(n) != nil {
			t.Errorf("%s has a value; want it unavailable", n)
		}
	}
	got := fmt.Sprint(errs)
	if !strings.Contains(got, "evidence.toml:25:1: error: d10 = \"d9 * d9\"") || !strings.Contains(got, "d5 = \"d4 * d4\": d4 * d4 gives a number of 1094 digits") ||
		!strings.Contains(got, "expected at most 1000 digits") || !strings.Contains(got, "evidence.toml:55:1: error: d40") {
		t.Errorf("errors %.600s…; want d5 … d40 each at its line, naming the 1000-digit limit", got)
	}
}
