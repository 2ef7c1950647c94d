package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

var page = []byte("---\ntitle: t\n---\n失敗は[13件](ev:d3/d3.a.ok)。\n")

func src(file string) []byte {
	if file == "p.md" {
		return page
	}
	return nil
}

func sample() diag.List {
	ix := diag.NewLineIndex("p.md", page)
	off := bytes.Index(page, []byte("13件"))
	return diag.List{
		{Pos: ix.Pos(off), End: ix.Pos(off + len("13件")), Severity: diag.Error, Rule: "claim-mismatch", Message: `"13件" does not match d3/d3.a.ok = 14, 50%`,
			Related: []diag.Related{{Pos: diag.Position{File: "evidence/d3/report.md", Line: 5, Column: 24, Offset: 90}, Message: "evidence value 14"}},
			Fixes:   []diag.SuggestedFix{{Message: "write 14", Edits: []diag.TextEdit{{Pos: ix.Pos(off), End: off + 2, NewText: "14"}}}}},
		{Pos: diag.Position{File: "p.md", Line: 1, Column: 1}, Severity: diag.Warning, Rule: "link-missing-page", Message: "link to /x/"},
	}
}

func TestRuneColumn(t *testing.T) {
	d := sample()[0]
	if d.Pos.Column != 11 {
		t.Fatalf("byte column = %d", d.Pos.Column)
	}
	// 失 敗 は [ → "13件" starts at the 5th code point.
	if got := RuneColumn(d.Pos, src); got != 5 {
		t.Errorf("rune column = %d, want 5", got)
	}
	if got := RuneColumn(d.Pos, nil); got != 11 {
		t.Errorf("without source = %d, want the byte column", got)
	}
}

func TestGitHub(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "github", sample(), src); err != nil {
		t.Fatal(err)
	}
	// The range 13件 ends before the 8th code point of line 4; a
	// diagnostic without an End has no endLine/endColumn.
	want := "::error file=p.md,line=4,col=5,endLine=4,endColumn=8,title=evdoc claim-mismatch::\"13件\" does not match d3/d3.a.ok = 14, 50%25%0Aevidence/d3/report.md:5:24: evidence value 14\n" +
		"::warning file=p.md,line=1,col=1,title=evdoc link-missing-page::link to /x/\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestSARIFValidates(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "sarif", sample(), src); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			ColumnKind string `json:"columnKind"`
			Results    []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine, StartColumn, EndLine, EndColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				RelatedLocations []json.RawMessage `json:"relatedLocations"`
				Fixes            []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion struct {
								StartColumn, EndColumn int
							} `json:"deletedRegion"`
							InsertedContent struct {
								Text string `json:"text"`
							} `json:"insertedContent"`
						} `json:"replacements"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Runs[0]
	if doc.Version != "2.1.0" || r.ColumnKind != "unicodeCodePoints" || len(r.Results) != 2 {
		t.Fatalf("doc = %+v", doc)
	}
	res := r.Results[0]
	if res.RuleID != "claim-mismatch" || res.Level != "error" || res.Locations[0].PhysicalLocation.Region.StartLine != 4 ||
		res.Locations[0].PhysicalLocation.Region.StartColumn != 5 || len(res.RelatedLocations) != 1 {
		t.Errorf("result = %+v", res)
	}
	if reg := res.Locations[0].PhysicalLocation.Region; reg.EndLine != 4 || reg.EndColumn != 8 {
		t.Errorf("region = %+v; want the end at 4:8 (code points)", reg)
	}
	if reg := r.Results[1].Locations[0].PhysicalLocation.Region; reg.EndLine != 0 || reg.EndColumn != 0 {
		t.Errorf("region of a point = %+v; want no end", reg)
	}
	rep := res.Fixes[0].ArtifactChanges[0].Replacements[0]
	if rep.DeletedRegion.StartColumn != 5 || rep.DeletedRegion.EndColumn != 7 || rep.InsertedContent.Text != "14" {
		t.Errorf("fix = %+v", rep)
	}
}

// TestJSONCarriesEnd: the json format writes a diagnostic's range as
// "pos" and "end" (byte columns), and no "end" for a point.
func TestJSONCarriesEnd(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "json", sample(), src); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines:\n%s", len(lines), b.String())
	}
	var rec struct {
		Diagnostic struct {
			Pos, End *diag.Position
		}
	}
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if e := rec.Diagnostic.End; e == nil || e.Line != 4 || e.Column != 16 || e.Offset != rec.Diagnostic.Pos.Offset+len("13件") {
		t.Errorf("end = %+v; want 4:16, just past 13件", e)
	}
	if strings.Contains(lines[1], `"end"`) {
		t.Errorf("a point diagnostic has an end: %s", lines[1])
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "xml", nil, nil); err == nil || !strings.Contains(err.Error(), "text, json, github, sarif") {
		t.Errorf("err = %v", err)
	}
}

func TestSARIFEncodesPaths(t *testing.T) {
	for _, name := range []string{"a,b:c%d.md", "a#b.md", "my page.md", "한국어.md"} {
		ds := diag.List{{Pos: diag.Position{File: name, Line: 1, Column: 1}, Severity: diag.Error, Rule: "claim-mismatch", Message: "m"}}
		var b bytes.Buffer
		if err := Write(&b, "sarif", ds, nil); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if strings.Contains(b.String(), `"uri": "`+name+`"`) && name != "한국어.md" {
			t.Errorf("%s written unescaped", name)
		}
	}
}
