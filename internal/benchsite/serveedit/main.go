// Command serveedit measures `evdoc serve` end to end on a site the
// benchsite command generated: it starts evdoc serve on the site as a
// user would, waits until a page citing the first evidence set is served,
// and then, -edits times each, saves
//
//   - the set's report table with one number changed (the first digit of
//     row r0's "ok" cell, which the page cites), then saves it back;
//   - the page with one claim's number changed (the first digit of its
//     first A→B transition), then saves it back;
//
// each save after the previous one's page settled and a pseudo-random
// pause below -jitter (default Hugo's watcher tick, 500 ms; seeded by
// -seed), timing it until the terminal printed the re-check's summary
// line (the findings come before it) and until the served page's content
// changed, polled over HTTP through serve's own port as a browser's live
// reload asks for it. Every page read while polling must be whole (it
// ends with </html>); the page after a changing save must show the
// banner's errors and the page after the save back must not, so a page
// that changed for another reason is not a measurement. A live reload
// socket open on the page through serve's port, as a browser's, counts
// the reloads each save sends (from the save to the end of its settle
// time). CPU is evdoc's
// and its Hugo's (user + system, from /proc on Linux) from the save to
// the next one.
//
// It prints one line per save on stderr and, on stdout, "KEY VALUE" lines
// of seconds for bench/run's targets table: serve_e2e_page and
// serve_e2e_findings (the worst save of either kind), the medians
// (…_median) and the CPU a save (serve_e2e_cpu, the median).
//
// Usage:
//
//	serveedit -evdoc BIN -hugo HUGO -root SITE [-edits 5] [-settle 2s] [-jitter 500ms] [-seed 1] [-v] [-log FILE]
//
// Hugo's server takes file changes at a fixed tick, every 500 ms from
// its start. A save made a fixed time after the page changed (itself a
// rebuild after a tick) falls at about the same place between two ticks
// every time, and so does its staging: without the pause, every page
// save of the 500-page site was staged just after a tick and waited
// 450–480 ms for the next (2026-12-07), where a user's saves, at no
// particular time, wait 250 ms on average. The pause spreads the saves
// over the tick's period.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

func main() {
	evdoc := flag.String("evdoc", "evdoc", "the evdoc binary")
	hugo := flag.String("hugo", os.Getenv("EVDOC_HUGO"), "the Hugo binary (default $EVDOC_HUGO)")
	root := flag.String("root", "", "the generated site (benchsite -out)")
	edits := flag.Int("edits", 5, "saves of each kind (each followed by its save back)")
	settle := flag.Duration("settle", 2*time.Second, "wait after each save's page change before the next save")
	timeout := flag.Duration("timeout", 2*time.Minute, "longest wait for one save's page change")
	start := flag.Duration("start", 20*time.Minute, "longest wait for serve's first page")
	jitter := flag.Duration("jitter", 500*time.Millisecond, "longest pseudo-random pause before each save, after the settle time (Hugo's watcher tick by default; 0: none)")
	seed := flag.Uint64("seed", 1, "seed of the pauses")
	logFile := flag.String("log", "", "write serve's output there, each line with the milliseconds since the last save (phases of a save)")
	verbose := flag.Bool("v", false, "run evdoc serve with --verbose (its staging times in the -log file)")
	flag.Parse()
	if *root == "" || *hugo == "" || *edits < 1 {
		fmt.Fprintln(os.Stderr, "usage: serveedit -evdoc BIN -hugo HUGO -root SITE [-edits N] (N ≥ 1)")
		os.Exit(2)
	}
	r := &run{evdoc: *evdoc, hugo: *hugo, root: *root, settle: *settle, timeout: *timeout, start: *start, verbose: *verbose, jitter: *jitter, rng: rand.New(rand.NewPCG(*seed, 0))}
	if *logFile != "" {
		f, err := os.Create(*logFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "serveedit:", err)
			os.Exit(1)
		}
		defer f.Close()
		r.logw = f
	}
	res, err := r.main(*edits)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serveedit:", err)
		os.Exit(1)
	}
	for _, l := range res {
		fmt.Println(l)
	}
}

