// Package atomicfile replaces a file's contents in one step: readers (and
// a process killed mid-write) see the old file or the new one, never a
// mix, and no temporary file is left beside the file being replaced.
package atomicfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrChanged is returned by ReplaceIfUnchanged when the file on disk no
// longer holds the bytes the new contents were computed from.
var ErrChanged = errors.New("file changed since it was read; left alone")

// ReplaceIfUnchanged replaces the regular file at path with data if it
// still holds exactly read. The new contents are written to a temporary
// file in tmpDir (which must be on the same file system; when it is not,
// the temporary file goes next to path instead), synced, given path's
// permissions and renamed over path. The temporary file is removed on
// every failure; only a process killed between creating and renaming it
// can leave it in tmpDir, which is why tmpDir should be a directory its
// owner cleans (evdoc's .evdoc/tmp, emptied under the project lock).
func ReplaceIfUnchanged(path string, read, data []byte, tmpDir string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	cur, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(cur, read) && sha256.Sum256(cur) != sha256.Sum256(read) {
		return ErrChanged
	}
	err = writeAndRename(path, data, fi.Mode().Perm(), tmpDir)
	if errors.Is(err, syscall.EXDEV) {
		err = writeAndRename(path, data, fi.Mode().Perm(), filepath.Dir(path))
	}
	return err
}

// Write creates or replaces the file at path with data (permissions
// perm), creating its directory: the data goes to a temporary file beside
// path, synced and renamed over it, so a reader or a killed process sees
// the old file or the new one. The temporary file is removed on failure.
func Write(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeAndRename(path, data, perm, filepath.Dir(path))
}

func writeAndRename(path string, data []byte, perm os.FileMode, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".evdoc-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	return nil
}
