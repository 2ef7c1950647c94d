package docstest

import (
	"os"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
)

const adopting = "docs/guide/adopting.md"

// Markers around the recipe table of docs/guide/adopting.md.
const (
	recipeBegin = "<!-- recipe table: generated from generator/hosttheme (go test ./internal/docstest -update) -->\n"
	recipeEnd   = "<!-- end of recipe table -->\n"
)

// TestAdoptingRecipeTable: the per-theme recipe table of the adopting
// guide is hosttheme.RecipeTable, the table `evdoc init` detects themes
// by; -update rewrites it.
func TestAdoptingRecipeTable(t *testing.T) {
	b, err := os.ReadFile("../../" + adopting)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, recipeBegin), strings.Index(doc, recipeEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no recipe table between %q and %q", adopting, recipeBegin, recipeEnd)
	}
	want := doc[:i+len(recipeBegin)] + hosttheme.RecipeTable() + doc[j:]
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile("../../"+adopting, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the recipe table differs from hosttheme.Known; run go test ./internal/docstest -update", adopting)
}
