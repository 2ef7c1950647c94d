package serve

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestIncrementalAgreesWithFull applies a series of edits to a project and
// expects IncrementalRechecker to report, after each, exactly what a fresh
// load and check (FullRechecker) reports.
func TestIncrementalAgreesWithFull(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	ctx := context.Background()
	full := FullRechecker{Root: dir, Check: check.DefaultOptions()}
	inc := &IncrementalRechecker{Root: dir, Check: check.DefaultOptions()}
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Findings.HasErrors() {
		t.Fatalf("the project is not clean to begin with:\n%v", st.Findings)
	}
	edit := func(file, old, new string) func() {
		return func() {
			p := filepath.Join(dir, filepath.FromSlash(file))
			b, err := os.ReadFile(p)
			if err != nil && old != "" {
				t.Fatal(err)
			}
			if old != "" && !strings.Contains(string(b), old) {
				t.Fatalf("%s lacks %q", file, old)
			}
			s := strings.Replace(string(b), old, new, 1)
			if old == "" {
				s = new
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(file string) func() {
		return func() {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, step := range []struct {
		name    string
		do      func()
		changed []string
		want    string // a finding message part the step must produce; "" for clean
	}{
		{"break a claim", edit("content/ko/docs/p.md", "[15건]", "[16건]"), []string{"content/ko/docs/p.md"}, "does not match"},
		{"fix it", edit("content/ko/docs/p.md", "[16건]", "[15건]"), []string{"content/ko/docs/p.md"}, ""},
		{"add a page linking nowhere", edit("content/ko/docs/u.md", "", "---\ntitle: u\n---\n\n[s](/docs/nowhere/) 글.\n"), []string{"content/ko/docs/u.md"}, "no such page"},
		{"remove it", remove("content/ko/docs/u.md"), []string{"content/ko/docs/u.md"}, ""},
		{"break the evidence", edit("evidence/d3/report.md", "| A | 15 |", "| A | 17 |"), []string{"evidence/d3/report.md"}, "does not match"},
		{"static file only", edit("static/x.css", "", "body{}"), []string{"static/x.css"}, "does not match"},
		{"mend the evidence", edit("evidence/d3/report.md", "| A | 17 |", "| A | 15 |"), []string{"evidence/d3/report.md"}, ""},
		{"translation drifts", edit("content/ja/docs/p.md", "[15件]", "[14件]"), []string{"content/ja/docs/p.md"}, "does not match"},
	} {
		step.do()
		checker := inc.checker
		next, err := inc.Recheck(ctx, st, step.changed)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		want, err := full.Recheck(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(next.Findings, want.Findings) {
			t.Errorf("%s: incremental findings\n%v\nwant (full check)\n%v", step.name, next.Findings, want.Findings)
		}
		if len(next.Results) != len(want.Results) {
			t.Errorf("%s: %d results, want %d", step.name, len(next.Results), len(want.Results))
		}
		got := next.Findings.Error()
		if step.want == "" && next.Findings.HasErrors() || step.want != "" && !strings.Contains(got, step.want) {
			t.Errorf("%s: findings %q, want %q", step.name, got, step.want)
		}
		// Page edits and unchecked files keep the Checker (the
		// incremental path); anything else loads the project again.
		_, pagesOnly := pageEdits(st.Site.Config, step.changed)
		if kept := inc.checker == checker; kept != pagesOnly {
			t.Errorf("%s: Checker kept = %v, want %v", step.name, kept, pagesOnly)
		}
		st = next
	}
}
