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
	declared := declaredTests(t, "Test", "Benchmark", "Fuzz")
	if declared["TestDocumentedTestsExist"] == nil {
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
					if declared[name] == nil {
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

// declaredTests returns the functions of the module's _test.go files
// whose names begin with one of kinds (Test, Benchmark, Fuzz), each with
// the package directories (slash paths from the module root) declaring
// it.
func declaredTests(t *testing.T, kinds ...string) map[string][]string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^func ((?:` + strings.Join(kinds, "|") + `)[A-Za-z0-9_]*)\(`)
	funcs := map[string][]string{}
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
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
		rel, _ := filepath.Rel("../..", filepath.Dir(p))
		for _, m := range re.FindAllSubmatch(src, -1) {
			funcs[string(m[1])] = append(funcs[string(m[1])], filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return funcs
}
