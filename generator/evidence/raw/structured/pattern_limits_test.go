package structured_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"fmt"
	"strings"
	"testing"
)

// TestPatternLimits: a pattern over MaxPatternLen bytes, with more than
// MaxPatternGroups capture groups or compiling to more than
// MaxPatternInsts instructions is refused with an error that names the
// limit and quotes at most quoteLen bytes of it; patterns at the limits
// compile and read.
func TestPatternLimits(t *testing.T) {
	groups := func(n int) string {
		var b strings.Builder
		for i := 0; i < n-1; i++ {
			fmt.Fprintf(&b, `(?P<g%d>\d)?`, i)
		}
		return b.String() + `(?P<v>\d+)`
	}
	for _, tc := range []struct {
		name, p, want string
	}{
		{"groups at the limit", groups(structured.MaxPatternGroups), ""},
		{"groups over the limit", groups(structured.MaxPatternGroups + 1), "101 capture groups ("},
		{"one name, many groups", strings.Repeat(`(?P<v>\d+)?`, 300), "300 capture groups ("},
		{"long", `(?P<v>\d+)` + strings.Repeat("x?", structured.MaxPatternLen), "bytes long (\""},
		{"alternation", `req (?P<v>\d+) (?:` + strings.Repeat("w|", 3000) + `ok)`, "bytes long (\""},
		{"instructions", `(?P<v>\d+)` + strings.Repeat(`\d{0,1000}`, 25), "instructions compiled ("},
		{"deep", strings.Repeat("(", 2000) + `(?P<v>\d+)` + strings.Repeat(")", 2000), "expression nests too deeply"},
	} {
		_, err := structured.CompilePattern(tc.p)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		case err != nil && tc.name != "deep" && !strings.Contains(err.Error(), "expected at most"):
			t.Errorf("%s: %v does not name the limit", tc.name, err)
		case err != nil && len(err.Error()) > 300:
			t.Errorf("%s: error of %d bytes quotes the whole pattern: %.120s…", tc.name, len(err.Error()), err)
		}
	}
	// At the group limit every group of a line is still read, and the
	// reader's error for a refused pattern is as short.
	src := []byte(strings.Repeat("1", structured.MaxPatternGroups-1) + "42\n")
	rs, errs := rawtest.AllOf(structured.ReadPattern("f.txt", src, raw.ReadOptions{Patterns: []string{groups(structured.MaxPatternGroups)}}))
	if errs.HasErrors() || len(rs) != structured.MaxPatternGroups || rs[len(rs)-1].Key != "v" || rs[len(rs)-1].Raw != "42" {
		t.Errorf("at the limit: %d readings (last %+v), %v; want %d, v = 42", len(rs), rs[len(rs)-1], errs, structured.MaxPatternGroups)
	}
	_, errs = rawtest.AllOf(structured.ReadPattern("f.txt", src, raw.ReadOptions{Patterns: []string{groups(200)}}))
	if got := fmt.Sprint(errs); !strings.Contains(got, "capture groups") || len(got) > 500 {
		t.Errorf("over the limit: %.300s", got)
	}
}

// BenchmarkPatternLineGroups: reading a line costs time linear in the
// pattern's groups (it was quadratic: each group looked up its _unit
// group among all of them).
func BenchmarkPatternLineGroups(b *testing.B) {
	var p strings.Builder
	for i := 0; i < structured.MaxPatternGroups; i++ {
		fmt.Fprintf(&p, `(?P<g%d>\d) `, i)
	}
	line := strings.Repeat("7 ", structured.MaxPatternGroups) + "\n"
	src := []byte(strings.Repeat(line, 100))
	opt := raw.ReadOptions{Patterns: []string{p.String()}}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, errs := rawtest.AllOf(structured.ReadPattern("f.txt", src, opt)); errs.HasErrors() {
			b.Fatal(errs)
		}
	}
}
