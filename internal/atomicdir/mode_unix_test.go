//go:build unix

package atomicdir

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestNewTempMode: a new tree gets the mode of the tree it replaces, or a
// new directory's mode under the umask, never os.MkdirTemp's 0700 (a
// site a web server running as another user must read).
func TestNewTempMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	dst := filepath.Join(dir, "public")
	tmp, err := NewTemp(dst)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(tmp); fi.Mode().Perm() != 0o755 {
		t.Errorf("new tree for a missing dst: mode %v, want 0755 (umask 022)", fi.Mode().Perm())
	}
	if err := os.Mkdir(dst, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dst, 0o750); err != nil {
		t.Fatal(err)
	}
	tmp, err = NewTemp(dst)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(tmp); fi.Mode().Perm() != 0o750 {
		t.Errorf("new tree for dst of mode 0750: mode %v", fi.Mode().Perm())
	}
	if !TempName("public", filepath.Base(tmp)) {
		t.Errorf("%s is not a temporary name of public", tmp)
	}
}
