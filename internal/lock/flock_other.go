//go:build !unix

package lock

import (
	"errors"
	"os"
)

// tryLock is unsupported off Unix: evdoc's writers there run unlocked
// would be unsafe, so taking the lock is an error.
func tryLock(f *os.File) (bool, error) {
	return false, errors.New("file locking is not supported on this operating system")
}

func unlock(f *os.File) error { return nil }

const (
	noFollow = 0
	nonBlock = 0
)

func links(fi os.FileInfo) uint64 { return 1 }
