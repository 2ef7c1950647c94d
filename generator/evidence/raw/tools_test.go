package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"

	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestToolSamples reads every sample under testdata/tools/FORMAT/ (the
// outside cases' real outputs, named case*, and samples written in each
// tool's documented format) with the reader of FORMAT and holds that:
// Sniff names FORMAT, the reader reports no error, every reading keeps
// its raw text at its position, no field with a digit vanishes
// (vanished), and the readings — key, value, unit, raw text, line:col —
// and diagnostics equal the sample's golden file (NAME.golden; rewrite
// with -update and review the diff).
func TestToolSamples(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/tools/*")
	if len(dirs) == 0 {
		t.Fatal("no samples")
	}
	for _, dir := range dirs {
		format := filepath.Base(dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		n := 0
		for _, p := range files {
			if strings.HasSuffix(p, ".golden") {
				continue
			}
			n++
			t.Run(format+"/"+filepath.Base(p), func(t *testing.T) {
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				base := filepath.Base(p)
				want := format
				if strings.Contains(base, "in-transcript") {
					want = "transcript" // pasted under a transcript's [ID] section: read with --as
				}
				if got := formats.Sniff(base, src); got != want {
					t.Errorf("Sniff = %q, want %q", got, want)
				}
				read, err := formats.ReaderFor(format)
				if err != nil {
					t.Fatal(err)
				}
				rs, errs := read(base, src, raw.ReadOptions{})
				rawtest.CheckReadings(t, src, rs, errs, nil)
				if errs.HasErrors() {
					t.Errorf("errors: %v", errs)
				}
				if len(rs) == 0 {
					t.Errorf("no readings")
				}
				if v := rawtest.Vanished(format, src, rs, errs); len(v) > 0 {
					t.Errorf("%d fields with digits vanished: %q", len(v), v)
				}
				var got bytes.Buffer
				for _, r := range rs {
					fmt.Fprintf(&got, "%d:%d %s = %s %s %q\n", r.Pos.Line, r.Pos.Column, r.Key, r.Number.Value, rawtest.UnitOrDash(r.Number.Unit), r.Raw)
				}
				for _, e := range errs {
					fmt.Fprintf(&got, "%s\n", e)
				}
				golden := p + ".golden"
				if txtartest.Updating() {
					if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				gold, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if !bytes.Equal(got.Bytes(), gold) {
					t.Errorf("readings differ from %s (run with -update and review the diff):\n%s", golden, lineDiff(string(gold), got.String()))
				}
			})
		}
		if n < 2 {
			t.Errorf("%s: %d samples; expected the outside case and samples of its own", format, n)
		}
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
