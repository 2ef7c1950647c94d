package serve

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// benchSite writes the generated site of the serve benchmarks into a
// temporary directory: $EVDOC_BENCH_PAGES Korean pages (default 500)
// with their translations.
func benchSite(b *testing.B) string {
	n := 500
	if v := os.Getenv("EVDOC_BENCH_PAGES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("EVDOC_BENCH_PAGES=%q: expected a positive number", v)
		}
	}
	root := b.TempDir()
	if err := benchgen.Write(root, benchgen.Options{Pages: n, Seed: 1, ClaimsPerPage: 480}); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkChange is serve's own part of one save, without Hugo: the
// re-check of a changed number in an evidence set's report table (and of
// the save back) and the staging of the served project, on a generated
// site of $EVDOC_BENCH_PAGES Korean pages (default 500) with their
// translations. The site is copied into a temporary directory.
func BenchmarkChange(b *testing.B) {
	root := benchSite(b)
	ctx := context.Background()
	rc := &IncrementalRechecker{Root: root, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	dir := b.TempDir()
	log := &stampLog{}
	srv := &server{opt: Options{Root: root, Out: io.Discard, Log: log, Verbose: true}, rc: rc, dir: dir, served: filepath.Join(dir, "site"), figures: &project.FigureCache{}}
	st, err := rc.Recheck(ctx, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.state = st
	if err := srv.stage(ctx, nil); err != nil {
		b.Fatal(err)
	}
	rel := filepath.ToSlash(filepath.Join(project.EvidenceDir, st.Site.Store.Sets[0].Manifest.ID, "report.md"))
	file := filepath.Join(root, filepath.FromSlash(rel))
	edited, orig := reportRowEdit(b, file)
	versions := [][]byte{edited, orig}
	k := 0
	var toEdit time.Duration
	for b.Loop() {
		if err := os.WriteFile(file, versions[k%2], 0o644); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		srv.change(ctx, []string{rel})
		at, ok := log.first("evdoc: staged the edit")
		if !ok {
			b.Fatalf("save %d: the edit was not staged first:\n%s", k, log.text())
		}
		toEdit += at.Sub(t0)
		log.reset()
		if got, want := srv.state.Findings.HasErrors(), k%2 == 0; got != want {
			b.Fatalf("save %d: errors %v, want %v", k, got, want)
		}
		banner, err := os.ReadFile(filepath.Join(srv.served, filepath.FromSlash(BannerFile)))
		if err != nil {
			b.Fatal(err)
		}
		if got, want := bytes.Contains(banner, []byte(`"errors": 0,`)), k%2 == 1; got != want {
			b.Fatalf("save %d: the staged banner says no errors: %v, want %v:\n%.200s", k, got, want, banner)
		}
		k++
	}
	b.ReportMetric(float64(toEdit.Milliseconds())/float64(k), "edit-staged-ms/op")
}

// stampLog keeps the lines written to it with the time each came.
type stampLog struct {
	mu    sync.Mutex
	lines []string
	at    []time.Time
}

func (l *stampLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line != "" {
			l.lines, l.at = append(l.lines, line), append(l.at, time.Now())
		}
	}
	return len(p), nil
}

// first returns when the first line starting with prefix came.
func (l *stampLog) first(prefix string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, line := range l.lines {
		if strings.HasPrefix(line, prefix) {
			return l.at[i], true
		}
	}
	return time.Time{}, false
}

func (l *stampLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "")
}

func (l *stampLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines, l.at = nil, nil
}

// reportRowEdit returns the generated report table file with the first
// digit of row r0's "ok" cell changed (1–9, never the digit it was), and
// the file as it is: the edit the serve benchmarks save and save back.
func reportRowEdit(b *testing.B, file string) (edited, orig []byte) {
	b.Helper()
	orig, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	i := bytes.Index(orig, []byte("\n| r0 | "))
	if i < 0 {
		b.Fatalf("%s has no row r0", file)
	}
	cells := bytes.SplitN(orig[i+1:], []byte("|"), 6)
	at := i + 1 + len(cells[0]) + len(cells[1]) + len(cells[2]) + len(cells[3]) + 4 + 1
	edited = bytes.Clone(orig)
	edited[at] = '1' + (edited[at]-'0')%9
	return edited, orig
}
