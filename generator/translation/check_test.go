package translation_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestCheckArchives runs `check` on each testdata/check/*.txtar project
// and compares the translation diagnostics (rules starting with
// "translation" or "i18n"), with their related notes, and their count
// with the archive's "want" file; -update rewrites it.
func TestCheckArchives(t *testing.T) {
	txtartest.Run(t, "testdata/check/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		var got bytes.Buffer
		s, err := project.Load(dir)
		if err != nil {
			got.WriteString("cannot run: " + err.Error() + "\n")
			return got.Bytes()
		}
		_, ds := checker.Check(s, check.DefaultOptions())
		txtartest.CheckRanges(t, ds)
		var mine diag.List
		for _, d := range ds {
			if strings.HasPrefix(string(d.Rule), "translation") || strings.HasPrefix(string(d.Rule), "i18n") {
				mine = append(mine, d)
			}
		}
		if err := report.Write(&got, "text", mine, nil); err != nil {
			t.Fatal(err)
		}
		got.WriteString("translation findings: " + strconv.Itoa(len(mine)) + "\n")
		return got.Bytes()
	})
}

// TestReferencePairsAgree: the reference site's ko/ja pairs have no
// translation finding with the rules at their default severities
// (parity errors on).
func TestReferencePairsAgree(t *testing.T) {
	s, err := project.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	s.Rules = nil // the catalogue's defaults, whatever evdoc.toml says
	_, ds := checker.Check(s, check.DefaultOptions())
	for _, d := range ds {
		// (a stale translation is a warning of the editing workflow, not a disagreement)
		if strings.HasPrefix(string(d.Rule), "translation-") && d.Rule != "translation-stale" || d.Rule == "page-emphasis" {
			t.Errorf("%s", d)
		}
	}
}
