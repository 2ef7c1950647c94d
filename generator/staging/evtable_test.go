package staging

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/viewer"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// evtableProject has one set whose values r.s1.before, r.s1.after and
// r.s1.rps share line 2 with another 15 before the one r.s1.after
// reads; its page's table shows the before and after columns of row s1
// only (rows=s1).
const evtableProject = `
-- hugo.toml --
defaultContentLanguage = "ko"
[languages.ko]
  contentDir = "content/ko"
  weight = 1
-- evidence/run/evidence.toml --
id = "run"
title = "run"
date = "2026-07-09"
environment = "lab"
report = "r"
origin = "raw"

[[transcript]]
file = "result.txt"
name = "r"
sections = { "S1" = "s1", "S2" = "s2" }
-- evidence/run/result.txt --
[S1] load
rps=15 before=5 after=15
[S2] decimals
before=1.25 after=3.5
-- content/ko/docs/p.md --
---
title: 표
---

{{< evtable set="run" prefix="r" columns="before,after" rows="s1" >}}
`

// TestEvtableCellsLandOnToken stages a page with an evtable: the values
// its cells show carry their token's column (the cell's link lands on
// #L2-COL, the token's anchor the viewer marks, as a claim's does), the
// column of the value's own token where the same number stands earlier
// on the line; values no table shows (another column, another row) are
// neither given a column nor marked on the viewer.
func TestEvtableCellsLandOnToken(t *testing.T) {
	dir := txtartest.Write(t, txtar.Parse([]byte(evtableProject)))
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	results, ds := checker.Check(s, check.DefaultOptions())
	for _, d := range ds {
		t.Errorf("check: %s", d)
	}
	stage := t.TempDir()
	if _, err := Stage(context.Background(), s, stage, stagedata.StageDataOf(results), nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(stage, "data", "evdoc", "sets.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sets map[string]struct {
		Values []struct {
			Name      string
			Line, Col int
		}
	}
	if err := json.Unmarshal(b, &sets); err != nil {
		t.Fatal(err)
	}
	line := "rps=15 before=5 after=15"
	want := map[string][2]int{
		"r.s1.before": {2, strings.Index(line, "=5") + 2},
		"r.s1.after":  {2, strings.LastIndex(line, "15") + 1},
		"r.s1.rps":    {2, 0}, // not a column of the table
		"r.s2.before": {4, 0}, // not a row of the table
		"r.s2.after":  {4, 0},
	}
	got := map[string][2]int{}
	for _, v := range sets["run"].Values {
		got[v.Name] = [2]int{v.Line, v.Col}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: line and column %v, want %v", name, got[name], w)
		}
	}
	page, err := os.ReadFile(filepath.Join(stage, filepath.FromSlash(viewerLinesFile("/"+project.EvidenceDir+"/run/result-txt"))))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{viewer.TokenID(2, want["r.s1.before"][1]), viewer.TokenID(2, want["r.s1.after"][1])} {
		if !strings.Contains(string(page), `<mark class="ev-token" id="`+id+`"`) {
			t.Errorf("the viewer does not mark the token %s:\n%s", id, page)
		}
	}
	if n := strings.Count(string(page), `ev-token`); n != 2 {
		t.Errorf("%d tokens marked, want 2 (the table's cells):\n%s", n, page)
	}
}
