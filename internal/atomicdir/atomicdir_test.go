package atomicdir

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// tree makes dir with one file marker holding content.
func tree(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func marker(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		return "<missing: " + err.Error() + ">"
	}
	return string(b)
}

func noExchange(a, b string) error { return errors.ErrUnsupported }

// failOn returns a Rename that fails with EIO when moving from a path
// whose base name is from, and renames otherwise.
func failOn(from string) func(a, b string) error {
	return func(a, b string) error {
		if filepath.Base(a) == from {
			return &os.LinkError{Op: "rename", Old: a, New: b, Err: syscall.EIO}
		}
		return os.Rename(a, b)
	}
}

func TestReplace(t *testing.T) {
	real := OS()
	tests := []struct {
		name     string
		ops      Ops
		haveOld  bool
		wantErr  bool
		wantSite string // what dst holds afterwards
		wantSrc  bool   // src still exists afterwards
	}{
		{name: "exchange", ops: real, haveOld: true, wantSite: "new"},
		{name: "no old tree", ops: real, wantSite: "new"},
		{name: "fallback two renames", ops: Ops{Exchange: noExchange, Rename: os.Rename, RemoveAll: os.RemoveAll}, haveOld: true, wantSite: "new"},
		{name: "exchange fails EIO", ops: Ops{Exchange: func(a, b string) error { return syscall.EIO }, Rename: os.Rename, RemoveAll: os.RemoveAll},
			haveOld: true, wantErr: true, wantSite: "old", wantSrc: true},
		{name: "fallback second rename fails: old restored", ops: Ops{Exchange: noExchange, Rename: failOn("new"), RemoveAll: os.RemoveAll},
			haveOld: true, wantErr: true, wantSite: "old", wantSrc: true},
		{name: "fallback first rename fails", ops: Ops{Exchange: noExchange, Rename: failOn("public"), RemoveAll: os.RemoveAll},
			haveOld: true, wantErr: true, wantSite: "old", wantSrc: true},
		{name: "removing the old tree fails: still a success", ops: Ops{Exchange: real.Exchange, Rename: os.Rename, RemoveAll: func(string) error { return syscall.EIO }},
			haveOld: true, wantErr: true /* leftover aside cannot be removed up front */, wantSite: "old", wantSrc: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "new"), filepath.Join(dir, "public")
			tree(t, src, "new")
			if tt.haveOld {
				tree(t, dst, "old")
				tree(t, AsideName(dst), "stale") // a leftover from a killed run
			}
			err := Replace(tt.ops, src, dst)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Replace error = %v, want error %v", err, tt.wantErr)
			}
			if got := marker(t, dst); got != tt.wantSite {
				t.Errorf("dst holds %q, want %q", got, tt.wantSite)
			}
			if _, err := os.Stat(src); (err == nil) != tt.wantSrc {
				t.Errorf("src exists = %v, want %v", err == nil, tt.wantSrc)
			}
			if !tt.wantErr {
				if _, err := os.Stat(AsideName(dst)); err == nil {
					t.Errorf("old tree left at %s", AsideName(dst))
				}
			}
		})
	}
}

func TestRecover(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "public")
	// Killed between the two renames of the fallback: only the aside tree.
	tree(t, AsideName(dst), "old")
	restored, err := Recover(OS(), dst)
	if err != nil || !restored {
		t.Fatalf("Recover = %v, %v; want restored", restored, err)
	}
	if got := marker(t, dst); got != "old" {
		t.Errorf("dst holds %q, want old", got)
	}
	// Killed after the swap, before removing the old tree: both exist.
	tree(t, AsideName(dst), "older")
	restored, err = Recover(OS(), dst)
	if err != nil || restored {
		t.Fatalf("Recover = %v, %v; want removal only", restored, err)
	}
	if _, err := os.Stat(AsideName(dst)); err == nil {
		t.Error("aside tree not removed")
	}
	if got := marker(t, dst); got != "old" {
		t.Errorf("dst holds %q, want old", got)
	}
}

func TestTempName(t *testing.T) {
	tmp, err := NewTemp(filepath.Join(t.TempDir(), "public"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		filepath.Base(tmp):   true,
		".public.evdoc-old":  true,
		"public":             false,
		".public2.evdoc-old": false,
		".other.evdoc-new-1": false,
	} {
		if got := TempName("public", name); got != want {
			t.Errorf("TempName(public, %q) = %v, want %v", name, got, want)
		}
	}
}
