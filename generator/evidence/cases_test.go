package evidence

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// loadCase writes a txtar project from testdata/cases and loads one of
// its evidence sets.
func loadCase(t *testing.T, name, set string) (*Set, string) {
	t.Helper()
	root := txtartest.WriteFile(t, "testdata/cases/"+name)
	s, errs := LoadSet(root, "evidence/"+set)
	return s, errs.Error()
}

// Case 13: curl under a decimal-comma locale inside a transcript. The file
// shows a decimal comma (40,045811), so 1,232 is 1.232 s, with warnings.
func TestCaseTranscriptDecimalComma(t *testing.T) {
	s, diags := loadCase(t, "13-transcript-decimal-comma.txtar", "c")
	if s == nil {
		t.Fatalf("set does not load: %s", diags)
	}
	for name, want := range map[string]string{"curl.s1.time": "1.232", "curl.s2.time": "40.045811", "curl.s1.code": "200"} {
		v, ok := s.Values[name]
		if !ok || v.Value.String() != want {
			t.Errorf("%s = %v, want %s", name, v, want)
		}
	}
	if v := s.Values["curl.s1.time"]; v == nil || v.Unit != "s" || v.Raw != "1,232" || v.Pos.String() != "evidence/c/result.txt:3:15" {
		t.Errorf("curl.s1.time = %+v", v)
	}
	for _, want := range []string{`result.txt:3:15: warning: comma in "1,232" read as a decimal mark (1.232)`, `result.txt:6:15: warning: decimal comma in "40,045811" read as 40.045811`} {
		if !strings.Contains(diags, want) {
			t.Errorf("diagnostics %s\nlack %s", diags, want)
		}
	}
}

func TestDecimalDeclared(t *testing.T) {
	tests := []struct {
		name, manifest, result string
		want                   map[string]string
		err                    string
	}{
		{"ambiguous alone", "", "[S1] a\nTIME=1,232\n", nil, `result.txt:2:6: error: "1,232" is ambiguous`},
		{"set declares comma", "decimal = \",\"\n", "[S1] a\nTIME=1,232\n", map[string]string{"c.s1.time": "1.232"}, ""},
		{"entry declares point", "", "[S1] a\nN=1,232\n", map[string]string{"c.s1.n": "1232"}, ""},
		{"bad mark", "decimal = \";\"\n", "[S1] a\nN=1\n", nil, `error: decimal ";": expected "." or ","`},
	}
	for _, tt := range tests {
		entryDec := ""
		if tt.name == "entry declares point" {
			entryDec = "decimal = \".\"\n"
		}
		root := writeSet(t, "s", map[string]string{
			"result.txt":    tt.result,
			"evidence.toml": manifestHead + tt.manifest + "\n[[transcript]]\nfile = \"result.txt\"\nname = \"c\"\n" + entryDec,
		})
		set, errs := LoadSet(root, "evidence/s")
		if tt.err != "" {
			if set != nil || !strings.Contains(errs.Error(), tt.err) {
				t.Errorf("%s: errors %v, want %q", tt.name, errs, tt.err)
			}
			continue
		}
		if set == nil {
			t.Fatalf("%s: %v", tt.name, errs)
		}
		for k, want := range tt.want {
			if v := set.Values[k]; v == nil || v.Value.String() != want {
				t.Errorf("%s: %s = %v, want %s", tt.name, k, v, want)
			}
		}
	}
}
