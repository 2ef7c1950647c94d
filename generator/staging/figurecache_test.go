package staging

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestFigureCache: a second staging takes a figure from the cache when
// its spec and inputs are unchanged, and draws it again, as a fresh
// render does, when an input value changed.
func TestFigureCache(t *testing.T) {
	dir := sitetest.CopyProject(t)
	cache := &project.FigureCache{}
	load := func() (*project.Site, []byte) {
		t.Helper()
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		s.FigureCache = cache
		proj, err := s.FigureProject()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range s.Figures {
			if f.Name == "d3-failure-rate" {
				files, _, err := cache.Files(proj, f)
				if err != nil {
					t.Fatal(err)
				}
				fresh, _, err := proj.Files(f)
				if err != nil {
					t.Fatal(err)
				}
				for i := range files {
					if files[i].Path != fresh[i].Path || !bytes.Equal(files[i].Data, fresh[i].Data) {
						t.Errorf("%s from the cache differs from a fresh render", files[i].Path)
					}
				}
				return s, files[0].Data
			}
		}
		t.Fatal("no figure d3-failure-rate")
		return nil, nil
	}
	_, first := load()
	_, again := load()
	if &first[0] != &again[0] {
		t.Error("unchanged figure drawn again instead of taken from the cache")
	}
	p := filepath.Join(dir, "evidence", "dns-passthrough-tcp", "report.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "| 29 | 14 | 15 | **51.7%**", "| 29 | 14 | 15 | **41.7%**", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, changed := load()
	if bytes.Equal(changed, first) {
		t.Error("a changed input value left the cached figure in place")
	}
}
