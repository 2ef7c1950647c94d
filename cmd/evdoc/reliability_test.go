package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hugorun"
	"github.com/evdoc-lab/evdoc/internal/lock"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestSecondWriterFailsClearly (fault 1): while one run holds the project
// lock, build and fix with --lock-wait 0 exit 2 naming the holder.
func TestSecondWriterFailsClearly(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	l, err := hugorun.LockProject(context.Background(), dir, lock.Options{Owner: "evdoc build"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	for _, cmd := range []string{"build", "fix"} {
		code, _, stderr := evdoc(cmd, "--root", dir, "--lock-wait", "0")
		if code != 2 || !strings.Contains(stderr, "another evdoc build or fix is running") || !strings.Contains(stderr, "evdoc build") {
			t.Errorf("%s while locked: exit %d, stderr %q; want 2 naming the holder", cmd, code, stderr)
		}
	}
	// check and fix --dry-run only read: they do not wait.
	if code, _, stderr := evdoc("check", "--root", dir); code != 0 {
		t.Errorf("check while locked: exit %d %s", code, stderr)
	}
	if code, _, stderr := evdoc("fix", "--dry-run", "--root", dir, "--lock-wait", "0"); code != 0 {
		t.Errorf("fix --dry-run while locked: exit %d %s", code, stderr)
	}
}

// TestFixStopsOnSignal (fault 5, fix half): a fix whose context is
// cancelled by SIGINT rewrites no page and exits 130.
func TestFixStopsOnSignal(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/mismatch.txtar")
	before := snapshot(t, dir)
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&signalError{syscall.SIGINT})
	var out, errb bytes.Buffer
	code := run(ctx, []string{"fix", "--root", dir}, &out, &errb)
	if code != 130 {
		t.Errorf("exit %d, want 130; stderr %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "interrupted by SIGINT") {
		t.Errorf("stderr lacks the interruption: %s", errb.String())
	}
	if after := snapshot(t, dir); after != before {
		t.Error("an interrupted fix changed the pages")
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel(&signalError{syscall.SIGTERM})
	if code := run(ctx, []string{"build", "--root", dir}, &out, &errb); code != 143 {
		t.Errorf("build on SIGTERM: exit %d, want 143", code)
	}
}

// TestFixRemovesStaleTemps (fault 9; issue 26 fault 13): temporary pages
// a killed fix left in .evdoc/tmp are removed by the next fix; a file
// named like one in a content directory is not evdoc's (the directory may
// lie outside the project) and is kept.
func TestFixRemovesStaleTemps(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/mismatch.txtar")
	ours := filepath.Join(hugorun.TempDir(dir), ".p.md.evdoc-678")
	notOurs := filepath.Join(dir, "content", "ko", "docs", ".notes.evdoc-2024")
	for _, p := range []string{ours, notOurs} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	evdoc("fix", "--root", dir)
	if _, err := os.Stat(ours); err == nil {
		t.Errorf("%s left", ours)
	}
	if _, err := os.Stat(notOurs); err != nil {
		t.Errorf("fix deleted %s, which it did not create: %v", notOurs, err)
	}
}

// TestFixReportsStateAfterRewrite (issue 26 fault 6): what fix reports as
// remaining, and its exit status, are those of a check of the rewritten
// pages: a translation finding that only the stale number caused is gone
// with it.
func TestFixReportsStateAfterRewrite(t *testing.T) {
	dir := sitetest.CopyProject(t, "glossary.toml")
	for _, f := range []string{"hugo.toml", "evdoc.toml"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", f)); err == nil {
			os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
	}
	page := filepath.Join(dir, "content", "ko", "docs", "istio", "egress", "gslb-dns-flip-qa.md")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "[40초]") {
		t.Skip("the reference page no longer quotes [40초]")
	}
	if err := os.WriteFile(page, []byte(strings.Replace(string(b), "[40초]", "[41초]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := evdoc("fix", "--root", dir)
	check, cout, _ := evdoc("check", "--root", dir)
	if code != check {
		t.Errorf("fix exit %d, a check right after exits %d\nfix:\n%s%s\ncheck:\n%s", code, check, out, errs, cout)
	}
	if strings.Contains(out, "41초") {
		t.Errorf("fix reports findings citing the number it rewrote:\n%s", out)
	}
}

// snapshot returns every page's bytes, concatenated in walk order.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			c, _ := os.ReadFile(p)
			b.WriteString(p + "\n" + string(c))
		}
		return nil
	})
	return b.String()
}

// TestFixLeavesDoubledSign (fault 9): fix does not rewrite "−−5" (it
// wrote "−40" for +40.05 and never converged); check reports it.
func TestFixLeavesDoubledSign(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	page := filepath.Join(dir, "content", "ko", "docs", "w.md")
	src := "---\ntitle: w\n---\n\n시도 [−−2905회](ev:d3/d3.b.attempts).\n"
	if err := os.WriteFile(page, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := evdoc("fix", "--root", dir)
	if code != 1 || !strings.Contains(stdout, "w.md:5:9: error:") || !strings.Contains(stdout, "two signs") {
		t.Errorf("fix: exit %d, stdout:\n%s\nwant exit 1 and the doubled sign reported at 5:9", code, stdout)
	}
	if b, _ := os.ReadFile(page); string(b) != src {
		t.Errorf("fix rewrote the page:\n%s", b)
	}
}

// TestGitignoreCoversRunFiles (issue 15, smaller items): what a killed
// build or fix may leave — a page's temporary file, the work directory,
// a half-written new site — is ignored by the repository's .gitignore,
// so it is never committed by accident; the sources are not.
func TestGitignoreCoversRunFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, _ := filepath.Abs("../..")
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout")
	}
	for _, tc := range []struct {
		path    string
		ignored bool
	}{
		{"content/ko/docs/.p.md.evdoc-123456", true},
		{".evdoc/tmp/.p.md.evdoc-1", true},
		{".evdoc/stage-42/content/ko/p.md", true},
		{".public.evdoc-new-7/index.html", true},
		{"public/index.html", true},
		{"content/ko/docs/p.md", false},
		{"evidence/d3/report.md", false},
	} {
		err := exec.Command("git", "-C", root, "check-ignore", "-q", "--no-index", tc.path).Run()
		if got := err == nil; got != tc.ignored {
			t.Errorf("%s: ignored %v, want %v", tc.path, got, tc.ignored)
		}
	}
}

