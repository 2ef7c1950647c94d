// Package browsertest opens sites built through generator/site in
// headless Chromium (chromedp): the reference site as a reader sees it
// (popovers, landings, layout, dark mode, accessibility, links) and the
// sites of testdata/themes, whose themes reproduce popular Hugo themes'
// mechanisms.
package browsertest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/committedfigures"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// reference is the reference site built once for TestBrowser: a copy of
// the project with the ja VirtualService/DestinationRule page
// untranslated (so the site has a fallback page), built under baseURL
// "/".
var reference sitetest.Shared

// builtReference returns the project directory of the shared build,
// building it on first use.
func builtReference(t *testing.T) string {
	t.Helper()
	return reference.Dir(t, func(t testing.TB, dir string) {
		sitetest.CopyProjectTo(t, dir)
		sitetest.Untranslate(t, dir)
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		// The committed figures, not drawn again: the tests read a figure
		// only as the page shows it (committedfigures).
		s.FigureCache = committedfigures.Cache(t, s)
		if err := site.Build(context.Background(), s, buildOptions(t, nil)); err != nil {
			t.Fatal(err)
		}
	})
}

// build loads the project in dir and builds it into public/ with the
// pinned Hugo, writing the build's log to log when it is not nil.
func build(t testing.TB, dir string, log *strings.Builder) error {
	t.Helper()
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return site.Build(context.Background(), s, buildOptions(t, log))
}

// buildOptions builds into public/ with the pinned Hugo, writing the
// build's log to log when it is not nil.
func buildOptions(t testing.TB, log *strings.Builder) site.BuildOptions {
	opt := site.BuildOptions{Out: "public", Hugo: sitetest.HugoCommand(t), Check: check.DefaultOptions()}
	if log != nil {
		opt.Log = log
	}
	return opt
}

// parallel is how many of the package's tests run at once unless
// -test.parallel says otherwise: each holds a Chromium tab and waits on
// it. On the 2-core machine (2026-12-07, docs/guide/testing.md) two tabs
// at a time took about as long as six (116 and 129 s against 123 and
// 123 s, `go test -race -count=1` at a load average of 1.2–12) with less
// CPU time, and six failed two runs of four ("Cannot find context with
// specified id" from a tab's CDP call), two none of three.
const parallel = 2

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(parallel)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	code := m.Run()
	if chromium.stop != nil {
		chromium.stop()
	}
	reference.Remove()
	os.Exit(code)
}

// chromiumPath finds a headless-capable Chromium: $EVDOC_CHROMIUM, else
// Debian's chromium on PATH. Under CI (CI=true) a missing browser fails
// the test instead of skipping it: .ci/run installs chromium.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("EVDOC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found on PATH; .ci/run installs it (apt-get install chromium)")
	}
	t.Skip("browser tests skipped: chromium not found (apt-get install chromium, or set EVDOC_CHROMIUM)")
	return ""
}

// axeScript returns axe-core's browser build: $EVDOC_AXE, else
// node_modules/axe-core/axe.min.js in the repository or .evdoc/npm (where
// .ci/run installs it), or "" when none is there.
func axeScript(t *testing.T) string {
	cands := []string{os.Getenv("EVDOC_AXE"),
		filepath.Join(sitetest.Root(t), "node_modules", "axe-core", "axe.min.js"),
		filepath.Join(sitetest.Root(t), ".evdoc", "npm", "node_modules", "axe-core", "axe.min.js")}
	for _, p := range cands {
		if p == "" {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			return string(b)
		}
	}
	return ""
}

