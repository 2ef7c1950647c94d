package site

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/internal/txtartest"

	"github.com/evdoc-lab/evdoc/generator/check"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestCheckArchives runs `check` on each testdata/check/*.txtar project and
// compares its diagnostics with the archive's "want" file. With -update the
// "want" file is rewritten.
func TestCheckArchives(t *testing.T) {
	files, _ := filepath.Glob("testdata/check/*.txtar")
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
			var got bytes.Buffer
			s, err := Load(dir)
			if err != nil {
				got.WriteString("cannot run: " + err.Error() + "\n")
			} else {
				results, ds := s.Check(check.DefaultOptions())
				for _, d := range ds {
					got.WriteString(d.String() + "\n")
					for _, r := range d.Related {
						got.WriteString("\t" + r.Pos.String() + ": note: " + r.Message + "\n")
					}
				}
				ok := 0
				for _, r := range results {
					if r.OK {
						ok++
					}
				}
				got.WriteString("claims ok: " + itoa(ok) + "/" + itoa(len(results)) + "\n")
			}
			var want []byte
			idx := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					want, idx = f.Data, i
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
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got.String(), want)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
