package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestReferenceSite drives the server on a copy of the reference
// project: the open ko/ja pages show what evdoc check reports for them,
// before and after an unsaved edit of a claim on a line of Korean text,
// and an evidence file saved judges the open pages again.
func TestReferenceSite(t *testing.T) {
	root := sitetest.CopyProject(t, "glossary.toml")
	const ko = "content/ko/docs/istio/traffic/virtualservice-destinationrule.md"
	const ja = "content/ja/docs/istio/traffic/virtualservice-destinationrule.md"
	c, _ := start(t, root, Options{})
	kuri := c.open(ko)
	juri := c.open(ja)
	for _, f := range []struct{ file, uri string }{{ko, kuri}, {ja, juri}} {
		got, want := published(c.diagnostics(f.uri)), checkOnDisk(t, root, f.file)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: published\n%s\nevdoc check:\n%s", f.file, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// Line 73: "곧바로 실패하는 `503`은 허용된 재시도를 모두 써서 업스트림에
	// [3회](ev:…)": the literal starts at UTF-16 column 38 (0-based line
	// 72), byte column 86.
	c.change(kuri, 2, pos(72, 38), pos(72, 39), "4")
	got := published(c.diagnostics(kuri))
	if len(got) == 0 || !strings.HasPrefix(got[0], "72:38-72:40 claim-mismatch ") {
		t.Fatalf("after the edit: %q, want a claim-mismatch at 72:38-72:40", got)
	}
	file := filepath.Join(root, filepath.FromSlash(ko))
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(orig), "\n")
	lines[72] = strings.Replace(lines[72], "[3회]", "[4회]", 1)
	if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ file, uri string }{{ko, kuri}, {ja, juri}} {
		got, want := published(c.diagnostics(f.uri)), checkOnDisk(t, root, f.file)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s after the edit: published\n%s\nevdoc check on the saved edit:\n%s", f.file, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	// The evidence changes on disk and is saved: the raw count 3 becomes
	// 4, and the edited claim matches again.
	rep := filepath.Join(root, "evidence", "retry-istio-1.31", "report.md")
	rb, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	rl := strings.SplitAfter(string(rb), "\n")
	changed := false
	for i, l := range rl {
		if strings.Contains(l, "빠른 503") && strings.Contains(l, "| 3 |") {
			rl[i] = strings.Replace(l, "| 3 |", "| 4 |", 1)
			changed = true
		}
	}
	if !changed {
		t.Fatalf("%s: no row 빠른 503 with a cell 3", rep)
	}
	if err := os.WriteFile(rep, []byte(strings.Join(rl, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": c.uri("evidence/retry-istio-1.31/report.md")}})
	c.sync()
	for _, f := range []struct{ file, uri string }{{ko, kuri}, {ja, juri}} {
		got, want := published(c.diagnostics(f.uri)), checkOnDisk(t, root, f.file)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s after the evidence save: published\n%s\nevdoc check:\n%s", f.file, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for _, g := range published(c.diagnostics(kuri)) {
		if strings.HasPrefix(g, "72:38-") {
			t.Errorf("the edited claim matches the saved evidence, still published: %s", g)
		}
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}
