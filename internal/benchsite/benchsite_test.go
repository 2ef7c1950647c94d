package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// readTree returns every file under dir by its slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []struct {
		dir  string
		seed int64
	}{{a, 7}, {b, 7}, {c, 8}} {
		if err := benchgen.Write(d.dir, benchgen.Options{Pages: 60, Seed: d.seed, ClaimsPerPage: 40}); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb, tc := readTree(t, a), readTree(t, b), readTree(t, c)
	if len(ta) != len(tb) {
		t.Fatalf("same seed: %d files vs %d", len(ta), len(tb))
	}
	for p, x := range ta {
		if !bytes.Equal(x, tb[p]) {
			t.Errorf("same seed, %s differs", p)
		}
	}
	if bytes.Equal(ta["content/ko/bench/p00001.md"], tc["content/ko/bench/p00001.md"]) {
		t.Error("seeds 7 and 8 wrote the same first page")
	}
	for _, p := range []string{"hugo.toml", "content/ja/bench/p00060.md", "evidence/bench-002/evidence.toml", "evidence/bench-002/latency.csv", "themes/evdoc/layouts/_markup/render-link.html"} {
		if _, ok := ta[p]; !ok {
			t.Errorf("missing %s", p)
		}
	}
}

// TestCheckPasses runs `evdoc check` on a small generated site: every
// claim must match its evidence, with no error and no warning.
func TestCheckPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the evdoc command")
	}
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 3, Seed: 1, ClaimsPerPage: 480}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "github.com/evdoc-lab/evdoc/cmd/evdoc", "check", "--root", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("evdoc check: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(\d+)/(\d+) claims match`).FindStringSubmatch(string(out))
	if !strings.Contains(string(out), " 0 error(s), 0 warning(s)") || m == nil || m[1] != m[2] || len(m[1]) < 4 {
		t.Errorf("evdoc check output:\n%s", lastLines(string(out), 5))
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
