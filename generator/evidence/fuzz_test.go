package evidence

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

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
