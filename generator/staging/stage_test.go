package staging

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestStageFallbacksLazy holds that a lazily loaded site (as evdoc build
// loads it) stages the same fallback pages as one loaded parsed, parsing
// the source page for it and dropping it afterwards.
func TestStageFallbacksLazy(t *testing.T) {
	dir := sitetest.CopyProject(t)
	sitetest.Untranslate(t, dir)
	staged := map[bool]map[string]string{}
	for _, lazy := range []bool{false, true} {
		s, err := project.LoadWith(dir, project.LoadOptions{Lazy: lazy})
		if err != nil {
			t.Fatal(err)
		}
		stage := t.TempDir()
		if err := stageFallbacks(context.Background(), s, stage, emphasis.MarkdownOptions{}, nil, nil); err != nil {
			t.Fatalf("lazy=%v: %v", lazy, err)
		}
		files := map[string]string{}
		err = filepath.WalkDir(stage, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(stage, p)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		staged[lazy] = files
		if lazy {
			for _, p := range s.Pages {
				if p.Parsed != nil {
					t.Errorf("%s is still parsed after staging the fallbacks", p.Path)
				}
			}
		}
	}
	if len(staged[false]) == 0 {
		t.Fatal("no fallback page staged")
	}
	for name, want := range staged[false] {
		if got := staged[true][name]; got != want {
			t.Errorf("%s staged from the lazy site differs:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if len(staged[true]) != len(staged[false]) {
		t.Errorf("lazy staged %d files, eager %d", len(staged[true]), len(staged[false]))
	}
}

// TestStageTree: stageTree copies every regular file, writes the ones
// transform takes as it returned them (only .md files are offered), and
// reports a file it cannot read.
func TestStageTree(t *testing.T) {
	root, stage := t.TempDir(), t.TempDir()
	files := map[string]string{
		"content/ko/a.md":      "가 *나*",
		"content/ko/b.md":      "plain",
		"content/ko/img.png":   "PNG",
		"content/ja/deep/c.md": "*x*",
		"static/s.md":          "*static*",
	}
	for name, body := range files {
		if err := WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	var offered []string
	var mu sync.Mutex
	transform := func(rel string, b []byte) ([]byte, bool) {
		mu.Lock()
		offered = append(offered, rel)
		mu.Unlock()
		if !strings.HasPrefix(rel, "content/") || !bytes.Contains(b, []byte("*")) {
			return nil, false
		}
		return bytes.ReplaceAll(b, []byte("*"), []byte("_")), true
	}
	// A link (here to a template outside the project) and a FIFO are
	// not staged, and the log names each.
	outside := filepath.Join(t.TempDir(), "x.html")
	if err := os.WriteFile(outside, []byte("OUTSIDE"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "static", "x.html")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "static", "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log []string
	for _, d := range []string{"content", "static", "missing"} {
		log = append(log, NotStaged(root, d)...)
		if err := stageTree(context.Background(), root, stage, d, transform); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"static/pipe is not a regular file (p---------); not staged", "static/x.html is a symbolic link (to " + outside + "); not staged, so Hugo builds without it (a template that calls it fails with \"partial not found\""} {
		if !strings.Contains(strings.Join(log, "\n"), want) {
			t.Errorf("notStaged lacks %q:\n%s", want, strings.Join(log, "\n"))
		}
	}
	for _, n := range []string{"static/x.html", "static/pipe"} {
		if _, err := os.Lstat(filepath.Join(stage, n)); err == nil {
			t.Errorf("%s was staged", n)
		}
	}
	want := map[string]string{
		"content/ko/a.md":      "가 _나_",
		"content/ko/b.md":      "plain",
		"content/ko/img.png":   "PNG",
		"content/ja/deep/c.md": "_x_",
		"static/s.md":          "*static*",
	}
	for name, body := range want {
		b, err := os.ReadFile(filepath.Join(stage, filepath.FromSlash(name)))
		if err != nil || string(b) != body {
			t.Errorf("%s: got %q (%v), want %q", name, b, err, body)
		}
	}
	sort.Strings(offered)
	if got := strings.Join(offered, " "); got != "content/ja/deep/c.md content/ko/a.md content/ko/b.md static/s.md" {
		t.Errorf("offered to transform: %s", got)
	}
	blocked := t.TempDir() // a directory where a page would go
	if err := os.MkdirAll(filepath.Join(blocked, "content", "ko", "b.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := stageTree(context.Background(), root, blocked, "content", transform); err == nil {
		t.Error("a page that cannot be written: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := stageTree(ctx, root, t.TempDir(), "content", transform); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
}

// TestStagePageChangedAfterCheck: a page saved after the site was loaded
// and checked (during a build) fails the staging, naming the file,
// whether the site was loaded lazily (its Header) or parsed; a page
// saved back to the checked bytes stages.
func TestStagePageChangedAfterCheck(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		dir := txtartest.WriteFile(t, "../checker/testdata/check/clean.txtar")
		s, err := project.LoadWith(dir, project.LoadOptions{Lazy: lazy})
		if err != nil {
			t.Fatal(err)
		}
		c := checker.NewCheckerWith(s, checker.CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: true})
		var page string
		for _, p := range s.Pages {
			if strings.HasSuffix(p.Path, ".md") {
				page = p.Path
				break
			}
		}
		if page == "" {
			t.Fatal("no page loaded")
		}
		file := filepath.Join(dir, filepath.FromSlash(page))
		orig, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(bytes.Clone(orig), "\nA sentence saved during the build.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Stage(context.Background(), s, t.TempDir(), c.StageData(), nil)
		if err == nil || !strings.Contains(err.Error(), page+": the file changed after evdoc checked it") {
			t.Errorf("lazy=%v: staging a page changed after the check: error %v, want one naming %s", lazy, err, page)
		}
		if err := os.WriteFile(file, orig, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Stage(context.Background(), s, t.TempDir(), c.StageData(), nil); err != nil {
			t.Errorf("lazy=%v: the page saved back as checked: %v", lazy, err)
		}
	}
}
