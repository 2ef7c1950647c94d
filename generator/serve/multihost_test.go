package serve

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestServeMultihost: a multihost site (each language with a baseURL of
// its own) is served by Hugo's server on one port per language, the
// first the port serve was given; both languages' pages are served, and
// a claim broken in the ko page shows in the banner of both, then goes
// when the page is saved back. (Behind the front, on one port, Hugo
// refuses such a site: --appendPort=false is not supported in
// multihost mode.)
func TestServeMultihost(t *testing.T) {
	hugo := os.Getenv("EVDOC_HUGO")
	if hugo == "" || testing.Short() {
		t.Skip("needs Hugo's server (EVDOC_HUGO)")
	}
	t.Parallel() // a project, ports and a Hugo of its own
	dir := txtartest.WriteFile(t, "testdata/serve-e2e.txtar")
	for _, d := range []string{"layouts", "themes"} {
		copyTree(t, filepath.Join("..", "..", d), filepath.Join(dir, d))
	}
	cfg := filepath.Join(dir, "hugo.toml")
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for lang, host := range map[string]string{"ko": "ko.lab.example", "ja": "ja.lab.example"} {
		head := "[languages." + lang + "]\n"
		if !bytes.Contains(src, []byte(head)) {
			t.Fatalf("no %q in hugo.toml", head)
		}
		src = bytes.Replace(src, []byte(head), []byte(head+"  baseURL = \"https://"+host+"/\"\n"), 1)
	}
	if err := os.WriteFile(cfg, src, 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePortPair(t)
	out, log := &lockedBuffer{}, &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{
			Root: dir, Hugo: []string{hugo}, Bind: "127.0.0.1", Port: port, Out: out, Log: log,
			Rechecker: &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()},
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	// Hugo prints each language's address: "Web Server is available at
	// http://localhost:PORT/ (bind address 127.0.0.1) ko".
	addr := regexp.MustCompile(`Web Server is available at (http://\S+) \(bind address \S+\) (ko|ja)`)
	urls := map[string]string{}
	for deadline := time.Now().Add(3 * time.Minute); len(urls) < 2; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Hugo's server did not print both languages' addresses:\n%s", log)
		}
		select {
		case err := <-done:
			t.Fatalf("Run returned %v:\n%s", err, log)
		default:
		}
		for _, m := range addr.FindAllStringSubmatch(log.String(), -1) {
			urls[m[2]] = m[1]
		}
	}
	if !strings.Contains(log.String(), multihostNotice) {
		t.Errorf("serve did not say how it serves a multihost site:\n%s", log)
	}
	if want := fmt.Sprintf("http://localhost:%d/", port); urls["ko"] != want {
		t.Errorf("ko served at %s; want %s (the port serve was given)", urls["ko"], want)
	}
	if urls["ja"] == urls["ko"] {
		t.Fatalf("ko and ja at one address %s", urls["ko"])
	}
	pages := map[string]string{"ko": urls["ko"] + "docs/p/", "ja": urls["ja"] + "docs/p/"}
	shows := map[string]string{"ko": "4817회", "ja": "4817回"}
	// waitFor reads lang's page until it contains want (and, with
	// banner, the banner naming the finding; without, no banner).
	waitFor := func(lang, want, finding string) {
		t.Helper()
		html := ""
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
			html, _ = get(pages[lang])
			banner := strings.Contains(html, `id="evdoc-serve-banner"`)
			if strings.Contains(html, want) && (finding == "" && !banner || finding != "" && banner && strings.Contains(html, strings.ReplaceAll(finding, `"`, "&#34;"))) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %s does not show %q (finding %q) within a minute:\n%s\nlog:\n%s", lang, pages[lang], want, finding, html, log)
			}
		}
	}
	for _, lang := range []string{"ko", "ja"} {
		waitFor(lang, shows[lang], "")
	}
	pagePath := filepath.Join(dir, "content", "ko", "docs", "p.md")
	pageSrc, err := os.ReadFile(pagePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pagePath, bytes.Replace(pageSrc, []byte("[4817회]"), []byte("[4818회]"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	const finding = `"4818회" does not match r/r.b.sent`
	waitFor("ko", "4818회", finding)
	waitFor("ja", shows["ja"], finding)
	if !strings.Contains(out.String(), finding) {
		t.Errorf("the terminal did not print %s:\n%s", finding, out)
	}
	if err := os.WriteFile(pagePath, pageSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("ko", shows["ko"], "")
	waitFor("ja", shows["ja"], "")
}

// freePortPair returns a port p on 127.0.0.1 such that p and p+1 are
// free now (Hugo's server takes one port per language of a multihost
// site, from the given one up).
func freePortPair(t *testing.T) int {
	t.Helper()
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l2, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p+1))
		l.Close()
		if err == nil {
			l2.Close()
			return p
		}
	}
	t.Fatal("no two free ports in a row on 127.0.0.1")
	return 0
}
