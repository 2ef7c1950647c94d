package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// browser is what a browser with the page open does: it holds Hugo's
// live reload socket open through the front and reads the page again at
// each reload message, which it counts.
type browser struct {
	t    *testing.T
	page string
	mu   sync.Mutex
	n    int
}

func (b *browser) reloads() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// connect opens the live reload socket at the front's port.
func (b *browser) connect(port int) error {
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	host := fmt.Sprintf("localhost:%d", port)
	fmt.Fprintf(c, "GET /livereload HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ZXZkb2Mtc2VydmUtdGVzdA==\r\nSec-WebSocket-Version: 13\r\n\r\n", host, host)
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		c.Close()
		return err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return fmt.Errorf("live reload: %s", resp.Status)
	}
	b.t.Cleanup(func() { c.Close() })
	// The live reload script's "info": the page it shows (a client's
	// frame, masked).
	info := []byte(fmt.Sprintf(`{"command":"info","plugins":{},"url":"http://%s%s"}`, host, strings.TrimPrefix(b.page, fmt.Sprintf("http://127.0.0.1:%d", port))))
	key := []byte{1, 2, 3, 4}
	frame := []byte{0x81, 0x80 | byte(len(info))}
	frame = append(frame, key...)
	for i, c := range info {
		frame = append(frame, c^key[i%4])
	}
	if _, err := c.Write(frame); err != nil {
		return err
	}
	go func() {
		for {
			_, text, err := readFrame(r)
			if err != nil {
				return
			}
			if bytes.Contains(text, []byte(`"command":"reload"`)) {
				b.mu.Lock()
				b.n++
				b.mu.Unlock()
				_, _ = get(b.page)
			}
		}
	}()
	return nil
}

func get(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", url, resp.Status)
	}
	return string(b), nil
}

