package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

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
		rs, warn, ok := raw.CellReadings("m", raw.Cell{Text: tt.text, Pos: diag.Position{File: "r.md", Line: 1, Column: 1}}, tt.colUnit)
		var parts []string
		for _, r := range rs {
			s := fmt.Sprintf("%s=%s %s @%d", r.Key, r.Number.Value, unitOrDash(r.Number.Unit), r.Pos.Column)
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
		if got := raw.HeaderUnit(header); got != want {
			t.Errorf("HeaderUnit(%q) = %q, want %q", header, got, want)
		}
	}
}

// TestSpreadOfReaders: the readers that print ± say whose spread a
// reading is: hyperfine's table read as markdown-tables, benchstat (old
// and new format, relative) and fortio's "avg A +/- S". Readings after no
// ± have none, whatever their name.
func TestSpreadOfReaders(t *testing.T) {
	bench, err := os.ReadFile("testdata/tools/benchstat/new-format.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		format, src string
		want        map[string]string // spread key → "of KEY[ rel]"
	}{
		{"markdown-tables", "| Command | Mean [ms] | Min [ms] | Relative |\n|:---|---:|---:|---:|\n| a | 319.5 ± 11.2 | 296.0 | 60.74 ± 2.49 |\n| b | 5.3 ± 0.1 | 5.1 | 1.00 |\n",
			map[string]string{"t1.a.Mean [ms]_pm": "of t1.a.Mean [ms]", "t1.a.Relative_pm": "of t1.a.Relative", "t1.b.Mean [ms]_pm": "of t1.b.Mean [ms]"}},
		{"benchstat", "name                         old time/op        new time/op        delta\nEndpointGeneration/1/100-8          825µs ±11%         451µs ± 5%  -45.31%  (p=0.100 n=3+3)\n",
			map[string]string{"EndpointGeneration/1/100.time_op.old_var": "of EndpointGeneration/1/100.time_op.old rel", "EndpointGeneration/1/100.time_op.new_var": "of EndpointGeneration/1/100.time_op.new rel"}},
		{"benchstat", string(bench), map[string]string{
			"Decode/json.sec_op.old_var": "of Decode/json.sec_op.old rel", "Decode/json.sec_op.new_var": "of Decode/json.sec_op.new rel",
			"Decode/proto.sec_op.old_var": "of Decode/proto.sec_op.old rel", "Decode/proto.sec_op.new_var": "of Decode/proto.sec_op.new rel",
			"Decode/json.b_op.old_var": "of Decode/json.b_op.old rel", "Decode/json.b_op.new_var": "of Decode/json.b_op.new rel",
			"Decode/proto.b_op.old_var": "of Decode/proto.b_op.old rel", "Decode/proto.b_op.new_var": "of Decode/proto.b_op.new rel"}},
		{"fortio-text", "Aggregated Function Time : count 40 avg 0.0101 +/- 0.0023 min 0.0071 max 0.0159 sum 0.404\n",
			map[string]string{"function_time.stddev": "of function_time.avg"}},
	}
	for _, tt := range tests {
		read, err := formats.ReaderFor(tt.format)
		if err != nil {
			t.Fatal(err)
		}
		rs, errs := read("f", []byte(tt.src), raw.ReadOptions{})
		if errs.HasErrors() {
			t.Errorf("%s: %v", tt.format, errs)
		}
		got := map[string]string{}
		keys := map[string]bool{}
		for _, r := range rs {
			keys[r.Key] = true
			if r.SpreadOf == "" {
				continue
			}
			s := "of " + r.SpreadOf
			if r.SpreadRelative {
				s += " rel"
			}
			got[r.Key] = s
		}
		for k, w := range tt.want {
			if got[k] != w {
				t.Errorf("%s: %s %q, want %q (readings %v)", tt.format, k, got[k], w, keys)
			}
			if of := strings.TrimSuffix(strings.TrimPrefix(w, "of "), " rel"); !keys[of] {
				t.Errorf("%s: %s is the spread of %s, which is no reading", tt.format, k, of)
			}
		}
		for k, g := range got {
			if _, ok := tt.want[k]; !ok {
				t.Errorf("%s: %s is %q, want no spread", tt.format, k, g)
			}
		}
	}
}
