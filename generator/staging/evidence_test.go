package staging

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/slots"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/viewer"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

func TestSetEvidenceDate(t *testing.T) {
	limit := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		date string
		want any
	}{
		{"2026-07-09", "2026-07-09"},
		{"2026-08-01", "2026-08-01"},
		{"2026-08-02", nil}, // after the project's newest page: site.Lastmod would move
		{"unknown", nil},
		{"", nil},
	} {
		fm := map[string]any{}
		setEvidenceDate(fm, tc.date, limit)
		if fm["date"] != tc.want {
			t.Errorf("set date %q: front matter date %v, want %v", tc.date, fm["date"], tc.want)
		}
	}
	fm := map[string]any{}
	if setEvidenceDate(fm, "2026-07-09", time.Time{}); fm["date"] != nil {
		t.Errorf("a project without dated pages: date %v, want none", fm["date"])
	}
}

// TestViewerMarksUnreadNumbers: on the evidence viewer page of a raw file,
// each number no reading took (an evidence-number warning) is marked
// <mark class="ev-unread">, the numbers read beside it are not, the page
// counts them (unread), and a project that turns the rule off gets no
// marks.
func TestViewerMarksUnreadNumbers(t *testing.T) {
	dir := txtartest.WriteFile(t, "../checker/testdata/check/clean.txtar")
	files := map[string]string{
		"evidence/run/evidence.toml": "id = \"run\"\ntitle = \"run\"\ndate = \"2026-07-09\"\nenvironment = \"lab\"\nreport = \"r\"\norigin = \"raw\"\n\n[[read]]\nfile = \"vegeta.txt\"\nformat = \"vegeta\"\nname = \"v\"\n",
		"evidence/run/vegeta.txt":    "Requests      [total, rate, throughput]  1200, 120.10, 66.52\nSuccess       [ratio]                    55.50%\nError Set:\n503 Service Unavailable after 30 tries\n",
	}
	for name, body := range files {
		if err := WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	page := func() string {
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		results, _ := checker.Check(s, check.DefaultOptions())
		files := StagedClaimFiles(t, s, stagedata.StageDataOf(results))
		page, ok := files["content/ko/evidence/run/vegeta-txt.md"]
		lines, ok2 := files[viewerLinesFile("/evidence/run/vegeta-txt")]
		if !ok || !ok2 {
			t.Fatal("no viewer page of evidence/run/vegeta.txt or no lines of it")
		}
		return page + lines
	}
	got := page()
	for _, want := range []string{`<mark class="ev-unread">503</mark>`, `<mark class="ev-unread">30</mark>`, `"unread":2`} {
		if !strings.Contains(got, want) {
			t.Errorf("viewer page lacks %s:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "ev-unread"); n != 2 {
		t.Errorf("%d numbers marked unread, want 2 (503 and 30):\n%s", n, got)
	}
	if err := WriteFile(filepath.Join(dir, "evdoc.toml"), []byte("[rules]\nevidence-number = \"off\"\n")); err != nil {
		t.Fatal(err)
	}
	if got := page(); strings.Contains(got, "ev-unread") {
		t.Errorf("with evidence-number off, the viewer still marks numbers:\n%s", got)
	}
}

// TestStageEvidenceStopsWhenDone: stageEvidence called with its context
// done returns its error and writes nothing (serve stops a staging when
// files change during it: the citations of every page, the evidence
// pages' dates and index pages come before the first viewer file looks
// at the context), and called with it live writes the evidence pages.
func TestStageEvidenceStopsWhenDone(t *testing.T) {
	dir := txtartest.WriteFile(t, "../checker/testdata/check/clean.txtar")
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	results, _ := checker.Check(s, check.DefaultOptions())
	data := stagedata.StageDataOf(results)
	v, err := viewer.New(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	stage := t.TempDir()
	if err := stageEvidence(done, s, stage, v, data, false, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("stageEvidence with its context done: %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(stage); len(entries) > 0 {
		t.Errorf("stageEvidence with its context done wrote %v", entries)
	}
	if err := stageEvidence(context.Background(), s, stage, v, data, false, nil); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(stage); len(entries) == 0 {
		t.Error("stageEvidence wrote nothing; the test needs its pages")
	}
}

// viewerSite writes a project of sets sets (copies of clean.txtar's
// d3 under ids d0, d1, …), set i cited by a Korean page and, for even
// i, a Japanese one, and returns its directory.
func viewerSite(t *testing.T, sets int) string {
	t.Helper()
	dir := txtartest.WriteFile(t, "../checker/testdata/check/clean.txtar")
	toml, err := os.ReadFile(filepath.Join(dir, "evidence", "d3", "evidence.toml"))
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "evidence", "d3", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range sets {
		id := fmt.Sprintf("d%d", i)
		if id == "d3" {
			continue
		}
		files := map[string]string{
			"evidence/" + id + "/evidence.toml": strings.Replace(string(toml), `id = "d3"`, `id = "`+id+`"`, 1),
			"evidence/" + id + "/report.md":     string(report),
			"content/ko/docs/" + id + ".md":     "---\ntitle: " + id + "\ntranslationKey: " + id + "\n---\n\n[2905회](ev:" + id + "/d3.b.attempts) 중 실패는 [6건](ev:" + id + "/d3.b.failed).\n",
		}
		if i%2 == 0 {
			files["content/ja/docs/"+id+".md"] = "---\ntitle: " + id + "\ntranslationKey: " + id + "\n---\n\n失敗率は[51.7%](ev:" + id + "/d3.a.rate)です。\n"
		}
		for name, body := range files {
			if err := WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// stagedTree returns every file under dir by its slash path.
func stagedTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestStageEvidenceSideBySide: the viewer files staged side by side
// (GOMAXPROCS 4) are those staged one at a time (GOMAXPROCS 1), byte
// for byte, with and without citation slots: each window's citations
// file has the same id, numbered in the order of the files, windows and
// languages. A raw file that cannot be read fails the staging with the
// error of the first such file in the viewer's order, however many
// goroutines stage them.
func TestStageEvidenceSideBySide(t *testing.T) {
	dir := viewerSite(t, 12)
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	results, _ := checker.Check(s, check.DefaultOptions())
	data := stagedata.StageDataOf(results)
	newViewer := func() *viewer.Viewer {
		v, err := viewer.New(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	stageAt := func(v *viewer.Viewer, procs int, withSlots bool) (map[string]string, int, error) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var table *slots.Table
		if withSlots {
			table = slots.NewTable(0)
		}
		stage := t.TempDir()
		err := stageEvidence(context.Background(), s, stage, v, data, withSlots, table)
		n := 0
		if table != nil {
			n = table.CitesLen()
		}
		return stagedTree(t, stage), n, err
	}
	for _, withSlots := range []bool{false, true} {
		v := newViewer()
		one, n1, err := stageAt(v, 1, withSlots)
		if err != nil {
			t.Fatal(err)
		}
		if withSlots {
			// 12 sets, each a report of one window cited in Korean and
			// (the Japanese pages fall back to the Korean ones) Japanese,
			// and an uncited evidence.toml: the ids follow the viewer's
			// order, then the languages'
			if n1 != 24 {
				t.Errorf("slots: %d citation tables, want 24", n1)
			}
			id := 0
			for _, f := range v.Order {
				for _, lang := range s.Config.Ordered() {
					p := viewerCitesFile(lang.Code, v.Files[f].PagePath(0))
					if _, ok := one[p]; !ok {
						continue
					}
					want := slots.CitesSlotHeader + "\x00i-" + strconv.FormatInt(int64(id), 36) + "\x00"
					if !strings.HasPrefix(one[p], want) {
						t.Errorf("slots: %s begins %q, want %q", p, one[p], want)
					}
					id++
				}
			}
			if id != n1 {
				t.Errorf("slots: %d citations files, %d citation tables", id, n1)
			}
		}
		four, n4, err := stageAt(newViewer(), 4, withSlots)
		if err != nil {
			t.Fatal(err)
		}
		if n4 != n1 {
			t.Errorf("slots %v: %d citation tables side by side, %d one at a time", withSlots, n4, n1)
		}
		if len(four) != len(one) {
			t.Errorf("slots %v: %d files side by side, %d one at a time", withSlots, len(four), len(one))
		}
		for name, b := range one {
			if four[name] != b {
				t.Errorf("slots %v: %s differs side by side:\n%q\none at a time:\n%q", withSlots, name, four[name], b)
			}
		}
	}
	// d1's and d9's raw files are gone after the viewer read them: the
	// first in the viewer's order is named, at every GOMAXPROCS
	procs := []int{1, 2, 4, 1, 2, 4, 1, 2, 4, 4, 4}
	vs := make([]*viewer.Viewer, len(procs))
	for i := range vs {
		vs[i] = newViewer()
	}
	var first string
	for _, f := range vs[0].Order {
		if f == "evidence/d1/report.md" || f == "evidence/d9/report.md" {
			first = f
			break
		}
	}
	if first == "" {
		t.Fatalf("no d1 or d9 raw file in the viewer's order %q", vs[0].Order)
	}
	for _, id := range []string{"d1", "d9"} {
		if err := os.Remove(filepath.Join(dir, "evidence", id, "report.md")); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range procs {
		_, _, err := stageAt(vs[i], p, true)
		if err == nil || !strings.Contains(err.Error(), first) {
			t.Errorf("GOMAXPROCS %d: staging without %s: %v, want its error", p, first, err)
		}
	}
}