// TestServeEndToEnd runs evdoc serve with Hugo's server on a small
// project, a browser's live reload socket open on its page through the
// front, and saves: a claim of the page broken and saved back, a value
// of the evidence file changed and saved back, and two saves in one
// burst. After each the served page must come to show the new verdict
// (the banner naming the finding, or no banner), the terminal must have
// printed the re-check's findings by the time the page shows it, the page
// must not change again (one consistent result, also after a burst), and
// the browser must be told to reload once: Hugo rebuilds twice an edit
// (the edit, then the rest of the project: the evidence pages with their
// citations and values), and the second changes no page it shows.
func TestServeEndToEnd(t *testing.T) {
	hugo := os.Getenv("EVDOC_HUGO")
	if hugo == "" || testing.Short() {
		t.Skip("needs Hugo's server (EVDOC_HUGO)")
	}
	// Not a parallel test: beside the package's other tests (at a load
	// average of about 19), an edit's staging took 2.4 s and Hugo
	// rebuilt the open page twice for one save, the banner's data first.
	dir := txtartest.WriteFile(t, "testdata/serve-e2e.txtar")
	for _, d := range []string{"layouts", "themes"} {
		copyTree(t, filepath.Join("..", "..", d), filepath.Join(dir, d))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	out, log := &lockedBuffer{}, &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{
			Root: dir, Hugo: []string{hugo}, Port: port, Out: out, Log: log, Verbose: true,
			Debounce:  250 * time.Millisecond, // the burst's two saves are one batch
			Rechecker: &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()},
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	page := fmt.Sprintf("http://127.0.0.1:%d/docs/p/", port)
	html := ""
	for deadline := time.Now().Add(3 * time.Minute); !strings.Contains(html, "4817"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the page was not served:\n%s", log)
		}
		select {
		case err := <-done:
			t.Fatalf("Run returned %v:\n%s", err, log)
		default:
		}
		html, _ = get(page)
	}
	b := &browser{t: t, page: page}
	if err := b.connect(port); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the first build's staging settled

	pagePath := filepath.Join(dir, "content", "ko", "docs", "p.md")
	evPath := filepath.Join(dir, "evidence", "r", "report.md")
	pageSrc, err := os.ReadFile(pagePath)
	if err != nil {
		t.Fatal(err)
	}
	evSrc, err := os.ReadFile(evPath)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(src []byte, old, new string) []byte {
		if !bytes.Contains(src, []byte(old)) {
			t.Fatalf("%q not in %s", old, src)
		}
		return bytes.Replace(src, []byte(old), []byte(new), 1)
	}
	type write struct {
		file string
		b    []byte
	}
	for _, step := range []struct {
		name   string
		writes []write
		// finding is what the terminal and the banner must name ("":
		// no banner); shows is what the page must show.
		finding, shows string
	}{
		{"claim broken", []write{{pagePath, edit(pageSrc, "[4817회]", "[4818회]")}}, `"4818회" does not match r/r.b.sent`, "4818회"},
		{"claim back", []write{{pagePath, pageSrc}}, "", "4817회"},
		{"evidence changed", []write{{evPath, edit(evSrc, "| B | 4817 |", "| B | 4819 |")}}, `"4817회" does not match r/r.b.sent`, "4819"},
		{"evidence back", []write{{evPath, evSrc}}, "", "4817회"},
		{"burst", []write{{pagePath, edit(pageSrc, "[9건]", "[8건]")}, {pagePath, edit(pageSrc, "[9건]", "[7건]")}}, `"7건" does not match r/r.b.lost`, "7건"},
		{"burst back", []write{{pagePath, pageSrc}}, "", "9건"},
	} {
		t.Run(step.name, func(t *testing.T) {
			before, err := get(page)
			if err != nil {
				t.Fatal(err)
			}
			reloads, outAt, logAt := b.reloads(), len(out.String()), len(log.String())
			start := time.Now()
			for i, w := range step.writes {
				if i > 0 {
					time.Sleep(10 * time.Millisecond)
				}
				if err := os.WriteFile(w.file, w.b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var html string
			for {
				if time.Since(start) > time.Minute {
					t.Fatalf("the page did not change within a minute:\n%s", log.String()[logAt:])
				}
				// what the terminal said before the page is read
				printed, summary := out.String()[outAt:], log.String()[logAt:]
				html, err = get(page)
				if err != nil {
					t.Fatal(err)
				}
				if html == before {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				if !strings.Contains(summary, "evdoc: re-checked ") || step.finding != "" && !strings.Contains(printed, step.finding) {
					t.Fatalf("the page changed before the terminal printed the re-check's findings (%q):\nterminal:\n%s\nlog:\n%s", step.finding, printed, summary)
				}
				break
			}
			t.Logf("page changed %v after the save", time.Since(start).Round(time.Millisecond))
			// Hugo's rebuild of the whole staging, and the reload it asks.
			time.Sleep(4 * time.Second)
			final, err := get(page)
			if err != nil {
				t.Fatal(err)
			}
			if final != html {
				t.Errorf("the page changed again after its first change (not one consistent result):\nfirst:\n%s\nthen:\n%s", html, final)
			}
			banner := strings.Contains(final, `id="evdoc-serve-banner"`)
			switch {
			case step.finding == "" && banner:
				t.Errorf("the banner is still shown:\n%s", final)
			case step.finding != "" && !banner:
				t.Errorf("no banner:\n%s", final)
			case step.finding != "" && !strings.Contains(final, strings.ReplaceAll(step.finding, `"`, "&#34;")):
				t.Errorf("the banner does not name %s:\n%s", step.finding, final)
			}
			if !strings.Contains(final, step.shows) {
				t.Errorf("the page does not show %q:\n%s", step.shows, final)
			}
			if n := b.reloads() - reloads; n != 1 {
				t.Errorf("the browser was told to reload %d time(s), want 1:\n%s", n, log.String()[logAt:])
			}
		})
	}
}

// copyTree copies the regular files under from to to.
func copyTree(t *testing.T, from, to string) {
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
