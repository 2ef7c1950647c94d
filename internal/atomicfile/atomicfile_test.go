package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceIfUnchanged(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, ".evdoc", "tmp")
	page := filepath.Join(dir, "content", "p.md")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceIfUnchanged(page, []byte("other"), []byte("new"), tmp); !errors.Is(err, ErrChanged) {
		t.Fatalf("changed file: error %v, want ErrChanged", err)
	}
	if err := ReplaceIfUnchanged(page, []byte("old"), []byte("new"), tmp); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(page)
	fi, _ := os.Stat(page)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("page = %q mode %v, want new 0600", b, fi.Mode().Perm())
	}
	for _, d := range []string{tmp, filepath.Dir(page)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.Name() != "p.md" {
				t.Errorf("left behind: %s", filepath.Join(d, e.Name()))
			}
		}
	}
	// A symbolic link is not replaced (that would cut the link).
	link := filepath.Join(dir, "content", "l.md")
	if err := os.Symlink(page, link); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceIfUnchanged(link, []byte("new"), []byte("x"), tmp); err == nil {
		t.Error("a symbolic link was replaced")
	}
	// A failing write leaves no temporary file.
	ro := filepath.Join(dir, "ro")
	if err := os.MkdirAll(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		if err := ReplaceIfUnchanged(page, []byte("new"), []byte("y"), ro); err == nil {
			t.Error("write into a read-only temp dir succeeded")
		}
	}
}
