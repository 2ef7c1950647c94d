package labreport_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"

	"strings"
	"testing"
)

// FuzzReadTranscript: no input panics, every position is inside the file
// with its raw token at it, and no numeric field vanishes (rawtest.CheckNoVanish).
func FuzzReadTranscript(f *testing.F) {
	rawtest.AddSamples(f, "transcript", "[S] t\nA=1 B=2.5s\nx +3\ny: 4\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		rawtest.CheckNoVanish(t, "transcript", src, raw.ReadOptions{})
	})
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
	entries, errs := labreport.ReadTranscript("result.txt", []byte(src), raw.ReadOptions{})
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

// TestReadTranscriptNumbers: every numeric-looking value is read or
// reported at its position; commas follow the declaration, else the
// file's other numbers, else an ambiguous one is an error.
func TestReadTranscriptNumbers(t *testing.T) {
	tests := []struct {
		name, src string
		dec       raw.Decimal
		want      []string // key=value@line:col:raw
		diags     []string
	}{
		{"decimal comma shown by the file", "[S1] a\nTIME=1,232\n[S2] b\nTIME=40,045811\n", raw.DecimalUndeclared,
			[]string{"S1.TIME=1.232@2:6:1,232", "S2.TIME=40.045811@4:6:40,045811"},
			[]string{`f:2:6: warning: comma in "1,232" read as a decimal mark (1.232)`, `f:4:6: warning: decimal comma in "40,045811" read as 40.045811`}},
		{"ambiguous alone", "TIME=1,232\n", raw.DecimalUndeclared, nil,
			[]string{`f:1:6: error: "1,232" is ambiguous: 1232 with a thousands separator or 1.232 with a decimal comma`}},
		{"declared comma", "TIME=1,232\n", raw.DecimalComma, []string{".TIME=1.232@1:6:1,232"}, nil},
		{"declared point", "N=1,232\n", raw.DecimalPoint, []string{".N=1232@1:3:1,232"}, nil},
		{"exponent, quotes, full width, duration", "A=1e3 B=\"40.5\" C=１２ D=1m0.5s\n", raw.DecimalUndeclared,
			[]string{".A=1000@1:3:1e3", ".B=40.5@1:10:40.5", ".C=12@1:18:１２", ".D=60.5@1:27:1m0.5s"}, nil},
		{"unreadable is a warning", "CODES=200,50,503 ADDR=10.0.0.1 V=1.2.3 who=backend-a\n", raw.DecimalUndeclared, nil,
			[]string{`f:1:7: warning: value "200,50,503" of CODES looks numeric but is not read (a list of numbers separated by commas)`}},
		{"gauge with unknown unit", "rate: 12qps\nx: 5 parsec\n", raw.DecimalUndeclared, nil,
			[]string{`f:1:7: warning: value "12qps" of rate looks numeric but is not read (an unknown unit)`,
				`f:2:4: warning: number "5" is not read by the transcript format; expected key=value (such as n=42)`}},
		// Numbers in free text (a token never vanishes): one warning per
		// line at the first, its range spanning them all; names are not
		// numbers.
		{"free text", "[S1] run 2 of 3\nthe request took 40.5 s after 3 retries\nCODE=200 after 2 tries\n< HTTP/1.1 503 Service Unavailable\n" +
			"backend v1.2.3 at 10.0.0.1:80 on 2026-07-09 12:00:01, pod web-7f9c, 5xx seen\n요청 3건 처리\n", raw.DecimalUndeclared,
			[]string{"S1.CODE=200@3:6:200"},
			[]string{`f:2:18: warning: 2 numbers ("40.5", "3") are not read by the transcript format`,
				`f:3:16: warning: number "2" is not read`,
				`f:4:12: warning: number "503" is not read`,
				`f:6:8: warning: number "3건" is not read`}},
	}
	for _, tt := range tests {
		entries, errs := labreport.ReadTranscript("f", []byte(tt.src), raw.ReadOptions{Decimal: tt.dec})
		var got []string
		for _, e := range entries {
			got = append(got, e.Section+"."+e.Key+"="+e.Number.Value.String()+"@"+strings.TrimPrefix(e.Pos.String(), "f:")+":"+e.Raw)
			if string([]byte(tt.src)[e.Pos.Offset:e.Pos.Offset+len(e.Raw)]) != e.Raw {
				t.Errorf("%s: raw %q not at %v", tt.name, e.Raw, e.Pos)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: entries %q, want %q", tt.name, got, tt.want)
		}
		if len(errs) != len(tt.diags) {
			t.Errorf("%s: diagnostics %v, want %q", tt.name, errs, tt.diags)
			continue
		}
		for i, d := range tt.diags {
			if !strings.HasPrefix(errs[i].String(), d) {
				t.Errorf("%s: diagnostic %q, want prefix %q", tt.name, errs[i], d)
			}
		}
	}
}
