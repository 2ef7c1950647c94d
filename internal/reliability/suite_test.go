//go:build reliability && linux

package reliability

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	repoRoot, _ = filepath.Abs("../..")
	evdocBin    string
	hugoBin     string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "evdoc-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	evdocBin = filepath.Join(dir, "evdoc")
	if out, err := exec.Command("go", "build", "-o", evdocBin, "./cmd/evdoc").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building evdoc: %v\n%s", err, out)
		os.Exit(2)
	}
	hugoBin = os.Getenv("EVDOC_HUGO")
	if hugoBin == "" {
		out, err := exec.Command("go", "-C", filepath.Join(repoRoot, "tools", "hugo"), "tool", "-n", "hugo").Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building the pinned Hugo: %v\n", err)
			os.Exit(2)
		}
		hugoBin = strings.TrimSpace(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func init() {
	// go build above runs in the package directory; build from the root.
	_ = os.Chdir(repoRoot)
}

// loops is the number of iterations of each kill loop.
func loops() int {
	if n, err := strconv.Atoi(os.Getenv("EVDOC_RELIABILITY_LOOPS")); err == nil && n > 0 {
		return n
	}
	return 8
}

// project copies the repository's tracked files into a new directory
// and adds n generated pages of 50 claims each (a longer build and fix).
func project(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if !strings.HasPrefix(f, "content/") && !strings.HasPrefix(f, "evidence/") && !strings.HasPrefix(f, "figures/") &&
			!strings.HasPrefix(f, "layouts/") && !strings.HasPrefix(f, "themes/") && !strings.HasPrefix(f, "static/") && !strings.HasPrefix(f, "i18n/") &&
			!strings.HasPrefix(f, "assets/") && !strings.HasPrefix(f, "data/") && f != "hugo.toml" && f != "evdoc.toml" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			continue // deleted in the working tree
		}
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < n; k++ {
		writePage(t, dir, k, "40")
	}
	return dir
}

// genPage is a generated page quoting dns-inflight-part2/curl.strict.time
// (40.045811 s) as v seconds, 50 times.
func genPage(v string) string {
	return "---\ntitle: \"gen\"\n---\n\n" + strings.Repeat("Run took ["+v+"초](ev:dns-inflight-part2/curl.strict.time) here.\n\n", 50)
}

