package staging

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/internal/committedfigures"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// StagedClaimFiles stages s with data and returns what depends on the
// claims' verdicts: data/evdoc/claims.json and every evidence viewer
// page (their citations), by path.
func StagedClaimFiles(t *testing.T, s *project.Site, data *stagedata.StageData) map[string]string {
	t.Helper()
	stage := t.TempDir()
	if _, err := Stage(context.Background(), s, stage, data, nil); err != nil {
		t.Fatal(err)
	}
	files, err := sitetest.ReadTree(stage, claimDependent)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// claimDependent reports whether the staged file rel depends on the
// claims' verdicts: data/evdoc/claims.json and every evidence viewer page.
func claimDependent(rel string) bool {
	return rel == "data/evdoc/claims.json" || strings.Contains(rel, "/"+project.EvidenceDir+"/")
}

// referenceFigures keeps the reference site's figures for the
// package's stagings of it (TestStagedEditLinksNameFiles and
// TestStageDataEqualsResults's reference): the drawings committed in
// assets/figures (internal/committedfigures), as evdoc serve keeps
// drawings between re-stagings: drawing them is most of a staging's
// time under -race, and no test here compares a figure's bytes
// (TestFigureCache, which does, keeps a cache of its own and draws). A
// FigureCache serves one Stage at a time: hold referenceFiguresMu while
// staging with it (referenceFigureCache).
var (
	referenceFiguresMu sync.Mutex
	referenceFigures   *project.FigureCache
)

// referenceFigureCache returns referenceFigures, made from the copy of
// the reference project at dir on first use. The caller holds
// referenceFiguresMu.
func referenceFigureCache(t *testing.T, dir string) *project.FigureCache {
	t.Helper()
	if referenceFigures == nil {
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		referenceFigures = committedfigures.Cache(t, s)
	}
	return referenceFigures
}

// stageBothWays stages the project at dir twice: loaded parsed, from
// every claim's Result (StageDataOf(Check)), and loaded lazily, from the
// StageData a Checker kept page by page as it judged them (as evdoc
// build does). The two must be equal; it returns the first. Both
// stagings take their figures from cache (a new one when nil), one
// after the other: the second takes the figures the first drew, or both
// the committed ones the cache holds (the files compared, claim data and
// viewer pages, hold none of a figure's bytes).
func stageBothWays(t *testing.T, dir string, cache *project.FigureCache) map[string]string {
	t.Helper()
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cache == nil {
		cache = &project.FigureCache{}
	}
	s.FigureCache = cache
	results, _ := checker.Check(s, check.DefaultOptions())
	want := StagedClaimFiles(t, s, stagedata.StageDataOf(results))

	ls, err := project.LoadWith(dir, project.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	ls.FigureCache = cache
	c := checker.NewCheckerWith(ls, checker.CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true, Stage: true})
	if n := parsedPages(c); n != 0 {
		t.Errorf("%d pages still parsed after the check", n)
	}
	got := StagedClaimFiles(t, ls, c.StageData())
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: staged from all results, not from the Checker's StageData", name)
		} else if g != w {
			t.Errorf("%s staged from the Checker's StageData differs:\n%s\nwant (from all results):\n%s", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: staged from the Checker's StageData only", name)
		}
	}
	return want
}

// TestStageDataArchives stages each testdata/stage/*.txtar project and
// compares the claim data and the viewer pages' citations with the
// archive's want member (written by the build before staging streamed
// the verdicts): which claim of a destination gives its data (the first
// in page order, across languages) and the order of each raw line's
// citations, fallback pages included. The lazy, streamed staging must
// equal the one from all results.
func TestStageDataArchives(t *testing.T) {
	txtartest.Run(t, "testdata/stage/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		files := stageBothWays(t, dir, nil)
		names := make([]string, 0, len(files))
		for name := range files {
			names = append(names, name)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, name := range names {
			body := files[name]
			if strings.HasSuffix(name, ".cites") {
				// A viewer page's citations: fields preceded by NUL
				// (writeViewerCites), one a line here.
				body = strings.ReplaceAll(body, "\x00", "\n")
			}
			b.WriteString("== " + name + " ==\n" + body)
			if !strings.HasSuffix(files[name], "\n") {
				b.WriteString("\n")
			}
		}
		return []byte(b.String())
	})
}

// TestStageDataEqualsResults: on every testdata/check project that
// builds and on the reference site, staging from a lazily loaded
// Checker's StageData equals staging from every claim's Result.
func TestStageDataEqualsResults(t *testing.T) {
	files, err := filepath.Glob("../checker/testdata/check/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			dir := txtartest.WriteFile(t, file)
			if _, err := project.Load(dir); err != nil {
				t.Skipf("does not load: %v", err)
			}
			stageBothWays(t, dir, nil)
		})
	}
	t.Run("reference", func(t *testing.T) {
		referenceFiguresMu.Lock()
		defer referenceFiguresMu.Unlock()
		dir := sitetest.CopyProject(t)
		files := stageBothWays(t, dir, referenceFigureCache(t, dir))
		if !strings.Contains(files["data/evdoc/claims.json"], `"values"`) {
			t.Errorf("the reference site staged no claim data:\n%.500s", files["data/evdoc/claims.json"])
		}
	})
}

// parsedPages counts the pages of c's site that hold their parse.
func parsedPages(c *checker.Checker) int {
	n := 0
	for _, p := range c.Site().Pages {
		if p.Parsed != nil {
			n++
		}
	}
	return n
}
