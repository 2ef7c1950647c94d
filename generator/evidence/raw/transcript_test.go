package raw

import (
	"strings"
	"testing"
)

func FuzzReadTranscript(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		entries, errs := ReadTranscript("f.txt", src)
		for _, e := range errs {
			inside(t, src, e.Pos)
		}
		for _, e := range entries {
			inside(t, src, e.Pos)
			if !strings.HasPrefix(string(src[e.Pos.Offset:]), e.Raw) {
				t.Fatalf("raw %q not at %v", e.Raw, e.Pos)
			}
		}
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
