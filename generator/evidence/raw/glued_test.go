package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGluedTokensReadWholeOrReported holds that every numeric token of a
// raw file is read whole or reported at its position: in each tool sample
// under testdata/tools, a digit glued after a reading's token ("40ms" →
// "40ms5", a value run into garbage or cut by a terminal) leaves no
// reading of the token's first part, and a diagnostic covers the token.
func TestGluedTokensReadWholeOrReported(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/tools/*")
	for _, dir := range dirs {
		format := filepath.Base(dir)
		read, err := formats.ReaderFor(format)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range files {
			if strings.HasSuffix(p, ".golden") || strings.Contains(p, "in-transcript") || strings.HasSuffix(p, ".json") {
				continue // JSON numbers are one grammar; a glued digit is a number
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rs, _ := read(filepath.Base(p), src, raw.ReadOptions{})
			step := max(len(rs)/15, 1)
			for i := 0; i < len(rs); i += step {
				r := rs[i]
				end := r.Pos.Offset + len(r.Raw)
				if r.Raw == "" || len(r.Inputs) > 0 || !strings.ContainsAny(r.Raw[len(r.Raw)-1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZµ") {
					continue // a token ending in a digit takes the glued digit as its own
				}
				if end < len(src) && src[end] != ' ' && src[end] != '\t' && src[end] != '\n' && src[end] != '\r' && src[end] != ',' {
					continue // not the end of a field
				}
				mut := append(append(append([]byte(nil), src[:end]...), '5'), src[end:]...)
				got, errs := read("m", mut, raw.ReadOptions{})
				for _, g := range got {
					if g.Pos.Offset == r.Pos.Offset && g.Raw == r.Raw {
						t.Errorf("%s: %q glued to \"5\" at %d:%d is still read as %s %s: a token read in part", p, r.Raw, r.Pos.Line, r.Pos.Column, g.Number.Value, g.Number.Unit)
					}
				}
				covered := false
				for _, d := range errs {
					e := d.End.Offset
					if !d.End.IsValid() || e <= d.Pos.Offset {
						e = d.Pos.Offset + 1
					}
					if d.Pos.Line > 0 && d.Pos.Offset <= end && e > r.Pos.Offset {
						covered = true
					}
				}
				if !covered && !errs.HasErrors() {
					t.Errorf("%s: %q glued to \"5\" at %d:%d is neither read whole nor reported; diagnostics %v", p, r.Raw, r.Pos.Line, r.Pos.Column, errs)
				}
			}
		}
	}
}

// TestCutUnitAmongSiblings holds that a latency read in minutes from "m"
// among milliseconds of its line is a warning at the token that names
// both readings (wrk writes "m" for minutes; a terminal that cut "ms"
// leaves the same text), while a line of minutes alone is not.
func TestCutUnitAmongSiblings(t *testing.T) {
	const head = "Running 10s test @ http://x/\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
	for _, tc := range []struct {
		line string
		warn bool
	}{
		{"    Latency    40.00m   1.00ms   2.00ms   70.00%\n", true},
		{"    Latency    40.00ms   1.00ms   2.00m   70.00%\n", true},
		{"    Latency     1.50m   0.20m    2.00m   70.00%\n", false},
		{"    Latency    40.00ms   1.00ms   2.00ms   70.00%\n", false},
	} {
		read, _ := formats.ReaderFor("wrk")
		_, errs := read("f", []byte(head+tc.line+"Requests/sec:  5.50\n"), raw.ReadOptions{})
		got := false
		for _, d := range errs {
			if d.Pos.Line == 3 && strings.Contains(d.Message, "cut to \"m\" would be") {
				got = true
			}
		}
		if got != tc.warn {
			t.Errorf("%q: warning %v, want %v (diagnostics %v)", tc.line, got, tc.warn, errs)
		}
	}
}

// TestGluedTokenReported holds the case of ../shared/cases/s3/52 on the
// raw side: "40ms5" is reported at its position by every reader that
// meets it, never absent and never read as 40 ms.
func TestGluedTokenReported(t *testing.T) {
	for _, c := range []struct{ format, src, tok string }{
		{"wrk", "Running 10s test @ http://x/\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency    40ms5   1.00ms   2.00ms   70.00%\nRequests/sec:  5.50\n", "40ms5"},
		{"vegeta", "Latencies     [min, mean, 50, max]  1ms, 40ms5, 3ms, 4ms\n", "40ms5"},
		{"k6", "http_req_duration..............: avg=40ms5 min=10.93ms med=17.31ms max=65.33ms\n", "40ms5"},
		{"k6", "     data_received..................: 157 MB5 16 MB/s\n", "157"},
		{"transcript", "p99: 40ms5\n", "40ms5"},
		{"ping", "64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=134 ms5\n", "134"},
		{"kubectl", "NAME   CPU(cores)   MEMORY(bytes)\np1     74m5         343Mi\n", "74m5"},
		{"time", "real\t0m1.234s5\nuser\t0m0.567s\nsys\t0m0.089s\n", "0m1.234s5"},
	} {
		read, _ := formats.ReaderFor(c.format)
		rs, errs := read("f", []byte(c.src), raw.ReadOptions{})
		at := strings.Index(c.src, c.tok)
		for _, r := range rs {
			if r.Pos.Offset == at {
				t.Errorf("%s: %q read as %s %s (%q)", c.format, c.tok, r.Number.Value, r.Number.Unit, r.Raw)
			}
		}
		found := false
		for _, d := range errs {
			if d.Pos.Offset == at {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q not reported at its position; diagnostics %v", c.format, c.tok, errs)
		}
	}
}
