package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

const koPage = "content/ko/docs/p.md"
const jaPage = "content/ja/docs/p.md"

// pairProject writes testdata/pair.txtar to a temporary directory.
func pairProject(t *testing.T) string {
	return txtartest.WriteFile(t, filepath.Join("testdata", "pair.txtar"))
}

// checkOnDisk returns what evdoc check reports for file of the project
// at root, as "line:col rule message" with the columns converted to
// UTF-16 by hand-independent means (the file's text), for comparing
// with the diagnostics the server publishes.
func checkOnDisk(t *testing.T, root, file string) []string {
	t.Helper()
	s, err := project.LoadWith(root, project.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	ds := checker.NewCheckerWith(s, checker.CheckerOptions{Check: check.DefaultOptions(), CountsOnly: true}).Diagnostics()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	tx := newText(src)
	var out []string
	for _, d := range ds {
		if d.Pos.File != file {
			continue
		}
		r := tx.span(d.Pos, d.End)
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, d.Rule, d.Message))
	}
	return out
}

// published formats published diagnostics as checkOnDisk does.
func published(ds []pubDiag) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Code, d.Message))
	}
	return out
}

func TestTxtarProject(t *testing.T) {
	root := pairProject(t)
	c, _ := start(t, root, Options{})
	ko := c.open(koPage)
	ja := c.open(jaPage)
	if ds := c.diagnostics(ko); len(ds) != 0 {
		t.Fatalf("clean page: published %v", published(ds))
	}

	// Line 5 is "실패율은 [51.7%](ev:d3/d3.a.rate)였고, …": four Hangul
	// syllables, a space and "[" before the number: UTF-16 column 6,
	// byte column 14. 51.7 → 41.7, unsaved.
	c.change(ko, 2, pos(5, 6), pos(5, 7), "4")
	got := published(c.diagnostics(ko))
	if len(got) == 0 || !strings.HasPrefix(got[0], "5:6-5:") || !strings.Contains(got[0], "claim-mismatch") {
		t.Fatalf("after the edit: published %q, want a claim-mismatch at 5:6 (UTF-16, after four Hangul syllables)", got)
	}
	// The same findings as evdoc check on the saved file.
	saved := filepath.Join(root, filepath.FromSlash(koPage))
	orig, _ := os.ReadFile(saved)
	edited := strings.Replace(string(orig), "[51.7%]", "[41.7%]", 1)
	if err := os.WriteFile(saved, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if want := checkOnDisk(t, root, koPage); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("published for the buffer:\n%s\nevdoc check on the saved file:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The translation's verdict follows the source's buffer: its claim
	// disagrees with the edited source claim.
	if err := os.WriteFile(saved, orig, 0o644); err != nil { // the buffer stays edited
		t.Fatal(err)
	}
	_ = ja

	// Hover on the claim: value, precision, raw line with its token,
	// file:line, verdict.
	var h protocol.Hover
	c.call("textDocument/hover", at(ko, 5, 8), &h)
	hv := hoverText(t, h)
	for _, want := range []string{"`d3/d3.a.rate` = 51.7%", "evidence/d3/report.md:5", "| A(no outlier) | 29 | 14 | 15 | **⟦51.7%⟧** |", "claim-mismatch"} {
		if !strings.Contains(hv, want) {
			t.Errorf("hover lacks %q:\n%s", want, hv)
		}
	}
	if h.Range == nil || h.Range.Start != (protocol.Position{Line: 5, Character: 5}) {
		t.Errorf("hover range %+v, want from 5:5 (the claim's [)", h.Range)
	}
	// A derived value: its derivation at the precision written.
	c.call("textDocument/hover", at(ko, 5, 41), &h)
	hv = hoverText(t, h)
	for _, want := range []string{"`d3/d3.a.pct`", "(at the precision written: 52%)", "derived at evidence/d3/evidence.toml:16", "percent(", "Verdict: matches"} {
		if !strings.Contains(hv, want) {
			t.Errorf("derived hover lacks %q:\n%s", want, hv)
		}
	}

	// Definition: the claim's raw token.
	var locs []protocol.Location
	c.call("textDocument/definition", at(ko, 5, 8), &locs)
	if len(locs) != 1 || locs[0].URI != c.uri("evidence/d3/report.md") || locs[0].Range != (protocol.Range{Start: protocol.Position{Line: 4, Character: 35}, End: protocol.Position{Line: 4, Character: 40}}) {
		t.Errorf("definition: %+v, want report.md 4:35-4:40 (51.7%%)", locs)
	}

	// References from the raw line: the ja claim and the ko buffer's
	// claim (the ko one edited, still citing it).
	rep := c.open("evidence/d3/report.md")
	var refs []protocol.Location
	c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": rep}, "position": pos(4, 3), "context": map[string]any{"includeDeclaration": false}}, &refs)
	var rs []string
	for _, l := range refs {
		rs = append(rs, fmt.Sprintf("%s:%d:%d", strings.TrimPrefix(l.URI, fileURI(root)+"/"), l.Range.Start.Line, l.Range.Start.Character))
	}
	// row A: d3.a.rate (ko 5:6, ja 5:5), d3.a.pct derived from row A's
	// cells (ko 5:39, ja 5:35: UTF-16 columns counted by hand)
	if want := "content/ja/docs/p.md:5:5 content/ja/docs/p.md:5:35 content/ko/docs/p.md:5:6 content/ko/docs/p.md:5:39"; strings.Join(rs, " ") != want {
		t.Errorf("references: %s\nwant %s", strings.Join(rs, " "), want)
	}

	// Code action: evdoc fix's rewrite of the stale number.
	var acts []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": ko}, "range": map[string]any{"start": pos(5, 6), "end": pos(5, 6)}, "context": map[string]any{"diagnostics": []any{}}}, &acts)
	if len(acts) == 0 || acts[0].Edit == nil || len(acts[0].Edit.Changes[ko]) != 1 {
		t.Fatalf("code actions: %+v, want evdoc fix's rewrite", acts)
	}
	e := acts[0].Edit.Changes[ko][0]
	if e.NewText != "51.7" || e.Range.Start != (protocol.Position{Line: 5, Character: 6}) {
		t.Errorf("rewrite %+v, want 51.7 at 5:6", e)
	}

	// Completion after ev: — sets, then values, the one matching the
	// typed literal first.
	c.change(ko, 3, pos(6, 0), pos(6, 0), "[2905회](ev:d3/\n")
	var cl protocol.CompletionList
	c.call("textDocument/completion", at(ko, 6, 14), &cl)
	if len(cl.Items) == 0 || cl.Items[0].Label != "d3.b.attempts" || cl.Items[0].Detail == nil || !strings.Contains(*cl.Items[0].Detail, "2905") {
		t.Errorf("completion: first %+v, want d3.b.attempts (2905) first", firstItem(cl))
	}
	c.change(ko, 4, pos(6, 0), pos(6, 0), "[6](ev:\n")
	c.call("textDocument/completion", at(ko, 6, 7), &cl)
	if len(cl.Items) == 0 || cl.Items[0].Label != "d3/" {
		t.Errorf("completion of a set: %+v, want d3/", firstItem(cl))
	}

	if err := c.stop(); err != nil {
		t.Errorf("Serve after shutdown and exit: %v", err)
	}
}

func firstItem(cl protocol.CompletionList) any {
	if len(cl.Items) == 0 {
		return "no items"
	}
	return cl.Items[0]
}

func hoverText(t *testing.T, h protocol.Hover) string {
	t.Helper()
	b, err := json.Marshal(h.Contents)
	if err != nil {
		t.Fatal(err)
	}
	var mc protocol.MarkupContent
	if err := json.Unmarshal(b, &mc); err != nil {
		t.Fatalf("hover contents %s: %v", b, err)
	}
	return mc.Value
}

// TestParseKeptForOnePage: the parse and verdicts a request makes of an
// open page are kept for that page only; a request on another open page
// drops them (each open page keeping its own grows the server with the
// pages open), and a request on the first page makes them again.
func TestParseKeptForOnePage(t *testing.T) {
	root := pairProject(t)
	c, srv := start(t, root, Options{})
	ko := c.open(koPage)
	ja := c.open(jaPage)
	hover := func(uri string, line, char int, want string) {
		t.Helper()
		var h protocol.Hover
		c.call("textDocument/hover", at(uri, line, char), &h)
		if hv := hoverText(t, h); !strings.Contains(hv, want) {
			t.Errorf("hover on %s lacks %q:\n%s", uri, want, hv)
		}
	}
	kept := func() (n int, which string) {
		for uri, d := range srv.docs {
			if d.parsed != nil || d.results != nil {
				n++
				which = uri
			}
		}
		return n, which
	}
	hover(ko, 5, 8, "`d3/d3.a.rate` = 51.7%")
	if n, which := kept(); n != 1 || which != ko {
		t.Errorf("after a hover on the ko page: %d parses kept (%s), want the ko page's only", n, which)
	}
	hover(ja, 5, 6, "`d3/d3.a.rate` = 51.7%")
	if n, which := kept(); n != 1 || which != ja {
		t.Errorf("after a hover on the ja page: %d parses kept (%s), want the ja page's only", n, which)
	}
	hover(ko, 5, 8, "`d3/d3.a.rate` = 51.7%")
	if n, which := kept(); n != 1 || which != ko {
		t.Errorf("after a second hover on the ko page: %d parses kept (%s), want the ko page's only", n, which)
	}
}
