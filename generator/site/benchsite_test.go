package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// benchPages returns $EVDOC_BENCH_PAGES, else def.
func benchPages(b *testing.B, def int) int {
	if v := os.Getenv("EVDOC_BENCH_PAGES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("EVDOC_BENCH_PAGES=%q: expected a positive number", v)
		}
		return n
	}
	return def
}

// benchSite returns a project written by benchgen with n Korean pages
// (and their Japanese translations), seed 1, 50 pages a set. It is
// cached in the temporary directory across runs: remove
// $TMPDIR/evdoc-benchsite-* after changing the generator.
func benchSite(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("evdoc-benchsite-%d-seed1", n))
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := benchgen.Write(dir, benchgen.Options{Pages: n, Seed: 1, ClaimsPerPage: 480}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkCheckBenchSite loads and checks a generated site of
// $EVDOC_BENCH_PAGES Korean pages (default 500) plus translations, as
// `evdoc check` does. For a profile at 4,000 pages:
//
//	EVDOC_BENCH_PAGES=4000 go test ./generator/site -run '^$' -bench CheckBenchSite -benchtime 1x -cpuprofile cpu.out
func BenchmarkCheckBenchSite(b *testing.B) {
	root := benchSite(b, benchPages(b, 500))
	for b.Loop() {
		s, err := Load(root)
		if err != nil {
			b.Fatal(err)
		}
		c := NewChecker(s, check.DefaultOptions())
		if ds := c.Diagnostics(); ds.HasErrors() {
			b.Fatal(ds)
		}
		_ = c.Results()
		_ = c.Coverage()
	}
}

// BenchmarkRecheckPage measures the serve path: on a generated site of
// $EVDOC_BENCH_PAGES Korean pages (default 4,000) plus translations,
// loaded and checked once, one Korean page is saved with a changed number
// and re-checked (Checker.Recheck, then Diagnostics). Issue 14's target is
// 50 ms an edit at 4,000 pages. The Checker keeps counts only
// (CheckerOptions.CountsOnly), which changes its memory, not the work an
// edit costs.
//
//	go test ./generator/site -run '^$' -bench RecheckPage -benchtime 20x
func BenchmarkRecheckPage(b *testing.B) {
	root := benchSite(b, benchPages(b, 4000))
	s, err := Load(root)
	if err != nil {
		b.Fatal(err)
	}
	c := NewCheckerWith(s, CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true})
	var page *Page
	for _, p := range s.Pages[len(s.Pages)/4:] {
		if p.Lang == "ko" && len(p.Parsed.Claims) > 0 {
			page = p
			break
		}
	}
	if page == nil {
		b.Fatal("no Korean page with claims")
	}
	file := filepath.Join(root, filepath.FromSlash(page.Path))
	orig := append([]byte(nil), page.Parsed.Source...)
	defer os.WriteFile(file, orig, 0o644)
	// edited: the first digit of the first claim changed, a mismatch.
	edited := append([]byte(nil), orig...)
	for i := page.Parsed.Claims[0].Pos.Offset; i < len(edited); i++ {
		if edited[i] >= '0' && edited[i] <= '9' {
			edited[i] = '0' + (edited[i]-'0'+1)%10
			break
		}
	}
	versions := [][]byte{edited, orig}
	i := 0
	for b.Loop() {
		if err := os.WriteFile(file, versions[i%2], 0o644); err != nil {
			b.Fatal(err)
		}
		if err := c.Recheck(page.Path); err != nil {
			b.Fatal(err)
		}
		ds := c.Diagnostics()
		if got, want := ds.HasErrors(), i%2 == 0; got != want {
			b.Fatalf("edit %d: errors %v, want %v", i, got, want)
		}
		i++
	}
}
