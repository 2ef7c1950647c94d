package site

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

	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestReferencePagesTranslated holds that both reference pages have a
// Japanese translation: neither falls back to Korean.
func TestReferencePagesTranslated(t *testing.T) {
	s := loadReference(t)
	for _, f := range s.Fallbacks()["ja"] {
		t.Errorf("ja page for %q falls back to the Korean original", f.Source.Key)
	}
}

func TestFallbackFromSourcePage(t *testing.T) {
	dir := sitetest.CopyProject(t)
	sitetest.Untranslate(t, dir)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var found *Fallback
	for _, f := range s.Fallbacks()["ja"] {
		if f.Source.Key == "virtualservice-destinationrule" {
			f := f
			found = &f
		}
	}
	if found == nil {
		t.Fatal("no ja fallback for the VirtualService/DestinationRule page")
	}
	if found.Target == nil || found.Target.Title == "" || found.Target.Title == found.Source.Title {
		t.Fatalf("fallback should keep the ja page's own title; target=%+v", found.Target)
	}
	b, err := found.Render(s.Config.Source())
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, want := range []string{"title: " + found.Target.Title, "evdoc_fallback:", "lang: ko", "source_url: /docs/istio/traffic/virtualservice-destinationrule/"} {
		if !strings.Contains(out, want) {
			t.Errorf("fallback page lacks %q", want)
		}
	}
	if !strings.HasSuffix(out, string(found.Source.Body())) {
		t.Error("fallback body is not the Korean body verbatim")
	}
	// A translated page is not a fallback.
	for _, f := range s.Fallbacks()["ja"] {
		if f.Source.Key == "gslb-dns-flip-qa" {
			t.Error("the translated Q&A page must not fall back")
		}
	}
}

func TestOutputDirRefusesSources(t *testing.T) {
	dir := sitetest.CopyProject(t)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "README.md"), []byte("x"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "notes"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "notes", "a.txt"), []byte("x"), 0o644))
	s := &Site{Root: dir}
	for _, out := range []string{".", "..", "content", "content/ko", "evidence", "layouts", ".git", "README.md", "notes", dir} {
		if _, err := s.outputDir(out); err == nil {
			t.Errorf("--out %s accepted", out)
		}
	}
	for _, out := range []string{"public", "site/out", filepath.Join(t.TempDir(), "elsewhere")} {
		if _, err := s.outputDir(out); err != nil {
			t.Errorf("--out %s refused: %v", out, err)
		}
	}
}

// TestStageFallbacksLazy holds that a lazily loaded site (as evdoc build
// loads it) stages the same fallback pages as one loaded parsed, parsing
// the source page for it and dropping it afterwards.
func TestStageFallbacksLazy(t *testing.T) {
	dir := sitetest.CopyProject(t)
	sitetest.Untranslate(t, dir)
	staged := map[bool]map[string]string{}
	for _, lazy := range []bool{false, true} {
		s, err := LoadWith(dir, LoadOptions{Lazy: lazy})
		if err != nil {
			t.Fatal(err)
		}
		stage := t.TempDir()
		if err := s.stageFallbacks(context.Background(), stage, translation.MarkdownOptions{}, nil); err != nil {
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
		if err := writeFile(filepath.Join(root, filepath.FromSlash(name)), []byte(body)); err != nil {
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
		log = append(log, notStaged(root, d)...)
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

// TestHugoWarnings: build --strict fails on Hugo's warnings but its own
// deprecation notices, which a theme's templates cause, and its notice
// that a theme's declared Hugo range does not hold the running Hugo; a template's
// warnf that mentions deprecation is a warning like any other.
func TestHugoWarnings(t *testing.T) {
	log := "Start building sites … \n" +
		"WARN  deprecated: .Language.LanguageName was deprecated in Hugo v0.158.0 and will be removed in Hugo 0.171.0. Use .Language.Label instead.\n" +
		"WARN  lab theme: oldParam is deprecated\n" +
		"WARN  raw HTML omitted while rendering \"content/ko/p.md\"\r\n" +
		"WARNING is not a level\n" +
		"INFO  deprecated: x was deprecated in Hugo v0.1.0\n" +
		"WARN  Module \"blowfish\" is not compatible with this Hugo version: 0.141.0/0.157.0 extended; run \"hugo mod graph\" for more information.\n" +
		"WARN  lab theme: Module \"x\" is not compatible with this Hugo version\n"
	warns, deprecated := hugoWarnings([]byte(log))
	if len(warns) != 3 || warns[0] != "lab theme: oldParam is deprecated" || warns[1] != `raw HTML omitted while rendering "content/ko/p.md"` || !strings.HasPrefix(warns[2], "lab theme: Module") {
		t.Errorf("warnings %q", warns)
	}
	if len(deprecated) != 2 || !strings.Contains(deprecated[0], "LanguageName") || !strings.Contains(deprecated[1], `Module "blowfish"`) {
		t.Errorf("deprecation notices %q", deprecated)
	}
}