// artifactDir is where the browser tests save screenshots:
// $EVDOC_TEST_ARTIFACTS/browser, else .evdoc/test-artifacts/browser in
// the repository.
func artifactDir(t *testing.T) string {
	dir := os.Getenv("EVDOC_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(sitetest.Root(t), ".evdoc", "test-artifacts")
	}
	dir = filepath.Join(dir, "browser")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browserSession is one tab of the shared Chromium with a console/error
// log.
type browserSession struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func (b *browserSession) addError(s string) {
	b.mu.Lock()
	b.errors = append(b.errors, s)
	b.mu.Unlock()
}

// takeErrors returns and clears the console errors, uncaught exceptions
// and failed loads logged since the last call.
func (b *browserSession) takeErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.errors
	b.errors = nil
	return e
}

// chromium is the one headless Chromium the package's tests share,
// started by the first test that asks for it (sharedChromium) and stopped
// by TestMain. Each test opens its own tab in a browser context of its
// own (newBrowser), so no cookie, storage or cache passes from one test
// to another; one browser start serves them all.
var chromium struct {
	once sync.Once
	ctx  context.Context // the browser's first tab; nil until it started
	err  error
	stop func()
}

// sharedChromium returns the context of the shared browser, starting it
// on first use; it skips or fails t as chromiumPath does when there is
// no browser, and fails every test when it could not start.
func sharedChromium(t *testing.T) context.Context {
	t.Helper()
	exe := chromiumPath(t)
	chromium.once.Do(func() {
		profile, err := os.MkdirTemp("", "evdoc-browsertest-")
		if err != nil {
			chromium.err = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(exe),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(profile),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.WindowSize(1280, 900),
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelC := chromedp.NewContext(actx)
		chromium.stop = func() { cancelC(); cancelA(); os.RemoveAll(profile) }
		// No time bound here: it would close the browser when it ends
		// (chromedp.NewContext); each test's tab has its own.
		if err := chromedp.Do(ctx); err != nil {
			chromium.err = fmt.Errorf("starting chromium %s: %v", exe, err)
			return
		}
		chromium.ctx = ctx
	})
	if chromium.err != nil {
		t.Fatal(chromium.err)
	}
	return chromium.ctx
}

// newBrowser opens a tab of the shared browser in a new browser context
// (an incognito profile of its own) for t, closed when t ends, and logs
// its console errors, uncaught exceptions and failed loads.
func newBrowser(t *testing.T) *browserSession {
	t.Helper()
	ctx, cancelC := chromedp.NewContext(sharedChromium(t), chromedp.WithNewBrowserContext())
	// A generous bound: it only keeps a hung chromium from hanging the
	// test run. On a loaded 2-core machine (CI beside other jobs) the
	// eight scenarios took over 90 s.
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC() })
	b := &browserSession{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab of chromium: %v", err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.addError(fmt.Sprintf("console %s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
			}
		}
	}()
	return b
}

// do runs steps in b's tab and fails t, naming what, when they fail.
func (b *browserSession) do(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// parallelTab makes t run beside its sibling subtests (t.Parallel) in a
// tab of its own (newBrowser: a browser context of its own, its
// viewport, touch and media emulation its own), so that their waits for
// Chromium overlap. Focus emulation is on: a headless page has no window
// focus, and without it focus() fires no focus events (the script
// places a popover on focusin); the page is told it has focus, as a
// reader's browser window does, whichever tab is in front.
func parallelTab(t *testing.T) *browserSession {
	t.Helper()
	t.Parallel()
	b := newBrowser(t)
	b.do(t, "focus emulation", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	}))
	return b
}

// pageReport is what check reads from a loaded page.
type pageReport struct {
	ScrollWidth, InnerWidth int
	Wide                    []string
	Images                  []struct {
		Src   string
		Width int
	}
}

