package serve

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// drainWarm offers the checker every parse of w's warm-up, as serve's
// loop does, until it ended.
func drainWarm(w *warmer) {
	for {
		select {
		case p := <-w.running():
			w.keep(p)
		case <-w.ended():
			w.finish(nil)
			return
		}
	}
}

// replaceIn writes file (under dir) with old replaced by new.
func replaceIn(t *testing.T, dir, file, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWarmUp: after a browser was shown a page (its URL path), the
// warm-up parses the pages citing the sets the page cites and the
// checker keeps their claims, so the first evidence save judges them
// without parsing them (p in ko and ja, both citing d3), as later saves
// do; the findings are a fresh check's. "no warm-up" is the save without
// it (both pages parsed); "stopped at once" a save that arrives before
// the warm-up handed anything over (stop, then the save: it parses
// them itself); "page saved meanwhile" a page saved after the warm-up
// parsed it and before its parse was offered (the old parse is not
// kept: the save parses the page); "other page" a page citing no set
// (nothing to warm). A URL path is warmed once for a checker.
func TestWarmUp(t *testing.T) {
	const report = "evidence/d3/report.md"
	for _, tc := range []struct {
		name   string
		path   string
		before func(t *testing.T, dir string, inc *IncrementalRechecker, st *State, w *warmer) *State
		kept   int // parses the checker kept
		parsed int // pages the evidence save parses
	}{
		{name: "no warm-up", parsed: 2},
		{name: "Korean page", path: "/docs/p/", kept: 2},
		{name: "Japanese page", path: "/ja/docs/p/", kept: 2},
		{name: "under a base path", path: "/sub/ja/docs/p/", kept: 2},
		{name: "other page", path: "/docs/s/", parsed: 2},
		{name: "no page there", path: "/docs/nothing/", parsed: 2},
		{name: "stopped at once", path: "/docs/p/", parsed: 2,
			before: func(t *testing.T, dir string, inc *IncrementalRechecker, st *State, w *warmer) *State {
				w.stop()
				return st
			}},
		{name: "page saved meanwhile", path: "/docs/p/", parsed: 2,
			before: func(t *testing.T, dir string, inc *IncrementalRechecker, st *State, w *warmer) *State {
				first := <-w.running() // parsed, not yet offered
				if !strings.HasPrefix(first.page.Path, "content/ja/") {
					t.Fatalf("first warmed page %s, want the Japanese p (sorted by path)", first.page.Path)
				}
				w.stop()
				replaceIn(t, dir, first.page.Path, "失敗は", "失敗は、")
				next, err := inc.Recheck(context.Background(), st, []string{first.page.Path})
				if err != nil {
					t.Fatal(err)
				}
				w.keep(first) // of the page before its save: not kept
				w.start(context.Background(), "/docs/p/")
				if w.running() != nil {
					t.Fatal("a URL path warmed already started a warm-up again")
				}
				return next
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case its own project and checker
			dir := txtartest.WriteFile(t, "testdata/affected.txtar")
			ctx := context.Background()
			inc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
			st, err := inc.Recheck(ctx, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			w := newWarmer(inc)
			if tc.path != "" {
				w.start(ctx, tc.path)
			}
			if tc.before != nil {
				st = tc.before(t, dir, inc, st, w)
			} else if w.running() != nil {
				drainWarm(w)
			}
			if w.kept != tc.kept {
				t.Errorf("%d parses kept, want %d", w.kept, tc.kept)
			}
			replaceIn(t, dir, report, "| A | 15 |", "| A | 17 |")
			before := inc.checker.Parses()
			next, err := inc.Recheck(ctx, st, []string{report})
			if err != nil {
				t.Fatal(err)
			}
			if next.Site != st.Site {
				t.Fatal("the project was loaded again")
			}
			if got := inc.checker.Parses() - before; got != tc.parsed {
				t.Errorf("the evidence save parsed %d pages, want %d", got, tc.parsed)
			}
			want, err := (&FullRechecker{Root: dir, Check: check.DefaultOptions()}).Recheck(ctx, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(next.Findings, want.Findings) {
				t.Errorf("findings differ from a fresh check:\nfresh:\n%v\nre-checked:\n%v", want.Findings, next.Findings)
			}
			got, gotErr := stageClaimFiles(t, next)
			wantFiles, wantErr := stageClaimFiles(t, want)
			if gotErr != nil || wantErr != nil || !reflect.DeepEqual(got, wantFiles) {
				t.Errorf("staged claim data differs from a fresh check's (%v, %v)", gotErr, wantErr)
			}
		})
	}
}

// TestWarmUpWhileSaving runs a warm-up while the checker re-checks
// evidence saves, as a save arriving during one would if serve's loop
// did not stop it first, for the race detector: the parses are made
// outside the checker and offered to it between re-checks only.
func TestWarmUpWhileSaving(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	ctx := context.Background()
	inc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	const report = "evidence/d3/report.md"
	values := []string{"| A | 15 |", "| A | 17 |"}
	for i := range 6 {
		w := newWarmer(inc)
		w.start(ctx, "/docs/p/")
		replaceIn(t, dir, report, values[i%2], values[(i+1)%2])
		if st, err = inc.Recheck(ctx, st, []string{report}); err != nil {
			t.Fatal(err)
		}
		if w.running() != nil {
			drainWarm(w)
		}
	}
	want, err := (&FullRechecker{Root: dir, Check: check.DefaultOptions()}).Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(st.Findings, want.Findings) {
		t.Errorf("findings differ from a fresh check:\nfresh:\n%v\nre-checked:\n%v", want.Findings, st.Findings)
	}
}

// TestWarmUpClaimsOnce: the staging's warm-up (warmer.claims, the
// claim cache's Warm) runs at the first page shown, before the parses,
// also for a page citing no set, and never again.
func TestWarmUpClaimsOnce(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	ctx := context.Background()
	inc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	if _, err := inc.Recheck(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	w := newWarmer(inc)
	runs := 0
	w.claims = func() {
		if w.kept != 0 {
			t.Error("the claim cache warmed after a parse was kept")
		}
		runs++
	}
	for _, path := range []string{"/docs/s/", "/docs/p/", "/ja/docs/p/"} {
		w.start(ctx, path)
		if w.running() != nil {
			drainWarm(w)
		}
	}
	if runs != 1 {
		t.Errorf("the claim cache warmed %d times, want once", runs)
	}
	if w.kept != 2 {
		t.Errorf("%d parses kept, want 2", w.kept)
	}
}
