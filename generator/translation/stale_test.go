package translation_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

func staleFindings(t *testing.T, dir string) (diag.List, *project.Site) {
	t.Helper()
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, ds := checker.Check(s, check.DefaultOptions())
	var out diag.List
	for _, d := range ds {
		if d.Rule == diag.TranslationStale {
			out = append(out, d)
		}
	}
	return out, s
}

func status(t *testing.T, s *project.Site, path string) translation.LangState {
	t.Helper()
	for _, ps := range s.Translations.Status() {
		if ps.Source == path {
			return ps.Languages["ja"]
		}
	}
	t.Fatalf("no status for %s", path)
	return translation.LangState{}
}

// TestMarkAndStale: Mark adds exactly two front matter lines and nothing
// else; check is quiet while the source is unchanged and warns, naming the
// changed block, once the source changes; marking again brings it in sync
// by replacing the two lines.
func TestMarkAndStale(t *testing.T) {
	dir := txtartest.WriteFile(t, filepath.Join("testdata", "stale", "stale.txtar"))
	jaPath := filepath.Join(dir, "content", "ja", "docs", "p.md")
	koPath := filepath.Join(dir, "content", "ko", "docs", "p.md")
	before, _ := os.ReadFile(jaPath)

	ds, s := staleFindings(t, dir)
	if len(ds) != 0 {
		t.Fatalf("unmarked: %v", ds)
	}
	if st := status(t, s, "content/ko/docs/p.md"); st.State != translation.StateUnmarked {
		t.Fatalf("state %q, want unmarked", st.State)
	}
	ja := s.Translations.Find("content/ja/docs/p.md")
	ko := s.Translations.Find("content/ko/docs/p.md")
	if err := translation.Mark(jaPath, ko, ja); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(jaPath)
	// Only two lines were added, before the closing delimiter.
	bl, al := strings.Split(string(before), "\n"), strings.Split(string(after), "\n")
	if len(al) != len(bl)+2 || strings.Join(al[:4], "\n") != strings.Join(bl[:4], "\n") || strings.Join(al[6:], "\n") != strings.Join(bl[4:], "\n") ||
		!strings.HasPrefix(al[4], translation.SourceHashField+": sha256:") || !strings.HasPrefix(al[5], translation.SourceBlocksField+": ") {
		t.Fatalf("Mark changed more than two added lines:\n%s", after)
	}
	ds, s = staleFindings(t, dir)
	if len(ds) != 0 {
		t.Fatalf("marked, unchanged source: %v", ds)
	}
	if st := status(t, s, "content/ko/docs/p.md"); st.State != translation.StateInSync {
		t.Fatalf("state %q, want in sync", st.State)
	}

	// The source's last paragraph changes.
	kb, _ := os.ReadFile(koPath)
	if err := os.WriteFile(koPath, []byte(strings.Replace(string(kb), "재시도는 없었다.", "재시도는 한 번 있었다.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, s = staleFindings(t, dir)
	if len(ds) != 1 {
		t.Fatalf("stale: %v", ds)
	}
	d := ds[0]
	if d.Severity != diag.Warning || d.Pos.File != "content/ja/docs/p.md" || d.Pos.Line != 5 ||
		!strings.Contains(d.Message, "1 section(s) at line 6") || len(d.Related) != 1 || d.Related[0].Pos.File != "content/ko/docs/p.md" || d.Related[0].Pos.Line != 6 {
		t.Errorf("stale finding: %s %+v", d, d.Related)
	}
	if st := status(t, s, "content/ko/docs/p.md"); st.State != translation.StateStale || len(st.Changed) != 1 || st.Changed[0] != 6 {
		t.Errorf("status %+v, want stale at line 6 (the section's heading)", st)
	}

	// Marking again replaces the two lines in place.
	ja, ko = s.Translations.Find("content/ja/docs/p.md"), s.Translations.Find("content/ko/docs/p.md")
	if err := translation.Mark(jaPath, ko, ja); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(jaPath)
	if n := len(strings.Split(string(again), "\n")); n != len(al) {
		t.Errorf("re-mark changed the line count: %d, want %d", n, len(al))
	}
	if ds, _ := staleFindings(t, dir); len(ds) != 0 {
		t.Errorf("re-marked: %v", ds)
	}

	// A file changed since it was read is left alone.
	kb, _ = os.ReadFile(koPath)
	if err := os.WriteFile(koPath, append(kb, "\n추가 문단.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, _ := project.Load(dir)
	ja, ko = s2.Translations.Find("content/ja/docs/p.md"), s2.Translations.Find("content/ko/docs/p.md")
	if err := os.WriteFile(jaPath, append(again, "追記\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := translation.Mark(jaPath, ko, ja); !errors.Is(err, fix.ErrChanged) {
		t.Errorf("Mark on a file changed since it was read: %v", err)
	}
	if b, _ := os.ReadFile(jaPath); string(b) != string(again)+"追記\n" {
		t.Error("the changed file was not left alone")
	}
}

// TestMarkTOMLAndJSON: Mark records the source version in TOML front
// matter (as top-level fields, before any [table]) and in JSON front
// matter, in their own syntax; the page still decodes, is in sync, and
// nothing else of the file changes.
func TestMarkTOMLAndJSON(t *testing.T) {
	for _, tt := range []struct{ name, fm, wantPrefix string }{
		{"toml", "+++\ntitle = \"リトライ\"\ntranslationKey = \"p\"\n[params]\n  tags = [\"a\"]\n+++\n", "+++\n" + translation.SourceHashField + " = \"sha256:"},
		{"json", "{\n  \"title\": \"リトライ\",\n  \"translationKey\": \"p\"\n}\n", "{\n  \"" + translation.SourceHashField + "\": \"sha256:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := txtartest.WriteFile(t, filepath.Join("testdata", "stale", "stale.txtar"))
			jaPath := filepath.Join(dir, "content", "ja", "docs", "p.md")
			b, _ := os.ReadFile(jaPath)
			body := string(b)[strings.Index(string(b), "\n## "):]
			if err := os.WriteFile(jaPath, []byte(tt.fm+body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, s := staleFindings(t, dir)
			ja := s.Translations.Find("content/ja/docs/p.md")
			ko := s.Translations.Find("content/ko/docs/p.md")
			if ja == nil || ko == nil {
				t.Fatalf("pages not loaded: %v %v", ja, ko)
			}
			if err := translation.Mark(jaPath, ko, ja); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(jaPath)
			if !strings.HasPrefix(string(after), tt.wantPrefix) || !strings.HasSuffix(string(after), body) {
				t.Fatalf("marked:\n%s", after)
			}
			ds, s := staleFindings(t, dir)
			if len(ds) != 0 {
				t.Fatalf("marked, unchanged source: %v", ds)
			}
			if st := status(t, s, "content/ko/docs/p.md"); st.State != translation.StateInSync {
				t.Fatalf("state %q, want in sync:\n%s", st.State, after)
			}
			// Marking again changes nothing.
			ja, ko = s.Translations.Find("content/ja/docs/p.md"), s.Translations.Find("content/ko/docs/p.md")
			if err := translation.Mark(jaPath, ko, ja); err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadFile(jaPath); string(again) != string(after) {
				t.Errorf("re-mark changed the file:\n%s", again)
			}
		})
	}
}