func writePage(t *testing.T, dir string, k int, v string) {
	t.Helper()
	p := filepath.Join(dir, "content", "ko", "docs", "gen", fmt.Sprintf("p%d.md", k))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(genPage(v)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// evdoc starts the binary in dir.
func evdoc(dir string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	c := exec.Command(evdocBin, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "EVDOC_HUGO="+hugoBin)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	return c, &out
}

// run runs evdoc to completion and returns its exit status and output.
func run(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	c, out := evdoc(dir, args...)
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// siteState summarises public/: its file count and the marker word of
// the home page ("" when there is no site).
type siteState struct {
	files  int
	marker string
}

func site(t *testing.T, dir string) siteState {
	t.Helper()
	var s siteState
	filepath.WalkDir(filepath.Join(dir, "public"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			s.files++
		}
		return nil
	})
	b, err := os.ReadFile(filepath.Join(dir, "public", "index.html"))
	if err != nil {
		return siteState{files: s.files}
	}
	if i := bytes.Index(b, []byte("mark")); i >= 0 {
		j := i
		for j < len(b) && b[j] >= 'a' && b[j] <= 'z' {
			j++
		}
		s.marker = string(b[i:j])
	}
	return s
}

// setMarker writes a marker word (letters only: no number to check) into
// the Korean home page, so two builds' sites can be told apart.
func setMarker(t *testing.T, dir, word string) {
	t.Helper()
	p := filepath.Join(dir, "content", "ko", "_index.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if i := strings.Index(s, "\n\nmark"); i >= 0 {
		s = s[:i]
	}
	if err := os.WriteFile(p, []byte(strings.TrimRight(s, "\n")+"\n\n"+word+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func word(i int) string {
	w := "mark"
	for _, c := range strconv.Itoa(i) {
		w += string(rune('a' + c - '0'))
	}
	return w
}

// hugoRunning lists the processes building dir's stage.
func hugoRunning(dir string) []int {
	marker := []byte(filepath.Join(dir, ".evdoc", "stage"))
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		b, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !bytes.Contains(b, marker) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(p, "stat")); err == nil && bytes.Contains(st, []byte(") Z ")) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(p))
		pids = append(pids, pid)
	}
	return pids
}

// noHugo fails the test when a Hugo of dir still runs 3 s after evdoc
// ended (and kills it).
func noHugo(t *testing.T, dir string) {
	t.Helper()
	var pids []int
	for i := 0; i < 60; i++ {
		if pids = hugoRunning(dir); len(pids) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGKILL)
	}
	t.Errorf("Hugo still running after evdoc ended: pids %v", pids)
}

func leftovers(dir string) []string {
	var out []string
	for _, pat := range []string{".evdoc/stage*", ".public.evdoc-*", ".evdoc/tmp/*", "content/*/docs/gen/.*.evdoc-*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		out = append(out, m...)
	}
	return out
}

// TestConcurrentBuilds (fault 1): two builds at once never publish an
// incomplete site; the second waits for the first, or with --lock-wait 0
// fails with exit 2 naming the first.
func TestConcurrentBuilds(t *testing.T) {
	dir := project(t, 30)
	if code, out := run(t, dir, "build"); code != 0 {
		t.Fatalf("baseline build: exit %d\n%s", code, out)
	}
	full := site(t, dir)
	for i := 0; i < max(3, loops()/5); i++ {
		setMarker(t, dir, word(i))
		a, aout := evdoc(dir, "build")
		args := []string{"build"}
		if i%2 == 1 {
			args = append(args, "--lock-wait", "0")
		}
		b, bout := evdoc(dir, args...)
		if err := a.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		ea, eb := a.Wait(), b.Wait()
		ca, cb := a.ProcessState.ExitCode(), b.ProcessState.ExitCode()
		if ea != nil && ca != 2 || eb != nil && cb != 2 {
			t.Errorf("round %d: exit %d/%d\n%s\n%s", i, ca, cb, aout, bout)
		}
		if cb == 2 && !strings.Contains(bout.String(), "another evdoc build or fix is running") {
			t.Errorf("round %d: the refused build does not say why:\n%s", i, bout)
		}
		got := site(t, dir)
		if got.files != full.files || got.marker != word(i) {
			t.Errorf("round %d: public/ has %d files (want %d), marker %q (want %q); exits %d/%d", i, got.files, full.files, got.marker, word(i), ca, cb)
		}
	}
	if l := leftovers(dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestKillBuild (faults 5 and 7): SIGKILL at a random moment of a build
// leaves public/ whole — the previous site or the new one — and no Hugo
// process; the next build cleans up what the killed one left.
func TestKillBuild(t *testing.T) {
	dir := project(t, 30)
	setMarker(t, dir, word(0))
	if code, out := run(t, dir, "build"); code != 0 {
		t.Fatalf("baseline build: exit %d\n%s", code, out)
	}
	full := site(t, dir).files
	start := time.Now()
	c, _ := evdoc(dir, "build")
	c.Run()
	took := time.Since(start)
	published := word(0)
	kills := 0
	for i := 1; i <= loops(); i++ {
		setMarker(t, dir, word(i))
		c, out := evdoc(dir, "build")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(took) + int64(took)/4)))
		if c.Process.Signal(syscall.SIGKILL) == nil {
			kills++
		}
		c.Wait()
		noHugo(t, dir)
		got := site(t, dir)
		if got.files != full || (got.marker != published && got.marker != word(i)) {
			t.Fatalf("kill %d: public/ has %d files (want %d), marker %q (want %q or %q)\n%s", i, got.files, full, got.marker, published, word(i), out)
		}
		published = got.marker
	}
	if code, out := run(t, dir, "build"); code != 0 {
		t.Fatalf("build after the kills: exit %d\n%s", code, out)
	}
	if l := leftovers(dir); len(l) > 0 {
		t.Errorf("left behind after a clean build: %v", l)
	}
	t.Logf("%d builds killed (a build takes %v)", kills, took)
}

