package check_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

var update = flag.Bool("update", false, "rewrite the \"want\" files of testdata/cases/*.txtar")

// TestCases runs check on each testdata/cases/*.txtar project (the cases
// of ../shared/cases, with the right verdicts) and compares every
// diagnostic and the count of matching claims with the archive's "want"
// file. Run with -update to rewrite "want" after reviewing the change.
func TestCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.txtar")
	if len(files) == 0 {
		t.Fatal("no archives")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := txtartest.Write(t, ar)
			s, err := site.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			results, ds := s.Check(check.DefaultOptions())
			var got bytes.Buffer
			for _, d := range ds {
				if strings.HasPrefix(string(d.Rule), "claim-") { // this package's findings only
					got.WriteString(d.String() + "\n")
				}
			}
			for _, r := range results {
				verdict := "ok"
				if !r.OK {
					verdict = "FAIL"
				}
				got.WriteString(r.Claim.Pos.String() + ": " + verdict + " [" + r.Claim.Literal + "]\n")
			}
			ok := 0
			for _, r := range results {
				if r.OK {
					ok++
				}
			}
			got.WriteString("claims ok: " + strconv.Itoa(ok) + "/" + strconv.Itoa(len(results)) + "\n")
			idx := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					idx = i
				}
			}
			if *update {
				if idx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					idx = len(ar.Files) - 1
				}
				ar.Files[idx].Data = got.Bytes()
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if idx < 0 {
				t.Fatalf("no want file; run with -update\ngot:\n%s", got.String())
			}
			if want := ar.Files[idx].Data; !bytes.Equal(got.Bytes(), want) {
				t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
			}
		})
	}
}
