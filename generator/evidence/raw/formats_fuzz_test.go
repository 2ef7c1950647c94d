package raw

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// fuzzLabFormat runs format's reader on arbitrary input and checks the
// invariants of every reader: no panic, every position inside the file and
// consistent with its offset, Raw at Pos (count_where aggregates
// excepted), a non-empty Raw spanned by Number.Start/End, and no numeric
// field vanishing (checkNoVanish).
func fuzzLabFormat(f *testing.F, seeds []string, format string, opts ...ReadOptions) {
	addSeeds(f)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if len(opts) == 0 {
		opts = []ReadOptions{{}}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, opt := range opts {
			checkNoVanish(t, format, src, opt)
		}
	})
}

// addEnvoySeeds seeds f with the shared corpus files of dirs (when present)
// and with small inputs of every line shape the Envoy readers know.
func addEnvoySeeds(f *testing.F, dirs []string, extra ...string) {
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(envoyCorpus, dir, "*"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// fuzzEnvoy runs one Envoy reader on src and checks the Reader contract:
// no panic, every position inside src, Raw at Pos, the exact value of Raw,
// and no numeric field vanishing (checkNoVanish).
func fuzzEnvoy(t *testing.T, format string, src []byte) {
	out, errs := checkNoVanish(t, format, src, ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
}

// addSeeds adds the repository's evidence files and, when present, the
// shared corpus of real third-party samples to f's seed corpus.
func addSeeds(f *testing.F) {
	for _, pattern := range []string{"../../../evidence/*/*", filepath.Join(corpusDir, "*/*")} {
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

// inside asserts that p names a byte of src (or its end) consistently. ix
// indexes src (nil: built here; pass one when checking many positions).
func inside(t testing.TB, src []byte, p diag.Position, ix ...*diag.LineIndex) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("position %v offset outside file of %d bytes", p, len(src))
	}
	var x *diag.LineIndex
	if len(ix) > 0 && ix[0] != nil {
		x = ix[0]
	} else {
		x = diag.NewLineIndex(p.File, src)
	}
	want := x.Pos(p.Offset)
	want.File = p.File
	if want != p {
		t.Fatalf("position %v disagrees with its offset (%v)", p, want)
	}
}
