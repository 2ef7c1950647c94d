package checker

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestCheckArchives runs `check` on each testdata/check/*.txtar project and
// compares its diagnostics (text format, with related notes) and the count
// of matching claims with the archive's "want" file. With -update the
// "want" file is rewritten.
func TestCheckArchives(t *testing.T) {
	txtartest.Run(t, "testdata/check/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		var got bytes.Buffer
		s, err := project.Load(dir)
		if err != nil {
			got.WriteString("cannot run: " + err.Error() + "\n")
			return got.Bytes()
		}
		results, ds := Check(s, check.DefaultOptions())
		txtartest.CheckRanges(t, ds)
		if err := report.Write(&got, "text", ds, nil); err != nil {
			t.Fatal(err)
		}
		ok := 0
		for _, r := range results {
			if r.OK {
				ok++
			}
		}
		got.WriteString("claims ok: " + strconv.Itoa(ok) + "/" + strconv.Itoa(len(results)) + "\n")
		// The same project loaded lazily and checked a translation group
		// at a time gives the same verdicts and holds no parsed page.
		ls, err := project.LoadWith(dir, project.LoadOptions{Lazy: true})
		if err != nil {
			t.Fatalf("lazy load: %v (an eager load succeeded)", err)
		}
		lc := NewChecker(ls, check.DefaultOptions())
		if n := parsedPages(lc); n != 0 {
			t.Errorf("lazy check: %d pages still parsed after the check", n)
		}
		if want, got := verdicts(t, results, diagStrings(ds), Coverage(s)), verdicts(t, lc.Results(), diagStrings(lc.Diagnostics()), lc.Coverage()); got != want {
			t.Errorf("lazy check differs from the eager one:\neager: %.3000s\nlazy:  %.3000s", diagStrings(ds), diagStrings(lc.Diagnostics()))
		}
		return got.Bytes()
	})
}

// TestRangesCoverTheirText: in testdata/check/ranges.txtar each finding's
// range [Pos, End) covers the text it is about, byte for byte.
func TestRangesCoverTheirText(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/check/ranges.txtar")
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, ds := Check(s, check.DefaultOptions())
	want := map[diag.RuleID]string{
		diag.ClaimMismatch:      "40",
		diag.ClaimUnitOutside:   "초",
		diag.ClaimExemptReason:  "ev:exempt",
		diag.LinkMalformed:      "/a%zz/",
		diag.PageHTML:           "<div>raw</div>",
		diag.EvidenceCurlLocale: "1,232",
		diag.EvidenceDerived:    `"x.ratio"`,
		diag.EvidenceSelect:     `"cluster.nope.upstream_rq_total"`,
	}
	seen := map[diag.RuleID]bool{}
	for _, d := range ds {
		w, ok := want[d.Rule]
		if !ok {
			t.Errorf("unexpected finding %s", d)
			continue
		}
		seen[d.Rule] = true
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Pos.File)))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(src[d.Pos.Offset:d.End.Offset]); got != w {
			t.Errorf("%s [%s] covers %q, want %q", d.Pos, d.Rule, got, w)
		}
	}
	for r := range want {
		if !seen[r] {
			t.Errorf("no %s finding", r)
		}
	}
}
