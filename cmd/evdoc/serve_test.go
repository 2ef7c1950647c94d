package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hugorun"
	"github.com/evdoc-lab/evdoc/internal/procgroup"
)

// asMainEnv makes the test binary run evdoc's main instead of the tests,
// so a test can start `evdoc serve` as a process of its own and stop it
// with a real SIGINT.
const asMainEnv = "EVDOC_TEST_AS_MAIN"

// quickExit is the GORACE setting for a process of the test binary
// running as evdoc: a race-enabled program sleeps a second before it
// exits (the race runtime's atexit_sleep_ms, 1000 by default), which the
// ~80 evdoc processes of TestSharedCases alone turned into most of a
// minute of the package's wall time. A race is still reported, on
// standard error and by the exit status (66), when it happens; Go's own
// race tests run with the same setting. A GORACE that sets
// atexit_sleep_ms is kept.
func quickExit() string {
	g := os.Getenv("GORACE")
	if strings.Contains(g, "atexit_sleep_ms") {
		return "GORACE=" + g
	}
	return "GORACE=" + strings.TrimSpace(g+" atexit_sleep_ms=0")
}

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// syncBuffer is a bytes.Buffer safe for a process's writes and a test's
// reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testHugo returns the Hugo binary tests run: EVDOC_HUGO, else the pinned
// one of the repository's tools/hugo module (built by go on first use).
func testHugo(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("EVDOC_HUGO"); bin != "" {
		return bin
	}
	root, _ := filepath.Abs("../..")
	cmd := hugorun.DirectTool(context.Background(), hugorun.PinnedHugo(root))
	if len(cmd) != 1 {
		t.Skip("no Hugo binary: set EVDOC_HUGO")
	}
	return cmd[0]
}

// freePort returns a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// copyDir copies the regular files under from to to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond every 100ms until it holds or bound passes, and
// returns how long it took. It fails at once when the process exited.
func waitFor(t *testing.T, what string, bound time.Duration, exited <-chan struct{}, cond func() bool, diag func() string) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		select {
		case <-exited:
			t.Fatalf("%s: evdoc serve exited\n%s", what, diag())
		default:
		}
		if time.Since(start) > bound {
			t.Fatalf("%s: not within %v\n%s", what, bound, diag())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}

func get(url string) string {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	return string(b)
}

// serveBound is how long a save may take to reach the terminal and the
// served page: generous for a loaded CI machine; the tests log the time
// taken (the performance issue sets the target).
const serveBound = 30 * time.Second

// serveRun is an evdoc serve started by startServe.
type serveRun struct {
	dir            string // the project
	base, page     string // the server's URL and the Korean page's
	stdout, stderr *syncBuffer
	cmd            *exec.Cmd
	exited         chan struct{} // closed when evdoc exited
	waitErr        *error        // how it exited, once exited is closed
	output         func() string
}

// startServe starts evdoc serve (the test binary as evdoc) on the
// testdata/serve.txtar project with the reference site's layouts and
// theme component, waits until the Korean page is served without a
// banner, and kills evdoc when the test ends.
func startServe(t *testing.T) *serveRun {
	t.Helper()
	dir := extract(t, "testdata/serve.txtar")
	for _, d := range []string{"layouts", "themes"} {
		copyDir(t, filepath.Join("../..", d), filepath.Join(dir, d))
	}
	return startServeIn(t, dir)
}

