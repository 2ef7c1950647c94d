package serve

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// hugoOwned are the names, at the top of the served directory, that
// Hugo's server writes there itself: sync leaves them alone.
var hugoOwned = []string{".hugo_build.lock", "resources"}

// syncTree makes the regular files under to equal those under from:
// a file whose bytes differ is replaced (written beside it, then renamed
// over it, so Hugo's watcher never reads half a file), a file only in
// to is removed, with the directories it leaves empty. A file whose
// bytes are the same is not touched, so Hugo rebuilds only what changed.
// It returns the number of files written and removed.
func syncTree(from, to string) (written, removed int, err error) {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return 0, 0, err
	}
	want := map[string]bool{}
	err = filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(from, p)
		want[rel] = true
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, b) {
			return nil
		}
		if err := writeReplace(dst, b); err != nil {
			return err
		}
		written++
		return nil
	})
	if err != nil {
		return written, removed, err
	}
	var dirs []string
	err = filepath.WalkDir(to, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(to, p)
		if rel == "." {
			return nil
		}
		if top, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); slices.Contains(hugoOwned, top) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		if !want[rel] {
			if err := os.Remove(p); err != nil {
				return err
			}
			removed++
		}
		return nil
	})
	// Deepest first: a directory emptied of files, then its parents.
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // fails, as it should, when not empty
	}
	return written, removed, err
}

// writeReplace writes b to p through a temporary file in p's directory
// renamed over p.
func writeReplace(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".evdoc-sync-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
