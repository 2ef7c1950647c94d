package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/fsnotify/fsnotify"
)

// watchedDirs are the project directories the watcher follows, with every
// directory below them (fsnotify watches one directory at a time): what
// evdoc checks and what Hugo reads. Files at the root are followed too
// (the configuration files).
var watchedDirs = []string{"content", project.EvidenceDir, project.FiguresDir, "layouts", "static", "i18n", "themes", "data", "assets", "archetypes", "config"}

// watcher follows the project's files with fsnotify.
type watcher struct {
	root string
	fs   *fsnotify.Watcher
	dirs []string // top directories followed, relative to root
	// unsent is set while files changed that no batch sent yet.
	unsent atomic.Bool
}

// newWatcher follows root and, recursively, its watchedDirs and its
// languages' content directories.
func newWatcher(root string) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the project: %v", err)
	}
	w := &watcher{root: root, fs: fw, dirs: slices.Clone(watchedDirs)}
	if cfg, err := hugoconf.LoadConfig(root); err == nil {
		for _, l := range cfg.Ordered() {
			top, _, _ := strings.Cut(strings.Trim(filepath.ToSlash(l.ContentDir), "/"), "/")
			if top != "" && !slices.Contains(w.dirs, top) {
				w.dirs = append(w.dirs, top)
			}
		}
	}
	if err := fw.Add(root); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watching %s: %v", root, err)
	}
	for _, d := range w.dirs {
		if _, err := w.addTree(filepath.Join(root, d)); err != nil {
			fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// Close stops watching.
func (w *watcher) Close() error { return w.fs.Close() }

// addTree watches dir and every directory below it, and returns the
// regular files found there (slash paths relative to the root).
func (w *watcher) addTree(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			if err := w.fs.Add(p); err != nil {
				return fmt.Errorf("watching %s: %v", p, err)
			}
			return nil
		}
		if d.Type().IsRegular() {
			if rel, ok := w.rel(p); ok {
				files = append(files, rel)
			}
		}
		return nil
	})
	return files, err
}

// rel returns p relative to the root, slash-separated, and whether it is
// inside a followed directory or at the root.
func (w *watcher) rel(p string) (string, bool) {
	r, err := filepath.Rel(w.root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	r = filepath.ToSlash(r)
	top, _, nested := strings.Cut(r, "/")
	return r, !nested || slices.Contains(w.dirs, top)
}

// batches delivers the changed files in bursts: after an event it waits
// until no event came for quiet (or, in a burst that goes on, until
// burstCap(quiet) passed since its first event) and sends the files
// changed meanwhile, sorted and each once. A save is a few events
// microseconds apart (an editor's write, rename and chmod), so a short
// quiet time ends its burst without a long fixed wait. While the receiver
// is still busy with the previous batch, the events that come are added
// to the batch waiting to be sent, and a new event restarts its quiet
// time: the receiver gets the files of every save since its last batch,
// at once, and none while its last event is younger than quiet (a file
// still being written). A file written in place that is empty when the
// burst is quiet is taken as truncated by a writer that has not written
// yet: the batch waits another quiet time, up to the burst's cap. The
// channel is closed when ctx is done or the watcher fails.
func (w *watcher) batches(ctx context.Context, quiet time.Duration, log io.Writer) <-chan []string {
	out := make(chan []string)
	go func() {
		defer crash.Guard()
		defer close(out)
		pending := map[string]bool{}
		written := map[string]bool{} // by file: its last event wrote it in place
		var first time.Time
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		var send chan<- []string // out once the burst is quiet, nil before
		var batch []string
		restart := func() {
			send = nil
			if first.IsZero() {
				first = time.Now()
			}
			wait := quiet
			if rest := burstCap(quiet) - time.Since(first); rest < wait {
				wait = max(rest, 0)
			}
			timer.Reset(wait)
		}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.fs.Events:
				if !ok {
					return
				}
				files := w.event(ev, log)
				if len(files) == 0 {
					continue
				}
				for _, f := range files {
					pending[f] = true
					written[f] = ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Create)
				}
				w.unsent.Store(true)
				restart()
			case err, ok := <-w.fs.Errors:
				if !ok {
					return
				}
				fmt.Fprintf(log, "evdoc: watching: %v\n", err)
				if errors.Is(err, fsnotify.ErrEventOverflow) {
					pending[hugoconf.ConfigFile] = true // events were lost: check everything
					restart()
				}
			case <-timer.C:
				// A path created and gone again within the window is
				// reported too: it may have existed before (a page
				// rewritten by rename, as sed -i does, then deleted),
				// and reading a page that is gone drops it.
				if len(pending) == 0 {
					continue
				}
				if w.truncated(written) && time.Since(first) < burstCap(quiet) {
					// A file written in place is empty: its writer
					// truncated it and has not written yet (a loaded
					// machine can hold it longer than quiet). Wait
					// another quiet time, up to the burst's cap.
					timer.Reset(min(quiet, max(burstCap(quiet)-time.Since(first), 0)))
					continue
				}
				batch, send = sortedKeys(pending), out
			case send <- batch:
				w.unsent.Store(false)
				pending = map[string]bool{}
				written = map[string]bool{}
				first = time.Time{}
				send, batch = nil, nil
			}
		}
	}()
	return out
}

// truncated reports whether one of the files last written in place
// (written[f]) is empty now.
func (w *watcher) truncated(written map[string]bool) bool {
	for f, ok := range written {
		if !ok {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			return true
		}
	}
	return false
}

// burstCap is how long a burst of events that goes on is let run before
// its batch is sent: ten quiet times, and at least half a second.
func burstCap(quiet time.Duration) time.Duration {
	return max(10*quiet, 500*time.Millisecond)
}

// event returns the project files an fsnotify event changed: its file,
// or, for a directory created or moved in, every file below it (now
// watched too).
func (w *watcher) event(ev fsnotify.Event, log io.Writer) []string {
	if ev.Op == fsnotify.Chmod {
		return nil
	}
	rel, ok := w.rel(ev.Name)
	if !ok || rel == "." {
		return nil
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			top, _, _ := strings.Cut(rel, "/")
			if !slices.Contains(w.dirs, top) {
				return nil // a directory at the root evdoc does not read
			}
			files, err := w.addTree(ev.Name)
			if err != nil {
				fmt.Fprintf(log, "evdoc: %v\n", err)
			}
			return files
		}
	}
	return []string{rel}
}
