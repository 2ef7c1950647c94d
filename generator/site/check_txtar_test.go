package site

import (
	"bytes"
	"strconv"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestCheckArchives runs `check` on each testdata/check/*.txtar project and
// compares its diagnostics (text format, with related notes) and the count
// of matching claims with the archive's "want" file. With -update the
// "want" file is rewritten.
func TestCheckArchives(t *testing.T) {
	txtartest.Run(t, "testdata/check/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		var got bytes.Buffer
		s, err := Load(dir)
		if err != nil {
			got.WriteString("cannot run: " + err.Error() + "\n")
			return got.Bytes()
		}
		results, ds := s.Check(check.DefaultOptions())
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
		return got.Bytes()
	})
}
