package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/fix"
)

var values = []Value{
	{Ref: "d3/d3.a.ok", Key: "a.ok", Value: "14", File: "evidence/d3/report.md", Line: 5, Column: 24, Raw: "14"},
	{Key: "S1.TIME", Value: "1.232", Unit: "s", File: "evidence/d3/curl.txt", Line: 3, Column: 15, Raw: "1,232", Format: "curl-writeout"},
}

func TestValueWriter(t *testing.T) {
	for _, tt := range []struct {
		format, want string
	}{
		{"text", "REFERENCE   KEY      VALUE  UNIT  POSITION                    RAW\n" +
			"d3/d3.a.ok  a.ok     14           evidence/d3/report.md:5:24  14\n" +
			"-           S1.TIME  1.232  s     evidence/d3/curl.txt:3:15   1,232\n"},
		{"json", `{"ref":"d3/d3.a.ok","key":"a.ok","value":"14","unit":"","file":"evidence/d3/report.md","line":5,"column":24,"raw":"14"}` + "\n" +
			`{"ref":"","key":"S1.TIME","value":"1.232","unit":"s","file":"evidence/d3/curl.txt","line":3,"column":15,"raw":"1,232","format":"curl-writeout"}` + "\n"},
	} {
		var b bytes.Buffer
		vw, err := NewValueWriter(&b, tt.format)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			vw.Write(v)
		}
		if err := vw.Close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.format, b.String(), tt.want)
		}
		if vw.Count() != len(values) {
			t.Errorf("%s: Count = %d", tt.format, vw.Count())
		}
		if tt.format == "json" {
			var v Value
			if err := json.Unmarshal([]byte(strings.SplitN(b.String(), "\n", 2)[0]), &v); err != nil || v != values[0] {
				t.Errorf("json does not read back: %+v, %v", v, err)
			}
		}
	}
	// No value, no header.
	var b bytes.Buffer
	vw, _ := NewValueWriter(&b, "text")
	if err := vw.Close(); err != nil || b.Len() != 0 {
		t.Errorf("empty listing wrote %q, %v", b.String(), err)
	}
	if _, err := NewValueWriter(&bytes.Buffer{}, "sarif"); err == nil || !strings.Contains(err.Error(), "text, json") {
		t.Errorf("unknown format: %v", err)
	}
}

// TestValueWriterStreams: text rows are written out per block, not held
// until Close.
func TestValueWriterStreams(t *testing.T) {
	var b bytes.Buffer
	vw, _ := NewValueWriter(&b, "text")
	for range valueBlock {
		vw.Write(values[0])
	}
	if b.Len() == 0 {
		t.Errorf("nothing written after %d rows", valueBlock)
	}
	_ = vw.Close()
}

func TestFixOutput(t *testing.T) {
	var b bytes.Buffer
	pos := diag.Position{File: "content/ko/p.md", Line: 4, Column: 11, Offset: 30}
	if err := WriteRewrites(&b, []fix.Edit{{Pos: pos, Old: "13", New: "14", Ref: "write 14 (d3/d3.a.ok)"}}); err != nil {
		t.Fatal(err)
	}
	_ = WriteFixSummary(&b, 1, false)
	_ = WriteFixSummary(&b, 0, true)
	want := `content/ko/p.md:4:11: "13" -> "14" (write 14 (d3/d3.a.ok))` + "\n" +
		"evdoc: 1 literal(s) rewritten\n" +
		"evdoc: 0 literal(s) rewritten before the interruption; the other pages are unchanged\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteFixDiff(&b, "content/ko/p.md", []byte("a\n13\n"), []byte("a\n14\n")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--- a/content/ko/p.md\n", "+++ b/content/ko/p.md\n", "-13\n", "+14\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, b.String())
		}
	}
}

// TestValueWriterSpread: a spread printed after ± names whose it is, in
// text after its raw token and in JSON as spread_of.
func TestValueWriterSpread(t *testing.T) {
	v := Value{Ref: "hf/h.a.mean_pm", Key: "a.mean_pm", Value: "11.2", Unit: "ms", File: "evidence/hf/bench.md", Line: 5, Column: 19, Raw: "11.2", SpreadOf: "hf/h.a.mean"}
	for format, want := range map[string]string{
		"text": "REFERENCE       KEY        VALUE  UNIT  POSITION                   RAW\n" +
			"hf/h.a.mean_pm  a.mean_pm  11.2   ms    evidence/hf/bench.md:5:19  11.2 (± of hf/h.a.mean)\n",
		"json": `{"ref":"hf/h.a.mean_pm","key":"a.mean_pm","value":"11.2","unit":"ms","file":"evidence/hf/bench.md","line":5,"column":19,"raw":"11.2","spread_of":"hf/h.a.mean"}` + "\n",
	} {
		var b bytes.Buffer
		vw, err := NewValueWriter(&b, format)
		if err != nil {
			t.Fatal(err)
		}
		vw.Write(v)
		if err := vw.Close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%s:\n%s\nwant:\n%s", format, b.String(), want)
		}
	}
}
