package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// loadCase writes a txtar project from testdata/cases and loads one of
// its evidence sets.
func loadCase(t *testing.T, name, set string) (*Set, string) {
	t.Helper()
	root := txtartest.WriteFile(t, "testdata/cases/"+name)
	s, errs := LoadSet(root, "evidence/"+set)
	txtartest.CheckRanges(t, errs)
	return s, errs.Error()
}

// Case 13: curl under a decimal-comma locale inside a transcript. The file
// shows a decimal comma (40,045811), so 1,232 is 1.232 s, with warnings.
func TestCaseTranscriptDecimalComma(t *testing.T) {
	s, diags := loadCase(t, "13-transcript-decimal-comma.txtar", "c")
	if s == nil {
		t.Fatalf("set does not load: %s", diags)
	}
	for name, want := range map[string]string{"curl.s1.time": "1.232", "curl.s2.time": "40.045811", "curl.s1.code": "200"} {
		v, ok := s.Value(name)
		if !ok || v.Value.String() != want {
			t.Errorf("%s = %v, want %s", name, v, want)
		}
	}
	if v := s.get("curl.s1.time"); v == nil || v.Unit != "s" || v.Raw != "1,232" || v.Pos.String() != "evidence/c/result.txt:3:15" {
		t.Errorf("curl.s1.time = %+v", v)
	}
	for _, want := range []string{`result.txt:3:15: warning: comma in "1,232" read as a decimal mark (1.232)`, `result.txt:6:15: warning: decimal comma in "40,045811" read as 40.045811`} {
		if !strings.Contains(diags, want) {
			t.Errorf("diagnostics %s\nlack %s", diags, want)
		}
	}
}

func TestDecimalDeclared(t *testing.T) {
	tests := []struct {
		name, manifest, result string
		want                   map[string]string
		err                    string
	}{
		{"ambiguous alone", "", "[S1] a\nTIME=1,232\n", nil, `result.txt:2:6: error: "1,232" is ambiguous`},
		{"set declares comma", "decimal = \",\"\n", "[S1] a\nTIME=1,232\n", map[string]string{"c.s1.time": "1.232"}, ""},
		{"entry declares point", "", "[S1] a\nN=1,232\n", map[string]string{"c.s1.n": "1232"}, ""},
		{"bad mark", "decimal = \";\"\n", "[S1] a\nN=1\n", nil, `error: decimal ";": expected "." or ","`},
	}
	for _, tt := range tests {
		entryDec := ""
		if tt.name == "entry declares point" {
			entryDec = "decimal = \".\"\n"
		}
		root := writeSet(t, "s", map[string]string{
			"result.txt":    tt.result,
			"evidence.toml": manifestHead + tt.manifest + "\n[[transcript]]\nfile = \"result.txt\"\nname = \"c\"\n" + entryDec,
		})
		set, errs := LoadSet(root, "evidence/s")
		if tt.err != "" {
			if set != nil || !strings.Contains(errs.Error(), tt.err) {
				t.Errorf("%s: errors %v, want %q", tt.name, errs, tt.err)
			}
			continue
		}
		if set == nil {
			t.Fatalf("%s: %v", tt.name, errs)
		}
		for k, want := range tt.want {
			if v := set.get(k); v == nil || v.Value.String() != want {
				t.Errorf("%s: %s = %v, want %s", tt.name, k, v, want)
			}
		}
	}
}

