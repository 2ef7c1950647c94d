package serve

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// stagedClaims stages st and returns the files that depend on the
// claims' verdicts (data/evdoc/claims.json, the evidence viewer pages'
// citations), by path.
func stagedClaims(t *testing.T, st *State) map[string]string {
	t.Helper()
	files, err := stageClaimFiles(t, st)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(files["data/evdoc/claims.json"], `"values"`) {
		t.Errorf("no claim data staged:\n%.300s", files["data/evdoc/claims.json"])
	}
	return files
}

// stageClaimFiles is stagedClaims without its checks: the files, or
// staging's error.
func stageClaimFiles(t *testing.T, st *State) (map[string]string, error) {
	t.Helper()
	stage := t.TempDir()
	if _, err := staging.Stage(context.Background(), st.Site, stage, st.Stage, nil); err != nil {
		return nil, err
	}
	return sitetest.ReadTree(stage, isClaimFile)
}

// isClaimFile reports whether the staged file rel depends on the claims'
// verdicts: data/evdoc/claims.json, the evidence viewer pages.
func isClaimFile(rel string) bool {
	return rel == "data/evdoc/claims.json" || strings.Contains(rel, "/"+project.EvidenceDir+"/")
}

// claimFiles returns the files of a staged tree that isClaimFile keeps.
func claimFiles(tree map[string]string) map[string]string {
	out := map[string]string{}
	for f, b := range tree {
		if isClaimFile(f) {
			out[f] = b
		}
	}
	return out
}

// TestIncrementalAgreesWithFull applies a series of edits to a project and
// expects IncrementalRechecker to report, after each, exactly what a fresh
// load and check (FullRechecker) reports, and to stage the same claim
// data and citations, whether it loads pages parsed or lazily (as evdoc
// serve does).
func TestIncrementalAgreesWithFull(t *testing.T) {
	t.Parallel() // projects of its own
	for _, lazy := range []bool{false, true} {
		t.Run(map[bool]string{false: "eager", true: "lazy"}[lazy], func(t *testing.T) {
			t.Parallel() // a project of its own
			testIncrementalAgreesWithFull(t, project.LoadOptions{Lazy: lazy})
		})
	}
}

func testIncrementalAgreesWithFull(t *testing.T, load project.LoadOptions) {
	dir := txtartest.WriteFile(t, "testdata/affected.txtar")
	ctx := context.Background()
	full := FullRechecker{Root: dir, Check: check.DefaultOptions()}
	inc := &IncrementalRechecker{Root: dir, Load: load, Check: check.DefaultOptions()}
	// Figures are drawn once per side and kept while their inputs stay
	// the same (as serve does, and TestRecheckEqualsFreshCheck), their
	// drawings shared between tests and sides (shareFigures).
	incFigures, fullFigures := &project.FigureCache{}, &project.FigureCache{}
	st, err := inc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Findings.HasErrors() {
		t.Fatalf("the project is not clean to begin with:\n%v", st.Findings)
	}
	edit := func(file, old, new string) func() {
		return func() {
			p := filepath.Join(dir, filepath.FromSlash(file))
			b, err := os.ReadFile(p)
			if err != nil && old != "" {
				t.Fatal(err)
			}
			if old != "" && !strings.Contains(string(b), old) {
				t.Fatalf("%s lacks %q", file, old)
			}
			s := strings.Replace(string(b), old, new, 1)
			if old == "" {
				s = new
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(file string) func() {
		return func() {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, step := range []struct {
		name    string
		do      func()
		changed []string
		want    string // a finding message part the step must produce; "" for clean
	}{
		{"break a claim", edit("content/ko/docs/p.md", "[15건]", "[16건]"), []string{"content/ko/docs/p.md"}, "does not match"},
		{"fix it", edit("content/ko/docs/p.md", "[16건]", "[15건]"), []string{"content/ko/docs/p.md"}, ""},
		{"add a page linking nowhere", edit("content/ko/docs/u.md", "", "---\ntitle: u\n---\n\n[s](/docs/nowhere/) 글.\n"), []string{"content/ko/docs/u.md"}, "no such page"},
		{"remove it", remove("content/ko/docs/u.md"), []string{"content/ko/docs/u.md"}, ""},
		{"break the evidence", edit("evidence/d3/report.md", "| A | 15 |", "| A | 17 |"), []string{"evidence/d3/report.md"}, "does not match"},
		{"static file only", edit("static/x.css", "", "body{}"), []string{"static/x.css"}, "does not match"},
		{"mend the evidence", edit("evidence/d3/report.md", "| A | 17 |", "| A | 15 |"), []string{"evidence/d3/report.md"}, ""},
		{"translation drifts", edit("content/ja/docs/p.md", "[15件]", "[14件]"), []string{"content/ja/docs/p.md"}, "does not match"},
	} {
		step.do()
		checker := inc.checker
		next, err := inc.Recheck(ctx, st, step.changed)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		want, err := full.Recheck(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(next.Findings, want.Findings) {
			t.Errorf("%s: incremental findings\n%v\nwant (full check)\n%v", step.name, next.Findings, want.Findings)
		}
		next.Site.FigureCache, want.Site.FigureCache = incFigures, fullFigures
		shareFigures(t, incFigures, next.Site)
		shareFigures(t, fullFigures, want.Site)
		if got, want := stagedClaims(t, next), stagedClaims(t, want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: incremental staging differs:\n%v\nwant (full check)\n%v", step.name, got, want)
		}
		if load.Lazy {
			for _, p := range next.Site.Pages {
				if p.Parsed != nil {
					t.Errorf("%s: %s is still parsed", step.name, p.Path)
				}
			}
			// The scope of an evidence edit reads the lazily loaded
			// pages' claims: the page citing the set is in it.
			if sc := Affected(st.Site, next.Site, step.changed); strings.HasPrefix(step.changed[0], "evidence/") && !slices.Contains(sc.Pages, "content/ko/docs/p.md") {
				t.Errorf("%s: scope %v lacks the page citing the set", step.name, sc.Pages)
			}
		}
		// What the Checker recorded of each page as it judged it gives
		// the scope that parsing every page gives, for every kind of
		// change.
		if len(next.uses) != len(next.Site.Pages) {
			t.Errorf("%s: uses of %d pages, want %d", step.name, len(next.uses), len(next.Site.Pages))
		}
		for _, changed := range [][]string{step.changed, {"evidence/d3/report.md"}, {"evidence/other/x.md"}, {"evidence/nope/x.md"}, {"figures/fig.toml"}} {
			if got, want := affected(st.Site, next.Site, changed, next.uses), Affected(st.Site, next.Site, changed); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: scope of %v from the recorded uses %+v, want (parsing) %+v", step.name, changed, got, want)
			}
		}
		got := next.Findings.Error()
		if step.want == "" && next.Findings.HasErrors() || step.want != "" && !strings.Contains(got, step.want) {
			t.Errorf("%s: findings %q, want %q", step.name, got, step.want)
		}
		// Page and evidence edits and unchecked files keep the Checker
		// (the incremental path); anything else loads the project again.
		_, _, incremental := edits(st.Site.Config, step.changed)
		if kept := inc.checker == checker; kept != incremental {
			t.Errorf("%s: Checker kept = %v, want %v", step.name, kept, incremental)
		}
		st = next
	}
}