// TestKillFix (faults 5 and 9): SIGKILL at a random moment of fix leaves
// every page either as it was or fixed, never torn, and no temporary
// file in content/.
func TestKillFix(t *testing.T) {
	const pages = 60
	dir := project(t, 0)
	stale, fixed := genPage("41"), genPage("40")
	start := time.Now()
	for k := 0; k < pages; k++ {
		writePage(t, dir, k, "41")
	}
	run(t, dir, "fix")
	took := time.Since(start)
	for i := 1; i <= loops(); i++ {
		for k := 0; k < pages; k++ {
			writePage(t, dir, k, "41")
		}
		c, _ := evdoc(dir, "fix")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(took))))
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
		for k := 0; k < pages; k++ {
			b, err := os.ReadFile(filepath.Join(dir, "content", "ko", "docs", "gen", fmt.Sprintf("p%d.md", k)))
			if err != nil || (string(b) != stale && string(b) != fixed) {
				t.Fatalf("kill %d: page p%d is neither the old nor the fixed page (err %v):\n%.200s", i, k, err, b)
			}
		}
		ents, _ := os.ReadDir(filepath.Join(dir, "content", "ko", "docs", "gen"))
		for _, e := range ents {
			if strings.Contains(e.Name(), ".evdoc-") {
				t.Fatalf("kill %d: temporary file in content/: %s", i, e.Name())
			}
		}
	}
	if code, out := run(t, dir, "fix"); code != 0 && code != 1 {
		t.Fatalf("fix after the kills: exit %d\n%s", code, out)
	}
	for k := 0; k < pages; k++ {
		b, _ := os.ReadFile(filepath.Join(dir, "content", "ko", "docs", "gen", fmt.Sprintf("p%d.md", k)))
		if string(b) != fixed {
			t.Fatalf("page p%d not fixed by the final fix", k)
		}
	}
	if l := leftovers(dir); len(l) > 0 {
		t.Errorf("left behind after a clean fix: %v", l)
	}
}

// TestSignals (fault 5): SIGTERM and SIGINT stop build while Hugo runs
// and fix between pages; evdoc exits 143/130, Hugo is gone, the site and
// the pages are whole, and the run's temporary directories are removed.
func TestSignals(t *testing.T) {
	dir := project(t, 30)
	setMarker(t, dir, word(0))
	if code, out := run(t, dir, "build"); code != 0 {
		t.Fatalf("baseline build: exit %d\n%s", code, out)
	}
	before := site(t, dir)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		setMarker(t, dir, word(int(sig)))
		c, out := evdoc(dir, "build")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for len(hugoRunning(dir)) == 0 && time.Now().Before(deadline) && c.ProcessState == nil {
			time.Sleep(10 * time.Millisecond)
		}
		c.Process.Signal(sig)
		c.Wait()
		if code := c.ProcessState.ExitCode(); code != 128+int(sig) {
			t.Errorf("build on %v: exit %d, want %d\n%s", sig, code, 128+int(sig), out)
		}
		noHugo(t, dir)
		if got := site(t, dir); got != before {
			t.Errorf("build on %v: public/ %+v, want the old site %+v", sig, got, before)
		}
		if l := leftovers(dir); len(l) > 0 {
			t.Errorf("build on %v left: %v", sig, l)
		}
	}
	for k := 0; k < 60; k++ {
		writePage(t, dir, k, "41")
	}
	c, out := evdoc(dir, "fix")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal once fix holds the project lock, so evdoc's handler is
	// installed: at 300 ms after the start, a loaded machine could still
	// be in the runtime's init (Chroma's lexers take 300 ms of it there),
	// and the default action would kill it.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(dir, ".evdoc", "lock")); strings.Contains(string(b), "fix") {
			break
		}
	}
	time.Sleep(100 * time.Millisecond)
	c.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		c.Process.Kill()
		t.Fatal("fix did not stop on SIGINT")
	}
	if code := c.ProcessState.ExitCode(); code != 130 && code != 0 {
		t.Errorf("fix on SIGINT: exit %d, want 130 (or 0 when it had finished)\n%s", code, out)
	}
	for k := 0; k < 60; k++ {
		b, _ := os.ReadFile(filepath.Join(dir, "content", "ko", "docs", "gen", fmt.Sprintf("p%d.md", k)))
		if string(b) != genPage("41") && string(b) != genPage("40") {
			t.Fatalf("page p%d torn by an interrupted fix", k)
		}
	}
}

