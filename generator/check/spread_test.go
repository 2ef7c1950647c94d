package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// spreadFiles is an evidence set whose values know their spread: a
// hyperfine table (markdown-tables: "Mean [ms]" cells "A ± B"), a
// benchstat table (±11%, relative), a pattern read whose manifest
// declares mean_sd the spread of mean, and a transcript that prints none.
var spreadFiles = map[string]string{
	"evidence.toml": `id = "s"
title = "t"
date = "unknown"
environment = "e"
report = "r"
origin = "raw"

[[table]]
file = "bench.md"
heading = "Speed"
name = "h"
columns = { "Mean [ms]" = "mean", "Min [ms]" = "min", "Relative" = "rel" }

[[read]]
file = "bench.md"
format = "pattern"
name = "p"
key = "{cmd}"
patterns = ['^\| (?P<cmd>\w+) \| %{NUMBER:mean} ± %{NUMBER:mean_sd} \| %{NUMBER:min} \| %{NUMBER:rel}(?: ± %{NUMBER:rel_sd})? \| %{NUMBER:hit}%(?: ± %{NUMBER:hit_sd}%)? \|$']
units = { "*.mean" = "ms", "*.mean_sd" = "ms", "*.min" = "ms" }
spreads = { "*.mean" = "*.mean_sd" }

[[read]]
file = "benchstat.txt"
format = "benchstat"
name = "b"

[[transcript]]
file = "t.txt"
name = "t"
units = { "*.time" = "s" }
`,
	"bench.md": `## Speed

| Command | Mean [ms] | Min [ms] | Relative | Hit |
|:---|---:|---:|---:|---:|
| java | 319.5 ± 11.2 | 296.0 | 60.74 ± 2.49 | 44% ± 2% |
| rust | 5.3 ± 0.1 | 5.1 | 1.00 | 90% |
`,
	"benchstat.txt": `name       old time/op    new time/op    delta
Encode-8   825µs ±11%     451µs ± 5%  -45.31%  (p=0.100 n=3+3)
`,
	"t.txt": "[S1] run\ntime=43.0\n",
}

// TestSpreadClaims: a claim "mean ± spread" checks both numbers against a
// value that knows its spread, each at its written precision; on a value
// with none it is claim-spread, never a tolerance. Each wrong reading of
// ± fails a row: as a tolerance, 329.5 ± 11.2 (a mean copied one digit
// wrong) and [43±1秒] would pass; with σ unchecked, 319.5 ± 12.2 would.
func TestSpreadClaims(t *testing.T) {
	tests := []struct {
		lit, ref string
		rule     diag.RuleID // "" when the claim holds
	}{
		// hyperfine's Mean [ms] cell 319.5 ± 11.2
		{"319.5 ± 11.2ms", "h.java.mean", ""},
		{"319.5ms ± 11.2ms", "h.java.mean", ""},
		{"319.5±11.2 ms", "h.java.mean", ""},
		{"0.3195 ± 0.0112s", "h.java.mean", ""},
		{"319.5 ± 11ms", "h.java.mean", ""},                   // the spread at its own precision
		{"329.5 ± 11.2ms", "h.java.mean", "claim-mismatch"},   // the mean one digit wrong
		{"300 ± 20ms", "h.java.mean", "claim-mismatch"},       // a tolerance would swallow it (mean and σ both wrong)
		{"330.7ms ± 11.2ms", "h.java.mean", "claim-mismatch"}, // the tolerance's upper edge
		{"319.5 ± 12.2ms", "h.java.mean", "claim-mismatch"},   // σ wrong
		{"319.5 ± 11.25ms", "h.java.mean", "claim-mismatch"},  // σ finer than printed
		{"319.5ms ±3.5%", "h.java.mean", "claim-mismatch"},    // a relative spread on a quantity
		{"319.5ms", "h.java.mean", ""},
		{"11.2ms", "h.java.mean_pm", ""},
		{"5.3 ± 0.1ms", "h.rust.mean", ""},
		{"5.1ms", "h.rust.min", ""}, // the unit of "Min [ms]"
		{"60.74 ± 2.49", "h.java.rel", ""},
		{"60.74 ± 2.50", "h.java.rel", "claim-mismatch"},
		{"1.00 ± 0.01", "h.rust.rel", "claim-spread"}, // the cell prints no spread
		// after a percentage, ± 2% is 2 points in the cell and in the claim
		{"44% ± 2%", "h.java.hit", ""},
		{"44% ± 0.9%", "h.java.hit", "claim-mismatch"}, // 2 % of 44 % read as relative would pass
		{"44% ± 2%p", "h.java.hit", ""},
		// the pattern read: spreads declares mean_sd
		{"319.5 ± 11.2ms", "p.java.mean", ""},
		{"329.5 ± 11.2ms", "p.java.mean", "claim-mismatch"},
		{"319.5 ± 11.3ms", "p.java.mean", "claim-mismatch"},
		{"60.74 ± 2.49", "p.java.rel", "claim-spread"}, // rel_sd is not declared
		// one reference per number: the writer names the spread's value
		{"319.5 ± 11.2ms", "p.java.mean,p.java.mean_sd", ""},
		{"329.5 ± 11.2ms", "p.java.mean,p.java.mean_sd", "claim-mismatch"},
		{"319.5 ± 12.2ms", "p.java.mean,p.java.mean_sd", "claim-mismatch"}, // σ wrong: passes if the second reference were ignored
		{"60.74 ± 2.49", "p.java.rel,p.java.rel_sd", ""},                   // no spreads declaration needed
		{"60.74 ± 2.94", "p.java.rel,p.java.rel_sd", "claim-mismatch"},
		{"825µs ±11%", "b.encode.time_op.old,b.encode.time_op.old_var", ""},
		{"825µs ±12%", "b.encode.time_op.old,b.encode.time_op.old_var", "claim-mismatch"},
		{"319.5 ± 11.2ms", "p.java.mean,p.java.mean_sd,p.java.min", "claim-arity"},
		// benchstat: a relative spread
		{"825µs ±11%", "b.encode.time_op.old", ""},
		{"825µs ± 11%", "b.encode.time_op.old", ""},
		{"825µs ±12%", "b.encode.time_op.old", "claim-mismatch"},
		{"825µs ± 91µs", "b.encode.time_op.old", "claim-mismatch"}, // 11% of 825 is not known to 1 µs
		{"925µs ±11%", "b.encode.time_op.old", "claim-mismatch"},
		{"±11%", "b.encode.time_op.old_var", ""},
		// no spread known: say so
		{"43±1秒", "t.s1.time", "claim-spread"},
		{"43 ± 1 s", "t.s1.time", "claim-spread"},
		{"120ms ±11%", "t.s1.time", "claim-spread"},
		{"42~44秒", "t.s1.time", ""}, // a tolerance written as the range it allows
		{"42±1~44秒", "t.s1.time", "claim-spread"},
	}
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	for name, body := range spreadFiles {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	var page strings.Builder
	for _, tt := range tests {
		fmt.Fprintf(&page, "[%s](ev:s/%s)\n\n", tt.lit, tt.ref)
	}
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(page.String()))
	if perrs != nil {
		t.Fatal(perrs)
	}
	results, ds := Claims(p, st, DefaultOptions())
	if len(results) != len(tests) {
		t.Fatalf("%d results for %d claims", len(results), len(tests))
	}
	for i, r := range results {
		tt := tests[i]
		var rules []diag.RuleID
		other := false // a finding of another rule than tt.rule
		for _, d := range ds {
			if d.Pos.Line == r.Claim.Pos.Line {
				rules = append(rules, d.Rule)
				other = other || d.Rule != tt.rule
			}
		}
		switch {
		case tt.rule == "" && (!r.OK || len(rules) > 0):
			t.Errorf("[%s](ev:s/%s): ok = %v, findings %v; want it to hold", tt.lit, tt.ref, r.OK, rules)
		case tt.rule != "" && (r.OK || len(rules) == 0 || other):
			t.Errorf("[%s](ev:s/%s): ok = %v, findings %v; want %s only", tt.lit, tt.ref, r.OK, rules, tt.rule)
		}
	}
}

