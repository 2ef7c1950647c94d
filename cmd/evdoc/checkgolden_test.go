package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestCheckOutputGolden holds `evdoc check`'s text and JSON output on
// small sites of internal/benchsite, with digits, "[" and "%" changed at
// random (seeded) so that claims mismatch, lose their links and units and
// translations disagree, equal to testdata/checkgolden/NAME.txt and
// NAME.json: a change meant to leave check's output as it is (a faster
// parse, parity check or judgement) shows here as a difference (-update
// rewrites the files after a change meant to alter it).
func TestCheckOutputGolden(t *testing.T) {
	for _, tt := range []struct {
		name    string
		opt     benchgen.Options
		mutSeed uint64
	}{
		{"seed5-set1", benchgen.Options{Pages: 2, Seed: 5, ClaimsPerPage: 40, PagesPerSet: 1}, 1},
		{"seed6-set50", benchgen.Options{Pages: 2, Seed: 6, ClaimsPerPage: 40, PagesPerSet: 50}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := benchgen.Write(dir, tt.opt); err != nil {
				t.Fatal(err)
			}
			mutate(t, filepath.Join(dir, "content"), tt.mutSeed)
			for _, format := range []string{"text", "json"} {
				code, stdout, stderr := evdoc("check", "--root", dir, "--format", format)
				got := fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout, stderr)
				ext := map[string]string{"text": ".txt", "json": ".json"}[format]
				golden := filepath.Join("testdata", "checkgolden", tt.name+ext)
				if txtartest.Updating() {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./cmd/evdoc -run TestCheckOutputGolden -update writes it)", err)
				}
				if !bytes.Equal(want, []byte(got)) {
					t.Errorf("check --format %s differs from %s at byte %d (of %d, want %d)", format, golden, firstDiff(want, []byte(got)), len(got), len(want))
				}
			}
			if code, stdout, _ := evdoc("check", "--root", dir); code != 1 || len(stdout) == 0 {
				t.Errorf("the mutated site gave exit %d and %d bytes of findings; expected exit 1 with findings", code, len(stdout))
			}
		})
	}
}

// mutate changes the Markdown pages under dir, in path order, with a
// generator seeded by seed: about one digit in 100 becomes another
// digit, one "[" in 200 and one "%" in 100 are dropped, and one line in
// 30 is followed by a new heading with a "？" on the line below it.
func mutate(t *testing.T, dir string, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := make([]byte, 0, len(b))
		for _, c := range b {
			switch {
			case c >= '0' && c <= '9' && rng.IntN(100) == 0:
				c = byte('0' + rng.IntN(10))
			case c == '[' && rng.IntN(200) == 0, c == '%' && rng.IntN(100) == 0:
				continue
			case c == '\n' && rng.IntN(30) == 0:
				// a heading of its own, its question mark on the line below
				out = fmt.Appendf(out, "\n\n## 9 %d\n？\n", rng.IntN(100))
			}
			out = append(out, c)
		}
		return os.WriteFile(p, out, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// firstDiff returns the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
