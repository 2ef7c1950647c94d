package serve

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Each staging writes the whole project into a new directory, which sync
// reads back and compares with the served one, and which is removed
// after: 55 MB in 1,169 files at the 500-page benchmark site. On a
// memory file system (tmpfs) that staging took 0.63–0.70 s against
// 0.97 s in serve's directory under .evdoc (ext4; TestScratchStage's
// measurement, 2026-12-07), CPU that otherwise competes with Hugo's
// rebuild and with the next save's re-check. So serve stages in a
// directory of its own on memFS when that is a tmpfs with room for two
// stagings and a margin, and in its own directory otherwise (the first
// staging, whose size is not known yet; another system; a full tmpfs).
// Only the scratch copies go there: the served directory, which Hugo
// watches, stays in serve's directory.
const memFS = "/dev/shm"

// scratchPrefix names serve's directories on memFS; scratchRecord, in
// serve's directory, names the one of that run, so that cleanStale
// removes it with the run's directory when the run was killed.
const (
	scratchPrefix = "evdoc-serve-"
	scratchRecord = "scratch"
)

// scratchMargin is the room memFS keeps beyond two stagings.
const scratchMargin = 64 << 20

// scratch chooses where a staging is written.
type scratch struct {
	// dir is serve's own directory (the fallback); mem the run's
	// directory on memFS, "" until made.
	dir, mem string
	// off is set once memFS cannot be used (not a tmpfs, not writable, a
	// staging there failed for want of room).
	off bool
	// size is the bytes of the last whole staging; 0 before one.
	size int64
	// free reports the bytes free on a tmpfs at a path, and false when
	// it is no tmpfs (memFree; tests replace it).
	free func(string) (int64, bool)
	// root is memFS (Run sets it; tests give another); "": stagings are
	// written in dir alone.
	root string
}

// temp makes a new directory named prefix* to stage into, and reports
// whether it is on memFS.
func (c *scratch) temp(prefix string) (string, bool, error) {
	if base := c.memDir(); base != "" {
		if d, err := os.MkdirTemp(base, prefix); err == nil {
			return d, true, nil
		}
		c.off = true
	}
	d, err := os.MkdirTemp(c.dir, prefix)
	return d, false, err
}

// memDir returns the run's directory on memFS when a staging fits there,
// else "".
func (c *scratch) memDir() string {
	if c.root == "" || c.off || c.size == 0 || !c.roomy() {
		return ""
	}
	if c.mem != "" {
		return c.mem
	}
	d, err := os.MkdirTemp(c.root, scratchPrefix)
	if err != nil {
		c.off = true
		return ""
	}
	if err := os.WriteFile(filepath.Join(c.dir, scratchRecord), []byte(d+"\n"), 0o644); err != nil {
		os.RemoveAll(d)
		c.off = true
		return ""
	}
	c.mem = d
	return d
}

// roomy reports whether memFS is a tmpfs with room for two stagings of
// the last size and the margin.
func (c *scratch) roomy() bool {
	free := c.free
	if free == nil {
		free = memFree
	}
	n, ok := free(c.root)
	return ok && n >= 2*c.size+scratchMargin
}

// failed notes that a staging into a directory of temp failed: when it
// was on memFS and memFS has no room left for it, memFS is not used any
// more and failed reports true (stage again in serve's directory).
func (c *scratch) failed(onMem bool) bool {
	if !onMem || c.root == "" || c.roomy() {
		return false
	}
	c.off = true
	return true
}

// measure notes the size of the staging in dir.
func (c *scratch) measure(dir string) {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	c.size = n
}

// remove removes the run's directory on memFS.
func (c *scratch) remove() {
	if c.mem != "" {
		os.RemoveAll(c.mem)
		c.mem = ""
	}
}

// removeScratch removes the directory on memFS that the record in a
// dead run's directory dir names: only a directory of memFS named as
// serve names its own.
func removeScratch(dir string) {
	b, err := safefile.ReadFile(dir, scratchRecord, 4096)
	if err != nil {
		return
	}
	p := strings.TrimSpace(string(b))
	if filepath.Dir(p) != memFS || !strings.HasPrefix(filepath.Base(p), scratchPrefix) {
		return
	}
	os.RemoveAll(p)
}
