package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"strings"
	"testing"
)

func FuzzJSON(f *testing.F) {
	fuzzLabFormat(f, []string{
		`{"a": {"b": [{"c": 1.5}, {"c": "2"}]}, "e": -1e5}`, `[1, "2", [3]]`, `42`, `{"a": 1, "a": 2}`, `{"a"`,
	}, "json", raw.ReadOptions{}, raw.ReadOptions{Paths: []string{"a", "a.b[0].c", "[0]", "$"}})
}

func TestReadJSON(t *testing.T) {
	src := `{"a": {"b": [{"c": 1.5}, {"c": "2"}]}, "s": "x", "n": null, "e": -1.0301e+05, "t": true}`
	runFormatCases(t, "json", []formatCase{
		{name: "all numbers", src: src, count: 3, want: map[string][2]string{
			"a.b[0].c": {"1.5", "1.5"}, "a.b[1].c": {"2", "2"}, "e": {"-103010", "-1.0301e+05"}}},
		{name: "paths", src: src, opt: raw.ReadOptions{Paths: []string{"a.b[1].c"}}, count: 1, want: map[string][2]string{"a.b[1].c": {"2", "2"}}},
		{name: "missing path", src: src, opt: raw.ReadOptions{Paths: []string{"a.b[5].c"}}, diags: []string{"f:1:13: error: path \"a.b[5].c\" is not in the document (nearest existing path \"a.b\")"}},
		{name: "non-number path", src: src, opt: raw.ReadOptions{Paths: []string{"s"}}, diags: []string{"f:1:45: error: path \"s\" is a string; expected a number"}},
		{name: "top-level array", src: "[{\"x\": 1}, 2]\n", want: map[string][2]string{"[0].x": {"1", "1"}, "[1]": {"2", "2"}}},
		{name: "scalar", src: "42\n", want: map[string][2]string{"$": {"42", "42"}}},
		{name: "duplicate keys", src: `{"a": 1, "a": 2}`, want: map[string][2]string{"a": {"1", "1"}, "a#2": {"2", "2"}}},
		{name: "escaped key", src: `{"a\"b": 1}`, want: map[string][2]string{`a"b`: {"1", "1"}}},
		{name: "syntax error", src: "{\n \"a\": [1 2]\n}", diags: []string{"f:2:10: error: invalid JSON: invalid character '2' after array element", "[evidence-json]"}},
		{name: "empty", src: "", diags: []string{"f:1:1: error: invalid JSON: unexpected end"}},
	})
}

func TestReadJSONDepth(t *testing.T) {
	deep := strings.Repeat("[", jsontree.MaxDepth+1) + strings.Repeat("]", jsontree.MaxDepth+1)
	rs, errs := allOf(raw.ReadJSON("f", []byte(deep), raw.ReadOptions{}))
	if len(rs) != 0 || len(errs) != 1 || errs[0].Pos.Column != jsontree.MaxDepth+1 || !strings.Contains(errs[0].Message, "nested deeper") {
		t.Errorf("deep JSON: %v %v", rs, errs)
	}
	ok := strings.Repeat("[", jsontree.MaxDepth) + "1" + strings.Repeat("]", jsontree.MaxDepth)
	if rs, errs := allOf(raw.ReadJSON("f", []byte(ok), raw.ReadOptions{})); len(rs) != 1 || errs != nil {
		t.Errorf("JSON at the depth limit: %v %v", rs, errs)
	}
}
