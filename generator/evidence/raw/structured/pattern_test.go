package structured_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"fmt"
	"os"
	"strings"
	"testing"
)

// recipes are the pattern-reader manifests of three tools evdoc has no
// reader for (docs/guide/formats.md shows them): ApacheBench, Locust's
// console summary and iperf3.
var recipes = map[string]raw.ReadOptions{
	"ab.txt": {Key: "{label}", Patterns: []string{
		`^(?P<label>Connect|Processing|Waiting|Total):\s+%{NUMBER:min}\s+%{NUMBER:mean}\s+%{NUMBER:sd}\s+%{NUMBER:median}\s+%{NUMBER:max}$`,
		`^\s*(?P<label>%{INT})%\s+%{NUMBER:ms}`,
		`^(?P<label>[A-Z][A-Za-z ]+?):\s+%{NUMBER:value}(?: (?P<value_unit>bytes|seconds))?(?:\s|$)`,
	}},
	"locust.txt": {Key: "{method} {name}", Section: `^(Response time percentiles)`, Skip: `^Type\s+Name\s`, Patterns: []string{
		`^(?P<method>[A-Z]+)?\s+(?P<name>\S+)\s+%{INT:reqs}\s+%{INT:fails}\(%{NUMBER:fail_pct}%\)\s+\|\s+%{NUMBER:avg}\s+%{NUMBER:min}\s+%{NUMBER:max}\s+%{NUMBER:med}\s+\|\s+%{NUMBER:rps}\s+%{NUMBER:fail_rps}$`,
		`^(?P<method>[A-Z]+)?\s+(?P<name>\S+)\s+%{NUMBER:p50}\s+%{NUMBER:p66}\s+%{NUMBER:p75}\s+%{NUMBER:p80}\s+%{NUMBER:p90}\s+%{NUMBER:p95}\s+%{NUMBER:p98}\s+%{NUMBER:p99}\s+%{NUMBER:p99_9}\s+%{NUMBER:p99_99}\s+%{NUMBER:p100}\s+%{INT:reqs}$`,
	}},
	"iperf3.txt": {Key: "{role}", Patterns: []string{
		`^\[\s*%{INT:id}\]\s+%{NUMBER:start}-%{NUMBER:end}\s+sec\s+%{NUMBER:transfer} (?P<transfer_unit>[KMG]Bytes)\s+%{NUMBER:bitrate} Mbits/sec(?:\s+%{INT:retr})?\s+(?P<role>sender|receiver)$`,
		`^\[\s*%{INT:id}\]\s+%{NUMBER:start}-(?P<role>%{NUMBER:end})\s+sec\s+%{NUMBER:transfer} (?P<transfer_unit>[KMG]Bytes)\s+%{NUMBER:bitrate} Mbits/sec\s+%{INT:retr}\s+%{NUMBER:cwnd} (?P<cwnd_unit>[KMG]Bytes)$`,
		`^Connecting to host \S+, port %{INT:port}$`,
		`^\[\s*%{INT:id}\] local \S+ port %{INT:local_port} connected to \S+ port %{INT:port}$`,
	}},
}

