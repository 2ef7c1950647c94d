package staging

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
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