// startup is twice the longest of three runs of `evdoc version`: the time
// a run takes to reach main, where its signal handler is installed.
func startup(t *testing.T) time.Duration {
	var longest time.Duration
	for range 3 {
		start := time.Now()
		if err := exec.Command(evdocBin, "version").Run(); err != nil {
			t.Fatal(err)
		}
		longest = max(longest, time.Since(start))
	}
	return 2 * longest
}

// stopBound is how soon evdoc must exit after SIGINT or SIGTERM, at any
// stage (it takes milliseconds; the bound leaves room for a loaded CI
// machine). EVDOC_RELIABILITY_STOP sets another (a Go duration).
func stopBound() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("EVDOC_RELIABILITY_STOP")); err == nil && d > 0 {
		return d
	}
	return 2 * time.Second
}

// signalAfter starts evdoc with args in dir, sends sig after delay and
// returns its exit status, how long it took to exit after the signal,
// and its output. A run that ends before the delay is reported with a
// negative stop time.
func signalAfter(t *testing.T, dir string, delay time.Duration, sig syscall.Signal, args ...string) (int, time.Duration, string) {
	t.Helper()
	c, out := evdoc(dir, args...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	select {
	case <-done:
		return c.ProcessState.ExitCode(), -1, out.String()
	case <-time.After(delay):
	}
	c.Process.Signal(sig)
	sent := time.Now()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		c.Process.Kill()
		<-done
	}
	return c.ProcessState.ExitCode(), time.Since(sent), out.String()
}

