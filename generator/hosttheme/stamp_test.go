package hosttheme

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// A project's themes/evdoc is the repository's input: a link to a
// device, a FIFO or a file past the limit is an error naming the file,
// returned at once (a link to /dev/zero read whole would grow without
// bound; a FIFO opened for reading would block). A regular file that
// differs is a difference, not an error.
func TestCheckComponentBoundedReads(t *testing.T) {
	want := fstest.MapFS{"layouts/a.html": {Data: []byte("a")}, "i18n/ko.toml": {Data: []byte("k = 1\n")}}
	tests := []struct {
		name  string
		plant func(dir string) error
		err   string // "" when a difference is reported instead
		diff  string
	}{
		{"link to /dev/zero", func(dir string) error {
			if err := os.Remove(filepath.Join(dir, "i18n", "ko.toml")); err != nil {
				return err
			}
			return os.Symlink("/dev/zero", filepath.Join(dir, "i18n", "ko.toml"))
		}, "themes/evdoc/i18n/ko.toml", ""},
		{"extra link", func(dir string) error { return os.Symlink("/dev/zero", filepath.Join(dir, "notes.txt")) }, "themes/evdoc/notes.txt", ""},
		{"fifo", func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "layouts", "pipe.html"), 0o644) }, "themes/evdoc/layouts/pipe.html", ""},
		{"too large", func(dir string) error { return os.Truncate(filepath.Join(dir, "layouts", "a.html"), 65<<20) }, "themes/evdoc/layouts/a.html", ""},
		{"stamp is a link", func(dir string) error { return os.Symlink("/dev/zero", filepath.Join(dir, ComponentStamp)) }, "", "layouts/a.html differs"},
		{"changed file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "layouts", "a.html"), []byte("b"), 0o644)
		}, "", "layouts/a.html differs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "themes", Component)
			for p, f := range want {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := tt.plant(dir); err != nil {
				t.Fatal(err)
			}
			if tt.name == "stamp is a link" { // and a difference, so the stamp is read
				if err := os.WriteFile(filepath.Join(dir, "layouts", "a.html"), []byte("b"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			msg, err := CheckComponent(root, []string{Component}, "", want, "v1")
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, msg = %q; want an error naming %s", err, msg, tt.err)
				}
				return
			}
			if err != nil || !strings.Contains(msg, tt.diff) {
				t.Errorf("err = %v, msg = %q; want a difference naming %s", err, msg, tt.diff)
			}
		})
	}
}
