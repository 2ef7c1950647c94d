package structured_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"strings"
	"testing"
)

func FuzzCSV(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		"pod,code,latency\na,200,12.5\nb,503,\"1,234\"\n", "a,b\n1\n\"x\"\"y\",2\n", "a\n\"1\n2\",3\n", "a,b\n1,x\"y\n",
	}, "csv", raw.ReadOptions{}, raw.ReadOptions{Key: "pod", CountWhere: map[string]string{"all": "true", "big": "code > 300"}},
		raw.ReadOptions{CountWhere: map[string]string{"n": "len($env) > 0"}})
}

func TestReadCSV(t *testing.T) {
	src := "pod,code,latency_ms,note\na,200,12.5,ok\nb,503,\"1,234\",slow\nc,200,7,\n"
	noPoint := strings.Replace(src, "12.5", "12", 1)
	rawtest.RunFormatCases(t, "csv", []rawtest.FormatCase{
		{Name: "row numbers", Src: src, Opt: raw.ReadOptions{Decimal: raw.DecimalPoint}, Count: 6, Want: map[string][2]string{
			"r1.code": {"200", "200"}, "r1.latency_ms": {"12.5", "12.5"}, "r2.latency_ms": {"1234", "1,234"}, "r3.latency_ms": {"7", "7"}},
			Absent: []string{"r1.pod", "r1.note"}},
		{Name: "key column", Src: src, Opt: raw.ReadOptions{Key: "pod", Decimal: raw.DecimalPoint}, Count: 6, Want: map[string][2]string{
			"a.code": {"200", "200"}, "b.latency_ms": {"1234", "1,234"}}},
		{Name: "count where", Src: src, Opt: raw.ReadOptions{Decimal: raw.DecimalPoint, CountWhere: map[string]string{"ok": "code == 200", "slow": `latency_ms > 10 && note != ""`, "none": "code == 404"}},
			Count: 9, Want: map[string][2]string{"ok": {"2", "code == 200"}, "slow": {"2", `latency_ms > 10 && note != ""`}, "none": {"0", "code == 404"}}},
		{Name: "unknown column in predicate", Src: src, Opt: raw.ReadOptions{CountWhere: map[string]string{"x": "status == 200"}, Decimal: raw.DecimalPoint},
			Diags: []string{"f:1:1: error: count_where \"x\": cannot compile \"status == 200\": unknown name status"}},
		{Name: "bad predicate", Src: src, Opt: raw.ReadOptions{CountWhere: map[string]string{"x": "code =="}, Decimal: raw.DecimalPoint}, Diags: []string{"cannot compile"}},
		{Name: "predicate fails on a row", Src: src, Opt: raw.ReadOptions{CountWhere: map[string]string{"x": "note > 1"}, Decimal: raw.DecimalPoint}, Diags: []string{"f:2:1: error: count_where \"x\""}},
		{Name: "missing key column", Src: src, Opt: raw.ReadOptions{Key: "name"}, Diags: []string{"f:1:1: error: key column \"name\" is not in the header"}},
		{Name: "field count", Src: "a,b\n1,2\n3\n4,5\n", Count: 4, Want: map[string][2]string{"r3.a": {"4", "4"}},
			Diags: []string{"f:3:1: error: record has 1 fields; expected 2"}},
		{Name: "bare quote", Src: "a,b\n1,x\"y\n", Diags: []string{"f:2:4: error: bare \" in non-quoted-field", "[evidence-csv]"}},
		{Name: "quoted number and unit", Src: "a,b\n\"42\",60s\n", Want: map[string][2]string{"r1.a": {"42", "42"}, "r1.b": {"60", "60s"}}},
		{Name: "ambiguous comma in a quoted cell", Src: noPoint, Count: 5, Absent: []string{"r2.latency_ms"},
			Diags: []string{`f:3:8: error: "1,234" is ambiguous: 1234 with a thousands separator or 1.234 with a decimal comma`}},
		{Name: "a decimal point elsewhere says commas group thousands", Src: src, Count: 6, Want: map[string][2]string{"r2.latency_ms": {"1234", "1,234"}},
			Diags: []string{`f:3:8: warning: comma in "1,234" read as a thousands separator (1234), as the file's other numbers write it`}},
		{Name: "decimal comma declared", Src: noPoint, Opt: raw.ReadOptions{Decimal: raw.DecimalComma}, Want: map[string][2]string{"r2.latency_ms": {"1.234", "1,234"}}},
		{Name: "decimal point contradicts declared comma", Src: src, Opt: raw.ReadOptions{Decimal: raw.DecimalComma}, Count: 5, Want: map[string][2]string{"r2.latency_ms": {"1.234", "1,234"}},
			Diags: []string{`f:2:7: error: "12.5" has a decimal point but the manifest declares decimal = ","; expected a decimal comma`}},
		{Name: "points group thousands under a declared comma", Src: "a,b\n1.234,\"1.234.567,5\"\n", Opt: raw.ReadOptions{Decimal: raw.DecimalComma},
			Want: map[string][2]string{"r1.a": {"1234", "1.234"}, "r1.b": {"1234567.5", "1.234.567,5"}}},
		{Name: "full-width digits and comma in a quoted cell", Src: "a\n\"１，２３４\"\n", Opt: raw.ReadOptions{Decimal: raw.DecimalPoint},
			Want: map[string][2]string{"r1.a": {"1234", "１，２３４"}}},
		{Name: "decimal comma shown by the file", Src: "a,b\n\"1,234\",\"0,5\"\n", Want: map[string][2]string{"r1.a": {"1.234", "1,234"}, "r1.b": {"0.5", "0,5"}},
			Diags: []string{`f:2:2: warning: comma in "1,234" read as a decimal mark (1.234)`, `f:2:10: warning: decimal comma in "0,5" read as 0.5`}},
		{Name: "thousands shown by the file", Src: "a,b\n\"1,234\",\"1,234,567\"\n", Want: map[string][2]string{"r1.a": {"1234", "1,234"}, "r1.b": {"1234567", "1,234,567"}},
			Diags: []string{`f:2:2: warning: comma in "1,234" read as a thousands separator`}},
		{Name: "grouping contradicts declared comma", Src: "a\n\"1,234,567\"\n", Opt: raw.ReadOptions{Decimal: raw.DecimalComma}, Count: 0,
			Diags: []string{`f:2:2: error: "1,234,567" groups thousands with commas but the manifest declares decimal = ","`}},
		{Name: "unreadable cell", Src: "a,b\n200;503,1\n", Want: map[string][2]string{"r1.b": {"1", "1"}},
			Diags: []string{`f:2:1: warning: cell "200;503" looks numeric but is not read`}},
		{Name: "empty", Src: "", Diags: []string{"f:1:1: error: empty CSV file"}},
	})
	// Inputs of a count point at the first cell of each matching row.
	rs, _ := rawtest.AllOf(structured.ReadCSV("f", []byte(src), raw.ReadOptions{CountWhere: map[string]string{"ok": "code == 200"}}))
	for _, r := range rs {
		if r.Key == "ok" {
			if len(r.Inputs) != 2 || r.Inputs[0].Line != 2 || r.Inputs[1].Line != 4 || r.Inputs[0].Column != 1 || r.Pos.Line != 1 {
				t.Errorf("count ok: pos %v inputs %v", r.Pos, r.Inputs)
			}
		}
	}
}
