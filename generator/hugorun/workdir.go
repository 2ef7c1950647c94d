package hugorun

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/internal/lock"
	"github.com/evdoc-lab/evdoc/internal/procgroup"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// LockFile is the project lock, relative to Root: build and fix hold it
// while they run (see LockProject).
const LockFile = hugoconf.WorkDirName + "/lock"

// TempDir returns the directory for the temporary files of writes into
// the project at root (fix's new pages): inside evdoc's work directory, so
// a run killed mid-write leaves nothing in content/. Only a holder of the
// project lock may empty it.
func TempDir(root string) string { return filepath.Join(root, hugoconf.WorkDirName, "tmp") }

// HugoGroupFile (in the work directory, or a serve run's directory)
// records the process group of the running Hugo and the
// stage it builds, so a run killed by SIGKILL can have its Hugo reaped by
// the next run.
const HugoGroupFile = "hugo.pgid"

// LockProject takes the exclusive lock of the project at root that build
// and fix hold while they write (the staged site, public/, pages), so two
// runs never interleave. It waits as opt says; the lock is released by
// Unlock or when the process exits, however it exits.
func LockProject(ctx context.Context, root string, opt lock.Options) (*lock.Lock, error) {
	work := filepath.Join(root, hugoconf.WorkDirName)
	if err := EnsureRealDir(work); err != nil {
		return nil, err
	}
	return lock.Acquire(ctx, filepath.Join(root, LockFile), opt)
}

// WriteGroupRecord records in file the process group Hugo runs in — its
// leader's identity (procgroup.Ident) — and marker, the run's own stage
// directory that Hugo's command line names, for ReapGroupRecord.
func WriteGroupRecord(file string, leader procgroup.Ident, marker string) error {
	return os.WriteFile(file, []byte(leader.String()+" "+marker+"\n"), 0o644)
}

// ReapGroupRecord stops what is left of the Hugo process group recorded
// in dir's file hugo.pgid by a run that was killed, and removes that file. Nothing is signalled
// unless the record names a stage the caller owns (own(marker): a stage
// directory of this project's work directory) and procgroup.Reap finds
// processes of that very group (this boot and pid namespace, this user,
// started with the leader, the marker on their command line): a record
// committed to the repository or planted there stops nothing. It returns
// how many processes it stopped.
func ReapGroupRecord(dir string, own func(marker string) bool) int {
	b, err := safefile.ReadFile(dir, HugoGroupFile, 4096)
	_ = os.Remove(filepath.Join(dir, HugoGroupFile))
	if err != nil {
		return 0
	}
	leader, marker, err := procgroup.ParseIdent(string(b))
	if err != nil || !filepath.IsAbs(marker) || filepath.Clean(marker) != marker || !own(marker) {
		return 0
	}
	return procgroup.Reap(leader, marker)
}

// WorkDir returns evdoc's work directory .evdoc of the project at root
// (absolute when root is), created when missing; a symbolic link or a
// file there is an error (evdoc writes and deletes inside it).
func WorkDir(root string) (string, error) {
	work := filepath.Join(root, hugoconf.WorkDirName)
	return work, EnsureRealDir(work)
}

// EnsureRealDir creates dir (evdoc's work directory) when missing and
// refuses a symbolic link or a non-directory there: evdoc deletes inside
// it. What a repository planted in it is refused too (CheckWorkEntries).
func EnsureRealDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsDir() {
		return fmt.Errorf("%s is not a directory (a symbolic link or a file); expected evdoc's own work directory — remove it", dir)
	}
	return CheckWorkEntries(dir)
}

// workSharedDirs are the directories of the work directory that evdoc
// and Hugo write into across runs: fix's temporary files and Hugo's file
// caches (HUGO_CACHEDIR).
var workSharedDirs = []string{"tmp", "hugo-cache"}

// CheckWorkEntries refuses a work directory (committed, or planted by the
// repository) whose entries lead elsewhere: every entry of it must be a
// directory or a regular file, not a symbolic link (nor a FIFO, socket
// or device), and so must everything under the directories evdoc and
// Hugo write into across runs (workSharedDirs), so nothing written there
// lands outside the project. Its error names the entry.
func CheckWorkEntries(work string) error {
	entries, err := os.ReadDir(work)
	if err != nil {
		return err
	}
	bad := func(p string, m fs.FileMode) error {
		if m.IsDir() || m.IsRegular() {
			return nil
		}
		what := "a symbolic link"
		if m&fs.ModeSymlink == 0 {
			what = "not a regular file or directory"
		}
		return fmt.Errorf("%s is %s; expected only evdoc's own files in its work directory %s — remove it", p, what, work)
	}
	for _, e := range entries {
		p := filepath.Join(work, e.Name())
		if err := bad(p, e.Type()); err != nil {
			return err
		}
		if !e.IsDir() || !slices.Contains(workSharedDirs, e.Name()) {
			continue
		}
		err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return bad(q, d.Type())
		})
		if err != nil {
			return err
		}
	}
	return nil
}
