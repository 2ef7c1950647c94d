package main

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
)

// TestUpgradeKeepsCIGreen (issue 33, "a workflow that does not break by
// itself"): a project initialised by one build of evdoc (A) stays green
// in CI while evdoc's component changes upstream (B), because init pins
// the workflow's evdoc checkout to A's commit; one command, B's init,
// upgrades the component and the pin together, and writes nothing else.
//
// Both builds are real: two commits of a clone of this repository, each
// built with its VCS stamp; CI's install is simulated by checking out the
// commit the workflow names, which must be A's tree, and running A's
// build of it.
func TestUpgradeKeepsCIGreen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds evdoc twice")
	}
	t.Parallel() // a clone, builds and a project of its own
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout of evdoc")
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "evdoc-src")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("git", "clone", "-q", "--no-local", root, src).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	build := func(name string) string {
		t.Helper()
		bin := filepath.Join(tmp, name)
		// -trimpath: the clone's temporary directory is then no part of
		// the packages' build cache keys, so a package whose files are
		// the same as in an earlier build (of this run's other commits,
		// or of an earlier run) is not compiled again. The VCS stamp
		// this test reads is kept.
		cmd := exec.Command("go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "./cmd/evdoc")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building evdoc %s: %v\n%s", name, err, out)
		}
		return bin
	}
	run := func(bin string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}
	commitA := git("rev-parse", "HEAD")
	evdocA := build("evdoc-a")

	// Upstream changes the component: one more line in its CSS.
	css := filepath.Join(src, "themes/evdoc")
	var file string
	_ = filepath.WalkDir(css, func(p string, d fs.DirEntry, err error) error {
		if err == nil && file == "" && strings.HasSuffix(p, ".css") {
			file = p
		}
		return nil
	})
	if file == "" {
		t.Fatal("no CSS file in the component")
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n/* upstream change */\n")
	f.Close()
	git("commit", "-q", "-am", "component: upstream change")
	commitB := git("rev-parse", "HEAD")
	evdocB := build("evdoc-b")

	proj := filepath.Join(tmp, "lab")
	if code, out := run(evdocA, "init", "--root", proj); code != 0 {
		t.Fatalf("A init: exit %d\n%s", code, out)
	}
	wf := filepath.Join(proj, filepath.FromSlash(workflowFile))
	pinned := func() string {
		t.Helper()
		b, err := os.ReadFile(wf)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)repository: evdoc-lab/evdoc\n(?:.*\n)*?\s+ref: (\S+)`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("the workflow checks out no pinned evdoc:\n%s", b)
		}
		return string(m[1])
	}
	if got := pinned(); got != commitA {
		t.Fatalf("A's workflow installs evdoc %s, want A's commit %s", got, commitA)
	}
	if b, err := os.ReadFile(filepath.Join(proj, "themes/evdoc", hosttheme.ComponentStamp)); err != nil || !strings.Contains(string(b), commitA) {
		t.Fatalf("the component stamp does not name A's commit %s: %s %v", commitA, b, err)
	}

	// The user removes the example page, in both languages.
	for _, p := range []string{"content/ko/docs/example.md", "content/ja/docs/example.md"} {
		if err := os.Remove(filepath.Join(proj, p)); err != nil {
			t.Fatal(err)
		}
	}

	// Upstream moved on: B's component differs, so checking with B fails…
	if code, out := run(evdocB, "check", "--root", proj); code != 1 || !strings.Contains(out, "site-component") {
		t.Fatalf("check with B on A's component: exit %d, want 1 with site-component\n%s", code, out)
	}
	// …but CI installs the pinned commit, and stays green. The checkout
	// of the pinned commit is A's tree, clean, so building it gives A's
	// binary byte for byte (a build with -trimpath and the same VCS stamp
	// is reproducible): CI's evdoc is evdocA, not built a third time.
	git("checkout", "-q", pinned())
	if head, dirty := git("rev-parse", "HEAD"), git("status", "--porcelain"); head != commitA || dirty != "" {
		t.Fatalf("CI's checkout is %s (changed files: %q), want A's commit %s clean", head, dirty, commitA)
	}
	evdocCI := evdocA
	if code, out := run(evdocCI, "check", "--strict", "--root", proj); code != 0 {
		t.Fatalf("CI's check with the pinned evdoc: exit %d\n%s", code, out)
	}

	// One command upgrades: B's init updates the component and the pin…
	before := treeSums(t, proj)
	code, out := run(evdocB, "init", "--root", proj)
	if code != 0 {
		t.Fatalf("B init: exit %d\n%s", code, out)
	}
	if got := pinned(); got != commitB {
		t.Errorf("after B's init the workflow installs %s, want B's commit %s\n%s", got, commitB, out)
	}
	if code, out := run(evdocB, "check", "--strict", "--root", proj); code != 0 {
		t.Errorf("check with B after B's init: exit %d\n%s", code, out)
	}
	// …and nothing else: the removed pages stay removed, every other file
	// is as it was.
	after := treeSums(t, proj)
	for p, sum := range after {
		if strings.HasPrefix(p, "themes/evdoc/") || p == workflowFile {
			continue
		}
		if before[p] != sum {
			t.Errorf("B's init wrote %s", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !strings.HasPrefix(p, "themes/evdoc/") {
			t.Errorf("B's init removed %s", p)
		}
	}
	if n := strings.Count(strings.TrimSpace(out), "\n") + 1; n > 6 {
		t.Errorf("B's init printed %d lines, want a few:\n%s", n, out)
	}
}

// treeSums returns the SHA-256 of every file under dir by slash path.
func treeSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
