package structured_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"fmt"
	"strings"
	"testing"
)

// TestCountWhereBounds: a count_where predicate that would build more
// than PredicateBudget elements on a row, or that uses let or reduce(),
// is an error naming the limit, never a count; one within the budget
// still counts every row.
func TestCountWhereBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,code,latency_ms\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "r%d,%d,%d\n", i, map[bool]int{true: 503, false: 200}[i%5 == 0], i+1)
	}
	src := []byte(b.String())
	for _, tc := range []struct{ pred, want string }{
		{`code == 503`, "count 10"},
		{`count(1..10, # > 0) == 10 && code == 503`, "count 10"},
		{`count(1..900000, # > 0) > 0`, "builds more than 1000 elements on one row"},
		{`len(map(1..900000, repeat("x", 100))) > 0`, "builds more than 1000 elements on one row"},
		{`len(repeat("x", 1000000000)) > 0`, "builds more than 1000 elements on one row"},
		{`count(1..999, count(1..999, # > 0) > 0) > 0`, "builds more than 1000 elements on one row"},
		{`let a = id + id; len(a) > 0`, "let a is not allowed"},
		{`reduce(1..10, #acc + id, "") != ""`, "reduce() is not allowed"},
		{strings.Repeat("code + ", 600) + "code > 0", "more than 1000 syntax nodes"},
	} {
		rs, errs := rawtest.AllOf(structured.ReadCSV("r.csv", src, raw.ReadOptions{CountWhere: map[string]string{"x": tc.pred}}))
		got := fmt.Sprint(errs)
		for _, r := range rs {
			if r.Key == "x" {
				got = "count " + r.Number.Value.String()
			}
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%.60s: got %s, want %s", tc.pred, got, tc.want)
		}
		if strings.Contains(tc.want, "more than") && len(got) > 600 {
			t.Errorf("%.60s: the error quotes %d bytes; expected the predicate cut", tc.pred, len(got))
		}
	}
	// The access-log reader's predicates have the same bounds.
	log := []byte(`[2024-03-01T08:15:02.000Z] "GET /api HTTP/1.1" 200 - 0 12 3 2 "-" "hey/0.0.1" "5f1c" "items.lab:8080" "10.1.4.7:8080"` + "\n")
	_, errs := rawtest.AllOf(structured.ReadAccessLog("a.log", log, raw.ReadOptions{CountWhere: map[string]string{"x": `count(1..900000, # > 0) > 0`}}))
	if !strings.Contains(fmt.Sprint(errs), "builds more than 1000 elements") {
		t.Errorf("access log: %v, want the budget error", errs)
	}
}
