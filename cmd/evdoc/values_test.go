package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cases = "../../generator/evidence/testdata/cases/"

// Case 13: TIME=1,232 next to TIME=40,045811 is 1.232 s, so the pages'
// 約1.2秒 / 약 1.2초 pass and fix leaves them alone.
func TestCaseTranscriptDecimalCommaCheckAndFix(t *testing.T) {
	dir := extract(t, cases+"13-transcript-decimal-comma.txtar")
	code, stdout, stderr := evdoc("check", "--root", dir)
	if code != 0 || !strings.Contains(stdout, `warning: comma in "1,232" read as a decimal mark (1.232)`) {
		t.Errorf("check: exit %d\n%s\n%s", code, stdout, stderr)
	}
	page := filepath.Join(dir, "content", "ja", "docs", "p.md")
	before, _ := os.ReadFile(page)
	if code, stdout, stderr := evdoc("fix", "--root", dir); code != 0 {
		t.Errorf("fix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if after, _ := os.ReadFile(page); string(after) != string(before) {
		t.Errorf("fix rewrote a correct page:\n%s", after)
	}
}
