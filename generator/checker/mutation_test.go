package checker

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// repoRoot is the repository holding the reference site.
const repoRoot = "../.."

func loadReference(t *testing.T) *project.Site {
	t.Helper()
	s, err := project.Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	results, ds := Check(s, check.DefaultOptions())
	if ds.HasErrors() {
		t.Fatalf("reference site does not check clean:\n%s", ds.Error())
	}
	if len(results) < 400 {
		t.Fatalf("reference site has %d claims; expected the two seed pages in ko and ja", len(results))
	}
	return s
}

// bump changes the digit at or after off in b so that the number it
// starts changes markedly: 9 becomes 8, any other digit d becomes d+1.
func bump(b []byte, off int) ([]byte, int) {
	out := append([]byte(nil), b...)
	for i := off; i < len(out); i++ {
		if out[i] >= '0' && out[i] <= '9' {
			if out[i] == '9' {
				out[i] = '8'
			} else {
				out[i]++
			}
			return out, i
		}
	}
	return out, -1
}

func errorAt(ds diag.List, file string, line int) bool {
	for _, d := range ds {
		if d.Severity == diag.Error && d.Pos.File == file && d.Pos.Line == line {
			return true
		}
	}
	return false
}

// TestEveryPageLiteralMutationIsCaught changes one digit of each claim in
// content/ (ko and ja), expects a finding at that page and line, and
// expects fix to restore the page byte for byte.
func TestEveryPageLiteralMutationIsCaught(t *testing.T) {
	t.Parallel()
	s := loadReference(t)
	md := claim.NewMarkdown()
	n := 0
	for _, p := range s.Pages {
		for _, c := range p.Parsed.Claims {
			if c.Exempt {
				continue
			}
			lit, err := literal.ParseLiteral(c.Literal)
			if err != nil {
				t.Fatalf("%s: %v", c.Pos, err)
			}
			mutated, at := bump(p.Parsed.Source, c.Pos.Offset+lit.Quantities[0].Start)
			if at < 0 || at >= c.End {
				t.Fatalf("%s: no digit to change in %q", c.Pos, c.Literal)
			}
			mp, perrs := claim.Parse(md, p.Path, mutated)
			_, ds := check.Claims(mp, s.Store, check.DefaultOptions())
			ds = append(ds, perrs...)
			txtartest.CheckRanges(t, ds) // each finding on a real ko/ja page has its range
			if !errorAt(ds, p.Path, c.Pos.Line) {
				t.Errorf("%s: changing %q to %q was not reported at line %d", c.Pos, c.Literal, mutated[c.Pos.Offset:c.End], c.Pos.Line)
			}
			// evdoc fix restores the page byte for byte.
			edits, fds := fix.Edits(mp, s.Store, check.DefaultOptions())
			if fds != nil {
				t.Errorf("%s: fix: %v", c.Pos, fds)
			}
			if restored := fix.Apply(mutated, edits); !bytes.Equal(restored, p.Parsed.Source) {
				t.Errorf("%s: fix turned %q into %q, want %q", c.Pos, mutated[c.Pos.Offset:c.End], restored[c.Pos.Offset:c.End], c.Literal)
			}
			n++
		}
	}
	t.Logf("%d page mutations, each caught", n)
}

// TestEveryEvidenceMutationIsCaught changes, one at a time, the first digit
// of each raw evidence token any claim rests on (directly or through a
// derived value) and expects a finding at the page line of every claim
// bound to it.
func TestEveryEvidenceMutationIsCaught(t *testing.T) {
	t.Parallel()
	s := loadReference(t)
	results, _ := Check(s, check.DefaultOptions())
	// raw position -> claims resting on it
	type site struct {
		file string
		line int
	}
	rests := map[diag.Position][]site{}
	for _, r := range results {
		for _, b := range r.Bindings {
			inputs := b.Inputs
			if len(inputs) == 0 {
				inputs = []diag.Position{*b.Evidence}
			}
			for _, in := range inputs {
				rests[in] = append(rests[in], site{r.Claim.Page, r.Claim.Pos.Line})
			}
		}
	}
	var positions []diag.Position
	for p := range rests {
		positions = append(positions, p)
	}
	sort.Slice(positions, func(i, j int) bool { return positions[i].String() < positions[j].String() })

	var langs []string
	for _, l := range s.Config.Ordered() {
		langs = append(langs, l.Code)
	}
	tmp := t.TempDir()
	if err := staging.CopyTree(filepath.Join(repoRoot, project.EvidenceDir), filepath.Join(tmp, project.EvidenceDir)); err != nil {
		t.Fatal(err)
	}
	// The store of the unchanged evidence, loaded once: a mutation
	// changes a file of one set, and sets load independently (each from
	// its own directory; derived values read their own set only), so
	// loading that set again and putting it in the place of the old one
	// gives the store Load would give, without reading every other set
	// again per mutation.
	base, errs := evidence.Load(tmp, project.EvidenceDir)
	if errs.HasErrors() {
		t.Fatalf("the copied evidence does not load: %v", errs)
	}
	for _, pos := range positions {
		path := filepath.Join(tmp, filepath.FromSlash(pos.File))
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		mutated, at := bump(orig, pos.Offset)
		if at < 0 {
			t.Fatalf("%s: no digit to change", pos)
		}
		if err := os.WriteFile(path, mutated, 0o644); err != nil {
			t.Fatal(err)
		}
		st := &evidence.Store{Broken: base.Broken, BrokenAt: base.BrokenAt}
		replaced := 0
		for _, set := range base.Sets {
			if !strings.HasPrefix(pos.File, set.Dir+"/") {
				st.Sets = append(st.Sets, set)
				continue
			}
			mset, errs := evidence.LoadSet(tmp, set.Dir)
			if mset == nil || errs.HasErrors() { // warnings (numbers in table cells that are not read) do not unload a set
				t.Fatalf("%s: mutated evidence no longer loads: %v", pos, errs)
			}
			st.Sets = append(st.Sets, mset)
			replaced++
		}
		if replaced != 1 {
			t.Fatalf("%s: in %d loaded evidence sets, want 1", pos, replaced)
		}
		var ds diag.List
		for _, p := range s.Pages {
			_, cds := check.Claims(p.Parsed, st, check.DefaultOptions())
			ds = append(ds, cds...)
			txtartest.CheckRanges(t, cds)
		}
		// Figure texts' claims are among the results too.
		for _, f := range s.Figures {
			ds = append(ds, f.Validate(st, langs, nil, check.DefaultOptions(), claim.MarkdownConfig{})...)
		}
		for _, c := range rests[pos] {
			if !errorAt(ds, c.file, c.line) {
				t.Errorf("changing evidence %s was not reported at %s:%d", pos, c.file, c.line)
			}
		}
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d evidence mutations, each caught at every bound claim", len(positions))
}