// TestBrowser opens the built reference site in headless Chromium: the ko
// and ja Q&A pages at 1280 and 390 px (no horizontal overflow, every
// figure loaded, no console error, accessibility scan), a plain and a
// derived claim's popover and the highlighted raw line each lands on,
// the language switch, what a reader sees on a phone, in tables and in
// dark mode (readerView), the quotation marks of the built pages
// (checkQuotes), and every internal link of the visited pages. One
// Hugo build serves every subtest; the subtests under "tabs" run side
// by side, each in a tab of its own (parallelTab), and "links" follows
// the links they saw once they have all ended. Screenshots go to
// artifactDir.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo and Chromium")
	}
	// Beside TestReaderHand and TestBuildHostThemes: each has a tab of
	// its own in the shared browser, and Hugo's and Chromium's waits
	// overlap.
	t.Parallel()
	// The build first: newBrowser's time bound is for the browser's work.
	dir := builtReference(t)
	public := filepath.Join(dir, "public")
	// hosts holds pages of the test's own (a host theme's page), served
	// beside the built site but kept out of the build other tests share.
	hosts := t.TempDir()
	files := http.FileServer(http.Dir(public))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// a page asked for with ?nopop names popover files the site
		// does not have (each a 404), as a page whose popover files
		// fail to load
		if _, ok := r.URL.Query()["nopop"]; ok {
			b, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(path.Clean("/"+r.URL.Path)), "index.html"))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(bytes.ReplaceAll(b, []byte("/popovers.js"), []byte("/popovers-gone.js")))
			return
		}
		if name := filepath.Join(hosts, filepath.FromSlash(path.Clean("/"+r.URL.Path))); r.URL.Path != "/" {
			if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
				http.ServeFile(w, r, name)
				return
			}
		}
		files.ServeHTTP(w, r)
	}))
	// Closed when the parallel subtests below have ended.
	t.Cleanup(srv.Close)
	shots := artifactDir(t)
	t.Logf("screenshots in %s", shots)
	axe := axeScript(t)
	if axe == "" {
		t.Log("accessibility scan skipped: axe-core not found (npm install axe-core, or set EVDOC_AXE)")
		if os.Getenv("CI") == "true" {
			t.Error("axe-core not installed; .ci/run installs it from npm")
		}
	}
	// the internal links of every page check saw, for "links"
	var visitedMu sync.Mutex
	visited := map[string]bool{}
	loaded := chromedp.Poll[chromedp.Void](`document.readyState === "complete" && Array.from(document.images).every(i => i.complete)`, chromedp.WithPollingTimeout(15*time.Second))

	check := func(t *testing.T, b *browserSession, name string) {
		t.Helper()
		ctx, do := b.ctx, b.do
		do(t, name, loaded)
		res, err := chromedp.Run(ctx, chromedp.Evaluate[pageReport](`(() => {
			const de = document.documentElement;
			const wide = [];
			for (const el of document.querySelectorAll("body *")) {
				const r = el.getBoundingClientRect();
				if (r.right > window.innerWidth + 1 && el.offsetParent !== null && !el.closest(".evidence-raw, .table-wrap, table, pre, .ev-pop")) wide.push(el.tagName + "." + el.className);
			}
			return {ScrollWidth: de.scrollWidth, InnerWidth: window.innerWidth, Wide: wide.slice(0, 5),
				Images: Array.from(document.images).map(i => ({Src: i.currentSrc || i.src, Width: i.naturalWidth}))};
		})()`))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.ScrollWidth > res.InnerWidth {
			t.Errorf("%s: horizontal overflow: page %d px wide in a %d px viewport (widest: %v)", name, res.ScrollWidth, res.InnerWidth, res.Wide)
		}
		for _, img := range res.Images {
			if img.Width == 0 {
				t.Errorf("%s: image %s did not load (naturalWidth 0)", name, img.Src)
			}
		}
		shoot := func(file string, a chromedp.Action[[]byte]) {
			if buf, err := chromedp.Run(ctx, a); err != nil {
				t.Errorf("%s: screenshot: %v", name, err)
			} else if err := os.WriteFile(filepath.Join(shots, file), buf, 0o644); err != nil {
				t.Error(err)
			}
		}
		shoot(name+".png", chromedp.CaptureScreenshot())
		for _, el := range []string{"figure.ev-figure", ".table-wrap"} {
			if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("`+el+`").length`)); n > 0 {
				shoot(name+"-"+strings.Trim(strings.SplitN(el, ".", 3)[1], ".")+".png", chromedp.Screenshot(chromedp.CSS(el)))
			}
		}
		if axe != "" {
			do(t, name+": injecting axe-core", chromedp.Evaluate[chromedp.Void](axe))
			out, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "best-practice"]}}).then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))))`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Errorf("%s: axe: %v", name, err)
			} else if out != "[]" {
				t.Errorf("%s: accessibility violations: %s", name, out)
			}
		}
		links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("a[href], link[href], img[src], source[srcset], script[src]")).map(e => e.href || e.src || new URL(e.getAttribute("srcset"), location.href).href)`))
		if err != nil {
			t.Fatal(err)
		}
		visitedMu.Lock()
		for _, l := range links {
			u, err := url.Parse(l)
			if err != nil || "http://"+u.Host != srv.URL {
				continue
			}
			u.Fragment = ""
			visited[u.String()] = true
		}
		visitedMu.Unlock()
		for _, e := range b.takeErrors() {
			t.Errorf("%s: %s", name, e)
		}
	}

	pages := []struct{ lang, path string }{
		{"ko", "/docs/istio/egress/gslb-dns-flip-qa/"},
		{"ja", "/ja/docs/istio/egress/gslb-dns-flip-qa/"},
	}
	// The subtests that open pages run side by side, each in a tab of
	// its own (parallelTab); "links" follows every link they saw.
	t.Run("tabs", func(t *testing.T) {
		for _, width := range []int64{1280, 390} {
			for _, p := range pages {
				name := fmt.Sprintf("qa-%s-%d", p.lang, width)
				t.Run(name, func(t *testing.T) {
					b := parallelTab(t)
					b.do(t, name, chromedp.EmulateViewport(width, 900), chromedp.Navigate(srv.URL+p.path))
					check(t, b, name)
				})
			}
		}

		// A claim: keyboard focus shows its popover; following it lands on a
		// highlighted raw line.
		type popover struct{ Display, Text, Href string }
		type landing struct {
			ID, Class, Background, Text string
			InView                      bool
			Rect                        []float64
		}
		follow := func(t *testing.T, b *browserSession, name, sel string, derived bool) {
			t.Helper()
			ctx, do := b.ctx, b.do
			do(t, name, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+pages[0].path), loaded,
				chromedp.Focus(chromedp.CSS(sel)))
			pop, err := chromedp.Run(ctx, chromedp.Evaluate[popover](`(() => { const a = document.activeElement; const p = a.parentNode.querySelector(".ev-pop");
			return {Display: getComputedStyle(p).display, Text: p.innerText, Href: a.href}; })()`))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if pop.Display == "none" {
				t.Errorf("%s: popover hidden while the claim has keyboard focus", name)
			}
			if !strings.Contains(pop.Text, "evidence/") || !strings.Contains(pop.Text, ":") {
				t.Errorf("%s: popover lacks the source file:line: %q", name, pop.Text)
			}
			if derived && !(strings.Contains(pop.Text, " − ") && strings.Contains(pop.Text, " = ")) {
				t.Errorf("%s: popover of a derived claim lacks its derivation: %q", name, pop.Text)
			}
			if buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
				_ = os.WriteFile(filepath.Join(shots, name+"-popover.png"), buf, 0o644)
			}
			do(t, name+": following the claim", chromedp.Click(chromedp.CSS(sel)),
				chromedp.WaitVisible(chromedp.CSS(".evidence-raw")),
				chromedp.Poll[chromedp.Void](`document.querySelector(":target") !== null`, chromedp.WithPollingTimeout(10*time.Second)))
			// The link names the cited token (#L12-34) inside its line.
			line, err := chromedp.Run(ctx, chromedp.Evaluate[landing](`(() => { const t = document.querySelector(":target"), l = t.closest(".line"); const r = l.getBoundingClientRect();
			return {ID: t.id, Class: l.className, Background: getComputedStyle(l).backgroundColor, Text: l.innerText,
				InView: r.top >= -1 && r.bottom <= window.innerHeight + 1, Rect: [r.top, r.bottom, window.innerHeight, window.scrollY]}; })()`))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !regexp.MustCompile(`^L\d+-\d+$`).MatchString(line.ID) || !strings.Contains(line.Class, "line") {
				t.Errorf("%s: landed on %q (class %q), not a raw line", name, line.ID, line.Class)
			}
			if line.Background == "rgba(0, 0, 0, 0)" || line.Background == "" {
				t.Errorf("%s: the target line is not highlighted", name)
			}
			if !line.InView {
				t.Errorf("%s: the target line %s is not scrolled into view (top, bottom, viewport, scrollY: %v)", name, line.ID, line.Rect)
			}
			if !strings.HasSuffix(pop.Href, "#"+line.ID) {
				t.Errorf("%s: claim href %s, landed on #%s", name, pop.Href, line.ID)
			}
			check(t, b, name+"-evidence")
		}
		t.Run("plain-claim", func(t *testing.T) {
			follow(t, parallelTab(t), "plain-claim", `.ev:not(:has(.ev-der)) > a.ev-claim`, false)
		})
		t.Run("derived-claim", func(t *testing.T) {
			follow(t, parallelTab(t), "derived-claim", `.ev:has(.ev-der) > a.ev-claim`, true)
		})

		// A claim repeating a value its page cited before (same destination
		// and precision) has its popover body from the same popover file as
		// the first: once evdoc.js has run, its popover, opened by keyboard
		// focus, on a desktop and on a 390 px phone, shows the same text as
		// the first's, and the description its link names
		// (aria-describedby) is its own, inside its popover.
		t.Run("repeated-claim", func(t *testing.T) {
			b := parallelTab(t)
			ctx, do := b.ctx, b.do
			type repeat struct {
				N                      int
				First, Repeat, Display string
				OwnDesc                bool
			}
			for _, width := range []int64{1280, 390} {
				do(t, "repeated claim", chromedp.EmulateViewport(width, 900), chromedp.Navigate(srv.URL+"/docs/istio/egress/gslb-dns-flip-qa/"), loaded)
				got, err := chromedp.Run(ctx, chromedp.Evaluate[repeat](`(() => {
				const seen = {}, reps = [];
				for (const a of document.querySelectorAll(".ev > a.ev-claim")) {
					const k = a.getAttribute("data-ev"), p = a.parentNode.querySelector(":scope > .ev-pop");
					if (seen[k]) reps.push([seen[k], p]); else seen[k] = p;
				}
				if (!reps.length) return {N: 0};
				const [first, rep] = reps[reps.length - 1];
				const open = p => { const a = p.parentNode.querySelector(":scope > a.ev-claim"); a.scrollIntoView({block: "center"}); a.focus(); return [getComputedStyle(p).display, p.innerText, a]; };
				const [, f] = open(first);
				const [d, r, a] = open(rep);
				const desc = document.getElementById(a.getAttribute("aria-describedby"));
				return {N: reps.length, First: f, Repeat: r, Display: d, OwnDesc: !!desc && rep.contains(desc) && desc.textContent !== ""};
			})()`))
				if err != nil {
					t.Fatal(err)
				}
				if got.N == 0 {
					t.Fatal("the Q&A page has no repeated claim; the test needs one")
				}
				if got.Display == "none" {
					t.Errorf("%d px: the repeated claim's popover is hidden while its claim has keyboard focus", width)
				}
				if got.Repeat != got.First || !strings.Contains(got.Repeat, "evidence/") {
					t.Errorf("%d px: the repeated claim's popover shows %q; the first's %q", width, got.Repeat, got.First)
				}
				if !got.OwnDesc {
					t.Errorf("%d px: the repeated claim's link is not described by the description in its own popover", width)
				}
			}
		})

		// A page whose popover files fail to load (here each a 404): every
		// claim still links to its raw line, and its popover, opened by
		// keyboard focus, says that it could not be loaded (in the page's
		// language), never an empty popover; the link's description is that
		// sentence.
		t.Run("popover-file-fails", func(t *testing.T) {
			b := parallelTab(t)
			ctx, do := b.ctx, b.do
			type failed struct {
				N, Failed, Empty          int
				Href, Text, Display, Desc string
			}
			do(t, "popover file fails", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+"/docs/istio/egress/gslb-dns-flip-qa/?nopop"), loaded)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[failed](`(() => {
			const pops = Array.from(document.querySelectorAll(".ev > .ev-pop"));
			const a = document.querySelector(".ev > a.ev-claim"), p = a.parentNode.querySelector(":scope > .ev-pop");
			a.scrollIntoView({block: "center"}); a.focus();
			const desc = document.getElementById(a.getAttribute("aria-describedby"));
			return {N: pops.length, Failed: pops.filter(p => p.classList.contains("ev-pop-failed")).length, Empty: pops.filter(p => p.textContent.trim() === "").length,
				Href: a.href, Text: p.innerText, Display: getComputedStyle(p).display, Desc: desc ? desc.textContent : ""};
		})()`))
			if err != nil {
				t.Fatal(err)
			}
			if got.N == 0 || got.Failed != got.N || got.Empty != 0 {
				t.Errorf("%d popovers, %d say they could not be loaded, %d empty", got.N, got.Failed, got.Empty)
			}
			if !strings.Contains(got.Href, "/evidence/") || !strings.Contains(got.Href, "#L") {
				t.Errorf("the claim does not link its raw line: %s", got.Href)
			}
			if got.Display == "none" || !strings.Contains(got.Text, "불러오지 못했습니다") || got.Desc != got.Text {
				t.Errorf("the focused claim's popover (%s) shows %q, its description %q; want the sentence that it could not be loaded", got.Display, got.Text, got.Desc)
			}
			// the browser's own messages for the missing files, and nothing else
			for _, e := range b.takeErrors() {
				if !strings.Contains(e, "popovers-gone.js") {
					t.Errorf("console: %s", e)
				}
			}
		})

		t.Run("switch-language", func(t *testing.T) {
			b := parallelTab(t)
			ctx, do := b.ctx, b.do
			do(t, "switch", chromedp.Navigate(srv.URL+pages[0].path), loaded,
				chromedp.Click(chromedp.CSS(`nav.languages a[hreflang="ja-JP"]`)),
				chromedp.WaitVisible(chromedp.CSS(`html[lang="ja-JP"] main`)))
			loc, err := chromedp.Run(ctx, chromedp.Location())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(loc, pages[1].path) {
				t.Errorf("language switch went to %s, want %s", loc, pages[1].path)
			}
			// The Japanese evidence viewer switches back to Korean too.
			do(t, "ja evidence page", chromedp.EmulateViewport(390, 900), chromedp.Navigate(srv.URL+"/ja/evidence/dns-passthrough-tcp/report-md/"),
				chromedp.WaitVisible(chromedp.CSS(`nav.languages a[hreflang="ko-KR"]`)))
			check(t, b, "evidence-ja-390")
		})

		// What a reader sees on phones, in tables and in dark mode, and the
		// built pages' quotation marks, on the same build.
		readerView(t, srv.URL, hosts, shots)
		t.Run("quotes", func(t *testing.T) {
			t.Parallel()
			checkQuotes(t, public)
		})
	})

	t.Run("links", func(t *testing.T) {
		client := srv.Client()
		n := 0
		for u := range visited {
			resp, err := client.Get(u)
			if err != nil {
				t.Error(err)
				continue
			}
			resp.Body.Close()
			n++
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %s", u, resp.Status)
			}
		}
		if n < 20 {
			t.Errorf("only %d internal links seen", n)
		}
	})
}
