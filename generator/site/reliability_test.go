package site

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/atomicdir"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// fakeHugo returns a Hugo command running script with sh: $2 is the
// stage (--source), $4 the output directory (--destination).
func fakeHugo(script string) []string { return []string{"sh", "-c", script, "hugo"} }

// writesSite is a fake Hugo that writes a one-page site saying what.
func writesSite(what string) []string {
	return fakeHugo(`mkdir -p "$4" && echo ` + what + ` > "$4/index.html"`)
}

func smallProject(t *testing.T) (*project.Site, string) {
	t.Helper()
	dir := txtartest.WriteFile(t, "../checker/testdata/check/clean.txtar")
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func siteSays(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "public", "index.html"))
	if err != nil {
		return "<no site: " + err.Error() + ">"
	}
	return strings.TrimSpace(string(b))
}

// leftovers lists the run-private paths a finished build must not leave.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{".evdoc/stage*", ".evdoc/hugo.pgid", ".public.evdoc-*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		out = append(out, m...)
	}
	return out
}

// oldSite returns a small project and its directory, built once by a
// Hugo stand-in whose site says "old".
func oldSite(t *testing.T) (*project.Site, string) {
	t.Helper()
	s, dir := smallProject(t)
	if err := build(s, BuildOptions{Hugo: writesSite("old")}); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// wantSite reports an error unless the site in dir says want and no
// build left a run-private path behind.
func wantSite(t *testing.T, dir, want string) {
	t.Helper()
	if got := siteSays(t, dir); got != want {
		t.Errorf("public/ says %q, want %s", got, want)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

func build(s *project.Site, opt BuildOptions) error {
	opt.Out = "public"
	opt.Check = check.DefaultOptions()
	opt.unverified = true // a fake Hugo writes a one-file site
	return Build(context.Background(), s, opt)
}

func TestBuildReplacesSiteAndCleansUp(t *testing.T) {
	s, dir := smallProject(t)
	if err := build(s, BuildOptions{Hugo: writesSite("one")}); err != nil {
		t.Fatal(err)
	}
	if err := build(s, BuildOptions{Hugo: writesSite("two")}); err != nil {
		t.Fatal(err)
	}
	wantSite(t, dir, "two")
}

// TestBuildSwapFailureKeepsOldSite injects a failure into every step of
// the public/ replacement (fault 7): the old site stays whole.
func TestBuildSwapFailureKeepsOldSite(t *testing.T) {
	eio := func(string, string) error { return syscall.EIO }
	unsupported := func(string, string) error { return errors.ErrUnsupported }
	renameFailsFrom := func(suffix string) func(a, b string) error {
		return func(a, b string) error {
			if strings.Contains(filepath.Base(a), suffix) {
				return &os.LinkError{Op: "rename", Old: a, New: b, Err: syscall.EIO}
			}
			return os.Rename(a, b)
		}
	}
	for name, ops := range map[string]atomicdir.Ops{
		"exchange EIO":                {Exchange: eio, Rename: os.Rename, RemoveAll: os.RemoveAll},
		"fallback: move aside fails":  {Exchange: unsupported, Rename: renameFailsFrom("public"), RemoveAll: os.RemoveAll},
		"fallback: move in fails":     {Exchange: unsupported, Rename: renameFailsFrom("evdoc-new"), RemoveAll: os.RemoveAll},
		"fallback: both renames fail": {Exchange: unsupported, Rename: eio, RemoveAll: os.RemoveAll},
	} {
		t.Run(name, func(t *testing.T) {
			s, dir := oldSite(t)
			err := build(s, BuildOptions{Hugo: writesSite("new"), replace: &ops})
			if err == nil {
				t.Fatal("build succeeded with a failing swap")
			}
			wantSite(t, dir, "old")
		})
	}
}

// TestBuildRecoversKilledSwap: a run killed between the fallback's two
// renames left public/ aside; the next build restores it first, and a
// failing next build still leaves it restored.
func TestBuildRecoversKilledSwap(t *testing.T) {
	s, dir := oldSite(t)
	if err := os.Rename(filepath.Join(dir, "public"), filepath.Join(dir, ".public.evdoc-old")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".public.evdoc-new-123", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".evdoc", "stage-456", "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := build(s, BuildOptions{Hugo: fakeHugo("exit 1")}); err == nil {
		t.Fatal("a failing Hugo built")
	}
	wantSite(t, dir, "old")
}

// TestBuildInterruptedStopsHugo (fault 5): cancelling the build (what
// SIGINT and SIGTERM do) stops Hugo's whole process group and leaves the
// old site.
func TestBuildInterruptedStopsHugo(t *testing.T) {
	s, dir := oldSite(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// Hugo's stand-in starts a grandchild writing into the output, as
	// `go tool hugo` runs hugo.
	script := `(while :; do mkdir -p "$4/x"; echo partial > "$4/index.html"; sleep 0.05; done) & echo $! > ` + pidFile + `; wait`
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- Build(ctx, s, BuildOptions{Out: "public", Check: check.DefaultOptions(), Hugo: fakeHugo(script), unverified: true})
	}()
	var pid int
	for i := 0; i < 500 && pid == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if pid == 0 {
		t.Fatal("fake Hugo never started")
	}
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Build did not return after cancellation")
	}
	if running(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Error("Hugo's child survived the interrupted build")
	}
	wantSite(t, dir, "old")
}

// TestBuildHugoTimeout (fault 6): a Hugo that never ends (as on a full
// disk) is stopped after the timeout; the build fails, the site stays.
func TestBuildHugoTimeout(t *testing.T) {
	s, dir := oldSite(t)
	start := time.Now()
	err := build(s, BuildOptions{Hugo: fakeHugo("sleep 60"), HugoTimeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("error = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("timed-out build took %v", d)
	}
	if got := siteSays(t, dir); got != "old" {
		t.Errorf("public/ says %q, want old", got)
	}
}

// TestBuildRefusesEmptyOutput: Hugo exiting 0 without a home page does
// not replace the site.
func TestBuildRefusesEmptyOutput(t *testing.T) {
	s, dir := oldSite(t)
	if err := build(s, BuildOptions{Hugo: fakeHugo("true")}); err == nil {
		t.Fatal("an empty Hugo output replaced the site")
	}
	if got := siteSays(t, dir); got != "old" {
		t.Errorf("public/ says %q, want old", got)
	}
}

// TestOutputDirResolvesLinks (fault 2): an --out that reaches a source
// directory through a symbolic link is refused, before anything is
// deleted.
func TestOutputDirResolvesLinks(t *testing.T) {
	dir := sitetest.CopyProject(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(".", filepath.Join(dir, "self")))
	must(os.Symlink("layouts", filepath.Join(dir, "tpl")))
	must(os.Symlink(dir, filepath.Join(t.TempDir(), "proj")))
	must(os.WriteFile(filepath.Join(dir, "layouts", "index.html"), []byte("x"), 0o644))
	elsewhere := t.TempDir()
	must(os.Symlink(elsewhere, filepath.Join(dir, "site-link")))
	s := &project.Site{Root: dir}
	for _, out := range []string{"self/layouts", "self/layouts/new", "tpl", "tpl/sub", "self", "self/.git", "self/content/ko"} {
		if _, err := outputDir(s, out); err == nil {
			t.Errorf("--out %s accepted", out)
		}
	}
	got, err := outputDir(s, "site-link")
	if err != nil {
		t.Fatalf("--out site-link refused: %v", err)
	}
	if want, _ := filepath.EvalSymlinks(elsewhere); got != want {
		t.Errorf("--out site-link resolved to %s, want %s", got, want)
	}
	// A work directory that is a link is refused: Build deletes inside it.
	must(os.Symlink(elsewhere, filepath.Join(dir, ".evdoc")))
	s2, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Build(context.Background(), s2, BuildOptions{Out: "public", Hugo: writesSite("x")}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("build with .evdoc a symbolic link: %v", err)
	}
}

// running reports whether pid is a live process, waiting briefly for a
// killed one to go (a zombie counts as gone).
func running(pid int) bool {
	for i := 0; i < 50; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil && syscall.Kill(pid, 0) != nil {
			return false
		}
		if err == nil && strings.Contains(string(b), ") Z ") {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
