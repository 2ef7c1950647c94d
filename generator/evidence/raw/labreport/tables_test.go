package labreport_test

import (
	"fmt"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"

	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

func TestReadTables(t *testing.T) {
	src := "# Report\n\n## §1 STRICT\n\n| counter | BEFORE | AFTER |\n|---|---:|---|\n| a | 1 | **2 (+1)** |\n| b \\| c | 3 |  |\n\n```\n| x | y |\n|---|---|\n```\n## bad\n| a | b |\n|---|\n"
	tables, errs := labreport.ReadTables("r.md", []byte(src))
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
	rawtest.AddSamples(f, "markdown-tables", "| a | b |\n|---|---|\n| x | **1 (+1)** |\n")
	f.Add([]byte("| Command | Mean [ms] | Relative |\n|:---|---:|---:|\n| x | 319.5 ± 11.2 | 60.74 +/- 2.49 |\n| y | 5 ms ± 3% | ± 1 |\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tables, errs := labreport.ReadTables("f.md", src)
		ix := diag.NewLineIndex("f.md", src)
		for _, e := range errs {
			rawtest.Inside(t, src, e.Pos, ix)
		}
		for _, tb := range tables {
			rawtest.Inside(t, src, tb.Pos, ix)
			for _, row := range append([][]labreport.Cell{tb.Header}, tb.Rows...) {
				for _, c := range row {
					rawtest.Inside(t, src, c.Pos, ix)
					if c.Text != "" && !strings.HasPrefix(string(src[c.Pos.Offset:]), c.Text) {
						t.Fatalf("cell %q not at %v", c.Text, c.Pos)
					}
				}
			}
		}
		rawtest.CheckNoVanish(t, "markdown-tables", src, raw.ReadOptions{})
	})
}

// TestCellReadings (columns are byte columns: ± is two bytes): a cell "A ± B" is a mean and its spread, two readings
// at their own positions, the spread knowing whose it is; a unit written
// once, or by the column header, applies to both; a percentage after a
// number in another unit is relative. A cell of one number reads as
// before, with the header's unit when it writes none.
func TestCellReadings(t *testing.T) {
	tests := []struct {
		text, colUnit string
		want          string // "key=value unit @col [of KEY rel]; …", or "warning"
	}{
		{"319.5 ± 11.2", "ms", "m=319.5 ms @1; m_pm=11.2 ms @10 of m"},
		{"319.5 ± 11.2", "", "m=319.5 - @1; m_pm=11.2 - @10 of m"},
		{"319.5 ms ± 11.2 ms", "", "m=319.5 ms @1; m_pm=11.2 ms @13 of m"},
		{"319.5 ± 11.2ms", "", "m=319.5 ms @1; m_pm=11.2 ms @10 of m"},
		{"319.5ms ± 11.2", "", "m=319.5 ms @1; m_pm=11.2 ms @12 of m"},
		{"1.2s ± 300ms", "", "m=1.2 s @1; m_pm=300 ms @9 of m"},
		{"825 ± 11%", "us", "m=825 us @1; m_pm=11 % @8 of m rel"},
		{"44% ± 2%", "", "m=44 % @1; m_pm=2 % @8 of m"}, // points, as a claim reads it
		{"60.74 +/- 2.49", "", "m=60.74 - @1; m_pm=2.49 - @11 of m"},
		{"**5.3 ± 0.1**", "ms", "m=5.3 ms @3; m_pm=0.1 ms @10 of m"},
		{"5.1", "ms", "m=5.1 ms @1"},
		{"5.1s", "ms", "m=5.1 s @1"}, // the cell's own unit
		{"1.00", "", "m=1 - @1"},
		{"± 11.2", "ms", "warning"},
		{"319.5 ± ", "ms", "warning"},
		{"319.5 ± x", "ms", "warning"},
		{"319.5 ± -3", "ms", "warning"}, // a signed spread is no spread
		{"n/a", "ms", ""},
	}
	for _, tt := range tests {
		rs, warn, ok := labreport.CellReadings("m", labreport.Cell{Text: tt.text, Pos: diag.Position{File: "r.md", Line: 1, Column: 1}}, tt.colUnit)
		var parts []string
		for _, r := range rs {
			s := fmt.Sprintf("%s=%s %s @%d", r.Key, r.Number.Value, rawtest.UnitOrDash(r.Number.Unit), r.Pos.Column)
			if r.SpreadOf != "" {
				s += " of " + r.SpreadOf
			}
			if r.SpreadRelative {
				s += " rel"
			}
			if !strings.HasPrefix(tt.text[r.Pos.Column-1:], r.Raw) {
				t.Errorf("%q: reading %q not at column %d", tt.text, r.Raw, r.Pos.Column)
			}
			parts = append(parts, s)
		}
		got := strings.Join(parts, "; ")
		if warn != nil {
			got = "warning"
		}
		if got != tt.want || ok != (len(rs) > 0) {
			t.Errorf("CellReadings(%q, %q) = %q (ok %v), want %q", tt.text, tt.colUnit, got, ok, tt.want)
		}
	}
}

// TestHeaderUnit: a unit in brackets ending a column header, as hyperfine
// writes it; brackets around anything else state none.
func TestHeaderUnit(t *testing.T) {
	for header, want := range map[string]string{
		"Mean [ms]": "ms", "Min [s]": "s", "Max [µs]": "us", "Mean [ ms ]": "ms", "Share [%]": "%",
		"Relative": "", "Build [debug]": "", "[ms] first": "", "Mean [ms] [x]": "", "Mean (ms)": "",
	} {
		if got := labreport.HeaderUnit(header); got != want {
			t.Errorf("HeaderUnit(%q) = %q, want %q", header, got, want)
		}
	}
}
