//go:build !linux

package atomicdir

import (
	"errors"
	"fmt"
)

// exchange is unavailable off Linux; Replace falls back to two renames
// with restore.
func exchange(a, b string) error {
	return fmt.Errorf("rename exchange %s %s: %w", a, b, errors.ErrUnsupported)
}
