package serve

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestScratch: a staging is written on the memory file system only once
// the size of a staging is known and the file system has room for two
// and the margin; a staging that failed there for want of room turns it
// off for the run; remove takes the run's directory away.
func TestScratch(t *testing.T) {
	dir, mem := t.TempDir(), t.TempDir()
	var free int64 = 1 << 40
	tmpfs := true
	c := &scratch{dir: dir, root: mem, free: func(p string) (int64, bool) {
		if p != mem {
			t.Errorf("free asked of %s, want %s", p, mem)
		}
		return free, tmpfs
	}}
	in := func(prefix string) (string, bool) {
		t.Helper()
		d, onMem, err := c.temp(prefix)
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(d)
		return filepath.Dir(d), onMem
	}
	if got, onMem := in("next-"); got != dir || onMem {
		t.Errorf("first staging in %s (on memory %v), want %s: its size is not known", got, onMem, dir)
	}
	write(t, filepath.Join(dir, "staged/a"), strings.Repeat("x", 1000))
	write(t, filepath.Join(dir, "staged/b/c"), strings.Repeat("y", 24))
	c.measure(filepath.Join(dir, "staged"))
	if c.size != 1024 {
		t.Fatalf("measured %d bytes, want 1024", c.size)
	}
	got, onMem := in("next-")
	if filepath.Dir(got) != mem || !onMem || !strings.HasPrefix(filepath.Base(got), scratchPrefix) {
		t.Errorf("second staging in %s (on memory %v), want a %s* directory of %s", got, onMem, scratchPrefix, mem)
	}
	if b, err := os.ReadFile(filepath.Join(dir, scratchRecord)); err != nil || strings.TrimSpace(string(b)) != got {
		t.Errorf("record %q (%v), want %s", b, err, got)
	}
	free = 2*1024 + scratchMargin - 1
	if got, onMem := in("edit-"); got != dir || onMem {
		t.Errorf("with too little room: in %s (on memory %v), want %s", got, onMem, dir)
	}
	if c.failed(false) {
		t.Error("a failure in serve's directory turned the memory file system off")
	}
	free = 1 << 40
	if c.failed(true) {
		t.Error("a failure on a memory file system with room turned it off")
	}
	if _, onMem := in("next-"); !onMem {
		t.Error("not on memory after a failure with room")
	}
	free = 0
	if !c.failed(true) {
		t.Error("a failure on a full memory file system did not turn it off")
	}
	free = 1 << 40
	if got, onMem := in("next-"); got != dir || onMem {
		t.Errorf("after the memory file system filled up: in %s (on memory %v), want %s", got, onMem, dir)
	}
	c.remove()
	if ents, _ := os.ReadDir(mem); len(ents) != 0 {
		t.Errorf("remove left %v", ents)
	}
	// Not a tmpfs, or no root: serve's directory.
	for _, c := range []*scratch{{dir: dir, root: mem, size: 1, free: func(string) (int64, bool) { return 1 << 40, false }}, {dir: dir, size: 1}} {
		d, onMem, err := c.temp("next-")
		if err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(d)
		if filepath.Dir(d) != dir || onMem {
			t.Errorf("root %q: in %s (on memory %v), want %s", c.root, d, onMem, dir)
		}
	}
}

// TestStageOnScratch: once the first staging measured the project, the
// next stagings and edits are written on the memory file system and
// synced into the served directory as they are from serve's own; the
// scratch copies are removed after each.
func TestStageOnScratch(t *testing.T) {
	root := txtartest.WriteFile(t, "testdata/stageedit.txtar")
	ctx := context.Background()
	rc := &IncrementalRechecker{Root: root, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	st, err := rc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, mem := t.TempDir(), t.TempDir()
	srv := &server{opt: Options{Root: root, Out: io.Discard, Log: io.Discard}, rc: rc, dir: dir, served: filepath.Join(dir, "site"), figures: &project.FigureCache{}, state: st,
		scratch: scratch{dir: dir, root: mem, free: func(string) (int64, bool) { return 1 << 40, true }}}
	if err := srv.stage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if srv.scratch.mem != "" || srv.scratch.size == 0 {
		t.Fatalf("after the first staging: on memory %q, size %d; want serve's directory and a size", srv.scratch.mem, srv.scratch.size)
	}
	p := filepath.Join(root, "content", "ko", "docs", "p.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	write(t, p, strings.Replace(string(b), "대략 [12]", "대략 [13]", 1))
	srv.change(ctx, []string{"content/ko/docs/p.md"})
	if srv.scratch.mem == "" || filepath.Dir(srv.scratch.mem) != mem {
		t.Fatalf("the edit was not staged on the memory file system (%q)", srv.scratch.mem)
	}
	if ents, _ := os.ReadDir(srv.scratch.mem); len(ents) != 0 {
		t.Errorf("scratch copies left: %v", ents)
	}
	got, err := os.ReadFile(filepath.Join(srv.served, "content", "ko", "docs", "p.md"))
	if err != nil || !strings.Contains(string(got), "13") {
		t.Errorf("the served page lacks the edit (%v):\n%s", err, got)
	}
	// A staging written in serve's directory gives the same served files.
	ref := &server{opt: srv.opt, rc: rc, dir: t.TempDir(), figures: &project.FigureCache{}, state: srv.state}
	ref.served = filepath.Join(ref.dir, "site")
	if err := ref.stage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"content/ko/docs/p.md", "data/evdoc/claims.json", BannerFile} {
		a, errA := os.ReadFile(filepath.Join(srv.served, rel))
		b, errB := os.ReadFile(filepath.Join(ref.served, rel))
		if errA != nil || errB != nil || string(a) != string(b) && rel != BannerFile {
			t.Errorf("%s differs between the stagings on memory and on disk (%v, %v)", rel, errA, errB)
		}
	}
}

// TestCleanStaleScratch: the directory on the memory file system that a
// killed run's record names goes with the run's directory; a record
// naming anything else is not followed.
func TestCleanStaleScratch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process records need Linux's /proc")
	}
	if _, ok := memFree(memFS); !ok {
		t.Skipf("%s is no tmpfs here", memFS)
	}
	mine, err := os.MkdirTemp(memFS, scratchPrefix)
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(mine)
	write(t, filepath.Join(mine, "next-1/x"), "")
	other, err := os.MkdirTemp(memFS, "evdoc-other-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(other)
	keep := t.TempDir()
	work := t.TempDir()
	write(t, filepath.Join(work, "serve-1/pid"), "garbage\n")
	write(t, filepath.Join(work, "serve-1", scratchRecord), mine+"\n")
	write(t, filepath.Join(work, "serve-2/pid"), "garbage\n")
	write(t, filepath.Join(work, "serve-2", scratchRecord), other+"\n")
	write(t, filepath.Join(work, "serve-3/pid"), "garbage\n")
	write(t, filepath.Join(work, "serve-3", scratchRecord), filepath.Join(keep, scratchPrefix+"x")+"\n")
	write(t, filepath.Join(keep, scratchPrefix+"x", "y"), "")
	cleanStale(work, io.Discard)
	for p, want := range map[string]bool{mine: false, other: true, filepath.Join(keep, scratchPrefix+"x", "y"): true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", p, err == nil, want)
		}
	}
}
