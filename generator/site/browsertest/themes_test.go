package browsertest

import (
	"bytes"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestBuildHostThemes builds each testdata/themes/*.txtar site, whose own
// theme reproduces what a popular Hugo theme does (hugo-book's inject
// partials and search index, PaperMod's extend partials, Hextra's and
// Congo's hooks called with other contexts, i18n in YAML, JSON and TOML,
// content directories outside content/, enableGitInfo, a theme imported
// as a vendored Hugo Module), with evdoc's component first in its theme
// list: `evdoc build` into public/ and plain
// hugo into plain/ must both succeed, unless the archive's want-error
// member holds text evdoc build's error must contain (then plain hugo
// still succeeds). The project is a git repository with one commit. Each
// line of the archive's assert member is a check on a built file:
//
//	FILE contains TEXT
//	FILE lacks TEXT
//	FILE count N TEXT
//	FILE absent -
//	DIR names-files URL
//
// names-files: every href in the HTML files under DIR that starts with URL
// names, after URL, a file or directory the project's repository has (an
// edit link never names a file only evdoc's staged project holds).
//
// With Chromium, the page named by the archive's browse member (its first
// line: a path of evdoc build's output) is opened: its first claim's
// popover is hidden until the claim has focus, then shown, and, when the
// member has a line "body COLOUR", the page's body keeps the theme's
// background colour (as getComputedStyle writes it). A line "visible
// PAGE SELECTOR" opens PAGE at 1280 px and checks that an element
// matching SELECTOR is shown there (the theme's sidebar on an evidence
// page).
func TestBuildHostThemes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Parallel() // its own sites, and a tab of its own (newBrowser)
	var b *browserSession
	if haveChromium() {
		b = newBrowser(t)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "themes", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/themes archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			member := func(name string) (string, bool) {
				for _, f := range ar.Files {
					if f.Name == name {
						return string(f.Data), true
					}
				}
				return "", false
			}
			dir := txtartest.Write(t, ar)
			sitetest.CopyTree(t, filepath.Join(sitetest.Root(t), "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
			for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=lab", "-c", "user.email=lab@example.org", "commit", "-q", "-m", "lab pages"}} {
				if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			var log strings.Builder
			err = build(t, dir, &log)
			wantErr, failing := member("want-error")
			switch {
			case failing && err == nil:
				t.Errorf("evdoc build succeeded; want an error containing %q", strings.TrimSpace(wantErr))
			case failing && !strings.Contains(err.Error(), strings.TrimSpace(wantErr)):
				t.Errorf("evdoc build: %v\nwant an error containing %q", err, strings.TrimSpace(wantErr))
			case !failing && err != nil:
				t.Fatalf("evdoc build: %v\n%s", err, log.String())
			}
			hugo := sitetest.HugoCommand(t)
			out, err := exec.Command(hugo[0], append(hugo[1:], "--source", dir, "--destination", filepath.Join(dir, "plain"), "--logLevel", "warn")...).CombinedOutput()
			if err != nil {
				t.Fatalf("plain hugo: %v\n%s", err, out)
			}
			if browse, ok := member("browse"); ok && b != nil && !failing {
				lines := strings.Split(strings.TrimSpace(browse), "\n")
				body := ""
				for _, l := range lines[1:] {
					switch f := strings.SplitN(l, " ", 3); {
					case f[0] == "body" && len(f) >= 2:
						body = strings.TrimPrefix(l, "body ")
					case f[0] == "visible" && len(f) == 3:
						browseVisible(t, b, filepath.Join(dir, "public"), f[1], f[2])
					case f[0] == "fits" && len(f) == 3:
						browseFits(t, b, filepath.Join(dir, "public"), f[1], f[2])
					case f[0] == "style" && len(f) == 3:
						browseStyle(t, b, filepath.Join(dir, "public"), f[1], f[2])
					default:
						t.Fatalf("browse: %q; want body COLOUR, visible PAGE SELECTOR, fits PAGE WIDTH or style PAGE SELECTOR PROPERTY VALUE", l)
					}
				}
				browseClaim(t, b, filepath.Join(dir, "public"), lines[0], body)
			}
			assert, _ := member("assert")
			for i, line := range strings.Split(strings.TrimSpace(assert), "\n") {
				if line == "" {
					continue
				}
				fields := strings.SplitN(line, " ", 3)
				if len(fields) < 3 {
					t.Fatalf("assert:%d: %q; want FILE contains|lacks|count … TEXT", i+1, line)
				}
				if fields[1] == "names-files" {
					assertNamesFiles(t, dir, fields[0], fields[2])
					continue
				}
				if fields[1] == "absent" {
					if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(fields[0]))); err == nil {
						t.Errorf("assert:%d: %s exists", i+1, fields[0])
					}
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(fields[0])))
				if err != nil {
					t.Errorf("assert:%d: %v", i+1, err)
					continue
				}
				switch text := fields[2]; fields[1] {
				case "contains":
					if !bytes.Contains(b, []byte(text)) {
						t.Errorf("assert:%d: %s lacks %q", i+1, fields[0], text)
					}
				case "lacks":
					if bytes.Contains(b, []byte(text)) {
						t.Errorf("assert:%d: %s contains %q", i+1, fields[0], text)
					}
				case "count":
					n, text, _ := strings.Cut(text, " ")
					want, err := strconv.Atoi(n)
					if err != nil {
						t.Fatalf("assert:%d: count %q", i+1, n)
					}
					if got := bytes.Count(b, []byte(text)); got != want {
						t.Errorf("assert:%d: %s holds %q %d times, want %d", i+1, fields[0], text, got, want)
					}
				default:
					t.Fatalf("assert:%d: unknown check %q", i+1, fields[1])
				}
			}
		})
	}
}

// assertNamesFiles checks that every href of the HTML files under
// root/sub starting with prefix names a path that exists under root
// (relative to it, after prefix), and that there is at least one.
func assertNamesFiles(t *testing.T, root, sub, prefix string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(sub)), func(f string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(f, ".html") {
			return err
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, part := range strings.Split(string(b), `href="`+prefix)[1:] {
			rel, _, _ := strings.Cut(part, `"`)
			n++
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				t.Errorf("%s: link %s%s names %s, which the repository does not have", f, prefix, rel, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Errorf("no link under %s starts with %s", sub, prefix)
	}
}

// browseClaim opens page (a URL path) of the site built in public and
// checks its first claim's popover: hidden, then shown once the claim has
// keyboard focus; and, unless body is "", that the page's body background
// is body.
func browseClaim(t *testing.T, b *browserSession, public, page, body string) {
	t.Helper()
	b.takeErrors()
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	type popState struct {
		Found, Before, After bool
		Body                 string
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+page),
		chromedp.Poll[chromedp.Void](`document.readyState === "complete"`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	res, err := chromedp.Run(b.ctx, chromedp.Evaluate[popState](`(() => {
			const a = document.querySelector("a.ev-claim");
			const pop = a && document.getElementById(a.getAttribute("aria-details"));
			if (!pop) return {Found: false};
			const shown = el => { const s = getComputedStyle(el), r = el.getBoundingClientRect(); return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0; };
			const before = shown(pop);
			a.focus();
			return {Found: true, Before: before, After: shown(pop), Body: getComputedStyle(document.body).backgroundColor};
		})()`))
	if err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	switch {
	case !res.Found:
		t.Errorf("%s: no claim with a popover", page)
	case res.Before:
		t.Errorf("%s: the first claim's popover shows before the claim has focus (printed inline in the prose?)", page)
	case !res.After:
		t.Errorf("%s: the first claim's popover does not show when the claim has focus", page)
	}
	if body != "" && res.Body != body {
		t.Errorf("%s: body background %s, want the theme's %s", page, res.Body, body)
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("%s: %v", page, errs)
	}
}

// browseVisible opens page (a URL path) of the site built in public and
// checks that an element matching selector is shown: displayed, visible
// and not empty, inside the viewport's width.
func browseVisible(t *testing.T, b *browserSession, public, page, selector string) {
	t.Helper()
	b.takeErrors()
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+page),
		chromedp.Poll[chromedp.Void](`document.readyState === "complete"`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	shown, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(sel => {
			const el = document.querySelector(sel);
			if (!el) return false;
			const s = getComputedStyle(el), r = el.getBoundingClientRect();
			return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth;
		})(`+strconv.Quote(selector)+`)`))
	if err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	if !shown {
		t.Errorf("%s: no element %s is shown", page, selector)
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("%s: %v", page, errs)
	}
}

// browseFits opens page at width px (a string) and checks that nothing
// scrolls sideways: the document is no wider than the viewport.
func browseFits(t *testing.T, b *browserSession, public, page, width string) {
	t.Helper()
	w, err := strconv.Atoi(width)
	if err != nil {
		t.Fatalf("fits %s %s: %v", page, width, err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(int64(w), 844), chromedp.Navigate(srv.URL+page),
		chromedp.Poll[chromedp.Void](`document.readyState === "complete"`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	sw, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	if err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	if sw > w {
		t.Errorf("%s at %d px: the page is %d px wide (it scrolls sideways)", page, w, sw)
	}
	chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900))
}

// browseStyle opens page and checks the computed style of the first
// element matching a selector: rest is "SELECTOR… PROPERTY VALUE" (the
// selector may hold spaces; the last two words are the property and
// its value as getComputedStyle writes it).
func browseStyle(t *testing.T, b *browserSession, public, page, rest string) {
	t.Helper()
	words := strings.Fields(rest)
	if len(words) < 3 {
		t.Fatalf("style %s %s: want SELECTOR PROPERTY VALUE", page, rest)
	}
	sel, prop, want := strings.Join(words[:len(words)-2], " "), words[len(words)-2], words[len(words)-1]
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	defer srv.Close()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+page),
		chromedp.Poll[chromedp.Void](`document.readyState === "complete"`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`((sel, prop) => { const el = document.querySelector(sel); return el ? getComputedStyle(el).getPropertyValue(prop) : "(no element)"; })(`+strconv.Quote(sel)+`, `+strconv.Quote(prop)+`)`))
	if err != nil {
		t.Fatalf("browsing %s: %v", page, err)
	}
	if got != want {
		t.Errorf("%s: %s's %s is %q, want %q", page, sel, prop, got, want)
	}
}

// haveChromium reports whether chromiumPath finds a browser, without
// skipping the test when it does not.
func haveChromium() bool {
	if os.Getenv("EVDOC_CHROMIUM") != "" {
		return true
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if _, err := exec.LookPath(name); err == nil {
			return true
		}
	}
	return false
}
