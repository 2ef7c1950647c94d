package serve

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/cputime"
)

// BenchmarkFirstStageEdit is the staging of the first evidence edit
// after serve's first whole staging (staging.StageEditCached: a number
// of the first set's report table changed), on a generated site of
// $EVDOC_BENCH_PAGES Korean pages (default 500) with their
// translations: "cold" without the claim cache's warm-up, "warm" after
// ClaimCache.Warm (not timed). The check, the whole staging and the
// re-check are made again for each edit and not timed; cpu-ms/op is the
// process's CPU time in StageEditCached, garbage collection included.
//
//	go test ./generator/serve -run '^$' -bench FirstStageEdit -benchtime 3x
func BenchmarkFirstStageEdit(b *testing.B) {
	root := benchSite(b)
	ctx := context.Background()
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			var cpu, wall time.Duration
			k := 0
			for b.Loop() {
				b.StopTimer()
				rc := &IncrementalRechecker{Root: root, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
				dir := b.TempDir()
				srv := &server{opt: Options{Root: root, Out: io.Discard, Log: io.Discard}, rc: rc, dir: dir, served: filepath.Join(dir, "site"),
					figures: &project.FigureCache{}, claims: &staging.ClaimCache{}}
				st, err := rc.Recheck(ctx, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				srv.state = st
				if err := srv.stage(ctx, nil); err != nil {
					b.Fatal(err)
				}
				if warm {
					srv.claims.Warm(st.Site, st.Stage)
				}
				rel := filepath.ToSlash(filepath.Join(project.EvidenceDir, st.Site.Store.Sets[0].Manifest.ID, "report.md"))
				file := filepath.Join(root, filepath.FromSlash(rel))
				edited, orig := reportRowEdit(b, file)
				if err := os.WriteFile(file, edited, 0o644); err != nil {
					b.Fatal(err)
				}
				if st, err = rc.Recheck(ctx, st, []string{rel}); err != nil {
					b.Fatal(err)
				}
				out := b.TempDir()
				runtime.GC()
				b.StartTimer()
				t0, c0 := time.Now(), cputime.Self()
				if err := staging.StageEditCached(ctx, st.Site, out, st.Stage, nil, srv.evtables, srv.claims); err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Self() - c0
				wall += time.Since(t0)
				b.StopTimer()
				k++
				if err := os.WriteFile(file, orig, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(k), "cpu-ms/op")
			b.ReportMetric(float64(wall)/float64(time.Millisecond)/float64(k), "wall-ms/op")
		})
	}
}
