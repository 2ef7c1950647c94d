package raw

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// addSeeds adds the repository's evidence files and, when present, the
// shared corpus of real third-party samples to f's seed corpus.
func addSeeds(f *testing.F) {
	for _, pattern := range []string{"../../../evidence/*/*", "../../../../shared/corpus/*/*"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("| a | b |\n|---|---|\n| x | **1 (+1)** |\n"))
	f.Add([]byte("[S] t\nA=1 B=2.5s\nx +3\ny: 4\n"))
}

// inside asserts that p names a byte of src (or its end) consistently.
func inside(t *testing.T, src []byte, p diag.Position) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("position %v offset outside file of %d bytes", p, len(src))
	}
	want := diag.NewLineIndex(p.File, src).Pos(p.Offset)
	if want != p {
		t.Fatalf("position %v disagrees with its offset (%v)", p, want)
	}
}

func FuzzReadTables(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		tables, errs := ReadTables("f.md", src)
		for _, e := range errs {
			inside(t, src, e.Pos)
		}
		for _, tb := range tables {
			inside(t, src, tb.Pos)
			for _, row := range append([][]Cell{tb.Header}, tb.Rows...) {
				for _, c := range row {
					inside(t, src, c.Pos)
					if c.Text != "" && !strings.HasPrefix(string(src[c.Pos.Offset:]), c.Text) {
						t.Fatalf("cell %q not at %v", c.Text, c.Pos)
					}
				}
			}
		}
	})
}

func FuzzReadTranscript(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		entries, errs := ReadTranscript("f.txt", src)
		for _, e := range errs {
			inside(t, src, e.Pos)
		}
		for _, e := range entries {
			inside(t, src, e.Pos)
			if !strings.HasPrefix(string(src[e.Pos.Offset:]), e.Raw) {
				t.Fatalf("raw %q not at %v", e.Raw, e.Pos)
			}
		}
	})
}

func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"**18 (+1)**", "1 (Δ0)", "`60s`", "23(56.1%)", "10.250.147.30(a)", "−3", "Δ+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseCell(s)
		if ok && (n.Start < 0 || n.End > len(s) || n.Start >= n.End) {
			t.Fatalf("ParseCell(%q) range [%d,%d)", s, n.Start, n.End)
		}
	})
}
