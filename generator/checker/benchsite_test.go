package checker

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
	"github.com/evdoc-lab/evdoc/internal/cputime"
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
// `evdoc check` does: pages loaded lazily (LoadOptions.Lazy) and judged a
// translation group at a time, counts only. Besides time it reports the
// Go heap's peak in MB, sampled every millisecond: peak-live-MB is the
// largest heap that a garbage collection found live, peak-heap-MB the
// largest heap in use (live and not yet collected), peak-go-MB the
// largest memory the Go runtime held from the system (about the process's
// RSS). For a profile at 4,000 pages:
//
//	EVDOC_BENCH_PAGES=4000 go test ./generator/site -run '^$' -bench CheckBenchSite -benchtime 1x -cpuprofile cpu.out
func BenchmarkCheckBenchSite(b *testing.B) {
	root := benchSite(b, benchPages(b, 500))
	peak := startPeakMemory()
	for b.Loop() {
		s, err := project.LoadWith(root, project.LoadOptions{Lazy: true})
		if err != nil {
			b.Fatal(err)
		}
		c := NewCheckerWith(s, CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true})
		if ds := c.Diagnostics(); ds.HasErrors() {
			b.Fatal(ds)
		}
		if n := parsedPages(c); n != 0 {
			b.Fatalf("%d pages still parsed after the check", n)
		}
		_, _ = c.Counts()
		_ = c.Coverage()
	}
	peak.report(b)
}

// peakMemory samples the Go runtime's memory metrics every millisecond
// until report, keeping the largest of each.
type peakMemory struct {
	stop chan struct{}
	done chan struct{}
	// live: heap live after the last GC; heap: heap objects in use
	// (live and unswept); total: memory mapped minus released.
	live, heap, total uint64
}

