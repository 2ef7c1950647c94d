package outscan

import (
	"bytes"
	"context"
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// earlyPoll is how often, at most, Early looks for files Hugo has
// written: a file is read once two looks at least this far apart found
// the same size and modification time.
const earlyPoll = time.Second

// Early reads the HTML and XML files of a site while Hugo is still
// writing it, on one goroutine (Hugo leaves part of the machine idle),
// so that DirAfter has little left to read once Hugo is done. What it
// read is only a guess that a file is complete: it keeps each file's
// scan with a keyed 64-bit hash (hash/maphash, a seed of the run's
// own) and the size of the bytes it scanned, and DirAfter reads every
// file again to hash it, taking the early scan only when the bytes are
// the same and scanning the file anew otherwise. A file Hugo rewrote,
// was still writing, or removed is therefore read as it is when Hugo
// is done, as Dir reads it.
//
// A nil *Early reads nothing early.
type Early struct {
	dir  string
	seed maphash.Seed
	stop chan struct{}
	done chan struct{}
	once sync.Once

	mu    sync.Mutex
	scans map[string]earlyScan // path → what was read of it

	reused atomic.Int64

	// With fillFrom (StartEarlyFill), files holding claim placeholders
	// are filled in once the formats files (named formatsName) Hugo
	// writes give a Filler: into files of fillDir, which the output
	// check moves into place after Hugo when the file Hugo wrote is
	// still the one filled. Until then they wait in deferred; filled
	// counts the files written.
	fillFrom    func(files []string) Filler
	formatsName string
	filler      Filler
	fillDir     string
	filled      int
	deferred    []string
	formatsRead int // the formats files filler was read from
}

// earlyScan is one file as Early read it.
type earlyScan struct {
	scan fileScan
	sum  uint64
	size int64
	// placeholders: the file holds claim placeholders and was not
	// scanned
	placeholders bool
	// filledPath is the file holding its bytes filled in, scan their
	// scan (sum and size are those of the bytes Hugo wrote)
	filledPath string
}

// StartEarly starts reading the files Hugo writes under dir (which may
// not exist yet) until Stop, DirAfter, or ctx is done.
func StartEarly(ctx context.Context, dir string) *Early {
	return StartEarlyFill(ctx, dir, "", "", nil)
}

// StartEarlyFill is StartEarly on a site whose files with claim
// placeholders the output check fills in (DirFill): once the files
// named formatsName found so far give from a Filler (nil until they
// do), each such file is filled and scanned too, the filled bytes
// written into fillDir (a directory of the caller's, removed by it,
// best on the file system of dir), from where DirFill moves them into
// place.
func StartEarlyFill(ctx context.Context, dir, fillDir, formatsName string, from func(files []string) Filler) *Early {
	e := &Early{dir: dir, seed: maphash.MakeSeed(), stop: make(chan struct{}), done: make(chan struct{}), scans: map[string]earlyScan{},
		fillFrom: from, formatsName: formatsName, fillDir: fillDir}
	if fillDir == "" {
		e.fillFrom = nil
	}
	go func() {
		defer crash.Guard()
		e.run(ctx)
	}()
	return e
}

// Stop stops reading and waits until the file being read is done. It
// may be called more than once, and on nil.
func (e *Early) Stop() {
	if e == nil {
		return
	}
	e.once.Do(func() { close(e.stop) })
	<-e.done
}

// Filler returns the Filler Early filled files with, nil when none.
func (e *Early) Filler() Filler {
	if e == nil {
		return nil
	}
	e.Stop()
	return e.filler
}

// DropFilled forgets the files Early filled in (their Filler is not
// the one the output check fills with).
func (e *Early) DropFilled() {
	if e == nil {
		return
	}
	e.Stop()
	e.mu.Lock()
	defer e.mu.Unlock()
	for p, es := range e.scans {
		if es.filledPath != "" {
			delete(e.scans, p)
		}
	}
}

// Reused returns how many files DirAfter took from what Early read, and
// how many Early had read.
func (e *Early) Reused() (reused, read int) {
	if e == nil {
		return 0, 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return int(e.reused.Load()), len(e.scans)
}

// stamp is what two looks at a file compare.
type stamp struct {
	size int64
	mod  time.Time
}

func (e *Early) stopped(ctx context.Context) bool {
	select {
	case <-e.stop:
		return true
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

func (e *Early) run(ctx context.Context) {
	defer close(e.done)
	l := &looker{dirs: map[string]*dirState{}, pending: map[string]stamp{}, found: map[string]bool{}, formatsName: e.formatsName}
	wait := earlyPoll
	for {
		select {
		case <-e.stop:
			return
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		began := time.Now()
		l.dir(e.dir)
		ready := l.ready()
		// Looking costs a system call or more a directory: it is kept
		// to a fiftieth of the time, however slow a loaded machine
		// makes it.
		wait = max(earlyPoll, 50*time.Since(began))
		if e.fillFrom != nil && len(l.formats) > e.formatsRead {
			// the formats of another language: the files waiting for
			// them are read again
			if f := e.fillFrom(l.formats); f != nil {
				e.formatsRead = len(l.formats)
				e.filler = f
				ready = append(e.deferred, ready...)
				e.deferred = nil
			}
		}
		for _, p := range ready {
			if e.stopped(ctx) {
				return
			}
			if es, err := e.read(p); err == nil && !es.placeholders {
				e.mu.Lock()
				e.scans[p] = es
				e.mu.Unlock()
			}
		}
	}
}

// looker finds the files Hugo has written: it reads a directory again
// only when its modification time changed (a file it misses so is read
// by DirAfter), and a file is ready once two looks found the same size
// and modification time.
type looker struct {
	dirs    map[string]*dirState
	pending map[string]stamp // files not read yet → the last look's stamp
	found   map[string]bool  // every file ever pending
	// formats are the files named formatsName found
	formatsName string
	formats     []string
}

// dirState is a directory as the looker last read it.
type dirState struct {
	mod     time.Time
	subdirs []string
}

// unseen is the stamp of a file found but not looked at yet.
var unseen = stamp{size: -1}

// dir looks at directory p and the directories under it.
func (l *looker) dir(p string) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		delete(l.dirs, p)
		return
	}
	ds := l.dirs[p]
	if ds == nil || !fi.ModTime().Equal(ds.mod) {
		entries, err := os.ReadDir(p)
		if err != nil {
			return
		}
		ds = &dirState{mod: fi.ModTime()}
		for _, d := range entries {
			q := filepath.Join(p, d.Name())
			ext := strings.ToLower(filepath.Ext(q))
			switch {
			case d.IsDir():
				ds.subdirs = append(ds.subdirs, q)
			case !l.found[q] && d.Type().IsRegular() && (ext == ".html" || ext == ".htm" || ext == ".xml"):
				l.found[q] = true
				l.pending[q] = unseen
			case !l.found[q] && d.Type().IsRegular() && l.formatsName != "" && d.Name() == l.formatsName:
				l.found[q] = true
				l.formats = append(l.formats, q)
			}
		}
		l.dirs[p] = ds
	}
	for _, q := range ds.subdirs {
		l.dir(q)
	}
}

// ready returns the pending files whose size and modification time are
// those of the last look, and forgets them.
func (l *looker) ready() []string {
	var out []string
	for p, prev := range l.pending {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			delete(l.pending, p)
			continue
		}
		st := stamp{fi.Size(), fi.ModTime()}
		if prev == st {
			out = append(out, p)
			delete(l.pending, p)
			continue
		}
		l.pending[p] = st
	}
	return out
}

// read scans file p and hashes the bytes it scanned. A file holding a
// claim placeholder (evdoc build's claim slots: "evdoc-c d=") is not
// scanned: the output check reads it as filled in after Hugo.
func (e *Early) read(p string) (earlyScan, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return earlyScan{}, err
	}
	if bytes.Contains(b, []byte("evdoc-c d=")) {
		if e.filler == nil {
			if e.fillFrom != nil {
				e.deferred = append(e.deferred, p)
			}
			return earlyScan{placeholders: true}, nil
		}
		rel, _ := filepath.Rel(e.dir, p)
		out, _, err := e.filler.Fill(filepath.ToSlash(rel), b)
		if err != nil {
			// a language whose formats Hugo has not written yet, or an
			// error the output check reports
			e.deferred = append(e.deferred, p)
			return earlyScan{placeholders: true}, nil
		}
		res, err := scanReader(bytes.NewReader(out))
		if err != nil {
			return earlyScan{}, err
		}
		e.filled++
		fp := filepath.Join(e.fillDir, strconv.Itoa(e.filled))
		if err := os.WriteFile(fp, out, 0o644); err != nil {
			return earlyScan{placeholders: true}, nil
		}
		return earlyScan{scan: res, sum: maphash.Bytes(e.seed, b), size: int64(len(b)), filledPath: fp}, nil
	}
	res, err := scanReader(bytes.NewReader(b))
	if err != nil {
		return earlyScan{}, err
	}
	return earlyScan{scan: res, sum: maphash.Bytes(e.seed, b), size: int64(len(b))}, nil
}

// scanFile is the package's scanFile, taking the early scan of p when
// the file's bytes are those it read.
func (e *Early) scanFile(p string) (fileScan, error) {
	if e == nil {
		return scanFile(p)
	}
	e.mu.Lock()
	es, ok := e.scans[p]
	e.mu.Unlock()
	if ok {
		if sum, size, err := e.hash(p); err == nil && sum == es.sum && size == es.size {
			e.reused.Add(1)
			return es.scan, nil
		}
	}
	return scanFile(p)
}

// hash returns the keyed hash of file p's bytes and their number.
func (e *Early) hash(p string) (uint64, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var h maphash.Hash
	h.SetSeed(e.seed)
	n, err := io.Copy(&h, f)
	return h.Sum64(), n, err
}

// fillFile fills output file p (under dir) in place and returns its
// bytes as filled.
func fillFile(dir, p string, fill Filler) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	rel, _ := filepath.Rel(dir, p)
	out, changed, err := fill.Fill(filepath.ToSlash(rel), b)
	if err != nil || !changed {
		return b, err
	}
	return out, os.WriteFile(p, out, 0o644)
}

