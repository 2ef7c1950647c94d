package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

func TestReadTables(t *testing.T) {
	src := "# Report\n\n## §1 STRICT\n\n| counter | BEFORE | AFTER |\n|---|---:|---|\n| a | 1 | **2 (+1)** |\n| b \\| c | 3 |  |\n\n```\n| x | y |\n|---|---|\n```\n## bad\n| a | b |\n|---|\n"
	tables, errs := raw.ReadTables("r.md", []byte(src))
	if len(tables) != 1 {
		t.Fatalf("got %d tables, want 1", len(tables))
	}
	tb := tables[0]
	if tb.Heading != "§1 STRICT" || tb.HeadingPos.String() != "r.md:3:4" {
		t.Errorf("heading = %q at %s", tb.Heading, tb.HeadingPos)
	}
	if len(tb.Header) != 3 || tb.Header[2].Text != "AFTER" {
		t.Errorf("header = %+v", tb.Header)
	}
	if got := tb.Rows[0][2]; got.Text != "**2 (+1)**" || got.Pos.String() != "r.md:7:11" {
		t.Errorf("cell = %q at %s", got.Text, got.Pos)
	}
	if got := tb.Rows[1][0].Text; got != `b \| c` {
		t.Errorf("escaped pipe cell = %q", got)
	}
	if got := tb.Rows[1][2]; got.Text != "" {
		t.Errorf("empty cell = %q", got.Text)
	}
	if len(errs) != 1 || errs[0].Pos.String() != "r.md:16:1" || !strings.Contains(errs[0].Message, "delimiter row has 1 cells but its header row has 2") {
		t.Errorf("errs = %v", errs)
	}
}

func FuzzReadTables(f *testing.F) {
	addSamples(f, "markdown-tables", "| a | b |\n|---|---|\n| x | **1 (+1)** |\n")
	f.Add([]byte("| Command | Mean [ms] | Relative |\n|:---|---:|---:|\n| x | 319.5 ± 11.2 | 60.74 +/- 2.49 |\n| y | 5 ms ± 3% | ± 1 |\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tables, errs := raw.ReadTables("f.md", src)
		ix := diag.NewLineIndex("f.md", src)
		for _, e := range errs {
			inside(t, src, e.Pos, ix)
		}
		for _, tb := range tables {
			inside(t, src, tb.Pos, ix)
			for _, row := range append([][]raw.Cell{tb.Header}, tb.Rows...) {
				for _, c := range row {
					inside(t, src, c.Pos, ix)
					if c.Text != "" && !strings.HasPrefix(string(src[c.Pos.Offset:]), c.Text) {
						t.Fatalf("cell %q not at %v", c.Text, c.Pos)
					}
				}
			}
		}
		checkNoVanish(t, "markdown-tables", src, raw.ReadOptions{})
	})
}
