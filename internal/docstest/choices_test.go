package docstest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const choicesDoc = "../../docs/guide/choices.md"

// choiceTestRe is a test named in the last column of a choice-point row:
// `TestName` or `TestName/subtest`, with an optional package path before
// it (`generator/check.TestCases/66-benchstat`).
var choiceTestRe = regexp.MustCompile("`(?:([a-z0-9_./-]+)\\.)?(Test[A-Za-z0-9_]+|Fuzz[A-Za-z0-9_]+)(/[^`]*)?`")

// TestChoicePointsTable holds docs/guide/choices.md's table of choice
// points to the code: every row names at least one test, every test it
// names exists (func TestX in a _test.go file of the package it names, or
// of the module when it names none), and a txtar subtest it names
// (TestCases/NAME) has its archive under that package's testdata.
func TestChoicePointsTable(t *testing.T) {
	b, err := os.ReadFile(choicesDoc)
	if err != nil {
		t.Fatal(err)
	}
	funcs := declaredTests(t, "Test", "Fuzz") // test func name → package directories
	rows := 0
	inTable := false
	for i, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !inTable { // the header row, then the delimiter row
			inTable = true
			if len(cells) < 4 || !strings.Contains(strings.ToLower(cells[len(cells)-1]), "test") {
				t.Errorf("%s:%d: a choice-point table's last column must be its tests; got %q", choicesDoc, i+1, line)
			}
			continue
		}
		if strings.Trim(line, "|- :") == "" {
			continue
		}
		rows++
		last := cells[len(cells)-1]
		ms := choiceTestRe.FindAllStringSubmatch(last, -1)
		if len(ms) == 0 {
			t.Errorf("%s:%d: row %q names no test (`TestName` or `pkg/path.TestName/subtest`)", choicesDoc, i+1, strings.TrimSpace(cells[0]))
		}
		for _, m := range ms {
			pkg, name, sub := m[1], m[2], strings.TrimPrefix(m[3], "/")
			dirs := funcs[name]
			if pkg != "" {
				found := false
				for _, d := range dirs {
					found = found || d == pkg
				}
				if !found {
					t.Errorf("%s:%d: %s names %s.%s, which is not a test of that package", choicesDoc, i+1, strings.TrimSpace(cells[0]), pkg, name)
					continue
				}
				dirs = []string{pkg}
			} else if len(dirs) == 0 {
				t.Errorf("%s:%d: %s names %s, which no test file of the module defines", choicesDoc, i+1, strings.TrimSpace(cells[0]), name)
				continue
			}
			if sub != "" && (strings.HasSuffix(name, "Cases") || strings.HasSuffix(name, "Archives")) {
				ok := false
				for _, d := range dirs {
					hits, _ := filepath.Glob(filepath.Join("../..", d, "testdata", "*", sub+".txtar"))
					ok = ok || len(hits) > 0
				}
				if !ok {
					t.Errorf("%s:%d: %s names the case %s/%s, and no testdata/*/%s.txtar exists there", choicesDoc, i+1, strings.TrimSpace(cells[0]), name, sub, sub)
				}
			}
		}
	}
	if rows < 10 {
		t.Errorf("%s: %d choice-point rows; the table lists every choice between readings (expected at least 10)", choicesDoc, rows)
	}
}
