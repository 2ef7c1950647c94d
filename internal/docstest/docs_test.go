package docstest

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const (
	module = "github.com/evdoc-lab/evdoc"
	doc    = "docs/architecture.md"
)

// mapRowRe is a row of the package map: | `path` | what it owns |.
var mapRowRe = regexp.MustCompile("(?m)^\\| `([a-z0-9_./-]+)` \\|")

// TestPackageMapMatchesGoList holds that docs/architecture.md's package map
// has one row per package of the module, and no row for a package that no
// longer exists.
func TestPackageMapMatchesGoList(t *testing.T) {
	src, err := os.ReadFile("../../" + doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "## Package map")
	if start < 0 {
		t.Fatalf("%s has no \"## Package map\" section", doc)
	}
	section := s[start:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	listed := map[string]int{}
	for _, m := range mapRowRe.FindAllStringSubmatch(section, -1) {
		listed[m[1]]++
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: "../.."}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	actual := map[string]bool{}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, module), "/")
		if rel == "" {
			rel = "."
		}
		actual[rel] = true
		if listed[rel] == 0 {
			missing = append(missing, rel)
		}
	}
	if len(actual) < 5 {
		t.Fatalf("go list ./... reported only %v", actual)
	}
	sort.Strings(missing)
	for _, rel := range missing {
		t.Errorf("%s: the package map has no row for %s; add this row to its table (and say what the package owns):\n| `%s` | … |", doc, rel, rel)
	}
	for rel, n := range listed {
		switch {
		case !actual[rel]:
			t.Errorf("%s: the package map lists `%s`, which `go list ./...` does not report; remove its row or correct the path", doc, rel)
		case n > 1:
			t.Errorf("%s: the package map lists `%s` %d times; keep one row", doc, rel, n)
		}
	}
}
