package serve

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// hugoOwned are the names, at the top of the served directory, that
// Hugo's server writes there itself: sync leaves them alone.
var hugoOwned = []string{".hugo_build.lock", "resources"}

// syncTree makes the regular files under to equal those under from:
// a file whose bytes differ is replaced (written beside it, then renamed
// over it, so Hugo's watcher never reads half a file), a file only in
// to is removed, with the directories it leaves empty. A file whose
// bytes are the same is not touched, so Hugo rebuilds only what changed.
// It returns the number of files written and removed.
//
// Every file is compared first and the changed ones are written after,
// in one burst, data/ first: Hugo's watcher batches the events of a
// short window, so one save is one rebuild and one live reload. Written
// as they were met (content/ before data/, with every other file read in
// between) they fell into two rebuilds half a second apart, and a page
// reloading after the first missed the second's reload: the edited page
// showed without the banner naming its new error. With data/ first, a
// page that reloads once already has the banner.
//
// The bytes of the changed files are held until they are written.
//
// A file of to that inPlace names (a page of a content directory, see
// server.pageFile) and that exists is written in place instead: Hugo
// reads a file that appears by a rename as an added page, and for an
// added page it marks up to ten pages of its section changed, which its
// server then renders again at this rebuild and, being in its recently
// touched list, at every rebuild after (13 pages instead of one on the
// benchmark site: a rebuild of several seconds). Written in place, the
// page is one changed page. A rebuild that starts between the truncation
// and the write (Hugo's watcher delivers events every half second, the
// write takes microseconds) reads part of the page, and the write's own
// event rebuilds it again at the next tick.
func syncTree(from, to string, inPlace func(rel string) bool) (written, removed int, err error) {
	return syncFiles(from, to, true, inPlace, nil)
}

// syncFiles is syncTree, which removes the files only in to when prune
// is set; without prune it writes the files of from that differ and
// leaves every other file of to as it is. before, when set, is called
// with the slash paths of the files to write just before the burst of
// writes when there is one (server.beforeBurst: away from Hugo's watcher
// tick), and the function it returns, when not nil, after the burst.
func syncFiles(from, to string, prune bool, inPlace func(rel string) bool, before func(rels []string) (after func())) (written, removed int, err error) {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return 0, 0, err
	}
	want := map[string]bool{}
	type change struct {
		rel     string
		dst     string
		b       []byte
		inPlace bool
	}
	var changes []change
	err = filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(from, p)
		want[rel] = true
		b, err := safefile.ReadPath(p, safefile.DefaultMaxSize)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if old, err := safefile.ReadPath(dst, int64(len(b))); err == nil && bytes.Equal(old, b) {
			return nil
		}
		c := change{rel: filepath.ToSlash(rel), dst: dst, b: b}
		if inPlace != nil && inPlace(filepath.ToSlash(rel)) {
			fi, err := os.Lstat(dst)
			c.inPlace = err == nil && fi.Mode().IsRegular()
		}
		changes = append(changes, c)
		return nil
	})
	if err != nil {
		return written, removed, err
	}
	data := filepath.Join(to, "data") + string(filepath.Separator)
	slices.SortStableFunc(changes, func(a, b change) int {
		ad, bd := strings.HasPrefix(a.dst, data), strings.HasPrefix(b.dst, data)
		switch {
		case ad && !bd:
			return -1
		case bd && !ad:
			return 1
		}
		return 0
	})
	// Every file renamed over is written beside its place first, so the
	// burst Hugo's watcher sees is the renames and the writes in place
	// alone, in the order above: written one after another, a watcher
	// tick falling between two files (a loaded machine holds the writer
	// for long) made two rebuilds of one edit, the banner in the first
	// and its page in the second.
	tmps := make([]string, len(changes))
	defer func() {
		for _, tmp := range tmps {
			if tmp != "" {
				os.Remove(tmp)
			}
		}
	}()
	for i, c := range changes {
		if !c.inPlace {
			if tmps[i], err = writeBeside(c.dst, c.b); err != nil {
				return written, removed, err
			}
		}
	}
	var after func()
	if before != nil && len(changes) > 0 {
		rels := make([]string, len(changes))
		for i, c := range changes {
			rels[i] = c.rel
		}
		after = before(rels)
	}
	for i, c := range changes {
		if c.inPlace {
			err = writeInPlace(c.dst, c.b)
		} else if err = os.Rename(tmps[i], c.dst); err == nil {
			tmps[i] = ""
		}
		if err != nil {
			return written, removed, err
		}
		written++
	}
	if after != nil {
		after()
	}
	if !prune {
		return written, 0, nil
	}
	var dirs []string
	err = filepath.WalkDir(to, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(to, p)
		if rel == "." {
			return nil
		}
		if top, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); slices.Contains(hugoOwned, top) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		if !want[rel] {
			if err := os.Remove(p); err != nil {
				return err
			}
			removed++
		}
		return nil
	})
	// Deepest first: a directory emptied of files, then its parents.
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // fails, as it should, when not empty
	}
	return written, removed, err
}

// writeReplace writes b to p through a temporary file in p's directory
// renamed over p.
func writeReplace(p string, b []byte) error {
	tmp, err := writeBeside(p, b)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeBeside writes b into a new temporary file in p's directory and
// returns its path, for a rename over p.
func writeBeside(p string, b []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".evdoc-sync-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// writeInPlace writes b over the regular file p, which keeps its inode:
// a watcher sees the file written, not created (see syncTree).
func writeInPlace(p string, b []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// removedPage reports whether syncing from into to will remove a page
// file: a Markdown file under to (in any content directory) that from
// lacks.
func removedPage(from, to string) bool {
	found := false
	_ = filepath.WalkDir(to, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(to, p)
		if d.IsDir() {
			if slices.Contains(hugoOwned, rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".md") {
			if _, err := os.Lstat(filepath.Join(from, rel)); err != nil {
				found = true
			}
		}
		return nil
	})
	return found
}