// TestNewEvidenceStopsOnSignal (issue 36): new evidence stops on SIGTERM
// while it reads a large file (exit 143) and leaves no set and no
// temporary directory; the temporary directory a killed run left is
// removed by the next run, which completes the set.
func TestNewEvidenceStopsOnSignal(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "[2026-01-01T00:00:00.%03dZ] \"GET /i/%d HTTP/1.1\" 200 - 0 %d 12 10 \"-\" \"load/1\" \"r-%d\" \"svc:80\" \"10.0.0.1:80\"\n", i%1000, i, 100+i, i)
	}
	log := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, "evidence", ".zz-new-123456")
	if err := os.MkdirAll(killed, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"new", "evidence", "--root", dir, "zz", "--from", log, "--origin", "raw", "--environment", "e"}
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(20*time.Millisecond, func() { cancel(&signalError{syscall.SIGTERM}) })
	start := time.Now()
	var out, errb bytes.Buffer
	if code := run(ctx, args, &out, &errb); code != 143 {
		t.Errorf("exit %d, want 143; stderr %s", code, errb.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
	if _, err := os.Lstat(filepath.Join(dir, "evidence", "zz")); err == nil {
		t.Error("an interrupted new evidence left evidence/zz")
	}
	if code, _, stderr := evdoc(args...); code != 0 {
		t.Fatalf("new evidence after the interrupted one: exit %d %s", code, stderr)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "evidence", ".zz-new-*")); len(m) > 0 {
		t.Errorf("temporary directories left: %v", m)
	}
	if code, stdout, _ := evdoc("check", "--root", dir); code != 0 {
		t.Errorf("check after new evidence: exit %d\n%s", code, stdout)
	}
}
