//go:build unix

package serve

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the id runs (signal 0 is
// delivered, or refused for lack of permission).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
