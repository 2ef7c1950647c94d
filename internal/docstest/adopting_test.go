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
// by, and docs/guide/themes.md, which README.md links, holds
// hosttheme.ShortRecipeTable;
// -update rewrites them.
func TestAdoptingRecipeTable(t *testing.T) {
	checkRecipeTable(t, adopting, recipeBegin, hosttheme.RecipeTable())
	checkRecipeTable(t, themesPage, themesRecipeBegin, hosttheme.ShortRecipeTable())
}

// themesRecipeBegin marks the table of docs/guide/themes.md, which
// README.md links (recipeEnd ends it).
const (
	themesPage        = "docs/guide/themes.md"
	themesRecipeBegin = "<!-- recipe table: generated from generator/hosttheme (go test ./internal/docstest -update); docs/guide/adopting.md has its notes -->\n"
)

func checkRecipeTable(t *testing.T, file, begin, table string) {
	t.Helper()
	b, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, recipeEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no recipe table between %q and %q", file, begin, recipeEnd)
	}
	want := doc[:i+len(begin)] + table + doc[j:]
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile("../../"+file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the recipe table differs from hosttheme.Known; run go test ./internal/docstest -update", file)
}
