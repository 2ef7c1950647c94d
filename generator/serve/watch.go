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

// batches delivers the changed files in bursts: after the first event it
// waits until no event came for quiet (or 10·quiet passed) and sends the
// files changed meanwhile, sorted and each once. The channel is closed
// when ctx is done or the watcher fails.
func (w *watcher) batches(ctx context.Context, quiet time.Duration, log io.Writer) <-chan []string {
	out := make(chan []string)
	go func() {
		defer crash.Guard()
		defer close(out)
		pending := map[string]bool{}
		var first time.Time
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.fs.Events:
				if !ok {
					return
				}
				for _, f := range w.event(ev, log) {
					pending[f] = true
				}
				if len(pending) == 0 {
					continue
				}
				if first.IsZero() {
					first = time.Now()
				}
				wait := quiet
				if rest := 10*quiet - time.Since(first); rest < wait {
					wait = max(rest, 0)
				}
				timer.Reset(wait)
			case err, ok := <-w.fs.Errors:
				if !ok {
					return
				}
				fmt.Fprintf(log, "evdoc: watching: %v\n", err)
				if errors.Is(err, fsnotify.ErrEventOverflow) {
					pending[hugoconf.ConfigFile] = true // events were lost: check everything
					timer.Reset(quiet)
				}
			case <-timer.C:
				// A path created and gone again within the window is
				// reported too: it may have existed before (a page
				// rewritten by rename, as sed -i does, then deleted),
				// and reading a page that is gone drops it.
				b := sortedKeys(pending)
				pending = map[string]bool{}
				first = time.Time{}
				if len(b) == 0 {
					continue
				}
				select {
				case out <- b:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
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
