package translation_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestToolPairSet checks the ko/ja pairs of testdata/pairset-s4/*.txtar,
// projects whose evidence is lab tools' output as the tools print it, with
// the whole check (site.Load, checker.Check, the project's evdoc.toml):
//
//   - an agreeing pair (NNN-agree-what) has no finding on either page;
//   - a disagreeing pair (NNN-disagree-what) has a translation finding
//     (translation-*), a claim-mismatch or a claim-label on the Japanese
//     page, and none at all on its Korean source, which is right against
//     its evidence.
//
// Every pair must get its label's verdict. A failure prints the table of
// every pair: its label, what the check gave and the findings on its
// pages.
func TestToolPairSet(t *testing.T) {
	paths, err := filepath.Glob("testdata/pairset-s4/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/pairset-s4/*.txtar (%v)", err)
	}
	type row struct {
		id, want, got, status string
		findings              []string
	}
	var rows []row
	seen := map[string]bool{}
	agree, disagree := 0, 0
	for _, path := range paths {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ids := pairIDs(t, ar)
		s, err := project.Load(txtartest.Write(t, ar))
		if err != nil {
			t.Fatal(err)
		}
		_, ds := checker.Check(s, check.DefaultOptions())
		byPage := map[string][]diag.Diagnostic{}
		for _, d := range ds {
			byPage[filepath.ToSlash(d.Pos.File)] = append(byPage[filepath.ToSlash(d.Pos.File)], d)
		}
		for _, id := range ids {
			if seen[id] {
				t.Errorf("%s: pair %s is in two archives", path, id)
			}
			seen[id] = true
			want := strings.SplitN(id, "-", 3)[1]
			ko, ja := byPage["content/ko/docs/"+id+".md"], byPage["content/ja/docs/"+id+".md"]
			reported := false
			for _, d := range ja {
				if strings.HasPrefix(string(d.Rule), "translation-") || d.Rule == diag.ClaimMismatch || d.Rule == diag.ClaimLabel {
					reported = true
				}
			}
			var ok bool
			got := "agree"
			switch {
			case want == "agree":
				agree++
				if len(ko)+len(ja) > 0 {
					got = "reported"
				}
				ok = got == "agree"
			default:
				disagree++
				switch {
				case len(ko) > 0:
					got = "source flagged"
				case reported:
					got = "disagree"
				}
				ok = got == "disagree"
			}
			r := row{id: id, want: want, got: got, status: "ok"}
			for _, d := range append(ko, ja...) {
				r.findings = append(r.findings, fmt.Sprintf("%s:%d:%d %s", strings.TrimPrefix(d.Pos.File, "content/"), d.Pos.Line, d.Pos.Column, d.Rule))
			}
			if !ok {
				r.status = "FAIL"
				t.Errorf("%s: labelled %s, got %s: %s", id, want, got, strings.Join(r.findings, ", "))
			}
			rows = append(rows, r)
		}
	}
	if n := agree + disagree; n < 60 || agree*5 < n*2 || disagree*5 < n*2 {
		t.Errorf("%d agreeing and %d disagreeing pairs; want 60 pairs at least, each verdict 40%% of them at least", agree, disagree)
	}
	if t.Failed() {
		var b strings.Builder
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "pair\twant\tgot\tstatus\tfindings")
		for _, r := range rows {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", r.id, r.want, r.got, r.status, strings.Join(r.findings, ", "))
		}
		w.Flush()
		t.Log("\n" + b.String())
	}
}

// pairIDs returns the pair ids of ar, in order: every content/ko/docs/ID.md
// with its content/ja/docs/ID.md, ID being NNN-agree-what or
// NNN-disagree-what.
func pairIDs(t *testing.T, ar *txtar.Archive) []string {
	t.Helper()
	pages := map[string]map[string]bool{"ko": {}, "ja": {}}
	for _, f := range ar.Files {
		rest, ok := strings.CutPrefix(f.Name, "content/")
		if !ok {
			continue
		}
		lang, name, _ := strings.Cut(rest, "/docs/")
		id, ok := strings.CutSuffix(name, ".md")
		if pages[lang] == nil || !ok {
			t.Fatalf("%s: want content/ko/docs/ID.md or content/ja/docs/ID.md", f.Name)
		}
		parts := strings.SplitN(id, "-", 3)
		if len(parts) < 3 || parts[1] != "agree" && parts[1] != "disagree" {
			t.Fatalf("%s: want an id NNN-agree-what or NNN-disagree-what", f.Name)
		}
		pages[lang][id] = true
	}
	var ids []string
	for id := range pages["ko"] {
		if !pages["ja"][id] {
			t.Fatalf("pair %s has no Japanese page", id)
		}
		ids = append(ids, id)
	}
	for id := range pages["ja"] {
		if !pages["ko"][id] {
			t.Fatalf("pair %s has no Korean page", id)
		}
	}
	sort.Strings(ids)
	return ids
}
