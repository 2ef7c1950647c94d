package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"strings"
	"testing"
)

func FuzzCSV(f *testing.F) {
	fuzzLabFormat(f, []string{
		"pod,code,latency\na,200,12.5\nb,503,\"1,234\"\n", "a,b\n1\n\"x\"\"y\",2\n", "a\n\"1\n2\",3\n", "a,b\n1,x\"y\n",
	}, "csv", raw.ReadOptions{}, raw.ReadOptions{Key: "pod", CountWhere: map[string]string{"all": "true", "big": "code > 300"}},
		raw.ReadOptions{CountWhere: map[string]string{"n": "len($env) > 0"}})
}

func TestReadCSV(t *testing.T) {
	src := "pod,code,latency_ms,note\na,200,12.5,ok\nb,503,\"1,234\",slow\nc,200,7,\n"
	noPoint := strings.Replace(src, "12.5", "12", 1)
	runFormatCases(t, "csv", []formatCase{
		{name: "row numbers", src: src, opt: raw.ReadOptions{Decimal: raw.DecimalPoint}, count: 6, want: map[string][2]string{
			"r1.code": {"200", "200"}, "r1.latency_ms": {"12.5", "12.5"}, "r2.latency_ms": {"1234", "1,234"}, "r3.latency_ms": {"7", "7"}},
			absent: []string{"r1.pod", "r1.note"}},
		{name: "key column", src: src, opt: raw.ReadOptions{Key: "pod", Decimal: raw.DecimalPoint}, count: 6, want: map[string][2]string{
			"a.code": {"200", "200"}, "b.latency_ms": {"1234", "1,234"}}},
		{name: "count where", src: src, opt: raw.ReadOptions{Decimal: raw.DecimalPoint, CountWhere: map[string]string{"ok": "code == 200", "slow": `latency_ms > 10 && note != ""`, "none": "code == 404"}},
			count: 9, want: map[string][2]string{"ok": {"2", "code == 200"}, "slow": {"2", `latency_ms > 10 && note != ""`}, "none": {"0", "code == 404"}}},
		{name: "unknown column in predicate", src: src, opt: raw.ReadOptions{CountWhere: map[string]string{"x": "status == 200"}, Decimal: raw.DecimalPoint},
			diags: []string{"f:1:1: error: count_where \"x\": cannot compile \"status == 200\": unknown name status"}},
		{name: "bad predicate", src: src, opt: raw.ReadOptions{CountWhere: map[string]string{"x": "code =="}, Decimal: raw.DecimalPoint}, diags: []string{"cannot compile"}},
		{name: "predicate fails on a row", src: src, opt: raw.ReadOptions{CountWhere: map[string]string{"x": "note > 1"}, Decimal: raw.DecimalPoint}, diags: []string{"f:2:1: error: count_where \"x\""}},
		{name: "missing key column", src: src, opt: raw.ReadOptions{Key: "name"}, diags: []string{"f:1:1: error: key column \"name\" is not in the header"}},
		{name: "field count", src: "a,b\n1,2\n3\n4,5\n", count: 4, want: map[string][2]string{"r3.a": {"4", "4"}},
			diags: []string{"f:3:1: error: record has 1 fields; expected 2"}},
		{name: "bare quote", src: "a,b\n1,x\"y\n", diags: []string{"f:2:4: error: bare \" in non-quoted-field", "[evidence-csv]"}},
		{name: "quoted number and unit", src: "a,b\n\"42\",60s\n", want: map[string][2]string{"r1.a": {"42", "42"}, "r1.b": {"60", "60s"}}},
		{name: "ambiguous comma in a quoted cell", src: noPoint, count: 5, absent: []string{"r2.latency_ms"},
			diags: []string{`f:3:8: error: "1,234" is ambiguous: 1234 with a thousands separator or 1.234 with a decimal comma`}},
		{name: "a decimal point elsewhere says commas group thousands", src: src, count: 6, want: map[string][2]string{"r2.latency_ms": {"1234", "1,234"}},
			diags: []string{`f:3:8: warning: comma in "1,234" read as a thousands separator (1234), as the file's other numbers write it`}},
		{name: "decimal comma declared", src: noPoint, opt: raw.ReadOptions{Decimal: raw.DecimalComma}, want: map[string][2]string{"r2.latency_ms": {"1.234", "1,234"}}},
		{name: "decimal point contradicts declared comma", src: src, opt: raw.ReadOptions{Decimal: raw.DecimalComma}, count: 5, want: map[string][2]string{"r2.latency_ms": {"1.234", "1,234"}},
			diags: []string{`f:2:7: error: "12.5" has a decimal point but the manifest declares decimal = ","; expected a decimal comma`}},
		{name: "points group thousands under a declared comma", src: "a,b\n1.234,\"1.234.567,5\"\n", opt: raw.ReadOptions{Decimal: raw.DecimalComma},
			want: map[string][2]string{"r1.a": {"1234", "1.234"}, "r1.b": {"1234567.5", "1.234.567,5"}}},
		{name: "full-width digits and comma in a quoted cell", src: "a\n\"１，２３４\"\n", opt: raw.ReadOptions{Decimal: raw.DecimalPoint},
			want: map[string][2]string{"r1.a": {"1234", "１，２３４"}}},
		{name: "decimal comma shown by the file", src: "a,b\n\"1,234\",\"0,5\"\n", want: map[string][2]string{"r1.a": {"1.234", "1,234"}, "r1.b": {"0.5", "0,5"}},
			diags: []string{`f:2:2: warning: comma in "1,234" read as a decimal mark (1.234)`, `f:2:10: warning: decimal comma in "0,5" read as 0.5`}},
		{name: "thousands shown by the file", src: "a,b\n\"1,234\",\"1,234,567\"\n", want: map[string][2]string{"r1.a": {"1234", "1,234"}, "r1.b": {"1234567", "1,234,567"}},
			diags: []string{`f:2:2: warning: comma in "1,234" read as a thousands separator`}},
		{name: "grouping contradicts declared comma", src: "a\n\"1,234,567\"\n", opt: raw.ReadOptions{Decimal: raw.DecimalComma}, count: 0,
			diags: []string{`f:2:2: error: "1,234,567" groups thousands with commas but the manifest declares decimal = ","`}},
		{name: "unreadable cell", src: "a,b\n200;503,1\n", want: map[string][2]string{"r1.b": {"1", "1"}},
			diags: []string{`f:2:1: warning: cell "200;503" looks numeric but is not read`}},
		{name: "empty", src: "", diags: []string{"f:1:1: error: empty CSV file"}},
	})
	// Inputs of a count point at the first cell of each matching row.
	rs, _ := allOf(raw.ReadCSV("f", []byte(src), raw.ReadOptions{CountWhere: map[string]string{"ok": "code == 200"}}))
	for _, r := range rs {
		if r.Key == "ok" {
			if len(r.Inputs) != 2 || r.Inputs[0].Line != 2 || r.Inputs[1].Line != 4 || r.Inputs[0].Column != 1 || r.Pos.Line != 1 {
				t.Errorf("count ok: pos %v inputs %v", r.Pos, r.Inputs)
			}
		}
	}
}
