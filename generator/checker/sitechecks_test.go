package checker

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestSiteChecksReportTheirRules runs each site-level check on every
// testdata/check project and holds that it reports only the rules it
// lists, and that together they report some of each.
func TestSiteChecksReportTheirRules(t *testing.T) {
	files, _ := filepath.Glob("testdata/check/*.txtar")
	reported := 0
	for _, file := range files {
		s, err := project.Load(txtartest.WriteFile(t, file))
		if err != nil {
			continue
		}
		for i, c := range siteChecks(s, check.DefaultOptions()) {
			for _, d := range c.run() {
				reported++
				if !slices.Contains(c.rules, d.Rule) {
					t.Errorf("%s: site check %d (rules %v) reported %s", file, i, c.rules, d)
				}
			}
		}
	}
	if reported == 0 {
		t.Error("no site-level check reported anything; the test projects no longer exercise them")
	}
}
