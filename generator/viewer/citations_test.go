package viewer_test

import (
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

// citationsTwice is Citations of data with every unit twice: each
// page's runs are then given twice, and each citation must still be
// listed once.
func citationsTwice(s *project.Site, data *stagedata.StageData, lang string, fallbacks []project.Fallback) map[string]map[int][]viewer.Citation {
	twice := &stagedata.StageData{Units: append(append([]*stagedata.ClaimStage{}, data.Units...), data.Units...)}
	return viewer.Citations(s, twice, lang, fallbacks)
}

// TestCitations: on the generator/checker testdata projects, each
// language's citations from the StageData a Checker keeps page by page
// (as evdoc build makes it) equal those from every claim's Result, and
// each is listed once, also when the data holds every unit twice.
func TestCitations(t *testing.T) {
	files, err := filepath.Glob("../checker/testdata/check/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	cited := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			s, err := project.Load(txtartest.WriteFile(t, file))
			if err != nil {
				t.Skipf("does not load: %v", err)
			}
			results, _ := checker.Check(s, check.DefaultOptions())
			all := stagedata.StageDataOf(results)
			paged := checker.NewCheckerWith(s, checker.CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: true}).StageData()
			fallbacks := s.Fallbacks()
			for _, l := range s.Config.Ordered() {
				want := viewer.Citations(s, all, l.Code, fallbacks[l.Code])
				if got := viewer.Citations(s, paged, l.Code, fallbacks[l.Code]); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: citations from the Checker's StageData:\n%v\nwant (from every Result):\n%v", l.Code, got, want)
				}
				if got := citationsTwice(s, paged, l.Code, fallbacks[l.Code]); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: citations of every unit twice:\n%v\nwant each once:\n%v", l.Code, got, want)
				}
				for _, lines := range want {
					for _, cs := range lines {
						cited += len(cs)
					}
				}
			}
		})
	}
	if cited < 50 {
		t.Errorf("%d citations in all; expected the projects' many", cited)
	}
}
