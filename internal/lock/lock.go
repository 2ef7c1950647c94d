// Package lock takes an exclusive, per-project advisory lock so that two
// evdoc runs that write the same project (build, fix) never interleave.
//
// The lock is flock(2) on a file: the kernel releases it when the holder
// exits for any reason (kill -9 included), so a crashed run never leaves
// a stale lock behind. The file also records who holds it (pid and
// command) so a waiting run can say what it waits for.
package lock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrTimeout is returned by Acquire when the lock stayed busy for the
// whole wait.
var ErrTimeout = errors.New("lock: still held by another run")

// Lock is a held lock. Release it with Unlock.
type Lock struct {
	f    *os.File
	path string
}

// Options tunes Acquire.
type Options struct {
	// Wait is how long to wait for a busy lock; zero or less fails at once.
	Wait time.Duration
	// Poll is the retry interval while waiting (default 100ms).
	Poll time.Duration
	// OnBusy, when not nil, is called once when the lock is found busy,
	// with the holder's description ("pid 1234: evdoc build"; empty when
	// unknown), before waiting.
	OnBusy func(holder string)
	// Owner describes this run ("evdoc build"); it is written to the lock
	// file for other runs' messages.
	Owner string
}

// Acquire takes the exclusive lock on the file at path, creating it (and
// its directory) when missing. It waits up to opt.Wait for a run that
// holds it; the wait ends early with ctx's error when ctx is done. When
// the wait runs out it returns an error wrapping ErrTimeout that names
// the holder.
func Acquire(ctx context.Context, path string, opt Options) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := openLockFile(path)
	if err != nil {
		return nil, err
	}
	poll := opt.Poll
	if poll <= 0 {
		poll = 100 * time.Millisecond
	}
	deadline := time.Now().Add(opt.Wait)
	told := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %v", path, err)
		}
		if ok {
			break
		}
		holder := readHolder(f)
		if !told && opt.OnBusy != nil {
			opt.OnBusy(holder)
			told = true
		}
		if !time.Now().Before(deadline) {
			f.Close()
			if holder == "" {
				holder = "another run"
			}
			return nil, fmt.Errorf("%w (%s; lock file %s)", ErrTimeout, holder, path)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(min(poll, time.Until(deadline)+time.Millisecond)):
		}
	}
	// Record the holder; a failure here only degrades other runs' messages.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(fmt.Sprintf("pid %d: %s\n", os.Getpid(), opt.Owner)), 0)
	}
	return &Lock{f: f, path: path}, nil
}

// openLockFile opens (creating) the lock file at path for reading and
// writing only when it is evdoc's own: a regular file with one link,
// reached without following a symbolic link at its name. A lock file is
// truncated and written, so a link committed to a repository (to a file
// outside the project, a FIFO or a device) must never be followed.
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow|nonBlock, 0o644)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("lock file %s is a symbolic link; expected evdoc's own regular file (remove the link; .evdoc/ is not part of a repository)", path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() || links(fi) > 1 {
		f.Close()
		return nil, fmt.Errorf("lock file %s is %s; expected evdoc's own regular file (remove it; .evdoc/ is not part of a repository)", path, describe(fi))
	}
	return f, nil
}

// describe says what a refused lock file is.
func describe(fi os.FileInfo) string {
	switch m := fi.Mode(); {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&(os.ModeDevice|os.ModeCharDevice) != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return fmt.Sprintf("a file with %d hard links", links(fi))
	}
	return "not a regular file"
}

// readHolder returns the description the holder wrote, or "".
func readHolder(f *os.File) string {
	b := make([]byte, 513)
	n, _ := f.ReadAt(b, 0)
	if n > 512 {
		return ""
	}
	return strings.TrimSpace(string(b[:n]))
}

// Unlock releases the lock. The lock file itself stays: removing it would
// let a third run lock a new file while a second still waits on the old.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
