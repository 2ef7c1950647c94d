package raw

import (
	"strings"
	"testing"
)

func TestParseCell(t *testing.T) {
	tests := []struct {
		in    string
		ok    bool
		value string
		unit  string
		raw   string
	}{
		{"17", true, "17", "", "17"},
		{"**18 (+1)**", true, "18", "", "18"},
		{"1 (Δ0)", true, "1", "", "1"},
		{"`60s`", true, "60", "s", "60s"},
		{"23(56.1%)", true, "23", "", "23"},
		{"51.7%", true, "51.7", "%", "51.7%"},
		{"**0.21%**", true, "0.21", "%", "0.21%"},
		{"+46", true, "46", "", "+46"},
		{"−3", true, "-3", "", "−3"},
		{"Δ+1", true, "1", "", "Δ+1"},
		{"1,234", true, "1234", "", "1,234"},
		{"**39 (Δ+1, 완료 직후)**", true, "39", "", "39"},
		{"10.250.147.30(a)", false, "", "", ""},
		{"N/A", false, "", "", ""},
		{"pod-A", false, "", "", ""},
		{"exit=28(connect timeout) 13", false, "", "", ""},
		{"", false, "", "", ""},
		{"1.2.3", false, "", "", ""},
	}
	for _, tt := range tests {
		n, ok := ParseCell(tt.in)
		if ok != tt.ok {
			t.Errorf("ParseCell(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if n.Value.String() != tt.value || n.Unit != tt.unit || tt.in[n.Start:n.End] != tt.raw {
			t.Errorf("ParseCell(%q) = %s %q raw %q, want %s %q raw %q", tt.in, n.Value, n.Unit, tt.in[n.Start:n.End], tt.value, tt.unit, tt.raw)
		}
	}
}

func TestReadTables(t *testing.T) {
	src := "# Report\n\n## §1 STRICT\n\n| counter | BEFORE | AFTER |\n|---|---:|---|\n| a | 1 | **2 (+1)** |\n| b \\| c | 3 |  |\n\n```\n| x | y |\n|---|---|\n```\n## bad\n| a | b |\n|---|\n"
	tables, errs := ReadTables("r.md", []byte(src))
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

func TestReadTranscript(t *testing.T) {
	src := strings.Join([]string{
		"=====",
		"[S1] strict run",
		"$ curl -w 'SIZE=%{size_download}' \\",
		"    http://x/ TIME=99",
		"CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200 body=backend-a",
		"# TIME=1 in a comment",
		"upstream_cx_destroy +2",
		"upstream_cx_active: 1",
		"",
	}, "\n")
	entries, errs := ReadTranscript("result.txt", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Section+"."+e.Key+"="+e.Number.Value.String()+"@"+e.Pos.String()+":"+e.Raw)
	}
	want := []string{
		"S1.CURL_EXIT=0@result.txt:5:11:0",
		"S1.SIZE=409610@result.txt:5:18:409610",
		"S1.TIME=40.045811@result.txt:5:30:40.045811",
		"S1.CODE=200@result.txt:5:45:200",
		"S1.upstream_cx_destroy=2@result.txt:7:21:+2",
		"S1.upstream_cx_active=1@result.txt:8:21:1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCheckText(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bom", "\xef\xbb\xbf| a |", "f:1:1: error: file starts with a UTF-8 byte order mark"},
		{"invalid utf8", "ok\n\xff", "f:2:1: error: invalid UTF-8 byte 0xff"},
		{"crlf", "a\r\nb", "f:1:2: error: CRLF line ending"},
	}
	for _, tt := range tests {
		_, errs := ReadTables("f", []byte(tt.src))
		if len(errs) != 1 || !strings.HasPrefix(errs[0].String(), tt.want) {
			t.Errorf("%s: got %v, want prefix %q", tt.name, errs, tt.want)
		}
		_, errs = ReadTranscript("f", []byte(tt.src))
		if len(errs) != 1 || !strings.HasPrefix(errs[0].String(), tt.want) {
			t.Errorf("%s (transcript): got %v, want prefix %q", tt.name, errs, tt.want)
		}
	}
}