// startServeIn starts evdoc serve on the project dir, as startServe does.
func startServeIn(t *testing.T, dir string) *serveRun {
	t.Helper()
	hugo := testHugo(t)
	port := freePort(t)
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	cmd := exec.Command(os.Args[0], "serve", "--root", dir, "--hugo", hugo, "--port", strconv.Itoa(port), "--debounce", "50ms")
	cmd.Env = append(os.Environ(), asMainEnv+"=1", quickExit())
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	output := func() string { return "stdout:\n" + stdout.String() + "\nstderr:\n" + stderr.String() }

	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	page := base + "/docs/p/"
	waitFor(t, "Hugo's server up", 2*time.Minute, exited, func() bool {
		if strings.Contains(stderr.String(), "Hugo's server stopped") {
			t.Fatalf("Hugo's server stopped:\n%s", output())
		}
		return strings.Contains(get(page), "2905")
	}, output)
	if strings.Contains(get(page), "evdoc-serve-banner") {
		t.Fatalf("banner on a clean project:\n%s", get(page))
	}

	return &serveRun{dir: dir, base: base, page: page, stdout: stdout, stderr: stderr, cmd: cmd, exited: exited, waitErr: &waitErr, output: output}
}

// TestServe starts evdoc serve on a small ko/ja project, breaks a claim
// of the Korean page, and expects the finding in the terminal and in the
// banner of the served page within a bound; then fixes it and expects the
// banner gone; then stops evdoc with SIGINT and expects no Hugo process
// and no serve directory left.
func TestServe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo's server")
	}
	t.Parallel() // a project, an evdoc serve process and ports of its own
	if runtime.GOOS != "linux" {
		t.Skip("inspects /proc for Hugo processes")
	}
	r := startServe(t)
	dir, stdout, stderr, exited, output, page, base := r.dir, r.stdout, r.stderr, r.exited, r.output, r.page, r.base
	cmd := r.cmd
	const bound = serveBound

	// Break a claim: 2905 → 2906.
	p := filepath.Join(dir, "content", "ko", "docs", "p.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src), "[2905회]", "[2906회]", 1)
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	finding := "content/ko/docs/p.md:6:2: error: \"2906회\" does not match d3/d3.b.attempts"
	took := waitFor(t, "finding in the terminal", bound, exited, func() bool { return strings.Contains(stdout.String(), finding) }, output)
	t.Logf("finding in the terminal %v after the save", took)
	var html string
	took = waitFor(t, "finding in the served banner", bound, exited, func() bool {
		html = get(page)
		return strings.Contains(html, `id="evdoc-serve-banner"`) && strings.Contains(html, `data-rule="claim-mismatch"`)
	}, output)
	t.Logf("banner %v after the save", took)
	for _, want := range []string{"On this page:", "content/ko/docs/p.md:6:2:", "2906회", `data-failing="true"`} {
		if !strings.Contains(html, want) {
			t.Errorf("banner lacks %q:\n%s", want, html)
		}
	}
	// The Japanese page shows the translation finding and the Korean one
	// elsewhere, within the same bound: Hugo writes a rebuild's pages one
	// after another, so the Korean page can show the banner before the
	// Japanese one is written again.
	var ja string
	waitFor(t, "the ja page's banner listing the ko finding", bound, exited, func() bool {
		ja = get(base + "/ja/docs/p/")
		return strings.Contains(ja, `id="evdoc-serve-banner"`) && strings.Contains(ja, "Elsewhere:")
	}, func() string { return "the ja page:\n" + ja + "\n" + output() })

	// A reference being typed (unknown): the page still renders, the
	// claim outlined, and the banner names the finding.
	unknown := strings.Replace(string(src), "d3/d3.b.attempts", "d3/d3.b.attemptz", 1)
	if err := os.WriteFile(p, []byte(unknown), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "unknown reference in the served banner", bound, exited, func() bool {
		html = get(page)
		return strings.Contains(html, `data-rule="claim-unknown-ref"`)
	}, output)
	if !strings.Contains(html, `class="ev-claim-broken"`) || !strings.Contains(html, "2905회") {
		t.Errorf("the claim with an unknown reference is not shown outlined:\n%s", html)
	}

	// Fix it: the banner goes.
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	took = waitFor(t, "banner gone after the fix", bound, exited, func() bool {
		html = get(page)
		return strings.Contains(html, "2905") && !strings.Contains(html, "evdoc-serve-banner")
	}, output)
	t.Logf("banner gone %v after the fix", took)
	// Every page rendered again after the saves still links evdoc's
	// stylesheet and script (a once-per-page flag in Page.Store, which
	// outlives Hugo's rebuilds, dropped them: popovers printed inline).
	for _, u := range []string{page, base + "/", base + "/ja/"} {
		got := get(u)
		for _, want := range []string{"evdoc/css/site.css", "evdoc/js/evdoc.js"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s after the saves lacks %s (evdoc's head):\n%s", u, want, got)
			}
		}
	}
	if !strings.Contains(stderr.String(), "site: 0 error(s), 0 warning(s) (ok)") {
		t.Errorf("stderr lacks the clean summary after the fix:\n%s", output())
	}

	// Ctrl-C: evdoc exits 130, and no Hugo process nor serve directory is left.
	serveDirs, _ := filepath.Glob(filepath.Join(dir, ".evdoc", "serve-*"))
	if len(serveDirs) != 1 {
		t.Fatalf("serve directories %q, want one", serveDirs)
	}
	pgidFile, _ := os.ReadFile(filepath.Join(serveDirs[0], "hugo.pgid"))
	leader, marker, err := procgroup.ParseIdent(string(pgidFile))
	if err != nil {
		t.Fatalf("hugo.pgid %q: %v", pgidFile, err)
	}
	pgid := leader.Pid
	if err := syscall.Kill(-pgid, 0); err != nil {
		t.Fatalf("Hugo's process group %d is not running before SIGINT: %v", pgid, err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		var ee *exec.ExitError
		if !errors.As(*r.waitErr, &ee) || ee.ExitCode() != 130 {
			t.Errorf("evdoc serve after SIGINT: %v, want exit status 130\n%s", *r.waitErr, output())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("evdoc serve still runs 30s after SIGINT\n%s", output())
	}
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("Hugo's process group %d survives evdoc serve: %v", pgid, err)
	}
	if procs := processesWith(marker); len(procs) > 0 {
		t.Errorf("processes still running on the served stage: %v", procs)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".evdoc", "serve-*")); len(left) > 0 {
		t.Errorf("serve directories left: %q", left)
	}
}

