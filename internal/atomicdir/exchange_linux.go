//go:build linux

package atomicdir

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps a and b with renameat2(RENAME_EXCHANGE).
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return fmt.Errorf("rename exchange %s %s: %v: %w", a, b, err, errors.ErrUnsupported)
	default:
		return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: err}
	}
}
