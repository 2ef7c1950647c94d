package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestToolSamples reads every sample under testdata/tools/FORMAT/ (the
// outside cases' real outputs, named case*, and samples written in each
// tool's documented format) with the reader of FORMAT and holds that:
// Sniff names FORMAT, the reader reports no error, every reading keeps
// its raw text at its position, no field with a digit vanishes
// (vanished), and the readings — key, value, unit, raw text, line:col —
// and diagnostics equal the sample's golden file (NAME.golden; rewrite
// with -update and review the diff).
func TestToolSamples(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/tools/*")
	if len(dirs) == 0 {
		t.Fatal("no samples")
	}
	for _, dir := range dirs {
		format := filepath.Base(dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		n := 0
		for _, p := range files {
			if strings.HasSuffix(p, ".golden") {
				continue
			}
			n++
			t.Run(format+"/"+filepath.Base(p), func(t *testing.T) {
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				base := filepath.Base(p)
				want := format
				if strings.Contains(base, "in-transcript") {
					want = "transcript" // pasted under a transcript's [ID] section: read with --as
				}
				if got := raw.Sniff(base, src); got != want {
					t.Errorf("Sniff = %q, want %q", got, want)
				}
				read, err := formats.ReaderFor(format)
				if err != nil {
					t.Fatal(err)
				}
				rs, errs := read(base, src, raw.ReadOptions{})
				checkReadings(t, src, rs, errs, nil)
				if errs.HasErrors() {
					t.Errorf("errors: %v", errs)
				}
				if len(rs) == 0 {
					t.Errorf("no readings")
				}
				if v := vanished(format, src, rs, errs); len(v) > 0 {
					t.Errorf("%d fields with digits vanished: %q", len(v), v)
				}
				var got bytes.Buffer
				for _, r := range rs {
					fmt.Fprintf(&got, "%d:%d %s = %s %s %q\n", r.Pos.Line, r.Pos.Column, r.Key, r.Number.Value, unitOrDash(r.Number.Unit), r.Raw)
				}
				for _, e := range errs {
					fmt.Fprintf(&got, "%s\n", e)
				}
				golden := p + ".golden"
				if txtartest.Updating() {
					if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				gold, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if !bytes.Equal(got.Bytes(), gold) {
					t.Errorf("readings differ from %s (run with -update and review the diff):\n%s", golden, lineDiff(string(gold), got.String()))
				}
			})
		}
		if n < 2 {
			t.Errorf("%s: %d samples; expected the outside case and samples of its own", format, n)
		}
	}
}

func unitOrDash(u string) string {
	if u == "" {
		return "-"
	}
	return u
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
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
	rs, errs := checkNoVanish(t, "envoy-access-log", []byte(src), opt)
	if len(errs) != 0 {
		t.Fatalf("diagnostics: %v", errs)
	}
	got := map[string]raw.Reading{}
	for _, r := range rs {
		got[r.Key] = r
	}
	for k, want := range map[string]string{"ok": "2", "uf": "1", "slow": "2", "all": "3", "id-1.duration": "12", "id-2.response_code": "503", "id-3.duration": "250"} {
		if r, ok := got[k]; !ok || r.Number.Value.String() != want {
			t.Errorf("%s = %v, want %s (readings %v)", k, r.Number.Value, want, readingKeys(rs))
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
		if want := raw.AccessLogUnit(strings.TrimPrefix(r.Key, "r1.")); r.Number.Unit != want {
			t.Errorf("%s has unit %q, want %q", r.Key, r.Number.Unit, want)
		}
	}
}