// TestSignalsStopPromptly (fault 5; issue 15 remainder): SIGTERM or
// SIGINT stops check, build and fix within stopBound at any stage —
// loading, checking, staging, Hugo — not only between stages; the exit
// status says so, public/ and the pages are as they were, and nothing
// is left behind. The site has thousands of pages, so that loading and
// checking alone take seconds.
func TestSignalsStopPromptly(t *testing.T) {
	const pages = 1500
	dir := project(t, 0)
	setMarker(t, dir, word(0))
	if code, out := run(t, dir, "build"); code != 0 {
		t.Fatalf("baseline build: exit %d\n%s", code, out)
	}
	before := site(t, dir)
	for k := 0; k < pages; k++ {
		writePage(t, dir, k, "41") // stale: fix has pages to rewrite
	}
	start := time.Now()
	run(t, dir, "check")
	checkTook := time.Since(start)
	t.Logf("check of %d pages takes %v", pages, checkTook)
	bound := stopBound()
	if checkTook < 2*bound {
		t.Logf("check takes less than twice the stop bound: a run that ignored the signal until its end could pass")
	}
	for i := 0; i < max(2, loops()/8); i++ {
		sig := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}[i%2]
		// While loading or checking (every command), and for build also
		// later: staging or Hugo.
		// Not before evdoc's signal handler is installed: until then (the
		// runtime's init, which takes a few hundred ms on a loaded
		// machine) the default action kills it before it did anything.
		early := time.Duration(rand.Int64N(int64(checkTook)/2)) + startup(t)
		late := checkTook + time.Duration(rand.Int64N(int64(checkTook)/2))
		runs := []struct {
			cmd   string
			delay time.Duration
		}{{"check", early}, {"build", early}, {"fix", early}, {"build", late}}
		for _, r := range runs {
			cmd, delay := r.cmd, r.delay
			// Stale pages give fix work; the late build needs pages that
			// check clean, or it stops after the check.
			v := "41"
			if delay == late {
				v = "40"
			}
			for k := 0; k < pages; k++ {
				writePage(t, dir, k, v)
			}
			code, stop, out := signalAfter(t, dir, delay, sig, cmd)
			if stop < 0 {
				continue // finished before the signal
			}
			if code != 128+int(sig) {
				t.Errorf("%s, %v after %v: exit %d, want %d\n%s", cmd, sig, delay, code, 128+int(sig), out)
			}
			if stop > bound {
				t.Errorf("%s, %v after %v: exited %v after the signal, want within %v\n%s", cmd, sig, delay, stop, bound, out)
			}
			noHugo(t, dir)
			if got := site(t, dir); got != before {
				t.Errorf("%s, %v after %v: public/ %+v, want the old site %+v", cmd, sig, delay, got, before)
			}
			if l := leftovers(dir); len(l) > 0 {
				t.Errorf("%s, %v after %v left: %v", cmd, sig, delay, l)
			}
			for k := 0; k < pages; k += 97 {
				b, _ := os.ReadFile(filepath.Join(dir, "content", "ko", "docs", "gen", fmt.Sprintf("p%d.md", k)))
				if string(b) != genPage("41") && string(b) != genPage("40") {
					t.Fatalf("%s, %v after %v: page p%d torn", cmd, sig, delay, k)
				}
			}
			t.Logf("%s, %v after %v: exit %d within %v", cmd, sig, delay.Round(time.Millisecond), code, stop.Round(time.Millisecond))
		}
	}
}

// TestBigEvidenceMemory (fault 8): check and build of a project with a
// large Envoy /stats dump (32 MiB, generated) stay within a memory bound
// that does not grow with the file: the dump is read window by window
// and the viewer pages only the windows linked to. The bound, 200 MiB of
// maximum resident set size (evdoc or Hugo, whichever is larger), is
// what the 200 MB dump measures too (RELIABILITY.md); building
// this file whole took gigabytes.
func TestBigEvidenceMemory(t *testing.T) {
	const size, bound = 32 << 20, 200 << 20
	dir := project(t, 0)
	set := filepath.Join(dir, "evidence", "big")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(set, "admin.stats"))
	if err != nil {
		t.Fatal(err)
	}
	key := func(i int) string {
		return fmt.Sprintf("cluster.outbound|80||svc%d.ns.svc.cluster.local.upstream_rq_total", i)
	}
	var buf bytes.Buffer
	n, i := 0, 0
	for ; n < size; i++ {
		buf.Reset()
		fmt.Fprintf(&buf, "%s: %d\n", key(i), i*3)
		n += buf.Len()
		f.Write(buf.Bytes())
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"big\"\ntitle = \"big dump\"\ndate = \"2026-07-09\"\nenvironment = \"lab\"\nreport = \"r\"\norigin = \"raw\"\n\n" +
		"[[read]]\nfile = \"admin.stats\"\nformat = \"envoy-stats\"\nname = \"s\"\n" +
		fmt.Sprintf("select = { %q = \"first\", %q = \"mid\" }\n", key(0), key(i/2))
	if err := os.WriteFile(filepath.Join(set, "evidence.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check"}, {"build"}} {
		c, out := evdoc(dir, args...)
		if err := c.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			t.Skip("no rusage on this system")
		}
		rss := int64(ru.Maxrss) << 10 // KiB on Linux
		t.Logf("%v on a %d MiB dump: max RSS %d MiB", args, size>>20, rss>>20)
		if rss > bound {
			t.Errorf("%v: max RSS %d MiB, want at most %d MiB", args, rss>>20, bound>>20)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "evidence", "big", "admin.stats")); err != nil {
		t.Errorf("the dump is not published whole: %v", err)
	}
}

