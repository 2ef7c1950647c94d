package serve

import (
	"context"
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestIncrementalKeepsCitingClaims: evdoc serve's re-check of an
// evidence save judges the pages citing a changed value from the claims
// the checker kept of them at the last evidence save
// (checker.CheckerOptions.KeepCiting), without parsing them again: the
// first save parses p (ko and ja), the saves after it parse nothing,
// a save of p parses it, and the next evidence save parses it again
// (its kept claims are of its old text). The findings are a fresh
// check's at each step.
func TestIncrementalKeepsCitingClaims(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	ctx := context.Background()
	inc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	full := FullRechecker{Root: dir, Check: check.DefaultOptions()}
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(file, old, new string) {
		t.Helper()
		replaceIn(t, dir, file, old, new)
	}
	const report = "evidence/d3/report.md"
	for _, step := range []struct {
		name           string
		file, old, new string
		parsed         int
	}{
		{"break the evidence: p and its translation parsed", report, "| A | 15 |", "| A | 17 |", 2},
		{"mend it: judged from the kept claims", report, "| A | 17 |", "| A | 15 |", 0},
		{"break it again", report, "| A | 15 |", "| A | 17 |", 0},
		{"p saved: p and its translation (the pair) parsed", "content/ko/docs/p.md", "[15건]", "[17건]", 2},
		{"mend the evidence: p parsed, its translation kept", report, "| A | 17 |", "| A | 15 |", 1},
		{"break it again: both kept", report, "| A | 15 |", "| A | 17 |", 0},
	} {
		edit(step.file, step.old, step.new)
		before := inc.checker.Parses()
		next, err := inc.Recheck(ctx, st, []string{step.file})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if next.Site != st.Site {
			t.Fatalf("%s: the project was loaded again", step.name)
		}
		st = next
		if got := inc.checker.Parses() - before; got != step.parsed {
			t.Errorf("%s: %d pages parsed, want %d", step.name, got, step.parsed)
		}
		want, err := full.Recheck(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st.Findings, want.Findings) {
			t.Errorf("%s: findings differ from a fresh check:\nfresh:\n%v\nre-checked:\n%v", step.name, want.Findings, st.Findings)
		}
	}
}
