package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFixEveryPage: fix, which parses one page at a time, rewrites the
// stale claims of every page of both languages (a translated page, an
// untranslated one, a page with no source-language original), prints the
// dry-run diff in page order, and leaves every other byte as it was.
func TestFixEveryPage(t *testing.T) {
	dir := extract(t, "../../generator/staging/testdata/stage/order.txtar")
	stale := []struct{ file, old, new string }{
		{"content/ja/docs/0.md", "[0.207%]", "[0.209%]"},
		{"content/ja/docs/a.md", "[29回]", "[28回]"},
		{"content/ko/docs/a.md", "[29회]", "[28회]"},
		{"content/ko/docs/b.md", "다시 [15건]", "다시 [17건]"},
		{"content/ja/docs/c.md", "[2905回]", "[2906回]"},
		{"content/ko/docs/c.md", "[2905회]", "[2906회]"},
	}
	orig := map[string]string{}
	for _, s := range stale {
		p := filepath.Join(dir, filepath.FromSlash(s.file))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), s.old) {
			t.Fatalf("%s lacks %q", s.file, s.old)
		}
		orig[s.file] = string(b)
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), s.old, s.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, _ := evdoc("fix", "--dry-run", "--root", dir)
	if code != 1 {
		t.Errorf("dry run: exit %d\n%s", code, stdout)
	}
	var order []string
	for _, m := range regexp.MustCompile(`(?m)^--- a/(\S+)`).FindAllStringSubmatch(stdout, -1) {
		order = append(order, m[1])
	}
	want := []string{"content/ja/docs/0.md", "content/ja/docs/a.md", "content/ja/docs/c.md", "content/ko/docs/a.md", "content/ko/docs/b.md", "content/ko/docs/c.md"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("dry-run diff of %v, want %v:\n%s", order, want, stdout)
	}
	code, stdout, stderr := evdoc("fix", "--root", dir)
	if code != 0 || !strings.Contains(stderr, "6 literal(s) rewritten") {
		t.Errorf("fix: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for file, b := range orig {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != b {
			t.Errorf("%s after fix:\n%s\nwant:\n%s", file, got, b)
		}
	}
}
