package serve

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/cputime"
)

// BenchmarkFirstEvidenceSave is the re-check of the first evidence save
// after serve's first check (a number of the first set's report table
// changed), on a generated site of $EVDOC_BENCH_PAGES Korean pages
// (default 500) with their translations: "cold" as it was before the
// warm-up, "warm" after the warm-up of a page citing the set (warmer;
// not timed). The first check is made again for each save and not
// timed; cpu-ms/op is the process's CPU time in the re-check, garbage
// collection included, parsed/op the pages it parsed.
//
//	go test ./generator/serve -run '^$' -bench FirstEvidenceSave -benchtime 3x
func BenchmarkFirstEvidenceSave(b *testing.B) {
	root := benchSite(b)
	ctx := context.Background()
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			var cpu, wall time.Duration
			parsed, k := 0, 0
			for b.Loop() {
				b.StopTimer()
				rc := &IncrementalRechecker{Root: root, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
				st, err := rc.Recheck(ctx, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				set := st.Site.Store.Sets[0].Manifest.ID
				rel := filepath.ToSlash(filepath.Join(project.EvidenceDir, set, "report.md"))
				file := filepath.Join(root, filepath.FromSlash(rel))
				edited, orig := reportRowEdit(b, file)
				if warm {
					citing := rc.checker.ToKeep(set)
					if len(citing) == 0 {
						b.Fatalf("no page cites %s", set)
					}
					path := "/" + citing[0].Lang + citing[0].URL()
					w := newWarmer(rc)
					w.start(ctx, path)
					if w.running() == nil {
						b.Fatalf("no warm-up for %s", path)
					}
					drainWarm(w)
				}
				if err := os.WriteFile(file, edited, 0o644); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				before := rc.checker.Parses()
				b.StartTimer()
				t0, c0 := time.Now(), cputime.Self()
				if _, err := rc.Recheck(ctx, st, []string{rel}); err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Self() - c0
				wall += time.Since(t0)
				b.StopTimer()
				parsed += rc.checker.Parses() - before
				k++
				if err := os.WriteFile(file, orig, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(k), "cpu-ms/op")
			b.ReportMetric(float64(wall)/float64(time.Millisecond)/float64(k), "wall-ms/op")
			b.ReportMetric(float64(parsed)/float64(k), "parsed/op")
		})
	}
}
