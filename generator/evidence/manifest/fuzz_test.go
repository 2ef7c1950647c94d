package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// inside asserts that p names a byte of src (or its end) consistently;
// ix indexes src.
func inside(t *testing.T, src []byte, p diag.Position, ix *diag.LineIndex) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("position %v offset outside file of %d bytes", p, len(src))
	}
	if want := ix.Pos(p.Offset); want != p {
		t.Fatalf("position %v disagrees with its offset (%v)", p, want)
	}
}

// manifestPieces cuts a manifest into seeds of about 256 bytes: its
// top-level keys without the long lines (titles, sources), then its tables
// ([[table]], [derived], …) packed in order, each piece led by the id the
// fuzz target's evidence set has. Go's fuzzer minimizes an input that
// finds new coverage in a number of executions that grows with the square
// of its length, and the reference manifests (up to 3.6 KB, about 2 ms an
// execution) held a 20-second run in one minimization; the whole
// manifests are read by the package's other tests.
func manifestPieces(src []byte) [][]byte {
	const limit = 256
	lead := []byte("id = \"s\"\n")
	sections := bytes.SplitAfter(src, []byte("\n["))
	var top []byte
	for _, line := range bytes.SplitAfter(bytes.TrimSuffix(sections[0], []byte("[")), []byte("\n")) {
		if len(line) <= 80 {
			top = append(top, line...)
		}
	}
	out := [][]byte{top}
	piece := lead
	add := func(text []byte) {
		if len(piece)+len(text) > limit && len(piece) > len(lead) {
			out = append(out, piece)
			piece = lead
		}
		piece = append(slices.Clip(piece), text...)
	}
	for _, sec := range sections[1:] {
		sec = append([]byte("["), bytes.TrimSuffix(sec, []byte("["))...) // "[" starts the next header
		if len(lead)+len(sec) <= limit {
			add(sec)
			continue
		}
		// a long table ([derived]): its lines in pieces under its header
		lines := bytes.SplitAfter(sec, []byte("\n"))
		if len(piece) > len(lead) {
			out = append(out, piece)
		}
		piece = append(slices.Clip(lead), lines[0]...)
		for _, line := range lines[1:] {
			if len(piece)+len(line) > limit {
				out = append(out, piece)
				piece = append(slices.Clip(lead), lines[0]...)
			}
			piece = append(piece, line...)
		}
	}
	return append(out, piece)
}

func FuzzParseManifest(f *testing.F) {
	files, _ := filepath.Glob("../../../evidence/*/" + FileName)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			for _, piece := range manifestPieces(b) {
				f.Add(piece)
			}
		}
	}
	f.Add([]byte("id = \"s\"\n[derived]\n\"a\" = \"sum(b, c)\"\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, errs := Parse("evidence/s/"+FileName, "s", src)
		ix := diag.NewLineIndex("evidence/s/"+FileName, src)
		for _, e := range errs {
			inside(t, src, e.Pos, ix)
		}
	})
}
