//go:build unix

package lock

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRefusesForeignLockFile: a lock file that is not evdoc's own regular
// file — a symbolic link (as a repository can commit one) to a file
// outside, a FIFO, a directory, a hard link — is an error naming it; the
// file it leads to keeps its contents and nothing blocks.
func TestRefusesForeignLockFile(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	const precious = "precious line 1\nprecious line 2\n"
	if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(p string) error{
		"symlink":           func(p string) error { return os.Symlink(victim, p) },
		"dangling link":     func(p string) error { return os.Symlink(filepath.Join(dir, "new"), p) },
		"fifo":              func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"directory":         func(p string) error { return os.Mkdir(p, 0o755) },
		"hard link":         func(p string) error { return os.Link(victim, p) },
		"link to /dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	}
	for name, plant := range cases {
		p := filepath.Join(t.TempDir(), "lock")
		if err := plant(p); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			l, err := Acquire(context.Background(), p, Options{Owner: "evdoc test"})
			if err == nil {
				l.Unlock()
				t.Errorf("%s: Acquire succeeded", name)
			} else if !strings.Contains(err.Error(), p) {
				t.Errorf("%s: error %q does not name the lock file", name, err)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Acquire blocked", name)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != precious {
		t.Fatalf("the file outside now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "new")); err == nil {
		t.Fatal("a dangling link's target was created")
	}
}
