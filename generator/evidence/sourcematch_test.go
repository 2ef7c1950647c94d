package evidence

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	raw2 "github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// TestReferenceEvidenceMatchesSource holds that every value of every
// transcribed evidence set of the reference site appears in the published
// page it was re-typed from (../shared/seeds beside the repository, as in
// CI). Without ../shared the test is skipped.
func TestReferenceEvidenceMatchesSource(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "..", "shared", "seeds")); err != nil {
		t.Skipf("skipped: the source documents are not available (%v); put the shared directory beside the repository (../shared/seeds) to compare transcribed evidence with its source", err)
	}
	st, errs := Load(root, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	n := 0
	for _, set := range st.Sets {
		for _, f := range set.Files {
			p := set.Provenance(f)
			if p.Origin == OriginTranscribed && p.SourceFile == "" {
				t.Errorf("evidence set %s: %s is transcribed but names no source_file to compare it with", set.Manifest.ID, f)
			}
		}
		compared, misses, err := CompareWithSource(root, set)
		if errors.Is(err, fs.ErrNotExist) {
			t.Errorf("evidence set %s: %v", set.Manifest.ID, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n += len(compared)
		for _, m := range misses {
			t.Error(m)
		}
	}
	if n == 0 {
		t.Fatal("no transcribed evidence file was compared")
	}
}

func TestCompareWithSource(t *testing.T) {
	source := strings.Join([]string{
		"| counter | BEFORE | MID1 | AFTER |",
		"|---|---|---|---|",
		"| membership_change | 17 | **18 (+1)** | 18 |",
		"| upstream_cx_destroy | 51 | 51 | **52 (+1)** |",
		"",
		"| counter | BEFORE | MID1 | AFTER |",
		"|---|---|---|---|",
		"| membership_change | 20 | 20 (Δ0) | 20 |",
		"",
		"curl: `CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200`, body=`backend-a`.",
		"",
		"같은 40초 창에서 `upstream_rq_total` 2→88(+86). 빠른 503은 업스트림에 세 번,",
		"1.5초 걸리는 응답은 한 번 도달했다.",
	}, "\n")
	tests := []struct {
		name    string
		file    string // evidence file content
		entry   string // manifest entry reading it
		wantBad []string
	}{
		{"table rows as published", "## T\n| counter | BEFORE | MID1 | AFTER |\n|---|---|---|---|\n| membership_change | 17 | **18 (+1)** | 18 |\n| upstream_cx_destroy | 51 | 51 | 52 |\n",
			"[[table]]\nfile = \"e.md\"\nheading = \"T\"\nname = \"t\"\n", nil},
		{"one cell changed", "## T\n| counter | BEFORE | MID1 | AFTER |\n|---|---|---|---|\n| membership_change | 20 | **18 (+1)** | 18 |\n",
			"[[table]]\nfile = \"e.md\"\nheading = \"T\"\nname = \"t\"\n", []string{"e.md:4: value 20 (t.membership_change.before)"}},
		{"row written out in prose", "## T\n| counter | BEFORE | AFTER |\n|---|---|---|\n| upstream_rq_total | 2 | 88 |\n",
			"[[table]]\nfile = \"e.md\"\nheading = \"T\"\nname = \"t\"\n", nil},
		{"prose row changed", "## T\n| counter | BEFORE | AFTER |\n|---|---|---|\n| upstream_rq_total | 2 | 87 |\n",
			"[[table]]\nfile = \"e.md\"\nheading = \"T\"\nname = \"t\"\n", []string{"value 87 (t.upstream_rq_total.after)"}},
		{"number before its label", "## T\n| what | s |\n|---|---|\n| 창 | 40 |\n",
			"[[table]]\nfile = \"e.md\"\nheading = \"T\"\nname = \"t\"\nrows = { \"창\" = \"window\" }\n", nil},
		{"native numerals", "## T\n| case | upstream |\n|---|---|\n| 빠른 503 | 3 |\n| 걸리는 응답 | 1 |\n",
			"[[table]]\nfile = \"e.md\"\nheading = \"T\"\nname = \"t\"\nrows = { \"빠른 503\" = \"fast\", \"걸리는 응답\" = \"slow\" }\n", nil},
		{"transcript line", "[S1] run\nCURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200\n",
			"[[transcript]]\nfile = \"e.txt\"\nname = \"c\"\n", nil},
		{"transcript value changed", "[S1] run\nCURL_EXIT=0 SIZE=409610 TIME=40.045812 CODE=200\n",
			"[[transcript]]\nfile = \"e.txt\"\nname = \"c\"\n", []string{"e.txt:2: value 40.045812 (c.s1.time)"}},
		{"invented key", "[S1] run\nclient_code=504\n",
			"[[transcript]]\nfile = \"e.txt\"\nname = \"c\"\n", []string{"value 504 (c.s1.client_code)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fname := "e.md"
			if strings.Contains(tt.entry, "e.txt") {
				fname = "e.txt"
			}
			root := writeSet(t, "s", map[string]string{
				fname: tt.file,
				"evidence.toml": strings.Replace(manifestHead, `origin = "raw"`, `origin = "transcribed"
source = "page, appendix"
source_file = "src.txt"`, 1) + tt.entry,
			})
			if err := os.WriteFile(filepath.Join(root, "src.txt"), []byte(source), 0o644); err != nil {
				t.Fatal(err)
			}
			set, errs := LoadSet(root, "evidence/s")
			if errs != nil {
				t.Fatal(errs)
			}
			compared, misses, err := CompareWithSource(root, set)
			if err != nil {
				t.Fatal(err)
			}
			if len(compared) != 1 {
				t.Errorf("compared %v; want the one transcribed file", compared)
			}
			var got []string
			for _, m := range misses {
				got = append(got, m.String())
			}
			if len(got) != len(tt.wantBad) {
				t.Fatalf("mismatches:\n%s\nwant %d", strings.Join(got, "\n"), len(tt.wantBad))
			}
			for i, w := range tt.wantBad {
				if !strings.Contains(got[i], w) || !strings.Contains(got[i], "evidence set s, evidence/s/") {
					t.Errorf("mismatch %d = %q; want it to name the set, file, line and %q", i, got[i], w)
				}
			}
		})
	}
	t.Run("missing source", func(t *testing.T) {
		root := writeSet(t, "s", map[string]string{"e.txt": "x=1\n", "evidence.toml": strings.Replace(manifestHead, `origin = "raw"`, "origin = \"transcribed\"\nsource = \"p\"\nsource_file = \"nope.txt\"", 1) + "[[transcript]]\nfile = \"e.txt\"\nname = \"c\"\n"})
		set, _ := LoadSet(root, "evidence/s")
		if _, _, err := CompareWithSource(root, set); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v; want fs.ErrNotExist", err)
		}
	})
}

// TestReferenceEvidenceMutations changes, one at a time, every transcribed
// value of the reference evidence (its last digit, as if the file had been
// edited there) and expects CompareWithSource to name that file, line and
// value.
func TestReferenceEvidenceMutations(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "..", "shared", "seeds")); err != nil {
		t.Skipf("skipped: the source documents are not available (%v); put the shared directory beside the repository (../shared/seeds)", err)
	}
	st, errs := Load(root, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	n := 0
	parsed := map[string]*sourceText{}
	for _, set := range st.Sets {
		for _, v := range set.Sorted() {
			p := set.Provenance(v.Pos.File)
			if v.Derived || p.Origin != OriginTranscribed || p.SourceFile == "" {
				continue
			}
			n++
			raw := string(mutateDigit([]byte(v.Raw), &Value{Raw: v.Raw}))
			changed, ok := raw2.ParseCell(raw)
			if !ok {
				t.Fatalf("%s: mutated %q does not parse", v.Ref, raw)
			}
			mv := *v
			mv.Raw, mv.Value = raw, changed.Value
			mset := *set
			mset.values = maps.Clone(set.values)
			mset.values[v.Name] = &mv
			_, misses, err := compareWithSource(root, &mset, parsed)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, m := range misses {
				if m.File == v.Pos.File && m.Line == v.Pos.Line && m.Name == v.Name && m.Value == raw {
					found = true
				}
			}
			if !found {
				t.Errorf("%s at %s: changing %q to %q went unnoticed (found: %v)", v.Ref, v.Pos, v.Raw, raw, misses)
			}
		}
	}
	if n == 0 {
		t.Fatal("no transcribed value was mutated")
	}
}

// mutateDigit changes the last digit of v's raw token in b, which holds
// the token at v.Pos.Offset.
func mutateDigit(b []byte, v *Value) []byte {
	out := append([]byte(nil), b...)
	for i := v.Pos.Offset + len(v.Raw) - 1; i >= v.Pos.Offset; i-- {
		if c := out[i]; c >= '0' && c <= '9' {
			out[i] = '0' + (c-'0'+7)%10
			break
		}
	}
	return out
}
