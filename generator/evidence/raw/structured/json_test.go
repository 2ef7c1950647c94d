package structured_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"strings"
	"testing"
)

func FuzzJSON(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		`{"a": {"b": [{"c": 1.5}, {"c": "2"}]}, "e": -1e5}`, `[1, "2", [3]]`, `42`, `{"a": 1, "a": 2}`, `{"a"`,
	}, "json", raw.ReadOptions{}, raw.ReadOptions{Paths: []string{"a", "a.b[0].c", "[0]", "$"}})
}

func TestReadJSON(t *testing.T) {
	src := `{"a": {"b": [{"c": 1.5}, {"c": "2"}]}, "s": "x", "n": null, "e": -1.0301e+05, "t": true}`
	rawtest.RunFormatCases(t, "json", []rawtest.FormatCase{
		{Name: "all numbers", Src: src, Count: 3, Want: map[string][2]string{
			"a.b[0].c": {"1.5", "1.5"}, "a.b[1].c": {"2", "2"}, "e": {"-103010", "-1.0301e+05"}}},
		{Name: "paths", Src: src, Opt: raw.ReadOptions{Paths: []string{"a.b[1].c"}}, Count: 1, Want: map[string][2]string{"a.b[1].c": {"2", "2"}}},
		{Name: "missing path", Src: src, Opt: raw.ReadOptions{Paths: []string{"a.b[5].c"}}, Diags: []string{"f:1:13: error: path \"a.b[5].c\" is not in the document (nearest existing path \"a.b\")"}},
		{Name: "non-number path", Src: src, Opt: raw.ReadOptions{Paths: []string{"s"}}, Diags: []string{"f:1:45: error: path \"s\" is a string; expected a number"}},
		{Name: "top-level array", Src: "[{\"x\": 1}, 2]\n", Want: map[string][2]string{"[0].x": {"1", "1"}, "[1]": {"2", "2"}}},
		{Name: "scalar", Src: "42\n", Want: map[string][2]string{"$": {"42", "42"}}},
		{Name: "duplicate keys", Src: `{"a": 1, "a": 2}`, Want: map[string][2]string{"a": {"1", "1"}, "a#2": {"2", "2"}}},
		{Name: "escaped key", Src: `{"a\"b": 1}`, Want: map[string][2]string{`a"b`: {"1", "1"}}},
		{Name: "syntax error", Src: "{\n \"a\": [1 2]\n}", Diags: []string{"f:2:10: error: invalid JSON: invalid character '2' after array element", "[evidence-json]"}},
		{Name: "empty", Src: "", Diags: []string{"f:1:1: error: invalid JSON: unexpected end"}},
	})
}

func TestReadJSONDepth(t *testing.T) {
	deep := strings.Repeat("[", jsontree.MaxDepth+1) + strings.Repeat("]", jsontree.MaxDepth+1)
	rs, errs := rawtest.AllOf(structured.ReadJSON("f", []byte(deep), raw.ReadOptions{}))
	if len(rs) != 0 || len(errs) != 1 || errs[0].Pos.Column != jsontree.MaxDepth+1 || !strings.Contains(errs[0].Message, "nested deeper") {
		t.Errorf("deep JSON: %v %v", rs, errs)
	}
	ok := strings.Repeat("[", jsontree.MaxDepth) + "1" + strings.Repeat("]", jsontree.MaxDepth)
	if rs, errs := rawtest.AllOf(structured.ReadJSON("f", []byte(ok), raw.ReadOptions{})); len(rs) != 1 || errs != nil {
		t.Errorf("JSON at the depth limit: %v %v", rs, errs)
	}
}