// fillScan is scanFile on file p (under dir) filled by fill: a file the
// fill changed is scanned as filled; one it left as it was is taken
// from the early scan when its bytes are the ones it read.
func (e *Early) fillScan(dir, p string, fill Filler) (fileScan, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return fileScan{}, err
	}
	if e != nil {
		// filled in while Hugo ran, from the bytes Hugo wrote
		e.mu.Lock()
		es, ok := e.scans[p]
		e.mu.Unlock()
		if ok && es.filledPath != "" && es.size == int64(len(b)) && maphash.Bytes(e.seed, b) == es.sum {
			// the file keeps the mode Hugo gave it
			if fi, err := os.Stat(p); err == nil && os.Chmod(es.filledPath, fi.Mode().Perm()) == nil && os.Rename(es.filledPath, p) == nil {
				e.reused.Add(1)
				return es.scan, nil
			}
		}
	}
	rel, _ := filepath.Rel(dir, p)
	out, changed, err := fill.Fill(filepath.ToSlash(rel), b)
	if err != nil {
		return fileScan{}, fillError{err}
	}
	if changed {
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return fileScan{}, err
		}
		return scanReader(bytes.NewReader(out))
	}
	if e != nil {
		e.mu.Lock()
		es, ok := e.scans[p]
		e.mu.Unlock()
		if ok && es.size == int64(len(b)) && maphash.Bytes(e.seed, b) == es.sum {
			e.reused.Add(1)
			return es.scan, nil
		}
	}
	return scanReader(bytes.NewReader(b))
}

// fillError is an error of Filler.Fill, which names its file itself.
type fillError struct{ error }

func (e fillError) Unwrap() error { return e.error }
