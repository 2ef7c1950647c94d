package site

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

func TestOutputDirRefusesSources(t *testing.T) {
	dir := sitetest.CopyProject(t)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "README.md"), []byte("x"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "notes"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "notes", "a.txt"), []byte("x"), 0o644))
	s := &project.Site{Root: dir}
	for _, out := range []string{".", "..", "content", "content/ko", "evidence", "layouts", ".git", "README.md", "notes", dir} {
		if _, err := outputDir(s, out); err == nil {
			t.Errorf("--out %s accepted", out)
		}
	}
	for _, out := range []string{"public", "site/out", filepath.Join(t.TempDir(), "elsewhere")} {
		if _, err := outputDir(s, out); err != nil {
			t.Errorf("--out %s refused: %v", out, err)
		}
	}
}
