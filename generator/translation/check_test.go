package translation_test

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

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestCheckArchives runs `check` on each testdata/check/*.txtar project
// and compares the translation diagnostics (rules starting with
// "translation" or "i18n") with the archive's "want" file.
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
			s, err := site.Load(dir)
			if err != nil {
				got.WriteString("cannot run: " + err.Error() + "\n")
			} else {
				_, ds := s.Check(check.DefaultOptions())
				n := 0
				for _, d := range ds {
					if !strings.HasPrefix(string(d.Rule), "translation") && !strings.HasPrefix(string(d.Rule), "i18n") {
						continue
					}
					n++
					got.WriteString(d.String() + "\n")
					for _, r := range d.Related {
						got.WriteString("\t" + r.Pos.String() + ": note: " + r.Message + "\n")
					}
				}
				got.WriteString("translation findings: " + strconv.Itoa(n) + "\n")
			}
			checkGolden(t, file, ar, got.Bytes())
		})
	}
}

// checkGolden compares got with the archive's "want" file, or rewrites it
// with -update.
func checkGolden(t *testing.T, file string, ar *txtar.Archive, got []byte) {
	t.Helper()
	var want []byte
	idx := -1
	for i, f := range ar.Files {
		if f.Name == txtartest.WantFile {
			want, idx = f.Data, i
		}
	}
	if *update {
		if idx < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: txtartest.WantFile})
			idx = len(ar.Files) - 1
		}
		ar.Files[idx].Data = got
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestReferencePairsAgree: the reference site's ko/ja pairs have no
// translation finding with the rules at their default severities
// (parity errors on).
func TestReferencePairsAgree(t *testing.T) {
	s, err := site.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	s.Rules = nil // the catalogue's defaults, whatever evdoc.toml says
	_, ds := s.Check(check.DefaultOptions())
	for _, d := range ds {
		// (a stale translation is a warning of the editing workflow, not a disagreement)
		if strings.HasPrefix(string(d.Rule), "translation-") && d.Rule != "translation-stale" || d.Rule == "page-emphasis" {
			t.Errorf("%s", d)
		}
	}
}
