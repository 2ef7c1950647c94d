// Package txtartest writes txtar archives of test projects to temporary
// directories, for tests that run evdoc on a small multi-file project, and
// compares what a test produced with the archive's "want" member: the
// golden-file harness every txtar test of the module shares.
//
// The test flag -update (registered by this package, so every test binary
// that imports it has exactly one) rewrites golden data instead of
// comparing: the want member of each archive CheckGolden or Run is given,
// and whatever other golden file a test writes when Updating reports true.
// Review the diff before committing it.
package txtartest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"golang.org/x/tools/txtar"
)

// WantFile is the archive member that holds a test's expected output; it
// is not written to the project directory.
const WantFile = "want"

var update = flag.Bool("update", false, "rewrite golden files (the \"want\" member of txtar archives, goldens under testdata/ and the generated files the tests compare) instead of comparing")

// Updating reports whether the test binary runs with -update: a test that
// compares with a golden file of its own rewrites it instead.
func Updating() bool { return *update }

// Write writes every file of ar except WantFile under a new temporary
// directory (removed when the test ends) and returns that directory.
func Write(t testing.TB, ar *txtar.Archive) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == WantFile {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// WriteFile parses the archive at path and writes it as Write does.
func WriteFile(t testing.TB, path string) string {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Write(t, ar)
}

// CheckGolden compares got with the WantFile member of ar, the archive
// read from file. With -update it instead sets that member to got (adding
// it when missing) and rewrites file. A missing member without -update is
// an error that shows got.
func CheckGolden(t testing.TB, file string, ar *txtar.Archive, got []byte) {
	t.Helper()
	idx := -1
	for i, f := range ar.Files {
		if f.Name == WantFile {
			idx = i
		}
	}
	if *update {
		if idx < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: WantFile})
			idx = len(ar.Files) - 1
		}
		if bytes.Equal(ar.Files[idx].Data, got) {
			return
		}
		ar.Files[idx].Data = bytes.Clone(got)
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if idx < 0 {
		t.Fatalf("%s has no %q member; run the test with -update after checking this output:\n%s", file, WantFile, got)
		return
	}
	if want := ar.Files[idx].Data; !bytes.Equal(got, want) {
		t.Errorf("%s: got:\n%s\nwant:\n%s", file, got, want)
	}
}

// Run runs one subtest per archive matching pattern (a filepath.Glob
// pattern such as "testdata/check/*.txtar"), named after the archive
// without ".txtar": it writes the archive's project to a temporary
// directory (Write), calls fn with it and compares fn's output with the
// archive's want member (CheckGolden). It fails when no archive matches.
func Run(t *testing.T, pattern string, fn func(t *testing.T, dir string, ar *txtar.Archive) []byte) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no archives match %s", pattern)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			CheckGolden(t, file, ar, fn(t, Write(t, ar), ar))
		})
	}
}

// CheckRanges fails the test for every diagnostic of ds with a line but
// no well-formed range (see diag.Diagnostic.RangeError): each finding
// about a place in a file says where it starts and where it ends, as
// go/analysis's Diagnostic{Pos, End}, so SARIF, JSON and GitHub output
// can mark the whole range.
func CheckRanges(t testing.TB, ds diag.List) {
	t.Helper()
	for _, d := range ds {
		if err := d.RangeError(); err != nil {
			t.Errorf("%v: %s", err, d.Message)
		}
	}
}