type run struct {
	evdoc, hugo, root      string
	settle, timeout, start time.Duration
	verbose                bool
	// jitter bounds the pause before each save, drawn from rng.
	jitter time.Duration
	rng    *rand.Rand
	// logw, when set, receives serve's lines, each with the time since
	// the last save (lineLog.saved).
	logw               io.Writer
	lines              *lineLog
	pid                int
	client             *http.Client
	url                string
	evFile, page       string
	evOrig, evEdit     []byte
	pageOrig, pageEdit []byte
	// reloads counts the live reload messages a browser with the page
	// open is sent (the socket through serve's port, as Hugo's live
	// reload script opens it and names its page).
	reloads atomic.Int64
}

// save is one measured save.
type save struct {
	what           string
	findings, page time.Duration
	cpu            time.Duration
	// states counts the page's contents after the first change (0: it
	// changed once).
	states int
	// reloads counts the live reloads a browser on the page was sent
	// from the save to the end of the settle time (-1: no socket).
	reloads int64
}

func (r *run) main(edits int) ([]string, error) {
	if err := r.prepare(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// serve picks its port (1313, else a free one) and Hugo's server
	// names it: a port chosen here could be taken before serve listens.
	args := []string{"serve", "--root", r.root, "--hugo", r.hugo}
	if r.verbose {
		args = append(args, "--verbose")
	}
	cmd := exec.CommandContext(ctx, r.evdoc, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	r.lines = &lineLog{w: r.logw}
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r.pid = cmd.Process.Pid
	go func() {
		defer crash.Guard()
		r.lines.read(stderr)
	}()
	defer func() {
		// the originals back, then serve stopped (SIGTERM: it stops Hugo)
		_ = os.WriteFile(r.evFile, r.evOrig, 0o644)
		_ = os.WriteFile(r.page, r.pageOrig, 0o644)
		cancel()
		_ = cmd.Wait()
	}()
	r.client = &http.Client{Timeout: 10 * time.Second}
	t0 := time.Now()
	body, err := r.waitServed(t0.Add(r.start))
	if err != nil {
		return nil, fmt.Errorf("%v; serve's last lines:\n%s", err, r.lines.tail(10))
	}
	fmt.Fprintf(os.Stderr, "# serve up in %v: %s (%d bytes); the load average is %s\n", time.Since(t0).Round(time.Millisecond), r.url, len(body), loadavg())
	socket := true
	if err := r.liveReload(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "# no live reload socket (%v): reloads are not counted\n", err)
		socket = false
	}
	time.Sleep(r.settle)
	var saves []save
	for i := 0; i < edits; i++ {
		for _, s := range []struct {
			what   string
			file   string
			b      []byte
			errors bool
		}{
			{"evidence", r.evFile, r.evEdit, true},
			{"evidence back", r.evFile, r.evOrig, false},
			{"page", r.page, r.pageEdit, true},
			{"page back", r.page, r.pageOrig, false},
		} {
			if r.jitter > 0 {
				time.Sleep(time.Duration(r.rng.Int64N(int64(r.jitter))))
			}
			sv, next, err := r.measure(s.what, s.file, s.b, body, s.errors)
			if !socket {
				sv.reloads = -1
			}
			if err != nil {
				return nil, fmt.Errorf("%s save %d: %v; serve's last lines:\n%s", s.what, i+1, err, r.lines.tail(10))
			}
			body = next
			fmt.Fprintf(os.Stderr, "# %-13s findings %6.3f s, page %6.3f s, CPU %6.3f s (evdoc and Hugo, until the next save), live reloads %d%s\n",
				sv.what, sv.findings.Seconds(), sv.page.Seconds(), sv.cpu.Seconds(), sv.reloads, states(sv.states))
			saves = append(saves, sv)
		}
	}
	fmt.Fprintf(os.Stderr, "# the load average is %s\n", loadavg())
	var f, p, c []time.Duration
	for _, s := range saves {
		f, p, c = append(f, s.findings), append(p, s.page), append(c, s.cpu)
	}
	out := []string{
		fmt.Sprintf("serve_e2e_page %.3f", slices.Max(p).Seconds()),
		fmt.Sprintf("serve_e2e_findings %.3f", slices.Max(f).Seconds()),
		fmt.Sprintf("serve_e2e_page_median %.3f", median(p).Seconds()),
		fmt.Sprintf("serve_e2e_findings_median %.3f", median(f).Seconds()),
	}
	if c[0] > 0 {
		out = append(out, fmt.Sprintf("serve_e2e_cpu %.3f", median(c).Seconds()))
	}
	later := 0
	for _, s := range saves {
		if s.findings > s.page {
			later++
		}
	}
	out = append(out, fmt.Sprintf("serve_e2e_findings_later %d", later))
	return out, nil
}

// prepare reads the first evidence set's report and the first Korean page
// citing its row r0, and makes the edited versions of both.
func (r *run) prepare() error {
	sets, err := filepath.Glob(filepath.Join(r.root, "evidence", "*", "report.md"))
	if err != nil || len(sets) == 0 {
		return fmt.Errorf("%s: no evidence/*/report.md (not a benchsite site?)", r.root)
	}
	slices.Sort(sets)
	r.evFile = sets[0]
	set := filepath.Base(filepath.Dir(r.evFile))
	if r.evOrig, err = os.ReadFile(r.evFile); err != nil {
		return err
	}
	i := bytes.Index(r.evOrig, []byte("\n| r0 | "))
	if i < 0 {
		return fmt.Errorf("%s has no row r0", r.evFile)
	}
	cells := bytes.SplitN(r.evOrig[i+1:], []byte("|"), 6) // "", " r0 ", before, after, ok, rest
	if len(cells) < 6 {
		return fmt.Errorf("%s: row r0 has fewer than 4 cells", r.evFile)
	}
	at := i + 1 + len(cells[0]) + len(cells[1]) + len(cells[2]) + len(cells[3]) + 4 + 1
	r.evEdit = slices.Clone(r.evOrig)
	if d := r.evEdit[at]; d < '1' || d > '9' {
		return fmt.Errorf("%s: row r0's ok cell starts with %q, expected a digit 1-9", r.evFile, d)
	}
	r.evEdit[at] = '1' + (r.evEdit[at]-'0')%9
	pages, err := filepath.Glob(filepath.Join(r.root, "content", "ko", "bench", "p*.md"))
	if err != nil {
		return err
	}
	slices.Sort(pages)
	cite := []byte("ev:" + set + "/t.r0.ok")
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, cite) {
			r.page, r.pageOrig = p, b
			break
		}
	}
	if r.page == "" {
		return fmt.Errorf("no page under content/ko/bench cites %s", cite)
	}
	m := regexp.MustCompile(`\[([1-9])\d*→\d+\]\(ev:`).FindSubmatchIndex(r.pageOrig)
	if m == nil {
		return fmt.Errorf("%s: no claim [A→B](ev:…) to edit", r.page)
	}
	r.pageEdit = slices.Clone(r.pageOrig)
	r.pageEdit[m[2]] = '1' + (r.pageEdit[m[2]]-'0')%9
	return nil
}

