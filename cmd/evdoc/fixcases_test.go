package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestFixCases runs evdoc fix --dry-run, evdoc fix and evdoc check on each
// testdata/fixcases/*.txtar project and compares their exit status and
// output, and every project file fix changed, with the archive's "want"
// file: every stale claim check reports is rewritten by fix or listed by
// it with the reason. Run with -update to rewrite "want" after reviewing
// the change.
func TestFixCases(t *testing.T) {
	txtartest.Run(t, "testdata/fixcases/*.txtar", func(t *testing.T, dir string, ar *txtar.Archive) []byte {
		var b bytes.Buffer
		for _, args := range [][]string{{"fix", "--dry-run"}, {"fix"}} {
			code, stdout, stderr := evdoc(append(args, "--root", dir)...)
			fmt.Fprintf(&b, "== evdoc %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		for _, f := range ar.Files {
			if f.Name == txtartest.WantFile {
				continue
			}
			now, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Name)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(now, f.Data) {
				fmt.Fprintf(&b, "== %s after fix\n%s", f.Name, now)
			}
		}
		code, stdout, _ := evdoc("check", "--root", dir)
		fmt.Fprintf(&b, "== evdoc check: exit %d\n%s", code, stdout)
		return b.Bytes()
	})
}