// startPeakMemory starts sampling, after a GC so that what the
// benchmark's setup left behind is not counted.
func startPeakMemory() *peakMemory {
	runtime.GC()
	m := &peakMemory{stop: make(chan struct{}), done: make(chan struct{})}
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	go func() {
		defer close(m.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(samples)
			m.live = max(m.live, samples[0].Value.Uint64())
			m.heap = max(m.heap, samples[1].Value.Uint64())
			m.total = max(m.total, samples[2].Value.Uint64()-samples[3].Value.Uint64())
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

// report stops sampling and reports the peaks as benchmark metrics.
func (m *peakMemory) report(b *testing.B) {
	close(m.stop)
	<-m.done
	const mb = 1 << 20
	b.ReportMetric(float64(m.live)/mb, "peak-live-MB")
	b.ReportMetric(float64(m.heap)/mb, "peak-heap-MB")
	b.ReportMetric(float64(m.total)/mb, "peak-go-MB")
}

// BenchmarkRecheckPage measures the serve path: on a generated site of
// $EVDOC_BENCH_PAGES Korean pages (default 4,000) plus translations,
// loaded and checked once, one Korean page is saved with a changed number
// and re-checked (Checker.Recheck, then Diagnostics). Issue 14's target is
// 50 ms an edit at 4,000 pages. The Checker keeps counts only
// (CheckerOptions.CountsOnly), which changes its memory, not the work an
// edit costs. "eager" loads every page parsed, as evdoc serve did until
// 2026-12-01 (it needs about 15 GB at 4,000 pages); "lazy" loads pages
// lazily, as evdoc check does, so each re-check reads the page's
// translation from disk again too; "serve" is lazy and keeps what
// staging needs (CheckerOptions.Stage), taking the StageData after each
// edit, as evdoc serve does now.
//
//	go test ./generator/site -run '^$' -bench RecheckPage/serve -benchtime 20x
func BenchmarkRecheckPage(b *testing.B) {
	root := benchSite(b, benchPages(b, 4000))
	for _, mode := range []string{"serve", "lazy", "eager"} {
		b.Run(mode, func(b *testing.B) { benchmarkRecheckPage(b, root, mode) })
	}
}

func benchmarkRecheckPage(b *testing.B, root string, mode string) {
	lazy, stage := mode != "eager", mode == "serve"
	s, err := project.LoadWith(root, project.LoadOptions{Lazy: lazy})
	if err != nil {
		b.Fatal(err)
	}
	c := NewCheckerWith(s, CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: stage})
	var page *project.Page
	for _, p := range s.Pages[len(s.Pages)/4:] {
		if p.Lang == "ko" && c.pages[p].total > 0 {
			page = p
			break
		}
	}
	if page == nil {
		b.Fatal("no Korean page with claims")
	}
	file := filepath.Join(root, filepath.FromSlash(page.Path))
	orig, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(file, orig, 0o644)
	parsed, _ := claim.Parse(claim.NewMarkdown(), page.Path, orig)
	// edited: the first digit of the first claim changed, a mismatch.
	edited := append([]byte(nil), orig...)
	for i := parsed.Claims[0].Pos.Offset; i < len(edited); i++ {
		if edited[i] >= '0' && edited[i] <= '9' {
			edited[i] = '0' + (edited[i]-'0'+1)%10
			break
		}
	}
	versions := [][]byte{edited, orig}
	i := 0
	// The edits come after the check has settled, as in serve: the
	// garbage collection of the load and check (of a 15 GB heap when
	// eager at 4,000 pages) is not charged to the first edits.
	runtime.GC()
	cpu0 := cputime.Self()
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
		if stage && len(c.StageData().Units) != len(s.Pages)+1 {
			b.Fatalf("edit %d: StageData of %d pages and the figures, want %d", i, len(c.StageData().Units), len(s.Pages)+1)
		}
		i++
	}
	b.ReportMetric(float64(cputime.Self()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	if lazy {
		if n := parsedPages(c); n != 0 {
			b.Fatalf("%d pages still parsed after the re-checks", n)
		}
	}
}

// BenchmarkRecheckEvidence measures serve's path for an evidence edit:
// on a generated site of $EVDOC_BENCH_PAGES Korean pages (default 500)
// plus translations, loaded lazily and checked once keeping what staging
// needs (as evdoc serve does), one number of an evidence set's report
// table is changed and changed back, each time read again and re-checked
// (Checker.RecheckEvidence, then Diagnostics and StageData). Issue 25's
// target is 1 s an edit at 500 pages and 2 s at 4,000. pages/op counts
// the pages judged again an edit (those citing the changed values);
// cpu-ms/op is the CPU time an edit, garbage collection included.
//
// Every edit parses the pages it judges again (KeepCiting 0); see
// BenchmarkRecheckEvidenceKept for evdoc serve's path.
//
//	go test ./generator/checker -run '^$' -bench 'RecheckEvidence$' -benchtime 10x
func BenchmarkRecheckEvidence(b *testing.B) { recheckEvidence(b, 0) }

// BenchmarkRecheckEvidenceKept is BenchmarkRecheckEvidence as evdoc
// serve re-checks (CheckerOptions.KeepCiting, 64 MiB): the first edit
// parses the pages citing the changed values, each edit after judges
// them from the claims kept of them. parsed/op counts the pages parsed
// an edit.
//
//	go test ./generator/checker -run '^$' -bench RecheckEvidenceKept -benchtime 10x
func BenchmarkRecheckEvidenceKept(b *testing.B) { recheckEvidence(b, 64<<20) }

// recheckEvidence is BenchmarkRecheckEvidence with KeepCiting keep.
func recheckEvidence(b *testing.B, keep int64) {
	root := benchSite(b, benchPages(b, 500))
	s, err := project.LoadWith(root, project.LoadOptions{Lazy: true})
	if err != nil {
		b.Fatal(err)
	}
	judged := 0
	var mu sync.Mutex
	c := NewCheckerWith(s, CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: true, CitesIndex: true, KeepCiting: keep,
		Parsed: func(*project.Page, *claim.Page) { mu.Lock(); judged++; mu.Unlock() }})
	if ds := c.Diagnostics(); ds.HasErrors() {
		b.Fatal(ds)
	}
	// edited: the first digit of row r0's "ok" cell (t.r0.ok, and the
	// derived t.r0.pct) of the first set's report changed.
	file := filepath.Join(root, project.EvidenceDir, s.Store.Sets[0].Manifest.ID, "report.md")
	orig, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(file, orig, 0o644)
	i := bytes.Index(orig, []byte("\n| r0 | "))
	if i < 0 {
		b.Fatalf("%s has no row r0", file)
	}
	cells := bytes.SplitN(orig[i+1:], []byte("|"), 6) // "", " r0 ", before, after, ok, rest
	at := i + 1 + len(cells[0]) + len(cells[1]) + len(cells[2]) + len(cells[3]) + 4 + 1
	edited := append([]byte(nil), orig...)
	edited[at] = '1' + (edited[at]-'0')%9 // another non-zero leading digit
	versions := [][]byte{edited, orig}
	runtime.GC()
	judged = 0
	parses := c.parses
	cpu0 := cputime.Self()
	n := 0
	for b.Loop() {
		if err := os.WriteFile(file, versions[n%2], 0o644); err != nil {
			b.Fatal(err)
		}
		if ch := c.RecheckEvidence(); !ch.Refs[s.Store.Sets[0].Manifest.ID+"/t.r0.ok"] {
			b.Fatalf("edit %d: changed %v, want t.r0.ok among them", n, ch.Refs)
		}
		ds := c.Diagnostics()
		if got, want := ds.HasErrors(), n%2 == 0; got != want {
			b.Fatalf("edit %d: errors %v, want %v", n, got, want)
		}
		if len(c.StageData().Units) != len(s.Pages)+1 {
			b.Fatalf("edit %d: StageData of %d pages and the figures, want %d", n, len(c.StageData().Units), len(s.Pages)+1)
		}
		n++
	}
	b.ReportMetric(float64(cputime.Self()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(judged)/float64(b.N), "pages/op")
	b.ReportMetric(float64(c.parses-parses)/float64(b.N), "parsed/op")
	if n := parsedPages(c); n != 0 {
		b.Fatalf("%d pages still parsed after the re-checks", n)
	}
}

// BenchmarkJudgePage is the judgement of every claim against its
// evidence on the Korean and Japanese page of a generated one-page site
// (issue 14's page shape: ~40 KB, 480 bound claims each), parsed
// beforehand: "claims" is check.Claims (every Result kept, as check
// --format=json needs them), "counts" check.Counts (as evdoc check keeps
// them), "stage" and "stage-results" the judgement with the stage data
// evdoc build keeps. claims/s counts both pages' claims.
func BenchmarkJudgePage(b *testing.B) {
	s, err := project.Load(benchSite(b, 1))
	if err != nil {
		b.Fatal(err)
	}
	var pages []*claim.Page
	claims := 0
	for _, p := range s.Pages {
		if p.Parsed != nil && len(p.Parsed.Claims) > 100 {
			pages = append(pages, p.Parsed)
			claims += len(p.Parsed.Claims)
		}
	}
	if len(pages) != 2 {
		b.Fatalf("%d pages with claims; want the ko page and its ja translation", len(pages))
	}
	opt := check.DefaultOptions()
	b.Run("claims", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range pages {
				if _, ds := check.Claims(p, s.Store, opt); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
		}
		b.ReportMetric(float64(claims)*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
	})
	b.Run("counts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range pages {
				if _, _, ds := check.Counts(p, s.Store, opt); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
		}
		b.ReportMetric(float64(claims)*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
	})
	// what evdoc build keeps: the stage data of each page
	// (CheckerOptions.Stage), made from every Result ("stage-results")
	// or claim by claim as the Checker makes it ("stage")
	b.Run("stage-results", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var sb stagedata.StageBuilder
			for _, p := range pages {
				rs, ds := check.Claims(p, s.Store, opt)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				sb.Unit(rs)
			}
		}
		b.ReportMetric(float64(claims)*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
	})
	b.Run("stage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var sb stagedata.StageBuilder
			for _, p := range pages {
				ub := sb.NewUnit()
				if _, _, ds := check.Visit(p, s.Store, opt, ub.Add); ds.HasErrors() {
					b.Fatal(ds)
				}
				ub.Done()
			}
		}
		b.ReportMetric(float64(claims)*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
	})
}