// pageURL is the path Hugo serves the Korean page at (the default
// language, at the site's root).
func pageURL(root, page string) string {
	rel, _ := filepath.Rel(filepath.Join(root, "content", "ko"), page)
	return "/" + strings.TrimSuffix(filepath.ToSlash(rel), ".md") + "/"
}

var servedAt = regexp.MustCompile(`Web Server is available at http://[^:/]+:([0-9]+)/`)

// waitServed waits until Hugo's server says where serve serves, then
// polls the page until it is served whole.
func (r *run) waitServed(deadline time.Time) ([]byte, error) {
	for time.Now().Before(deadline) {
		if r.url == "" {
			if m := r.lines.match(servedAt); m != nil {
				r.url = fmt.Sprintf("http://127.0.0.1:%s%s", m[1], pageURL(r.root, r.page))
			}
		}
		if r.url != "" {
			if b, err := r.get(); err == nil {
				return b, nil
			}
		}
		if r.lines.exited() {
			return nil, errors.New("evdoc serve exited")
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil, fmt.Errorf("%s not served within %v", r.url, r.start)
}

// get reads the page; an answer that is not 200 or not a whole page is an
// error.
func (r *run) get() ([]byte, error) {
	b, _, err := r.do("GET")
	return b, err
}

// head returns the page's length and modification time as Hugo's server
// answers a HEAD request: a poll that costs neither side a copy of the
// page.
func (r *run) head() (string, error) {
	_, h, err := r.do("HEAD")
	return h, err
}

func (r *run) do(method string) ([]byte, string, error) {
	req, err := http.NewRequest(method, r.url, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Sec-Fetch-Mode", "navigate") // as a browser's reload
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("%s: %s", r.url, resp.Status)
	}
	h := resp.Header.Get("Content-Length") + " " + resp.Header.Get("Last-Modified")
	if method == "GET" && !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</html>")) {
		return nil, "", fmt.Errorf("%s: a partial page (%d bytes, not ending with </html>)", r.url, len(b))
	}
	return b, h, nil
}

// poll returns the page when it may have changed since head: at once
// when its HEAD answer differs, else every tenth call (a change within
// the same second and length); nil otherwise.
func (r *run) poll(head *string, calls *int) ([]byte, error) {
	*calls++
	h, err := r.head()
	if err != nil {
		return nil, err
	}
	if h == *head && *calls%10 != 0 {
		return nil, nil
	}
	*head = h
	return r.get()
}

var bannerErrors = regexp.MustCompile(`id="evdoc-serve-banner"[^>]*data-errors="([1-9][0-9]*)"`)

// measure saves b into file and waits until the terminal printed a
// re-check's summary and the page differs from before; errors tells
// whether the page must then show errors in the banner.
func (r *run) measure(what, file string, b, before []byte, errs bool) (save, []byte, error) {
	sv := save{what: what}
	reloads0 := r.reloads.Load()
	mark := r.lines.count()
	cpu0 := treeCPU(r.pid)
	t0 := r.lines.save(what)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return sv, nil, err
	}
	deadline := t0.Add(r.timeout)
	head, calls := "", 0
	var body []byte
	for body == nil || sv.findings == 0 {
		if time.Now().After(deadline) {
			return sv, nil, fmt.Errorf("no change within %v (findings after %v, page changed: %v)", r.timeout, sv.findings, body != nil)
		}
		if sv.findings == 0 {
			if at, ok := r.lines.find(mark, "evdoc: re-checked "); ok {
				sv.findings = at.Sub(t0)
			}
		}
		if body == nil {
			b, err := r.poll(&head, &calls)
			if err != nil {
				return sv, nil, err
			}
			if b != nil && !bytes.Equal(b, before) {
				sv.page = time.Since(t0)
				body = b
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The page must not change again: a first change that was not the
	// final state (part of the save's files rebuilt) is not the time the
	// page showed the new verdict.
	for end := time.Now().Add(r.settle); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		b, err := r.poll(&head, &calls)
		if err != nil {
			return sv, nil, err
		}
		if b != nil && !bytes.Equal(b, body) {
			sv.page = time.Since(t0)
			sv.states++
			body = b
			end = time.Now().Add(r.settle)
		}
	}
	if got := bannerErrors.Match(body); got != errs {
		return sv, nil, fmt.Errorf("the page changed, but its banner shows errors: %v, want %v", got, errs)
	}
	sv.cpu = treeCPU(r.pid) - cpu0
	sv.reloads = r.reloads.Load() - reloads0
	return sv, body, nil
}

// liveReload opens the live reload socket at serve's port as Hugo's live
// reload script does for the page (its "info" message names the page)
// and counts the reload messages it is sent until ctx is done.
func (r *run) liveReload(ctx context.Context) error {
	u, err := url.Parse(r.url)
	if err != nil {
		return err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return err
	}
	host := "localhost:" + u.Port()
	fmt.Fprintf(c, "GET /livereload HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: c2VydmVlZGl0LWxyLWtleQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", host, host)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		c.Close()
		return err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return errors.New(resp.Status)
	}
	info := fmt.Sprintf(`{"command":"info","plugins":{},"url":"http://%s%s"}`, host, u.Path)
	key := []byte{0x5e, 0x12, 0x7a, 0x33}
	frame := []byte{0x81, 0x80 | byte(len(info))} // shorter than 126 bytes
	frame = append(frame, key...)
	for i := range len(info) {
		frame = append(frame, info[i]^key[i%4])
	}
	if _, err := c.Write(frame); err != nil {
		c.Close()
		return err
	}
	go func() {
		defer crash.Guard()
		<-ctx.Done()
		c.Close()
	}()
	go func() {
		defer crash.Guard()
		for {
			// a server's frame: unmasked
			var h [2]byte
			if _, err := io.ReadFull(br, h[:]); err != nil {
				return
			}
			n := uint64(h[1] & 0x7f)
			switch n {
			case 126:
				var b [2]byte
				if _, err := io.ReadFull(br, b[:]); err != nil {
					return
				}
				n = uint64(b[0])<<8 | uint64(b[1])
			case 127:
				var b [8]byte
				if _, err := io.ReadFull(br, b[:]); err != nil {
					return
				}
				n = 0
				for _, x := range b {
					n = n<<8 | uint64(x)
				}
			}
			if n > 1<<20 {
				return
			}
			p := make([]byte, n)
			if _, err := io.ReadFull(br, p); err != nil {
				return
			}
			if bytes.Contains(p, []byte(`"command":"reload"`)) {
				r.reloads.Add(1)
			}
		}
	}()
	return nil
}

// lineLog keeps serve's log lines with the time each arrived.
type lineLog struct {
	mu    sync.Mutex
	lines []string
	at    []time.Time
	done  bool
	// w, when set, receives each line with the milliseconds since saved
	// (since the start before the first save).
	w     io.Writer
	saved time.Time
}

// save marks a save (what) in the log and returns its time.
func (l *lineLog) save(what string) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.saved = time.Now()
	if l.w != nil {
		fmt.Fprintf(l.w, "%8s  --- %s saved (load %s)\n", "0", what, loadavg())
	}
	return l.saved
}

