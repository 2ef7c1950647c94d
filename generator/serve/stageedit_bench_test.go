package serve

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/cputime"
)

// BenchmarkStageEdit is an edit's own staging (staging.StageEditCached,
// the files written before the page is rebuilt), after a whole staging
// that the cache knows (ClaimCache.Staged), on a generated site of
// $EVDOC_BENCH_PAGES Korean pages (default 500) with their
// translations: "evidence" changes a number of an evidence set's report
// table and back, "page" the first number of a Korean page's first
// claim and back. The re-check and the whole staging after each edit
// are not timed; cpu-ms/op is the process's CPU time in
// StageEditCached, garbage collection included.
//
//	go test ./generator/serve -run '^$' -bench StageEdit -benchtime 10x -cpuprofile cpu.out
func BenchmarkStageEdit(b *testing.B) {
	root := benchSite(b)
	ctx := context.Background()
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
	// the evidence edit: the first digit of row r0's "ok" cell
	rel := filepath.ToSlash(filepath.Join(project.EvidenceDir, st.Site.Store.Sets[0].Manifest.ID, "report.md"))
	evEdited, orig := reportRowEdit(b, filepath.Join(root, filepath.FromSlash(rel)))
	evidenceEdit := edit{rel: rel, versions: [][]byte{evEdited, orig}}
	// the page edit: the first digit of a Korean page's first claim
	var page *project.Page
	for _, p := range st.Site.Pages[len(st.Site.Pages)/4:] {
		if p.Lang == "ko" && !p.Section {
			page = p
			break
		}
	}
	if page == nil {
		b.Fatal("no Korean page")
	}
	porig, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page.Path)))
	if err != nil {
		b.Fatal(err)
	}
	parsed, _ := claim.Parse(claim.NewMarkdown(), page.Path, porig)
	if len(parsed.Claims) == 0 {
		b.Fatalf("%s has no claims", page.Path)
	}
	pEdited := bytes.Clone(porig)
	for i := parsed.Claims[0].Pos.Offset; i < len(pEdited); i++ {
		if pEdited[i] >= '0' && pEdited[i] <= '9' {
			pEdited[i] = '0' + (pEdited[i]-'0'+1)%10
			break
		}
	}
	pageEdit := edit{rel: page.Path, versions: [][]byte{pEdited, porig}, page: true}
	for _, e := range []edit{evidenceEdit, pageEdit} {
		name := "evidence"
		if e.page {
			name = "page"
		}
		b.Run(name, func(b *testing.B) { benchmarkStageEdit(b, ctx, srv, root, e) })
	}
}

type edit struct {
	rel      string
	versions [][]byte
	page     bool
}

func benchmarkStageEdit(b *testing.B, ctx context.Context, srv *server, root string, e edit) {
	file := filepath.Join(root, filepath.FromSlash(e.rel))
	defer os.WriteFile(file, e.versions[1], 0o644)
	var pages []string
	if e.page {
		pages = []string{e.rel}
	}
	var cpu, wall time.Duration
	k := 0
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(file, e.versions[k%2], 0o644); err != nil {
			b.Fatal(err)
		}
		st, err := srv.rc.Recheck(ctx, srv.state, []string{e.rel})
		if err != nil {
			b.Fatal(err)
		}
		srv.state = st
		if !srv.claims.ViewerKnown() {
			b.Fatal("the cache does not know the served viewer pages")
		}
		out := b.TempDir()
		runtime.GC()
		b.StartTimer()
		t0, c0 := time.Now(), cputime.Self()
		if err := staging.StageEditCached(ctx, st.Site, out, st.Stage, pages, srv.evtables, srv.claims); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Self() - c0
		wall += time.Since(t0)
		b.StopTimer()
		if err := srv.stage(ctx, nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		k++
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(k), "cpu-ms/op")
	b.ReportMetric(float64(wall)/float64(time.Millisecond)/float64(k), "wall-ms/op")
}
