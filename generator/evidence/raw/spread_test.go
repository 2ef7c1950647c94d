package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"os"
	"strings"
	"testing"
)

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
