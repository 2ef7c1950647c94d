package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestImpact runs evdoc impact on each testdata/impact/*.txtar: the
// archive's project is committed to a new git repository, then its
// change/ files replace or add files, the paths listed in its delete
// member are removed, and `impact --base HEAD` is compared with want (the
// text, then the Markdown). The Markdown must stay under GitHub's job
// summary limit.
func TestImpact(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	txtartest.Run(t, "testdata/impact/*.txtar", func(t *testing.T, dir string, ar *txtar.Archive) []byte {
		if err := os.RemoveAll(filepath.Join(dir, "change")); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(filepath.Join(dir, "delete"))
		gitIn(t, dir, "init", "-q")
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "-m", "base")
		for _, f := range ar.Files {
			if rel, ok := strings.CutPrefix(f.Name, "change/"); ok {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if f.Name == "delete" {
				for _, rel := range strings.Fields(string(f.Data)) {
					if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		var got bytes.Buffer
		for _, format := range []string{"text", "markdown"} {
			code, out, stderr := evdoc("impact", "--base", "HEAD", "--format", format, "--root", dir)
			if code != 0 {
				t.Fatalf("impact --format=%s: exit %d\n%s%s", format, code, out, stderr)
			}
			if format == "markdown" && len(out) > report.SummaryLimit {
				t.Errorf("the Markdown is %d bytes, over GitHub's job summary limit %d", len(out), report.SummaryLimit)
			}
			got.WriteString("-- " + format + "\n" + out)
		}
		return got.Bytes()
	})
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
