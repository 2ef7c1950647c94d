package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// TestBinaryOnlyMatchHasNoFix: a decimal size claim that matches its
// value only when read as the binary unit is a unit mistake, reported
// with both readings and no fix (rewriting the digits to the SI reading
// would hide which was meant); a plain stale SI number gets its fix.
func TestBinaryOnlyMatchHasNoFix(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "t.md"), []byte("## T\n| run | rate |\n|---|---|\n| a | 12.89 |\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte("id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n[[table]]\nfile = \"t.md\"\nheading = \"T\"\nname = \"t\"\nunits = { \"*.rate\" = \"MiB/s\" }\n"), 0o644))
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte("[12.89MB/s](ev:s/t.a.rate) [13.00MB/s](ev:s/t.a.rate) [13.52MB/s](ev:s/t.a.rate) [12.89MiB/s](ev:s/t.a.rate)\n"))
	if perrs != nil {
		t.Fatal(perrs)
	}
	results, ds := Claims(p, st, DefaultOptions())
	if len(results) != 4 || results[0].OK || results[1].OK || !results[2].OK || !results[3].OK {
		t.Fatalf("verdicts %+v; want FAIL FAIL ok ok", results)
	}
	if len(ds) != 2 {
		t.Fatalf("findings %v", ds)
	}
	if len(ds[0].Fixes) != 0 {
		t.Errorf("[12.89MB/s] on 12.89 MiB/s has a fix %v; want none (a unit mistake)", ds[0].Fixes)
	}
	if len(ds[1].Fixes) != 1 || ds[1].Fixes[0].Edits[0].NewText != "13.52" {
		t.Errorf("[13.00MB/s] on 12.89 MiB/s: fixes %v; want 13.52", ds[1].Fixes)
	}
}

// TestMultiplierLetterOnSize: a claim with a multiplier letter and no
// unit (wrk's 2.76k) is judged as the number it scales on a count or a
// rate, at the precision written; on a size or a throughput the letter
// is a power of 1000 to some tools and of 1024 to others (ls -h), so
// the claim fails naming both readings, with no fix, even where the SI
// reading would match (1.5M on 1,500,000 B) or the binary one would (on
// 1,572,864 B).
func TestMultiplierLetterOnSize(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "t.md"), []byte("## T\n| run | size | bin | rate | reqs |\n|---|---|---|---|---|\n| a | 1500000 | 1572864 | 2500000 | 2760 |\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte("id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n[[table]]\nfile = \"t.md\"\nheading = \"T\"\nname = \"t\"\nunits = { \"*.size\" = \"B\", \"*.bin\" = \"B\", \"*.rate\" = \"B/s\", \"*.reqs\" = \"/s\" }\n"), 0o644))
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte("[1.5M](ev:s/t.a.size) [1.5M](ev:s/t.a.bin) [2.5M](ev:s/t.a.rate) [2.76k](ev:s/t.a.reqs) [2.76k req/s](ev:s/t.a.reqs) [2.77k](ev:s/t.a.reqs) [1.5MB](ev:s/t.a.size)\n"))
	if perrs != nil {
		t.Fatal(perrs)
	}
	results, ds := Claims(p, st, DefaultOptions())
	want := []bool{false, false, false, true, true, false, true}
	if len(results) != len(want) {
		t.Fatalf("%d results", len(results))
	}
	for i, r := range results {
		if r.OK != want[i] {
			t.Errorf("[%s]: ok = %v, want %v", r.Claim.Literal, r.OK, want[i])
		}
	}
	if len(ds) != 4 {
		t.Fatalf("findings %v; want 4", ds)
	}
	for i, frag := range []string{"1.5 MB (SI", "1.5 MB (SI", "2.5 MB/s (SI, powers of 1000) to some tools and 2.5 MiB/s", "2.76k at the precision"} {
		if !strings.Contains(ds[i].Message, frag) {
			t.Errorf("finding %d: %s; want it to say %q", i, ds[i].Message, frag)
		}
		if i < 3 && len(ds[i].Fixes) != 0 {
			t.Errorf("finding %d has a fix %v; want none (which reading is meant is the writer's to say)", i, ds[i].Fixes)
		}
	}
}
