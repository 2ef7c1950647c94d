package serve

import (
	"context"
	"fmt"
	"github.com/fsnotify/fsnotify"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/procgroup"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSyncTree(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	write(t, filepath.Join(from, "a.txt"), "same")
	write(t, filepath.Join(from, "d/b.txt"), "new b")
	write(t, filepath.Join(from, "d/c.txt"), "added")
	write(t, filepath.Join(to, "a.txt"), "same")
	write(t, filepath.Join(to, "d/b.txt"), "old b")
	write(t, filepath.Join(to, "gone/x.txt"), "stale")
	write(t, filepath.Join(to, ".hugo_build.lock"), "")
	write(t, filepath.Join(to, "resources/_gen/img.png"), "cache")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(to, "a.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	written, removed, err := syncTree(from, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	if written != 2 || removed != 1 {
		t.Errorf("written %d, removed %d; want 2 and 1", written, removed)
	}
	for p, want := range map[string]string{"a.txt": "same", "d/b.txt": "new b", "d/c.txt": "added", ".hugo_build.lock": "", "resources/_gen/img.png": "cache"} {
		if b, err := os.ReadFile(filepath.Join(to, p)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", p, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(to, "gone")); !os.IsNotExist(err) {
		t.Errorf("directory emptied by the sync is left: %v", err)
	}
	if fi, _ := os.Stat(filepath.Join(to, "a.txt")); !fi.ModTime().Equal(old) {
		t.Error("an unchanged file was rewritten (Hugo would rebuild for nothing)")
	}
	if m, _ := filepath.Glob(filepath.Join(to, "d", ".evdoc-sync-*")); len(m) > 0 {
		t.Errorf("temporary files left: %q", m)
	}
}

// TestSyncTreeDataFirst: the changed files are written after every file
// was compared, data/ first, so the banner data is in place before the
// content Hugo rebuilds for (see syncTree).
func TestSyncTreeDataFirst(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	for _, p := range []string{"content/ko/a.md", "content/ko/z.md", "data/evdoc/serve.json", "themes/x/layouts/a.html"} {
		write(t, filepath.Join(from, p), "new")
		write(t, filepath.Join(to, p), "old")
	}
	if _, _, err := syncTree(from, to, nil); err != nil {
		t.Fatal(err)
	}
	mtime := func(p string) time.Time {
		fi, err := os.Stat(filepath.Join(to, p))
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	data := mtime("data/evdoc/serve.json")
	for _, p := range []string{"content/ko/a.md", "content/ko/z.md", "themes/x/layouts/a.html"} {
		if mtime(p).Before(data) {
			t.Errorf("%s written before data/evdoc/serve.json", p)
		}
	}
}

// TestSyncTreePagesInPlace: a changed page Hugo already has is written
// over its file, which keeps its inode (Hugo's watcher sees a write, not
// a created file, which Hugo would read as an added page and rebuild ten
// pages of its section for); a new page, and every other changed file
// (data read whole by Hugo), is written beside and renamed over.
func TestSyncTreePagesInPlace(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	for _, p := range []string{"content/ko/a.md", "data/evdoc/claims.json", "layouts/x.html"} {
		write(t, filepath.Join(from, p), "new")
		write(t, filepath.Join(to, p), "older")
	}
	write(t, filepath.Join(from, "content/ko/new.md"), "added")
	before := map[string]os.FileInfo{}
	for _, p := range []string{"content/ko/a.md", "data/evdoc/claims.json", "layouts/x.html"} {
		fi, err := os.Stat(filepath.Join(to, p))
		if err != nil {
			t.Fatal(err)
		}
		before[p] = fi
	}
	inPlace := func(rel string) bool { return strings.HasPrefix(rel, "content/") }
	if _, _, err := syncTree(from, to, inPlace); err != nil {
		t.Fatal(err)
	}
	for p, old := range before {
		fi, err := os.Stat(filepath.Join(to, p))
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(to, p)); string(b) != "new" {
			t.Errorf("%s = %q, want %q", p, b, "new")
		}
		if same, want := os.SameFile(old, fi), inPlace(p); same != want {
			t.Errorf("%s: the same file after the sync: %v, want %v", p, same, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(to, "content/ko/new.md")); err != nil || string(b) != "added" {
		t.Errorf("content/ko/new.md = %q, %v; want %q", b, err, "added")
	}
}

func TestServerContentFile(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/stageedit.txtar")
	st, err := FullRechecker{Root: dir, Check: check.DefaultOptions()}.Recheck(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{state: st}
	for rel, want := range map[string]bool{
		"content/ko/docs/p.md":   true,
		"content/ja/docs/p.md":   true,
		"content/ko/docs/a.png":  true,
		"data/evdoc/claims.json": false,
		"layouts/page.html":      false,
		"contents/ko/p.md":       false,
	} {
		if got := s.contentFile(rel); got != want {
			t.Errorf("contentFile(%q) = %v, want %v", rel, got, want)
		}
	}
	if (&server{}).contentFile("content/ko/docs/p.md") {
		t.Error("contentFile without a state is true")
	}
}

// TestBeforeBurstAssets: a sync that writes only pages (Markdown of a
// content directory) and data leaves the front's held live reloads as
// they are; one that writes anything else (an image of a page bundle, a
// stylesheet, a template) makes the next force refresh reach every
// browser, as what a page shows changed without its bytes.
func TestBeforeBurstAssets(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/stageedit.txtar")
	st, err := FullRechecker{Root: dir, Check: check.DefaultOptions()}.Recheck(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{state: st, front: &front{}}
	for _, tc := range []struct {
		rels   []string
		assets bool
	}{
		{[]string{"content/ko/docs/p.md", "data/evdoc/claims.json", "data/evdoc/serve.json"}, false},
		{[]string{"content/ja/evidence/d/report-md.md"}, false},
		{[]string{"content/ko/docs/p.md", "content/ko/docs/a.png"}, true},
		{[]string{"static/evdoc/site.css"}, true},
		{[]string{"layouts/page.html"}, true},
	} {
		before := s.front.assets.Load()
		s.beforeBurst(tc.rels)
		if got := s.front.assets.Load() != before; got != tc.assets {
			t.Errorf("beforeBurst(%q): assets changed %v, want %v", tc.rels, got, tc.assets)
		}
	}
}

// TestBannerCleanUnchanged: with no findings the banner data has no
// time, so the file is the same bytes at every save of a clean site and
// Hugo sees no data change; with findings it has the time of the check.
func TestBannerCleanUnchanged(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	st, err := FullRechecker{Root: dir, Check: check.DefaultOptions()}.Recheck(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Findings = nil
	write := func(at time.Time) string {
		t.Helper()
		work := t.TempDir()
		s := &server{state: st, checked: at}
		if err := s.writeBanner(work); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(work, filepath.FromSlash(BannerFile)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	if a, b := write(t0), write(t0.Add(time.Minute)); a != b {
		t.Errorf("a clean site's banner data changed with the time:\n%s\nthen\n%s", a, b)
	}
	st.Findings = diag.List{{Pos: diag.Position{File: "content/ja/docs/p.md", Line: 6, Column: 3}, Severity: diag.Warning, Rule: diag.TranslationStale, Message: "stale"}}
	if got := write(t0); !strings.Contains(got, `"checked": "10:00:00"`) {
		t.Errorf("the banner data of a finding has no time of the check:\n%s", got)
	}
}

func TestBanner(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	st, err := FullRechecker{Root: dir, Check: check.DefaultOptions()}.Recheck(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Findings = diag.List{
		{Pos: diag.Position{File: "content/ja/docs/p.md", Line: 6, Column: 3}, Severity: diag.Warning, Rule: diag.TranslationStale, Message: "stale"},
		{Pos: diag.Position{File: "evidence/d3/report.md", Line: 5, Column: 1}, Severity: diag.Note, Rule: diag.EvidenceNumber, Message: "a note"},
	}
	for _, strict := range []bool{false, true} {
		s := &server{opt: Options{Strict: strict}, state: st}
		b := s.banner()
		b.Checked = ""
		want := bannerData{Warnings: 1, Strict: strict, Failing: strict, Findings: []bannerFinding{
			{File: "content/ja/docs/p.md", Line: 6, Col: 3, Severity: "warning", Rule: string(diag.TranslationStale), Message: "stale", Page: "docs/p.md", Lang: "ja"},
		}}
		if !reflect.DeepEqual(b, want) {
			t.Errorf("strict=%v: banner\n%+v\nwant\n%+v", strict, b, want)
		}
	}
	s := &server{state: st, stageErr: os.ErrPermission}
	if b := s.banner(); b.Errors != 1 || !b.Failing || b.Findings[0].Rule != "serve" {
		t.Errorf("a staging failure is not an error in the banner: %+v", b)
	}
}

// TestWatcherBatches: a burst of saves is one batch, each file once; a
// file created and gone again within it is reported too (a page rewritten
// by rename, as sed -i does, and then deleted existed before the burst:
// serve must drop it); files outside the followed directories are not
// reported.
func TestWatcherBatches(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	w, err := newWatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A quiet time well above the gaps between the writes below, even on
	// a loaded machine.
	batches := w.batches(ctx, time.Second, os.Stderr)
	tmp := filepath.Join(dir, "content/ko/docs/.p.md.tmp123")
	write(t, tmp, "x")
	for i := range 3 {
		write(t, filepath.Join(dir, "content/ko/docs/p.md"), "---\ntitle: p\n---\n\n글 "+strconv.Itoa(i)+".\n")
	}
	write(t, filepath.Join(dir, "evidence/d3/report.md"), "## D-3\n")
	write(t, filepath.Join(dir, "content/ko/new/deep/n.md"), "---\ntitle: n\n---\n") // new directories
	write(t, filepath.Join(dir, "notes/x.txt"), "not followed")
	// sed -i on t.md, then rm t.md
	if err := os.Rename(tmp, filepath.Join(dir, "content/ko/docs/t.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "content/ko/docs/t.md")); err != nil {
		t.Fatal(err)
	}
	want := []string{"content/ko/docs/.p.md.tmp123", "content/ko/docs/p.md", "content/ko/docs/t.md", "content/ko/new/deep/n.md", "evidence/d3/report.md"}
	select {
	case b := <-batches:
		if !reflect.DeepEqual(b, want) {
			t.Errorf("batch %q, want %q", b, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no batch for a burst of saves")
	}
	select {
	case b := <-batches:
		t.Fatalf("a second batch %q for one burst", b)
	case <-time.After(1500 * time.Millisecond):
	}
	// A later save is a batch of its own.
	write(t, filepath.Join(dir, "content/ko/new/deep/n.md"), "---\ntitle: n2\n---\n")
	select {
	case b := <-batches:
		if !reflect.DeepEqual(b, []string{"content/ko/new/deep/n.md"}) {
			t.Errorf("batch %q after a save in a new directory", b)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no batch for a save in a directory created while watching")
	}
}

// TestCleanStale: a serve directory whose evdoc is gone is removed; one
// whose evdoc runs is left. A Hugo group record in a dead run's directory
// stops nothing it does not name beyond doubt: a planted record naming a
// bystander's group with the marker "/" (which every command line holds)
// or with the identity of that group's leader but a marker outside the
// directory leaves the bystander running.
func TestCleanStale(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process records need Linux's /proc")
	}
	work := t.TempDir()
	self, err := procgroup.Identify(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	dead := self
	dead.Start++ // this pid, but not this process: a run that is gone
	by := exec.Command("sleep", "60")
	by.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := by.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { by.Process.Kill(); by.Wait() }()
	byID, err := procgroup.Identify(by.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(work, "serve-1/pid"), dead.String()+"\n")
	write(t, filepath.Join(work, "serve-1/site/hugo.toml"), "")
	write(t, filepath.Join(work, "serve-2/pid"), self.String()+"\n")
	write(t, filepath.Join(work, "stage-3/x"), "") // build's, not serve's
	write(t, filepath.Join(work, "serve-4/pid"), "garbage\n")
	write(t, filepath.Join(work, "serve-4/hugo.pgid"), fmt.Sprintf("%d /\n", by.Process.Pid))
	write(t, filepath.Join(work, "serve-5/hugo.pgid"), byID.String()+" /\n")
	write(t, filepath.Join(work, "serve-6/hugo.pgid"), byID.String()+" /usr/bin/sleep\n")
	cleanStale(work, os.Stderr)
	for name, want := range map[string]bool{"serve-1": false, "serve-2": true, "stage-3": true, "serve-4": false, "serve-5": false, "serve-6": false} {
		if _, err := os.Stat(filepath.Join(work, name)); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", name, err == nil, want)
		}
	}
	if !byID.Running() {
		t.Error("cleanStale killed a bystander named by a planted hugo.pgid")
	}
}

// TestRemovedPage: a staging that drops a page's Markdown file from the
// served directory is seen (serve then restarts Hugo's server, which
// would go on serving the page); other removals and changes are not.
func TestRemovedPage(t *testing.T) {
	for _, c := range []struct {
		from, to []string
		want     bool
	}{
		{[]string{"content/ko/a.md"}, []string{"content/ko/a.md", "content/ko/b.md"}, true},
		{[]string{"content/ko/a.md"}, []string{"content/ko/a.md", "content.ja/docs/_index.md"}, true},
		{[]string{"content/ko/a.md", "content/ko/b.md"}, []string{"content/ko/a.md"}, false},
		{[]string{"content/ko/a.md"}, []string{"content/ko/a.md", "data/evdoc/x.json", "static/r.txt"}, false},
		{[]string{"content/ko/a.md"}, []string{"content/ko/a.md", "resources/_gen/x.md"}, false},
	} {
		from, to := t.TempDir(), t.TempDir()
		for _, p := range c.from {
			write(t, filepath.Join(from, p), "x")
		}
		for _, p := range c.to {
			write(t, filepath.Join(to, p), "x")
		}
		if got := removedPage(from, to); got != c.want {
			t.Errorf("from %v to %v: removedPage = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// TestWatcherBatchesWhileBusy: saves made while the receiver is busy with
// the last batch (a re-check running) come together in the next batch,
// not one batch each; and a batch is not sent while its last save is
// younger than the quiet time.
func TestWatcherBatchesWhileBusy(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	w, err := newWatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const quiet = 400 * time.Millisecond
	batches := w.batches(ctx, quiet, os.Stderr)
	write(t, filepath.Join(dir, "content/ko/docs/p.md"), "---\ntitle: p\n---\n\n글 1.\n")
	time.Sleep(3 * quiet) // the batch is ready; nobody receives it
	start := time.Now()
	write(t, filepath.Join(dir, "evidence/d3/report.md"), "## D-3\n")
	time.Sleep(quiet / 4) // the receiver is free again; the watcher has seen the save
	select {
	case b := <-batches:
		if want := []string{"content/ko/docs/p.md", "evidence/d3/report.md"}; !reflect.DeepEqual(b, want) {
			t.Errorf("batch %q, want %q: the save made while the receiver was busy joins the waiting batch", b, want)
		}
		if d := time.Since(start); d < quiet {
			t.Errorf("the batch came %v after a save, before the quiet time %v passed", d, quiet)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no batch")
	}
}

// TestWatcherWaitsForTruncatedFile: a file truncated in place (as
// os.WriteFile and editors writing in place begin) and written only after
// the quiet time is not sent empty: the batch waits for its bytes, up to
// the burst's cap. A batch sent at the quiet time would re-check an empty
// evidence file (thousands of findings gone at the next save).
func TestWatcherWaitsForTruncatedFile(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	w, err := newWatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const quiet = 40 * time.Millisecond // burstCap: 500ms
	batches := w.batches(ctx, quiet, os.Stderr)
	type got struct {
		b  []string
		at time.Time
	}
	recv := make(chan got, 1)
	go func() {
		select {
		case b := <-batches:
			recv <- got{b, time.Now()}
		case <-time.After(20 * time.Second):
			close(recv)
		}
	}()
	p := filepath.Join(dir, "evidence/d3/report.md")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(4 * quiet) // the writer is held after truncating
	if _, err := f.WriteString("## D-3\n"); err != nil {
		t.Fatal(err)
	}
	wrote := time.Now()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r, ok := <-recv
	if !ok {
		t.Fatal("no batch")
	}
	if !reflect.DeepEqual(r.b, []string{"evidence/d3/report.md"}) {
		t.Errorf("batch %q", r.b)
	}
	if r.at.Before(wrote) {
		t.Errorf("the batch came %v before the truncated file was written", wrote.Sub(r.at))
	}
}

// TestSyncTreeOneBurst: the files a sync replaces are all written beside
// their places before the first lands, so the events Hugo's watcher sees
// of the files it reads (the renames over them, the pages written in
// place) come in one burst, data first: a temporary file written between
// two of them would leave time for a watcher tick to split one edit into
// two rebuilds. The events are the watcher's own (inotify), in order.
func TestSyncTreeOneBurst(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	files := []string{"content/ko/a.md", "data/evdoc/claims.json", "data/evdoc/serve.json", "data/evdoc/sets.json"}
	for _, p := range files {
		write(t, filepath.Join(from, p), "new")
		write(t, filepath.Join(to, p), "old")
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, d := range []string{"content/ko", "data/evdoc"} {
		if err := w.Add(filepath.Join(to, d)); err != nil {
			t.Fatal(err)
		}
	}
	inPlace := func(rel string) bool { return strings.HasPrefix(rel, "content/") }
	if n, _, err := syncTree(from, to, inPlace); err != nil || n != len(files) {
		t.Fatalf("syncTree: %d written, %v; want %d", n, err, len(files))
	}
	var events []fsnotify.Event
	timeout := time.After(2 * time.Second)
	landed := map[string]bool{} // the final names with an event: a rename over it or a page's write
	for len(landed) < len(files) {
		select {
		case ev := <-w.Events:
			events = append(events, ev)
			if !strings.HasPrefix(filepath.Base(ev.Name), ".evdoc-sync-") && ev.Has(fsnotify.Create) || ev.Has(fsnotify.Write) && strings.HasSuffix(ev.Name, ".md") {
				landed[ev.Name] = true
			}
		case err := <-w.Errors:
			t.Fatal(err)
		case <-timeout:
			t.Fatalf("%d of %d files landed; events: %v", len(landed), len(files), events)
		}
	}
	first := -1
	for i, ev := range events {
		temp := strings.HasPrefix(filepath.Base(ev.Name), ".evdoc-sync-")
		if !temp && first < 0 {
			first = i
		}
		if temp && first >= 0 && ev.Has(fsnotify.Create) {
			t.Errorf("a temporary file was created after %s landed: %v", events[first].Name, events)
			break
		}
	}
}
