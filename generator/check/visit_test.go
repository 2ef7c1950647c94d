package check_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestVisitEqualsClaims: on every page of the testdata/cases projects
// and of generator/checker's testdata/check projects (derived values,
// broken sets, ranges, unknown references), Visit counts and finds what
// Claims does, and hands each claim of the page, in order, the bindings
// of its Result but the values' text.
func TestVisitEqualsClaims(t *testing.T) {
	var files []string
	for _, pattern := range []string{"testdata/cases/*.txtar", "../checker/testdata/check/*.txtar"} {
		fs, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) < 40 {
		t.Fatalf("%d projects; expected the cases and the checker's", len(files))
	}
	claims := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			s, err := project.Load(txtartest.WriteFile(t, file))
			if err != nil {
				t.Skipf("does not load: %v", err)
			}
			for _, p := range s.Pages {
				if p.Parsed == nil {
					continue
				}
				rs, want := check.Claims(p.Parsed, s.Store, check.DefaultOptions())
				matched := 0
				for _, r := range rs {
					if r.OK {
						matched++
					}
				}
				n := 0
				total, m, got := check.Visit(p.Parsed, s.Store, check.DefaultOptions(), func(c *claim.Claim, bs []check.Binding) {
					defer func() { n++ }()
					if n >= len(rs) || c != &p.Parsed.Claims[n] {
						t.Errorf("%s: Visit's claim %d is not the page's", p.Path, n)
						return
					}
					wb := rs[n].Bindings
					if len(bs) != len(wb) {
						t.Errorf("%s: Visit gives claim %d [%s] %d binding(s), Claims %d", p.Path, n, c.Literal, len(bs), len(wb))
						return
					}
					for i := range wb {
						w := wb[i]
						w.Value = ""
						if !reflect.DeepEqual(bs[i], w) {
							t.Errorf("%s: Visit's binding %d of claim %d [%s]:\n%+v\nClaims' without the value:\n%+v", p.Path, i, n, c.Literal, bs[i], w)
						}
					}
				})
				claims += n
				if total != len(rs) || m != matched || n != len(rs) || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Visit = %d, %d, %d findings, %d claims visited; Claims: %d, %d, %d findings", p.Path, total, m, len(got), n, len(rs), matched, len(want))
				}
			}
		})
	}
	if claims < 500 {
		t.Errorf("%d claims visited; expected the projects' hundreds", claims)
	}
}
