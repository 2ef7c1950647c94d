package fix

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// store builds an evidence store from a transcript of key=value lines.
func store(t *testing.T, transcript string) *evidence.Store {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"lab\"\nreport = \"r\"\norigin = \"raw\"\n[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n"
	if err := os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "r.txt"), []byte(transcript), 0o644); err != nil {
		t.Fatal(err)
	}
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	return st
}

func TestEditsKeepStyle(t *testing.T) {
	st := store(t, "ok=87 n=87 pct=43.2% d=+2 t=41.2s big=12345 ms=1.5s\n")
	src := "---\ntitle: t\n---\n성공 [86/86](ev:s/r.ok,r.n), 실패율 [44%](ev:s/r.pct), 증가 [Δ+1](ev:s/r.d),\n" +
		"[약 40초](ev:s/r.t), [1,234개](ev:s/r.big), [８６개](ev:s/r.ok), [1200ms](ev:s/r.ms), [**86**](ev:s/r.ok)\n"
	p, errs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	edits, ds := Edits(p, st, check.DefaultOptions())
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	got := string(Apply(p.Source, edits))
	want := "---\ntitle: t\n---\n성공 [87/87](ev:s/r.ok,r.n), 실패율 [43%](ev:s/r.pct), 증가 [Δ+2](ev:s/r.d),\n" +
		"[약 40초](ev:s/r.t), [12,345개](ev:s/r.big), [８７개](ev:s/r.ok), [1500ms](ev:s/r.ms), [**87**](ev:s/r.ok)\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// 41.2 is within 10% of "약 40초": not stale, so not rewritten.
	for _, e := range edits {
		if e.Old == "40" {
			t.Errorf("approximate literal rewritten: %+v", e)
		}
	}
}