// TestSpreadUnknownMessage: the claim-spread finding names both readings,
// whether the mean alone matches, and the range a tolerance would write.
func TestSpreadUnknownMessage(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	for name, body := range spreadFiles {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte("평균 [44 ± 1.5초](ev:s/t.s1.time)\n"))
	if perrs != nil {
		t.Fatal(perrs)
	}
	_, ds := Claims(p, st, DefaultOptions())
	if len(ds) != 1 || ds[0].Rule != diag.ClaimSpread {
		t.Fatalf("findings %v; want one claim-spread", ds)
	}
	for _, want := range []string{"the spread a tool printed", "a tolerance", "as a mean, 44 does not match 43s", "[42.5~45.5초]", "spreads = {"} {
		if !strings.Contains(ds[0].Message, want) {
			t.Errorf("message %q lacks %q", ds[0].Message, want)
		}
	}
	if ds[0].Pos.Column != len("평균 [")+1 || ds[0].End.Column != len("평균 [44 ± 1.5초")+1 {
		t.Errorf("range %d–%d; want the number with its spread", ds[0].Pos.Column, ds[0].End.Column)
	}
}

// TestSpreadFix: a wrong spread is rewritten to the value's spread in its
// own digits, the mean left as written; a spread of the other kind
// (a quantity against a relative one) is not rewritten.
func TestSpreadFix(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	for name, body := range spreadFiles {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	src := "[319.5 ± 12.2ms](ev:s/h.java.mean)\n\n[825µs ± 91µs](ev:s/b.encode.time_op.old)\n\n[319.5 ± １２．２ms](ev:s/h.java.mean)\n"
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	if perrs != nil {
		t.Fatal(perrs)
	}
	_, ds := Claims(p, st, DefaultOptions())
	var got []string
	for _, d := range ds {
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				got = append(got, fmt.Sprintf("%d: %s → %s", e.Pos.Line, src[e.Pos.Offset:e.End], e.NewText))
			}
		}
	}
	want := []string{"1: 12.2 → 11.2", "5: １２．２ → １１．２"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("fixes %q, want %q (findings %v)", got, want, ds)
	}
}