// processesWith returns the ids of the processes whose command line
// contains s.
func processesWith(s string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			out = append(out, pid)
		}
	}
	return out
}

// TestServeKilled: evdoc serve killed by SIGKILL takes its Hugo with it
// (the parent-death signal), and the next evdoc serve removes the
// directory it left.
func TestServeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo's server")
	}
	t.Parallel() // a project, an evdoc serve process and ports of its own
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	r := startServe(t)
	dirs, _ := filepath.Glob(filepath.Join(r.dir, ".evdoc", "serve-*"))
	if len(dirs) != 1 {
		t.Fatalf("serve directories %q, want one", dirs)
	}
	b, _ := os.ReadFile(filepath.Join(dirs[0], "hugo.pgid"))
	_, marker, err := procgroup.ParseIdent(string(b))
	if err != nil {
		t.Fatalf("hugo.pgid %q: %v", b, err)
	}
	if err := r.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-r.exited
	waitFor(t, "Hugo gone after evdoc was killed", 15*time.Second, nil, func() bool {
		return len(processesWith(marker)) == 0
	}, func() string { return fmt.Sprintf("processes: %v", processesWith(marker)) })
	// The next serve removes the killed one's directory.
	next := startServeIn(t, r.dir)
	left, _ := filepath.Glob(filepath.Join(r.dir, ".evdoc", "serve-*"))
	if len(left) != 1 || left[0] == dirs[0] {
		t.Errorf("serve directories %q after a second serve; want only its own, not %s\n%s", left, dirs[0], next.output())
	}
}

