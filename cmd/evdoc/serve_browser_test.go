package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestServeLiveReload opens the served Korean page in headless Debian
// chromium (EVDOC_CHROMIUM names another binary; skipped without one,
// failed under CI=true), breaks a claim and expects the banner to appear
// in the open page — reloaded by Hugo's live reload, not by the test —
// then fixes it and expects the banner gone; each save reloads the page
// once.
func TestServeLiveReload(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo's server and chromium")
	}
	exe := os.Getenv("EVDOC_CHROMIUM")
	if exe == "" {
		for _, name := range []string{"chromium", "chromium-browser"} {
			if p, err := exec.LookPath(name); err == nil {
				exe = p
				break
			}
		}
	}
	if exe == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium not found on PATH; .ci/run installs it (apt-get install chromium)")
		}
		t.Skip("chromium not found (apt-get install chromium, or set EVDOC_CHROMIUM)")
	}
	r := startServe(t)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-background-networking", true))
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	defer func() { cancelT(); cancelC(); cancelA() }()
	// Every document loaded in the tab counts itself, for the reloads
	// an edit makes.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `sessionStorage.evdocLoads = String(Number(sessionStorage.evdocLoads || 0) + 1)`})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	loads := func() int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Number(sessionStorage.evdocLoads || 0)`))
		if err != nil {
			return -1
		}
		return n
	}
	// reloadedOnce: the edit reloaded the open page once (Hugo's rebuild
	// of the rest of the project after the edit changes nothing the page
	// shows, and serve's port holds its reload back), also after the
	// whole staging's rebuild (a few seconds on).
	reloadedOnce := func(before int) {
		t.Helper()
		time.Sleep(4 * time.Second)
		if n := loads(); n != before+1 {
			t.Errorf("the open page loaded %d time(s) after the save, want 1\n%s", n-before, r.output())
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(r.page), chromedp.WaitVisible(chromedp.CSS("main"))); err != nil {
		t.Fatalf("opening %s: %v\n%s", r.page, err, r.output())
	}
	// A marker set in the open document: a live reload replaces the
	// document, so the banner must come with the marker gone.
	banner := func() (has, sameDoc bool) {
		res, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[!!document.getElementById("evdoc-serve-banner"), window.evdocTestMarker === true]`))
		if err != nil || len(res) != 2 {
			return false, true // navigating: ask again
		}
		return res[0], res[1]
	}
	// Hugo's live reload script connects its WebSocket after the page
	// loaded, and one rebuild can reload the page more than once; a
	// rebuild while no page listens reloads nothing. settle waits (up to
	// 10 s) until the open page is connected and has not been replaced
	// for a second, and marks it, before each save.
	settle := func() {
		for start := time.Now(); time.Since(start) < 10*time.Second; {
			_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.evdocTestMarker = true`))
			time.Sleep(time.Second)
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.evdocTestMarker === true && !!(window.LiveReload && LiveReload.connector && LiveReload.connector.socket && LiveReload.connector.socket.readyState === 1)`))
			if err == nil && ok {
				return
			}
		}
		t.Fatalf("the open page did not settle with live reload connected\n%s", r.output())
	}
	settle()
	if has, _ := banner(); has {
		t.Fatal("banner on a clean project")
	}
	p := filepath.Join(r.dir, "content", "ko", "docs", "p.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	before := loads()
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), "[2905회]", "[2906회]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	took := waitFor(t, "banner in the open page", serveBound, r.exited, func() bool {
		has, same := banner()
		return has && !same
	}, r.output)
	t.Logf("banner in the open page %v after the save (live reload)", took)
	reloadedOnce(before)
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("evdoc-serve-banner").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "2906회") || !strings.Contains(text, "claim-mismatch") {
		t.Errorf("banner text %q lacks the finding", text)
	}
	settle()
	before = loads()
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	took = waitFor(t, "banner gone from the open page", serveBound, r.exited, func() bool {
		has, same := banner()
		return !has && !same
	}, func() string {
		has, same := banner()
		st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(!!window.LiveReload) + " " + (window.LiveReload && LiveReload.connector && LiveReload.connector.socket ? LiveReload.connector.socket.readyState : "no socket")`))
		return fmt.Sprintf("in the open page: banner %v, same document %v, live reload %s\n%s", has, same, st, r.output())
	})
	t.Logf("banner gone from the open page %v after the fix", took)
	reloadedOnce(before)
}
