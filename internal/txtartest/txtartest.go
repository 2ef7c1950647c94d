// Package txtartest writes txtar archives of test projects to temporary
// directories, for tests that run evdoc on a small multi-file project.
package txtartest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// WantFile is the archive member that holds a test's expected output; it
// is not written to the project directory.
const WantFile = "want"

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
