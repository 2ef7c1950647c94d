package evidence

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestDiff: what Diff says changed between the load of a set and of an
// edited copy.
func TestDiff(t *testing.T) {
	manifest := manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3 outlier\"\nname = \"d3\"\nrows = { \"A(no outlier)\" = \"a\", \"B(+outlier)\" = \"b\" }\n"
	load := func(files map[string]string) *Store {
		t.Helper()
		st, _ := Load(writeSet(t, "s", files), "evidence")
		return st
	}
	base := load(map[string]string{"evidence.toml": manifest, "report.md": reportMD})
	keys := func(m map[string]bool) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		name              string
		files             map[string]string
		refs, sets, touch []string
		names             bool
	}{
		{name: "nothing", files: map[string]string{"evidence.toml": manifest, "report.md": reportMD}},
		{name: "one value", files: map[string]string{"evidence.toml": manifest, "report.md": strings.Replace(reportMD, "| 15 |", "| 16 |", 1)},
			refs: []string{"s/d3.a.failed"}, touch: []string{"s"}},
		// a longer number moves every value after it in the file (their
		// column or offset)
		{name: "values moved", files: map[string]string{"evidence.toml": manifest, "report.md": strings.Replace(reportMD, "| 29 |", "| 290 |", 1)},
			refs: []string{"s/d3.a.attempts", "s/d3.a.failed", "s/d3.a.rate", "s/d3.b.attempts", "s/d3.b.failed", "s/d3.b.rate"}, touch: []string{"s"}},
		{name: "a cell turned text", files: map[string]string{"evidence.toml": manifest, "report.md": strings.Replace(reportMD, "| 6 |", "| N/A |", 1)},
			refs: []string{"s/d3.b.failed", "s/d3.b.rate"}, touch: []string{"s"}, names: true},
		{name: "the set broke", files: map[string]string{"evidence.toml": "id = \"s\"\n[[table]\n", "report.md": reportMD},
			sets: []string{"s"}, touch: []string{"s"}, names: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Diff(base, load(tc.files))
			if got := keys(c.Refs); !reflect.DeepEqual(got, tc.refs) {
				t.Errorf("Refs %q, want %q", got, tc.refs)
			}
			if got := keys(c.Sets); !reflect.DeepEqual(got, tc.sets) {
				t.Errorf("Sets %q, want %q", got, tc.sets)
			}
			if got := keys(c.Touched); !reflect.DeepEqual(got, tc.touch) {
				t.Errorf("Touched %q, want %q", got, tc.touch)
			}
			if c.Names != tc.names {
				t.Errorf("Names %v, want %v", c.Names, tc.names)
			}
			if c.Empty() != (tc.touch == nil && !tc.names) {
				t.Errorf("Empty %v", c.Empty())
			}
		})
	}
}