// TestServeBusyPort: a --port that is in use is an error naming it (exit
// 2) before anything is checked, staged or started: no Hugo is run (the
// --hugo given would fail the test by writing a marker) and no serve
// directory is left under .evdoc/.
func TestServeBusyPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("cannot listen:", err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	marker := filepath.Join(t.TempDir(), "ran")
	fake := filepath.Join(t.TempDir(), "hugo")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := evdoc("serve", "--root", dir, "--hugo", fake, "--port", strconv.Itoa(port))
	want := fmt.Sprintf("port %d on 127.0.0.1 is in use (address already in use); choose another --port, or leave --port out and serve picks a free one", port)
	if code != 2 || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 2 and %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("Hugo was started")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".evdoc", "serve-*")); len(m) != 0 {
		t.Errorf("left behind: %v", m)
	}
}

// TestServePopoverFollowsEvidence: the theme renders a claim's link and
// popover once per language and destination (partialCached); when the
// evidence changes under evdoc serve and the claim still holds, the
// served pages must link the new raw line, not the cached one (in the
// claim's link and in its popover, whose HTML under serve is the escaped
// value of its data-ev-pop attribute: Hugo's server, in fast render
// mode, renders again only the pages a browser visited, never an
// evidence set's popover file, which evdoc build's pages load).
func TestServePopoverFollowsEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo's server")
	}
	t.Parallel() // a project, an evdoc serve process and ports of its own
	r := startServe(t)
	pages := []string{r.page, r.base + "/ja/docs/p/"}
	for _, u := range pages {
		if html := get(u); !strings.Contains(html, `/evidence/d3/report-md/#L6-`) || !strings.Contains(html, "evidence/d3/report.md:6&lt;/code&gt;") {
			t.Fatalf("%s does not link the claims to report.md line 6:\n%s", u, html)
		}
	}
	p := filepath.Join(r.dir, "evidence", "d3", "report.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte("<!-- a line added above: every row moves down one line -->\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, u := range pages {
		var html string
		waitFor(t, "claims linked to the moved line in "+u, serveBound, r.exited, func() bool {
			html = get(u)
			return strings.Contains(html, `/evidence/d3/report-md/#L7-`) && strings.Contains(html, "evidence/d3/report.md:7&lt;/code&gt;")
		}, r.output)
		if strings.Contains(html, `/evidence/d3/report-md/#L6-`) || strings.Contains(html, "evidence/d3/report.md:6&lt;/code&gt;") {
			t.Errorf("%s still links a claim to the old line 6:\n%s", u, html)
		}
		if strings.Contains(html, "evdoc-serve-banner") {
			t.Errorf("%s shows a banner; the claims still hold:\n%s", u, html)
		}
	}
}

// TestServeDropsRemovedPage (issue 26, fault 5 c): a page rewritten by
// rename (as sed -i and editors save) and deleted within one debounce
// window is gone from the served site too: Hugo's in-memory server went on
// serving it (HTTP 200) after serve's stage had dropped it.
func TestServeDropsRemovedPage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo's server")
	}
	t.Parallel() // a project, an evdoc serve process and ports of its own
	r := startServe(t)
	ghost := filepath.Join(r.dir, "content", "ko", "docs", "ghost.md")
	if err := os.WriteFile(ghost, []byte("---\ntitle: ghost\n---\n\nghost page\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := r.base + "/docs/ghost/"
	waitFor(t, "the new page served", 2*time.Minute, r.exited, func() bool { return strings.Contains(get(url), "ghost page") }, r.output)
	tmp := filepath.Join(r.dir, "content", "ko", "docs", ".sedX1")
	if err := os.WriteFile(tmp, []byte("---\ntitle: ghost\n---\n\nghost page, edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, ghost); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(ghost); err != nil {
		t.Fatal(err)
	}
	// The bound covers a restart of Hugo's server (a whole build) on a
	// busy machine.
	took := waitFor(t, "the removed page gone from the served site", 2*time.Minute, r.exited, func() bool { return status(url) == http.StatusNotFound }, r.output)
	t.Logf("page gone %v after its removal", took)
	if !strings.Contains(get(r.page), "2905") {
		t.Errorf("the other pages are not served after the restart:\n%s", r.output())
	}
}

// status returns the HTTP status of a GET of url, 0 when it fails.
func status(url string) int {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
