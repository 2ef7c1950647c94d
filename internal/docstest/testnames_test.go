package docstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// testFuncRe is a test, benchmark or fuzz target's declaration.
var testFuncRe = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*)\(`)

// codeSpanRe is a CommonMark code span of one backtick pair, and
// testNameRe a test's name inside one (`TestX`, `TestX/case`,
// `BenchmarkReaderMemory/hey`).
var (
	codeSpanRe = regexp.MustCompile("`[^`\n]+`")
	testNameRe = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*`)
)

// TestDocumentedTestsExist holds that every test, benchmark and fuzz
// target the documentation names in a code span (README.md,
// RELIABILITY.md, BENCHMARKS.md, docs/**/*.md: "the test that holds it")
// is declared in a _test.go file of the module: a renamed or removed
// test leaves no claim of a guarantee that nothing holds. Fenced code
// blocks (sample tool output) are not read.
func TestDocumentedTestsExist(t *testing.T) {
	root := "../.."
	declared := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".evdoc", "node_modules", "public", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range testFuncRe.FindAllSubmatch(src, -1) {
			declared[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !declared["TestDocumentedTestsExist"] {
		t.Fatalf("the walk found %d declarations and not this test's own", len(declared))
	}
	docs := []string{"README.md", "RELIABILITY.md", "BENCHMARKS.md"}
	guide, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*", "*.md"))
	for _, p := range append(guide, more...) {
		rel, _ := filepath.Rel(root, p)
		docs = append(docs, filepath.ToSlash(rel))
	}
	named := 0
	var missing []string
	for _, doc := range docs {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, line := range strings.Split(string(src), "\n") {
			if trimmed := strings.TrimLeft(line, " "); strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				fenced = !fenced
				continue
			}
			if fenced {
				continue
			}
			for _, span := range codeSpanRe.FindAllString(line, -1) {
				for _, name := range testNameRe.FindAllString(span, -1) {
					named++
					if !declared[name] {
						missing = append(missing, doc+":"+strconv.Itoa(i+1)+": "+name)
					}
				}
			}
		}
	}
	if named < 50 {
		t.Fatalf("only %d test names found in the documentation; the scan is broken", named)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s is named but declared in no _test.go file of the module", m)
	}
}
