package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
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

// writeSet creates evidence/<id>/ under a temporary root with the files.
func writeSet(t *testing.T, id string, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, "evidence", id, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const manifestHead = `id = "s"
title = "t"
date = "2026-07-09"
environment = "lab"
report = "r.md"
`

const reportMD = "## D-3 outlier\n\n| stage | attempts | failed | rate |\n|---|---:|---:|---:|\n| A(no outlier) | 29 | 15 | 51.7% |\n| B(+outlier) | 2905 | 6 | 0.21% |\n"

func TestLoadSet(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"report.md": reportMD,
		"evidence.toml": manifestHead + `
[[table]]
file = "report.md"
heading = "D-3"
name = "d3"
rows = { "A(no outlier)" = "a", "B(+outlier)" = "b" }

[derived]
"d3.b.pct" = "percent(d3.b.failed, d3.b.attempts)"
"d3.both" = "sum(d3.a.failed, d3.b.failed)"
"d3.chain" = "d3.both * 2 - 1"
`,
	})
	set, errs := LoadSet(root, "evidence/s")
	if errs != nil {
		t.Fatal(errs)
	}
	check := func(name, value, pos string) {
		t.Helper()
		v, ok := set.Values[name]
		if !ok {
			t.Fatalf("no value %s; have %v", name, keys(set.Values))
		}
		if v.Value.String() != value || v.Pos.String() != pos {
			t.Errorf("%s = %s at %s, want %s at %s", name, v.Value, v.Pos, value, pos)
		}
	}
	check("d3.a.attempts", "29", "evidence/s/report.md:5:19")
	check("d3.b.rate", "0.21", "evidence/s/report.md:6:28")
	check("d3.b.pct", "0.2065404475043029259896729776", "evidence/s/evidence.toml:14:1")
	check("d3.chain", "41", "evidence/s/evidence.toml:16:1")
	if got := set.Values["d3.chain"].Inputs; len(got) != 2 || got[0].String() != "evidence/s/report.md:5:24" {
		t.Errorf("d3.chain inputs = %v", got)
	}
}

