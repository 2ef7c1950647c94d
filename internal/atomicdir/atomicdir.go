// Package atomicdir replaces a directory tree with another in one step, so
// that a reader (a web server, a person, a crashed run's successor) sees
// either the old tree or the new one under the destination name, never
// neither and never a mix.
//
// Where the kernel offers it (Linux renameat2 with RENAME_EXCHANGE) the
// two trees trade names in a single system call. Elsewhere, and on file
// systems that refuse the exchange, the destination is moved aside and
// the new tree moved in; when the second rename fails the old tree is
// moved back before Replace returns. A process killed between those two
// renames leaves the old tree at the aside name, which Recover restores.
package atomicdir

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Ops are the file-system operations Replace uses. Tests substitute
// failing ones; OS returns the real ones.
type Ops struct {
	// Exchange swaps the names of two existing paths atomically. It
	// returns an error wrapping errors.ErrUnsupported when the system or
	// the file system cannot.
	Exchange func(a, b string) error
	// Rename is os.Rename.
	Rename func(from, to string) error
	// RemoveAll is os.RemoveAll.
	RemoveAll func(path string) error
}

// OS returns the operations of the running system.
func OS() Ops {
	return Ops{Exchange: exchange, Rename: os.Rename, RemoveAll: os.RemoveAll}
}

// AsideSuffix marks the name the old tree takes while the fallback swap
// runs: DIR/.NAME.evdoc-old.
const AsideSuffix = ".evdoc-old"

// AsideName returns the path the old tree of dst is moved to by the
// fallback swap (and by the exchange, briefly, before it is removed).
func AsideName(dst string) string {
	return filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+AsideSuffix)
}

// Replace makes dst hold the tree now at src, which must be a directory
// on the same file system. When dst does not exist src is renamed to it.
// On success src no longer exists and the old dst tree is deleted; when
// deleting it fails, Replace still succeeds (the new tree is in place)
// and the leftover is removed by the next Recover. On failure dst holds
// the old tree (or still does not exist) and src the new one.
func Replace(ops Ops, src, dst string) error {
	if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
		if err := ops.Rename(src, dst); err != nil {
			return fmt.Errorf("moving the new tree into place: %w", err)
		}
		return nil
	}
	aside := AsideName(dst)
	if err := ops.RemoveAll(aside); err != nil {
		return fmt.Errorf("removing a leftover %s: %w", aside, err)
	}
	err := ops.Exchange(src, dst)
	if err == nil {
		// src now holds the old tree.
		if err := ops.Rename(src, aside); err != nil {
			_ = ops.RemoveAll(src)
			return nil
		}
		_ = ops.RemoveAll(aside)
		return nil
	}
	if !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("exchanging the new tree with %s: %w", dst, err)
	}
	if err := ops.Rename(dst, aside); err != nil {
		return fmt.Errorf("moving the old tree aside: %w", err)
	}
	if err := ops.Rename(src, dst); err != nil {
		if rerr := ops.Rename(aside, dst); rerr != nil {
			return fmt.Errorf("moving the new tree into place: %w; restoring the old tree from %s also failed: %v", err, aside, rerr)
		}
		return fmt.Errorf("moving the new tree into place: %w (the old tree is back)", err)
	}
	_ = ops.RemoveAll(aside)
	return nil
}

// Recover repairs what a run killed during Replace left: when dst is
// missing and its aside tree exists, the aside tree is moved back to dst;
// when both exist, the aside tree (an old site) is removed. It reports
// whether it restored dst.
func Recover(ops Ops, dst string) (restored bool, err error) {
	aside := AsideName(dst)
	if _, err := os.Lstat(aside); err != nil {
		return false, nil
	}
	if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
		if err := ops.Rename(aside, dst); err != nil {
			return false, fmt.Errorf("restoring %s from %s: %w", dst, aside, err)
		}
		return true, nil
	}
	return false, ops.RemoveAll(aside)
}

// TempName reports whether name (a base name) is one of the names this
// package or its callers use for trees next to dst's base name: the aside
// name or a new-tree name made by NewTemp.
func TempName(dstBase, name string) bool {
	return name == "."+dstBase+AsideSuffix || strings.HasPrefix(name, "."+dstBase+newInfix)
}

const newInfix = ".evdoc-new-"

// NewTemp creates an empty directory next to dst for the new tree, with a
// name unique to this call (DIR/.NAME.evdoc-new-RANDOM), and the mode the
// tree at dst has (when dst exists) or a new directory gets under the
// umask (0755 under umask 022): a published site must stay readable by a
// web server running as another user, as it was before the swap.
func NewTemp(dst string) (string, error) {
	return MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+newInfix, dst)
}

// MkdirTemp creates a new directory in dir whose name is prefix followed
// by a random string, as os.MkdirTemp does, but with the permissions of
// like when like names an existing directory, else those of any new
// directory (0777 less the umask) instead of os.MkdirTemp's 0700.
func MkdirTemp(dir, prefix, like string) (string, error) {
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		err := os.Mkdir(name, 0o777)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(like); like != "" && err == nil && fi.IsDir() {
			if err := os.Chmod(name, fi.Mode().Perm()); err != nil {
				os.Remove(name)
				return "", err
			}
		}
		return name, nil
	}
	return "", fmt.Errorf("creating a directory %s* in %s: too many names taken", prefix, dir)
}
