package evidence

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// addSeeds adds the repository's evidence files and, when present, the
// shared corpus of real third-party samples to f's seed corpus.
func addSeeds(f *testing.F) {
	for _, pattern := range []string{"../../evidence/*/*", "../../../shared/corpus/*/*"} {
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

func FuzzParseManifest(f *testing.F) {
	files, _ := filepath.Glob("../../evidence/*/" + ManifestName)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("id = \"s\"\n[derived]\n\"a\" = \"sum(b, c)\"\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, errs := parseManifest("evidence/s/"+ManifestName, "s", src)
		for _, e := range errs {
			inside(t, src, e.Pos)
		}
	})
}
