//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "ev", "s"), 0o755))
	must(os.WriteFile(filepath.Join(root, "ev", "s", "ok.txt"), []byte("count=1\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "ev", "s", "big.txt"), make([]byte, 2000), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret.toml"), []byte("# hunter2"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret.toml"), filepath.Join(root, "ev", "s", "out.toml")))
	must(os.Symlink("ok.txt", filepath.Join(root, "ev", "s", "in.txt")))
	must(os.Symlink("/dev/zero", filepath.Join(root, "ev", "s", "zero")))
	must(os.Symlink(filepath.Join(root, "ev", "s"), filepath.Join(root, "ev", "linked")))
	must(syscall.Mkfifo(filepath.Join(root, "ev", "s", "fifo"), 0o644))
	tests := []struct {
		rel  string
		max  int64
		kind Kind
		ok   bool
	}{
		{rel: "ev/s/ok.txt", max: 100, ok: true},
		{rel: "ev/s/big.txt", max: 0, ok: true},
		{rel: "ev/s/big.txt", max: 1000, kind: TooLarge},
		{rel: "ev/s/out.toml", max: 100, kind: Symlink},
		{rel: "ev/s/in.txt", max: 100, kind: Symlink},
		{rel: "ev/s/zero", max: 100, kind: Symlink},
		{rel: "ev/linked/ok.txt", max: 100, kind: Symlink},
		{rel: "ev/s/fifo", max: 100, kind: NotRegular},
		{rel: "ev/s", max: 100, kind: NotRegular},
		{rel: "ev/s/none", max: 100, kind: NotFound},
		{rel: "../x", max: 100, kind: Escapes},
		{rel: "/etc/passwd", max: 100, kind: Escapes},
		{rel: "ev/s/ok.txt/x", max: 100, kind: NotRegular},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var b []byte
		var err error
		go func() { b, err = ReadFile(root, tt.rel, tt.max); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile blocked", tt.rel)
		}
		if tt.ok {
			if err != nil {
				t.Errorf("%s: %v", tt.rel, err)
			}
			continue
		}
		var fe *Error
		if !errors.As(err, &fe) || fe.Kind != tt.kind {
			t.Errorf("%s: error %v (%#v), want kind %d", tt.rel, err, fe, tt.kind)
		}
		if b != nil {
			t.Errorf("%s: returned %d bytes with an error", tt.rel, len(b))
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "256MiB": 256 << 20, "500 MB": 500e6, "1gib": 1 << 30, "3KB": 3000} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "-1", "1.5MB", "1 PB", "99999999999999999999"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

// TestCheckWrite: a write whose directory (existing or to be created)
// resolves outside the root is refused; one inside, also through a link
// that stays inside, is allowed.
func TestCheckWrite(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	for _, l := range [][2]string{{out, "assets/figures"}, {"inner", "alias"}, {"/", "themes/evdoc"}} {
		p := filepath.Join(root, l[1])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l[0], p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, ok := range map[string]bool{
		"assets/figures/x.json":      false,
		"assets/figures/new/x.json":  false,
		"themes/evdoc/static/a.css":  false,
		"alias/x":                    true,
		"inner/deep/new/x":           true,
		"x":                          true,
		"../x":                       false,
		"content/ko/new/dir/page.md": true,
	} {
		err := CheckWrite(root, filepath.Join(root, rel))
		if (err == nil) != ok {
			t.Errorf("CheckWrite(%s) = %v, want ok %v", rel, err, ok)
		}
	}
}