func TestEditsAcrossInlineMarkup(t *testing.T) {
	st := store(t, "ok=87 n=87\n")
	src := []byte("[86/**86**](ev:s/r.ok,r.n) [약\n50개](ev:s/r.ok)\n")
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", src)
	edits, ds := Edits(p, st, check.DefaultOptions())
	if ds != nil {
		t.Fatal(ds)
	}
	// Each number is one run of source text, so each can be rewritten,
	// even across emphasis and a line break.
	if got := string(Apply(src, edits)); got != "[87/**87**](ev:s/r.ok,r.n) [약\n87개](ev:s/r.ok)\n" {
		t.Errorf("got %q", got)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "page.md")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(p, []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o640 {
		t.Errorf("content %q mode %v", b, fi.Mode())
	}
	// The file changed since it was read: left alone.
	if err := WriteAtomic(p, []byte("old"), []byte("newer")); !errors.Is(err, ErrChanged) {
		t.Errorf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

var _ = decimal.Zero
var _ = diag.Position{}

func TestEditsLeaveUnitAndSignProblemsToPeople(t *testing.T) {
	st := store(t, "pct=43.2% n=18\n")
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", []byte("[44초](ev:s/r.pct) [+18](ev:s/r.n)\n"))
	edits, ds := Edits(p, st, check.DefaultOptions())
	if len(edits) != 0 || len(ds) != 2 || ds[0].Rule != "fix-manual" || ds[1].Rule != "fix-manual" {
		t.Errorf("edits %v, diagnostics %v", edits, ds)
	}
}

func TestEditsWriteNoFinerThanTheRecord(t *testing.T) {
	st := store(t, "rate=44% low=0.2%\n")
	src := []byte("[51.7%에서 0.21%로](ev:s/r.rate,r.low)\n")
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", src)
	edits, ds := Edits(p, st, check.DefaultOptions())
	if ds != nil {
		t.Fatal(ds)
	}
	if got := string(Apply(src, edits)); got != "[44%에서 0.2%로](ev:s/r.rate,r.low)\n" {
		t.Errorf("got %q", got)
	}
}

// TestScaleChange: a rewrite that changes any number of a literal by a
// factor of 1000 or more needs --allow-scale (issue 9: 約1.2秒 → 約1232秒).
func TestScaleChange(t *testing.T) {
	for _, tt := range []struct {
		old, nw string
		want    bool
	}{
		{"約1.2秒", "約1232秒", true},
		{"1232ms", "1.2ms", true},
		{"40건", "41건", false},
		{"1.2~1.5초", "1.2~1500초", true},
		{"1.2~1.5초", "1.2~1.6초", false},
		{"86/86", "86/87", false},
		{"3", "2999", false},
		{"3", "3000", true},
		{"0.5%", "0.4%", false},
		{"0", "5", false},
	} {
		if got := scaleChange(tt.old, tt.nw); got != tt.want {
			t.Errorf("scaleChange(%q, %q) = %v, want %v", tt.old, tt.nw, got, tt.want)
		}
	}
}

// TestEditsLeaveFrontMatter: fix rewrites claims in the body only; front
// matter of every format Hugo reads (YAML, TOML, JSON), even text shaped
// like a claim in it, stays byte for byte.
func TestEditsLeaveFrontMatter(t *testing.T) {
	st := store(t, "ok=87\n")
	body := "성공 [86개](ev:s/r.ok)\n"
	for _, fm := range []string{
		"---\ntitle: \"[86개](ev:s/r.ok)\"\n---\n",
		"+++\ntitle = \"[86개](ev:s/r.ok)\"\n[params]\n  n = 86\n+++\n",
		"{\n  \"title\": \"[86개](ev:s/r.ok)\"\n}\n",
	} {
		p, errs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(fm+body))
		if errs != nil {
			t.Fatal(errs)
		}
		edits, _ := Edits(p, st, check.DefaultOptions())
		if got, want := string(Apply(p.Source, edits)), fm+"성공 [87개](ev:s/r.ok)\n"; got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	}
}

// TestEditsKeepCharacterReferences: a literal written with character
// references or escapes (40&nbsp;초, 44&percnt;, 44\%) has its digits
// rewritten and its references kept; a number written as a reference
// (&#56;6) is not rewritten (check reports it as a claim-literal error).
func TestEditsKeepCharacterReferences(t *testing.T) {
	st := store(t, "ok=87 pct=43.2% t=41.2s\n")
	src := []byte("[86&nbsp;개](ev:s/r.ok) [44&percnt;](ev:s/r.pct) [44\\%](ev:s/r.pct) [44&#x202F;%](ev:s/r.pct) [50&#8201;초](ev:s/r.t) [&#56;6](ev:s/r.ok)\n")
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", src)
	edits, _ := Edits(p, st, check.DefaultOptions())
	want := "[87&nbsp;개](ev:s/r.ok) [43&percnt;](ev:s/r.pct) [43\\%](ev:s/r.pct) [43&#x202F;%](ev:s/r.pct) [41&#8201;초](ev:s/r.t) [&#56;6](ev:s/r.ok)\n"
	if got := string(Apply(src, edits)); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestEditsCompound: a stale compound duration is rewritten in its own
// parts (142h37m stays hours and minutes, case 52), and a correct one is
// left alone; a decrease keeps its word when the value still decreases.
func TestEditsCompound(t *testing.T) {
	st := store(t, "up=513410s ko=676s iso=95s chg=Δ-13% inc=+13%\n")
	src := "[143h25m](ev:s/r.up) [142h37m](ev:s/r.up) [11분 6초](ev:s/r.ko) [PT1M30S](ev:s/r.iso) [1h2m3s](ev:s/r.up) [12% 감소](ev:s/r.chg) [12% 감소](ev:s/r.inc)\n"
	p, errs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	edits, ds := Edits(p, st, check.DefaultOptions())
	if len(ds) != 1 || ds[0].Rule != diag.FixManual {
		t.Fatalf("diagnostics: %v; want fix-manual for 감소 on an increase", ds)
	}
	got := string(Apply(p.Source, edits))
	want := "[142h37m](ev:s/r.up) [142h37m](ev:s/r.up) [11분 16초](ev:s/r.ko) [PT1M35S](ev:s/r.iso) [142h36m50s](ev:s/r.up) [13% 감소](ev:s/r.chg) [12% 감소](ev:s/r.inc)\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