// TestPatternRecipes reads each recipe's sample with its patterns alone:
// the values the tool printed, with units, and no number unaccounted
// (rawtest.CheckNoVanish).
func TestPatternRecipes(t *testing.T) {
	want := map[string]map[string]string{
		"ab.txt": {"requests_per_second.value": "4752.85", "time_taken_for_tests.value": "2.104 s", "document_length.value": "615 B",
			"total.max": "32", "99.ms": "18", "100.ms": "32", "time_per_request.value#2": "0.21"},
		"locust.txt": {"get_api_items.fails": "12", "get_api_items.fail_pct": "0.58", "aggregated.rps": "103.42", "get.reqs": "4123",
			"response_time_percentiles.get_api_items.p99": "690", "response_time_percentiles.aggregated.p99_9": "980"},
		"iperf3.txt": {"sender.bitrate": "938", "sender.transfer": "335 MiB", "receiver.end": "3.04", "sender.retr": "12",
			"2_00.cwnd": "423 KiB", "3_00.retr": "12", "port": "5201", "local_port": "43210"},
	}
	for file, opt := range recipes {
		src, err := os.ReadFile("testdata/recipes/" + file)
		if err != nil {
			t.Fatal(err)
		}
		rs, errs := rawtest.CheckNoVanish(t, "pattern", src, opt)
		got := map[string]string{}
		for _, r := range rs {
			got[r.Key] = strings.TrimSpace(r.Number.Value.String() + " " + r.Number.Unit)
		}
		for k, w := range want[file] {
			if got[k] != w {
				t.Errorf("%s: %s = %q, want %q (keys %v)", file, k, got[k], w, rawtest.ReadingKeys(rs))
			}
		}
		for _, e := range errs {
			t.Errorf("%s: %v", file, e)
		}
	}
}

// TestCompilePatternOnce: a pattern is compiled once (the same
// expression comes back, and the same error, twice), a section pattern
// without a named group too, and the memo stays bounded.
func TestCompilePatternOnce(t *testing.T) {
	p := `^x %{NUMBER:n} once$`
	a, errA := structured.CompilePattern(p)
	b, errB := structured.CompilePattern(p)
	if errA != nil || a != b || errB != nil {
		t.Errorf("CompilePattern twice: %p, %v and %p, %v; want one expression", a, errA, b, errB)
	}
	if _, err := structured.CompilePattern(`%{NUMBR:x}`); err == nil {
		t.Error("unknown sub-pattern compiled")
	} else if _, err2 := structured.CompilePattern(`%{NUMBR:x}`); err2 != err {
		t.Errorf("second compile of a bad pattern: %v, want the memoized %v", err2, err)
	}
	s1, _ := structured.CompilePatternAny(`^(Response time)`)
	s2, _ := structured.CompilePatternAny(`^(Response time)`)
	if s1 == nil || s1 != s2 {
		t.Errorf("CompilePatternAny twice: %p and %p", s1, s2)
	}
	for i := range 2 * structured.MaxCompiledPatterns {
		structured.CompilePattern(fmt.Sprintf(`^%d %%{NUMBER:n}$`, i))
	}
	n := structured.CompiledPatterns()
	if n > structured.MaxCompiledPatterns {
		t.Errorf("%d patterns memoized, want at most %d", n, structured.MaxCompiledPatterns)
	}
}

func TestPatternErrors(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{`(?P<x>%{NUMBER}`, "missing closing )"},
		{`%{NUMBR:x}`, "unknown sub-pattern %{NUMBR}; expected one of DATA, DURATION"},
		{`^\d+$`, "has no named group"},
	} {
		if _, err := structured.CompilePattern(c.pattern); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CompilePattern(%q) = %v, want %q", c.pattern, err, c.want)
		}
	}
	read, _ := formats.ReaderFor("pattern")
	if _, errs := read("f", []byte("a 1\n"), raw.ReadOptions{}); !strings.Contains(errs.Error(), "f:1:1: error: no patterns") {
		t.Errorf("no patterns: %v", errs)
	}
	if _, errs := read("f", []byte("a 1\nb 2\n"), raw.ReadOptions{Patterns: []string{`^b %{NUMBER:n}`}}); !strings.Contains(errs.Error(), `f:1:3: warning: number "1" is not read`) {
		t.Errorf("unmatched numeric line: %v", errs)
	}
}

func FuzzPattern(f *testing.F) {
	for file := range recipes {
		if b, err := os.ReadFile("testdata/recipes/" + file); err == nil {
			rawtest.AddPieces(f, b)
		}
	}
	f.Add([]byte("Total:  1 2 3 4 5\n  50%  1e3\nX: 12ms\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, opt := range recipes {
			rawtest.CheckNoVanish(t, "pattern", src, opt)
		}
	})
}