func TestLoadSetErrors(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		extra    map[string]string
		want     string
	}{
		{"toml syntax", manifestHead + "[[table]\n", nil, "evidence/s/evidence.toml:7:1: error: invalid TOML"},
		{"unknown key", manifestHead + "colour = 1\n", nil, "unknown manifest key \"colour\""},
		{"id mismatch", strings.Replace(manifestHead, `"s"`, `"x"`, 1), nil, "must equal the evidence set's directory name"},
		{"bad date", strings.Replace(manifestHead, "2026-07-09", "July", 1), nil, `date "July": expected YYYY-MM-DD`},
		{"escaping path", manifestHead + "[[table]]\nfile = \"../other/r.md\"\nheading = \"x\"\nname = \"t\"\n", nil, "leaves evidence/s"},
		{"absolute path", manifestHead + "[[table]]\nfile = \"/etc/passwd\"\nheading = \"x\"\nname = \"t\"\n", nil, "expected a relative path"},
		{"missing heading", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"nope\"\nname = \"t\"\n", nil, "has 0 table(s) under a heading containing \"nope\""},
		{"unnamed column", manifestHead + "[[table]]\nfile = \"k.md\"\nheading = \"K\"\nname = \"t\"\n", map[string]string{"k.md": "# K\n| 항목 | 성공 |\n|---|---|\n| a | 1 |\n"}, "evidence/s/k.md:2:12: error: column label \"성공\" has no name segment"},
		{"duplicate spec name", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n", nil, `name "tbl" is given to two`},
		{"duplicate value", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\nrows = { \"A(no outlier)\" = \"x\", \"B(+outlier)\" = \"x\" }\n", nil, "is also named at evidence/s/report.md:5:"},
		{"derived shadows raw", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n[derived]\n\"tbl.a.attempts\" = \"1\"\n", nil, `derived value "tbl.a.attempts" is also read from evidence/s/report.md:5:19`},
		{"short row", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n", map[string]string{"report.md": "## D-3\n| a | b | c |\n|---|---|---|\n| x | 1 |\n"}, "evidence/s/report.md:4:1: error: table row has 2 cells but its header row has 3"},
		{"non-numeric input", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n[derived]\n\"x\" = \"tbl.a.attempts + 1\"\n", map[string]string{"report.md": "## D-3\n| stage | attempts |\n|---|---|\n| a | forty-one |\n"}, `evidence/s/report.md:4:7: error: "forty-one" is not a number; expected a number for tbl.a.attempts`},
		{"units do not add", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"r.t + r.p\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "+ cannot combine s and %"},
		{"units do not multiply", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"r.t * r.t\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "cannot multiply s by s"},
		{"units do not divide", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"ratio(r.p, r.t)\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "cannot divide % by s"},
		{"max of mixed units", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"max(r.t, r.p)\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "max cannot combine s and %"},
		{"ambiguous heading", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-\"\nname = \"tbl\"\n", map[string]string{"report.md": reportMD + "\n## D-4\n| a | b |\n|---|---|\n| x | 1 |\n"}, `heading "D-" matches 2 headings ("D-3 outlier", "D-4")`},
		{"unused row relabel", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\nrows = { \"C(nope)\" = \"c\", \"A(no outlier)\" = \"a\", \"B(+outlier)\" = \"b\" }\n", nil, `rows relabel "C(nope)" matches no row label`},
		{"unmatched section", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nsections = { \"3a\" = \"before\", \"3c\" = \"after\" }\n", map[string]string{"r.txt": "[3a] x\nv=1\n[3b] y\nv=2\nw=3\n"}, `sections relabel "3c" matches no [3c] section`},
		{"cycle", manifestHead + "[derived]\n\"a\" = \"b + 1\"\n\"b\" = \"a + 1\"\n", nil, "dependency cycle"},
		{"division by zero", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"z\" = \"ratio(r.x, r.zero)\"\n", map[string]string{"r.txt": "x=1 zero=0\n"}, "division by zero"},
		{"unknown input", manifestHead + "[derived]\n\"a\" = \"nope.x + 1\"\n", nil, `unknown value "nope.x"`},
		{"bad expression", manifestHead + "[derived]\n\"a\" = \"1 +\"\n", nil, "cannot parse expression"},
		{"unsupported", manifestHead + "[derived]\n\"a\" = \"1 > 2\"\n", nil, `unsupported operator ">"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"report.md": reportMD, "evidence.toml": tt.manifest}
			for k, v := range tt.extra {
				files[k] = v
			}
			root := writeSet(t, "s", files)
			set, errs := LoadSet(root, "evidence/s")
			if set != nil || len(errs) == 0 {
				t.Fatalf("LoadSet succeeded; want error containing %q", tt.want)
			}
			if !strings.Contains(errs.Error(), tt.want) {
				t.Errorf("errors:\n%s\nwant one containing %q", errs.Error(), tt.want)
			}
			for _, e := range errs {
				if !e.Pos.IsValid() && e.Pos.File == "" {
					t.Errorf("error without position: %v", e)
				}
			}
		})
	}
}

func TestSymlinkRejected(t *testing.T) {
	root := writeSet(t, "s", map[string]string{"evidence.toml": manifestHead + "[[table]]\nfile = \"link.md\"\nheading = \"D-3\"\nname = \"t\"\n", "real.md": reportMD})
	if err := os.Symlink(filepath.Join(root, "evidence", "s", "real.md"), filepath.Join(root, "evidence", "s", "link.md")); err != nil {
		t.Skip(err)
	}
	_, errs := LoadSet(root, "evidence/s")
	if !strings.Contains(errs.Error(), "is a symbolic link") {
		t.Errorf("errs = %v", errs)
	}
}

func keys(m map[string]*Value) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

var _ = diag.Position{}
