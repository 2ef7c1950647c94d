package viewer_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/viewer"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestClaimsOfOnce: on the generator/checker testdata projects, with
// the StageData a Checker keeps page by page (DestClaims shared between
// pages) and every unit twice, ClaimsOfOnce with an of that keeps its
// answer by *DestClaim gives ClaimsOf's data, and calls of with the same
// claims in the same order (the order of the first call with each),
// also when of fails for every other claim it is asked about and for
// every claim of a destination written at several precisions.
func TestClaimsOfOnce(t *testing.T) {
	files, err := filepath.Glob("../checker/testdata/check/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	shared := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			s, err := project.Load(txtartest.WriteFile(t, file))
			if err != nil {
				t.Skipf("does not load: %v", err)
			}
			v, err := viewer.New(context.Background(), s)
			if err != nil {
				t.Skipf("no viewer: %v", err)
			}
			paged := checker.NewCheckerWith(s, checker.CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: true}).StageData()
			data := &stagedata.StageData{Units: append(append([]*stagedata.ClaimStage{}, paged.Units...), paged.Units...)}
			multi, _ := data.PrecisionMarks()
			seen := map[*stagedata.DestClaim]bool{}
			for _, u := range data.Units {
				for _, d := range u.Dests {
					if seen[d] {
						shared++
					}
					seen[d] = true
				}
			}
			for _, fail := range []string{"none", "every other", "several precisions"} {
				// of as the staging's cache is: one answer per claim, kept
				memo := func(order *[]*stagedata.DestClaim) func(d *stagedata.DestClaim) (viewer.ClaimData, bool) {
					type answer struct {
						cd viewer.ClaimData
						ok bool
					}
					kept := map[*stagedata.DestClaim]answer{}
					n := 0
					return func(d *stagedata.DestClaim) (viewer.ClaimData, bool) {
						if a, ok := kept[d]; ok {
							return a.cd, a.ok
						}
						*order = append(*order, d)
						cd, ok := v.ClaimDataOf(d, s.Store)
						switch fail {
						case "every other":
							ok = ok && n%2 == 0
						case "several precisions":
							ok = ok && !multi[d.Dest]
						}
						n++
						kept[d] = answer{cd, ok}
						return cd, ok
					}
				}
				var wantOrder, gotOrder []*stagedata.DestClaim
				want := viewer.ClaimsOf(data, multi, memo(&wantOrder))
				got := viewer.ClaimsOfOnce(data, multi, memo(&gotOrder))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("fail %s: ClaimsOfOnce\n%v\nwant (ClaimsOf)\n%v", fail, got, want)
				}
				if !reflect.DeepEqual(gotOrder, wantOrder) {
					t.Errorf("fail %s: ClaimsOfOnce asked of about %d claims, ClaimsOf about %d, or in another order", fail, len(gotOrder), len(wantOrder))
				}
			}
		})
	}
	if shared == 0 {
		t.Error("no DestClaim met twice: the test tells nothing")
	}
}
