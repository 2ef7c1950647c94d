package structured_test

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzAccessLog(f *testing.F) {
	rawtest.ToolFuzz(f, "envoy-access-log", `[t] "- - -" 0 - - - "-" 1 2 3 - "-" "-" "-" "-" "x" c 1.1.1.1:1 - - - -`+"\n", `{"duration":"7","bytes_sent":[1]}`+"\n")
}

// TestAccessLogCountWhere: count_where counts the log lines a predicate
// holds for, over text and JSON lines alike, with every matching line an
// input; a predicate that does not compile is an error.
func TestAccessLogCountWhere(t *testing.T) {
	src := "$ kubectl logs x -c istio-proxy\n" +
		`[2024-03-01T08:15:02.113Z] "GET /a HTTP/1.1" 200 - 0 17 12 11 "-" "hey" "id-1" "a:80" "10.0.0.1:80"` + "\n" +
		`[2024-03-01T08:15:02.118Z] "GET /a HTTP/1.1" 503 UF 0 91 1002 - "-" "hey" "id-2" "a:80" "10.0.0.2:80"` + "\n" +
		`{"response_code":200,"response_flags":"-","duration":250,"request_id":"id-3"}` + "\n"
	opt := raw.ReadOptions{Key: "request_id", CountWhere: map[string]string{
		"ok": "response_code == 200", "uf": "response_flags == 'UF'", "slow": "duration > 100", "all": "true"}}
	rs, errs := rawtest.CheckNoVanish(t, "envoy-access-log", []byte(src), opt)
	if len(errs) != 0 {
		t.Fatalf("diagnostics: %v", errs)
	}
	got := map[string]raw.Reading{}
	for _, r := range rs {
		got[r.Key] = r
	}
	for k, want := range map[string]string{"ok": "2", "uf": "1", "slow": "2", "all": "3", "id-1.duration": "12", "id-2.response_code": "503", "id-3.duration": "250"} {
		if r, ok := got[k]; !ok || r.Number.Value.String() != want {
			t.Errorf("%s = %v, want %s (readings %v)", k, r.Number.Value, want, rawtest.ReadingKeys(rs))
		}
	}
	if r := got["slow"]; len(r.Inputs) != 2 || r.Inputs[0].Line != 3 || r.Inputs[1].Line != 4 || r.Pos.Line != 2 {
		t.Errorf("slow: pos %v inputs %v, want line 2 and inputs at lines 3, 4", r.Pos, r.Inputs)
	}
	if u := got["id-2.duration"].Number.Unit; u != "ms" {
		t.Errorf("duration unit %q, want ms", u)
	}
	read, _ := formats.ReaderFor("envoy-access-log")
	_, errs = read("f", []byte(src), raw.ReadOptions{CountWhere: map[string]string{"bad": "response_code =="}})
	if !strings.Contains(errs.Error(), `f:1:1: error: count_where "bad": cannot compile`) {
		t.Errorf("bad predicate: %v", errs)
	}
}

// A JSON access log number out of range is an error, not a reading, and
// the unit the format defines goes to no other reading.
func TestAccessLogOutOfRange(t *testing.T) {
	src := `{"response_code":200,"duration":1e999,"bytes_sent":12}` + "\n"
	read, _ := formats.ReaderFor("envoy-access-log")
	rs, errs := read("f", []byte(src), raw.ReadOptions{})
	if !errs.HasErrors() {
		t.Errorf("no error for 1e999: %v", errs)
	}
	for _, r := range rs {
		if want := structured.AccessLogUnit(strings.TrimPrefix(r.Key, "r1.")); r.Number.Unit != want {
			t.Errorf("%s has unit %q, want %q", r.Key, r.Number.Unit, want)
		}
	}
}
