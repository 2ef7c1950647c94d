package check_test

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestCases runs check on each testdata/cases/*.txtar project (the cases
// of ../shared/cases, with the right verdicts) and compares every
// diagnostic of this package's rules (claim-*), each claim's verdict and
// the count of matching claims with the archive's "want" file. Run with
// -update to rewrite "want" after reviewing the change.
func TestCases(t *testing.T) {
	txtartest.Run(t, "testdata/cases/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		results, ds := checker.Check(s, check.DefaultOptions())
		// Counts finds what Claims finds, keeping no Result
		for _, p := range s.Pages {
			if p.Parsed == nil {
				continue
			}
			rs, want := check.Claims(p.Parsed, s.Store, check.DefaultOptions())
			matched := 0
			for _, r := range rs {
				if r.OK {
					matched++
				}
			}
			total, m, got := check.Counts(p.Parsed, s.Store, check.DefaultOptions())
			if total != len(rs) || m != matched || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Counts = %d, %d, %d findings; Claims: %d, %d, %d findings", p.Path, total, m, len(got), len(rs), matched, len(want))
			}
		}
		txtartest.CheckRanges(t, ds)
		var got bytes.Buffer
		for _, d := range ds {
			if strings.HasPrefix(string(d.Rule), "claim-") { // this package's findings only
				got.WriteString(d.String() + "\n")
			}
		}
		ok := 0
		for _, r := range results {
			verdict := "ok"
			if r.OK {
				ok++
			} else {
				verdict = "FAIL"
			}
			got.WriteString(r.Claim.Pos.String() + ": " + verdict + " [" + r.Claim.Literal + "]\n")
		}
		got.WriteString("claims ok: " + strconv.Itoa(ok) + "/" + strconv.Itoa(len(results)) + "\n")
		return got.Bytes()
	})
}
