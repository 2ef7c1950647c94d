package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const cases = "../../generator/evidence/testdata/cases/"

// Case 13: TIME=1,232 next to TIME=40,045811 is 1.232 s, so the pages'
// 約1.2秒 / 약 1.2초 pass and fix leaves them alone.
func TestCaseTranscriptDecimalCommaCheckAndFix(t *testing.T) {
	dir := extract(t, cases+"13-transcript-decimal-comma.txtar")
	code, stdout, stderr := evdoc("check", "--root", dir)
	if code != 0 || !strings.Contains(stdout, `warning: comma in "1,232" read as a decimal mark (1.232)`) {
		t.Errorf("check: exit %d\n%s\n%s", code, stdout, stderr)
	}
	page := filepath.Join(dir, "content", "ja", "docs", "p.md")
	before, _ := os.ReadFile(page)
	if code, stdout, stderr := evdoc("fix", "--root", dir); code != 0 {
		t.Errorf("fix: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if after, _ := os.ReadFile(page); string(after) != string(before) {
		t.Errorf("fix rewrote a correct page:\n%s", after)
	}
}

// Case 20: a guess that reads nothing says which formats it tried, names
// the --as that reads the file, and exits 2; the right guess reads it.
func TestValuesGuessReadsNothing(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hist, err := os.ReadFile("../../generator/evidence/raw/formats/testdata/cases/20-single-histogram-line-sniff.txt")
	if err != nil {
		t.Fatal(err)
	}
	write("hist.txt", string(hist))
	if code, stdout, stderr := evdoc("values", "--root", dir, "hist.txt"); code != 0 || strings.Count(stdout, "upstream_rq_time.p") != 18 {
		t.Errorf("single histogram line: exit %d\n%s\n%s", code, stdout, stderr)
	}
	write("prom.txt", "# TYPE a counter\na{x=\"1\"} 5\n")
	if code, stdout, stderr := evdoc("values", "--root", dir, "prom.txt"); code != 0 || !strings.Contains(stdout, `a{x="1"}`) {
		t.Errorf("prometheus: exit %d\n%s\n%s", code, stdout, stderr)
	}
	write("prose.txt", "the run took 40 seconds\n")
	code, _, stderr := evdoc("values", "--root", dir, "prose.txt")
	if code != 2 || !strings.Contains(stderr, "prose.txt:1:1: error: the format guessed from the file's name and content, transcript, reads no numeric value; also tried benchstat, csv, curl-writeout,") ||
		!strings.Contains(stderr, `or a [[read]] entry with format = "pattern" whose patterns read its lines`) {
		t.Errorf("prose: exit %d\n%s", code, stderr)
	}
	write("stats.log", "0.534 + 0.545 = 1.079\n")
	code, _, stderr = evdoc("values", "--root", dir, "stats.log")
	if code != 2 || !strings.Contains(stderr, "--as curl-writeout (3 values)") {
		t.Errorf("unlabelled values: exit %d\n%s", code, stderr)
	}
}

// Case 10: a /clusters?format=json host stat whose zero value Envoy
// omitted (proto3) is 0, so [0개](ev:cl/cj.cx_active) passes.
func TestCaseClustersJSONOmittedZero(t *testing.T) {
	dir := extract(t, cases+"10-clusters-json-omitted-zero.txtar")
	if code, stdout, stderr := evdoc("check", "--root", dir); code != 0 || !strings.Contains(stderr, "4/4 claims match") {
		t.Errorf("check: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ := evdoc("values", "--root", dir, "--format=json", "evidence/cl")
	if code != 0 || !strings.Contains(stdout, `{"ref":"cl/cj.cx_active","key":"outbound|80||httpbin.default.svc.cluster.local::10.244.0.7:80::cx_active","value":"0","unit":"","file":"evidence/cl/clusters.json","line":17,"column":16,"raw":"\"cx_active\""}`) {
		t.Errorf("values: exit %d\n%s", code, stdout)
	}
}

// Case 28: with the units fortio's format defines, [28ms] and [10초] on
// the seconds and nanoseconds fortio wrote pass, and the 1000× and 10⁹×
// wrong [0.028ms] and [100억 초] fail.
func TestCaseFortioUnitsCheck(t *testing.T) {
	for _, tt := range []struct {
		ko, ja string
		code   int
	}{
		{"[28ms](ev:f/r.durationhistogram.p99), [10초](ev:f/r.actualduration)", "[28ms](ev:f/r.durationhistogram.p99)、[10秒](ev:f/r.actualduration)", 0},
		{"[0.028ms](ev:f/r.durationhistogram.p99)", "[28ms](ev:f/r.durationhistogram.p99)", 1},
		{"[100억 초](ev:f/r.actualduration)", "[10秒](ev:f/r.actualduration)", 1},
	} {
		dir := extract(t, cases+"28-fortio-units-hint.txtar")
		m := filepath.Join(dir, "evidence/f/evidence.toml")
		b, _ := os.ReadFile(m)
		b = b[:strings.LastIndex(string(b), "[[read]]")] // drop the contradicting entry
		pages := map[string]string{"ko": tt.ko, "ja": tt.ja}
		for lang, body := range pages {
			p := filepath.Join(dir, "content", lang, "docs", "p.md")
			if err := os.WriteFile(p, []byte("---\ntitle: t\n---\n\n"+body+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(m, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, stdout, stderr := evdoc("check", "--root", dir); code != tt.code {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", tt.ko, code, tt.code, stdout, stderr)
		}
	}
}

// TestValuesReferences: `evdoc values` shows the reference a page writes
// (SET/NAME) next to the reader's key and the provenance, for a set (by
// directory or id) and for a raw file its set reads ("-" for a reading
// the set does not name, with a note for a file no set reads); a failure
// prints nothing on stdout, not even the header.
func TestValuesReferences(t *testing.T) {
	dir := extract(t, "testdata/values-refs.txtar")
	for _, tt := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"evidence/s"}, 0,
			"REFERENCE  KEY                          VALUE  UNIT  POSITION                   RAW\n" +
				"s/up.rq    cluster.a.upstream_rq_total  40           evidence/s/stats.txt:1:30  40\n", ""},
		{[]string{"s"}, 0,
			"REFERENCE  KEY                          VALUE  UNIT  POSITION                   RAW\n" +
				"s/up.rq    cluster.a.upstream_rq_total  40           evidence/s/stats.txt:1:30  40\n", ""},
		{[]string{"evidence/s/stats.txt"}, 0,
			"REFERENCE  KEY                          VALUE  UNIT  POSITION                   RAW\n" +
				"s/up.rq    cluster.a.upstream_rq_total  40           evidence/s/stats.txt:1:30  40\n" +
				"-          cluster.a.upstream_cx_total  3            evidence/s/stats.txt:2:30  3\n", ""},
		{[]string{"loose/r.txt"}, 0,
			"REFERENCE  KEY                          VALUE  UNIT  POSITION          RAW\n" +
				"-          cluster.b.upstream_rq_total  7            loose/r.txt:1:30  7\n",
			"evdoc: loose/r.txt is read by no evidence set, so no page can reference its values yet (REFERENCE -); `evdoc new evidence NAME --from loose/r.txt` makes one\n"},
		{[]string{"nosuch"}, 2, "", "nosuch: error: no such file, directory or evidence set; expected a raw file, an evidence set directory (evidence/NAME) or an evidence set id [values-io]\n"},
		{[]string{"evidence/s", "bad/x.json"}, 2, "", "bad/x.json:"},
		{[]string{"--format=json", "evidence/s/stats.txt"}, 0,
			`{"ref":"s/up.rq","key":"cluster.a.upstream_rq_total","value":"40","unit":"","file":"evidence/s/stats.txt","line":1,"column":30,"raw":"40","format":"envoy-stats"}` + "\n" +
				`{"ref":"","key":"cluster.a.upstream_cx_total","value":"3","unit":"","file":"evidence/s/stats.txt","line":2,"column":30,"raw":"3","format":"envoy-stats"}` + "\n", ""},
	} {
		code, stdout, stderr := evdoc(append([]string{"values", "--root", dir}, tt.args...)...)
		if code != tt.code || stdout != tt.stdout || !strings.HasPrefix(stderr, tt.stderr) || tt.stderr == "" && stderr != "" {
			t.Errorf("values %v: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d\nstdout:\n%s\nstderr starting:\n%s", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
	}
}

// TestValuesToolSamples: evdoc values on every sample of the load-tester
// and system-tool readers guesses the tool's format and lists its
// readings with their units (the first reading of each sample's golden
// file, key and unit, is in the listing).
func TestValuesToolSamples(t *testing.T) {
	files, _ := filepath.Glob("../../generator/evidence/raw/testdata/tools/*/*")
	n := 0
	for _, p := range files {
		if strings.HasSuffix(p, ".golden") || strings.Contains(p, "in-transcript") {
			continue
		}
		golden, err := os.ReadFile(p + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		first := strings.Fields(strings.SplitN(string(golden), "\n", 2)[0]) // "L:C key = value unit raw"
		key, unit := first[1], first[4]
		if unit == "-" {
			unit = ""
		}
		n++
		code, stdout, stderr := evdoc("values", "--root", filepath.Dir(p), filepath.Base(p))
		want := regexp.MustCompile(`(?m)^-\s+` + regexp.QuoteMeta(key) + `\s+\S+\s+` + regexp.QuoteMeta(unit) + `\s`)
		if code != 0 || !want.MatchString(stdout) {
			t.Errorf("%s: exit %d, no line for %s in %s:\n%s\n%s", p, code, key, unit, stdout, stderr)
		}
	}
	if n < 20 {
		t.Errorf("%d samples", n)
	}
}

// Cases 37 and 43: evdoc values FILE on a file an evidence set reads
// with a declared format reads it in that format (with the set's
// references), and lists the numbers the format does not read as
// evidence-number warnings.
func TestValuesDeclaredFormat(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/case-43-ghz-influx-summary.txtar")
	code, stdout, stderr := evdoc("values", "--root", dir, "evidence/ghz-greeter/ghz-influx.txt")
	if code != 0 || !strings.Contains(stdout, "ghz-greeter/g.p95") || !strings.Contains(stdout, "4354194") ||
		!strings.Contains(stderr, `ghz-influx.txt:1:387: warning: number "128802790" is not read by the curl-writeout format`) {
		t.Errorf("ghz: exit %d\n%s\n%s", code, stdout, stderr)
	}
	dir = extract(t, "../../generator/checker/testdata/check/case-37-hey-summary.txtar")
	code, stdout, stderr = evdoc("values", "--root", dir, "evidence/hey-200/hey.txt")
	if code != 0 || !strings.Contains(stdout, "0.0035 secs") || !strings.Contains(stderr, `hey.txt:39:30: warning: 2 numbers ("0.0004", "0.0107") are not read`) {
		t.Errorf("hey: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