func (l *lineLog) read(rd io.Reader) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		l.mu.Lock()
		now := time.Now()
		l.lines = append(l.lines, sc.Text())
		l.at = append(l.at, now)
		if l.w != nil {
			fmt.Fprintf(l.w, "%8d  %s\n", now.Sub(l.saved).Milliseconds(), sc.Text())
		}
		l.mu.Unlock()
	}
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
}

func (l *lineLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

func (l *lineLog) exited() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.done
}

// find returns when the first line from index from on starting with
// prefix arrived.
func (l *lineLog) find(from int, prefix string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := from; i < len(l.lines); i++ {
		if strings.HasPrefix(l.lines[i], prefix) {
			return l.at[i], true
		}
	}
	return time.Time{}, false
}

// match returns the submatches of the first line re matches, or nil.
func (l *lineLog) match(re *regexp.Regexp) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if m := re.FindStringSubmatch(line); m != nil {
			return m
		}
	}
	return nil
}

func (l *lineLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines[max(0, len(l.lines)-n):], "\n")
}

// treeCPU returns the user and system time of process pid and every
// process below it (Linux /proc; 0 elsewhere).
func treeCPU(pid int) time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// after the command's closing parenthesis: state ppid … utime(14) stime(15)
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 13 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		parent[p] = pp
		ticks[p] = ut + st
	}
	var sum int64
	for p, t := range ticks {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				sum += t
				break
			}
		}
	}
	return time.Duration(sum) * time.Second / 100 // USER_HZ
}

func states(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; the page changed %d more time(s) before its final state", n)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