// Case 28: fortio durations are seconds and ActualDuration nanoseconds, as
// the reader attaches them; a units declaration contradicting them is an
// error at the value.
func TestCaseFortioUnits(t *testing.T) {
	s, diags := loadCase(t, "28-fortio-units-hint.txtar", "f")
	if s != nil {
		t.Fatalf("set with contradicting units loads")
	}
	for _, want := range []string{
		`evidence/f/run.json:10:35: error: f/h.durationhistogram.p99 is in s (as the fortio-json format defines it) but the manifest declares ms at evidence/f/evidence.toml:`,
		`evidence/f/run.json:4:21: error: f/h.actualduration is in ns (as the fortio-json format defines it) but the manifest declares s`,
	} {
		if !strings.Contains(diags, want) {
			t.Errorf("diagnostics:\n%s\nlack %s", diags, want)
		}
	}
	// Without the contradicting entry the values carry the format's units.
	root := txtartest.WriteFile(t, "testdata/cases/28-fortio-units-hint.txtar")
	m := filepath.Join(root, "evidence/f/evidence.toml")
	b, _ := os.ReadFile(m)
	i := strings.LastIndex(string(b), "[[read]]")
	if err := os.WriteFile(m, b[:i], 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := LoadSet(root, "evidence/f")
	if set == nil {
		t.Fatal(errs)
	}
	for name, want := range map[string]string{"r.durationhistogram.p99": "0.0281 s", "r.actualduration": "10004567890 ns", "r.durationhistogram.count": "1000 ", "r.requestedqps": "100 /s"} {
		if v := set.get(name); v == nil || v.Value.String()+" "+v.Unit != want {
			t.Errorf("%s = %v, want %s", name, v, want)
		}
	}
}

// Units a CSV column name or a Prometheus metric name defines reach the
// values; a manifest declaration contradicting them is an error.
func TestNameDefinedUnits(t *testing.T) {
	files := map[string]string{
		"lat.csv": "host,latency_ms,size_bytes\nh1,12,4096\n",
		"m.prom":  "# TYPE req_duration_seconds summary\nreq_duration_seconds{quantile=\"0.99\"} 0.25\nreq_duration_seconds_count 9\n",
		"evidence.toml": manifestHead + "\n[[read]]\nfile = \"lat.csv\"\nformat = \"csv\"\nname = \"l\"\nkey = \"host\"\n" +
			"\n[[read]]\nfile = \"m.prom\"\nformat = \"prometheus\"\nname = \"p\"\n",
	}
	set, errs := LoadSet(writeSet(t, "s", files), "evidence/s")
	if set == nil {
		t.Fatal(errs)
	}
	for name, want := range map[string]string{"l.h1.latency_ms": "12 ms", "l.h1.size_bytes": "4096 B", "p.req_duration_seconds_count": "9 "} {
		if v := set.get(name); v == nil || v.Value.String()+" "+v.Unit != want {
			t.Errorf("%s = %v, want %s", name, v, want)
		}
	}
	files["evidence.toml"] += "units = { \"req_duration_seconds_count\" = \"s\" }\n"
	files["evidence.toml"] = strings.Replace(files["evidence.toml"], "key = \"host\"\n", "key = \"host\"\nunits = { \"*.latency_ms\" = \"s\" }\n", 1)
	set, errs = LoadSet(writeSet(t, "s", files), "evidence/s")
	if set != nil || !strings.Contains(errs.Error(), `evidence/s/lat.csv:2:4: error: s/l.h1.latency_ms is in ms (as the csv format defines it) but the manifest declares s`) {
		t.Errorf("contradicting units: %v", errs)
	}
}

// Case 73: hyperfine's --export-markdown table read as a [[table]]. A
// "Mean [ms]" cell "319.5 ± 11.2" is the mean (h.java.mean, 319.5 ms)
// and its spread (h.java.mean_pm, 11.2 ms), each at its own column, and
// the mean knows its spread; "[ms]" in a header is its column's unit. A
// cell "1.00" under "Relative" has no spread. Read as cells of one
// number, the Mean column gave no value (a warning per cell) and "Min
// [ms]" gave values without a unit.
func TestCaseHyperfineMarkdownExport(t *testing.T) {
	s, diags := loadCase(t, "73-hyperfine-markdown-export.txtar", "nanopub")
	if s == nil {
		t.Fatalf("set does not load: %s", diags)
	}
	if strings.Contains(diags, "evidence-number") {
		t.Errorf("a cell is not read: %s", diags)
	}
	for name, want := range map[string]string{
		"h.java.mean": "319.5 ms @bench.md:7:101", "h.java.mean_pm": "11.2 ms @bench.md:7:110", "h.python.mean": "446.6 ms @bench.md:8:82",
		"h.rust.mean": "5.3 ms @bench.md:9:106", "h.rust.mean_pm": "0.1 ms @bench.md:9:113", "h.rust.min": "5.1 ms @bench.md:9:119",
		"h.java.min": "296 ms @bench.md:7:117", "h.java.rel": "60.74  @bench.md:7:133", "h.java.rel_pm": "2.49  @bench.md:7:142", "h.rust.rel": "1  @bench.md:9:131",
	} {
		v, ok := s.Value(name)
		if !ok {
			t.Errorf("%s: no value", name)
			continue
		}
		if got := v.Value.String() + " " + v.Unit + " @" + strings.TrimPrefix(v.Pos.String(), "evidence/nanopub/"); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	for mean, want := range map[string]string{"h.java.mean": "11.2 ms nanopub/h.java.mean_pm", "h.rust.mean": "0.1 ms nanopub/h.rust.mean_pm", "h.java.rel": "2.49  nanopub/h.java.rel_pm"} {
		sp := s.get(mean).Spread
		if sp == nil {
			t.Errorf("%s knows no spread", mean)
			continue
		}
		if got := sp.Value.String() + " " + sp.Unit + " " + sp.Ref; got != want || sp.Relative {
			t.Errorf("%s spread = %s (relative %v), want %s", mean, got, sp.Relative, want)
		}
		if of := s.get(strings.TrimPrefix(sp.Ref, "nanopub/")).SpreadOf; of != "nanopub/"+mean {
			t.Errorf("%s SpreadOf = %q", sp.Ref, of)
		}
	}
	// no spread is printed, or declared, for these: never a guess from
	// a name (p.java.mean_sd is the pattern read's, not declared)
	for _, name := range []string{"h.rust.rel", "h.rust.min", "p.java.mean", "p.java.rel"} {
		if v := s.get(name); v == nil || v.Spread != nil {
			t.Errorf("%s = %+v; want a value with no spread", name, v)
		}
	}
}
