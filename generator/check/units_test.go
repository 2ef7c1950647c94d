package check

import (
	"os"
	"path/filepath"
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