// blocks is the disk use of the regular files under dir, in 4 KiB
// blocks as tmpfs counts them, in bytes.
func blocks(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += (fi.Size() + 4095) / 4096 * 4096
			}
		}
		return nil
	})
	return n
}

// TestFullDisk (fault 6): a build on a full file system fails clearly
// (non-zero exit, "no space left on device", or Hugo stopped by
// --hugo-timeout when it hangs on ENOSPC) within its time limits,
// leaves the old public/ whole, removes its stage and new output and
// leaves no Hugo process. It needs root: the project is copied onto a
// real tmpfs, in a private mount namespace (unshare -m), sized so that
// the new site cannot fit beside the old one.
func TestFullDisk(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a small tmpfs in a private mount namespace")
	}
	if err := exec.Command("unshare", "-m", "--propagation", "private", "true").Run(); err != nil {
		t.Skipf("unshare -m not available: %v", err)
	}
	dir := project(t, 30)
	setMarker(t, dir, word(0))
	if code, out := run(t, dir, "build"); code != 0 {
		t.Fatalf("baseline build: exit %d\n%s", code, out)
	}
	before := site(t, dir)
	os.RemoveAll(filepath.Join(dir, ".evdoc", "hugo-cache"))
	setMarker(t, dir, word(1))
	size := blocks(dir) + blocks(filepath.Join(dir, "public"))/2
	mnt := filepath.Join(t.TempDir(), "disk")
	res := t.TempDir()
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `set -e
mount -t tmpfs -o size="$SIZE" tmpfs "$MNT"
cp -a "$SRC/." "$MNT/"
cd "$MNT"
set +e
timeout 120 "$EVDOC" build --hugo-timeout 15s > "$RES/log" 2>&1
echo $? > "$RES/exit"
find public -type f | wc -l > "$RES/files"
grep -o 'mark[a-z]*' public/index.html | head -1 > "$RES/marker"
ls -d .evdoc/stage* .public.evdoc-* > "$RES/leftovers" 2>/dev/null
df -k . | tail -1 > "$RES/df"
exit 0`
	c := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script)
	c.Env = append(os.Environ(), "EVDOC_HUGO="+hugoBin, "SIZE="+strconv.FormatInt(size, 10), "MNT="+mnt, "SRC="+dir, "EVDOC="+evdocBin, "RES="+res)
	start := time.Now()
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("running the build on a %d KiB tmpfs: %v\n%s", size>>10, err, out)
	}
	took := time.Since(start)
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(res, name))
		return strings.TrimSpace(string(b))
	}
	log := read("log")
	t.Logf("build on a %d KiB tmpfs: exit %s after %v; df: %s", size>>10, read("exit"), took.Round(time.Millisecond), read("df"))
	if read("exit") == "0" {
		t.Fatalf("the build succeeded on a disk too small for the new site:\n%s", log)
	}
	if read("exit") == "124" {
		t.Fatalf("the build hung on a full disk (stopped by timeout):\n%s", log)
	}
	// Where the disk fills decides the message: evdoc's own write says
	// so; Hugo may instead hang on ENOSPC (fault 6), and is then stopped
	// by --hugo-timeout.
	if !strings.Contains(log, "no space left on device") && !strings.Contains(log, "--hugo-timeout") {
		t.Errorf("the failure says neither that the disk is full nor that Hugo timed out:\n%s", log)
	}
	if files, _ := strconv.Atoi(read("files")); files != before.files || read("marker") != before.marker {
		t.Errorf("public/ after the failed build: %s files, marker %q; want the old site (%d files, %q)", read("files"), read("marker"), before.files, before.marker)
	}
	if l := read("leftovers"); l != "" {
		t.Errorf("left behind on the full disk: %s", l)
	}
	noHugo(t, mnt)
}
