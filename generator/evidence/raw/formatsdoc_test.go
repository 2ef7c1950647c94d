package raw

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestFormatsDoc holds that docs/guide/formats.md has one section per
// format a [[read]] entry takes, and none for a format evdoc lacks.
func TestFormatsDoc(t *testing.T) {
	const doc = "../../../docs/guide/formats.md"
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^## `([a-z0-9-]+)`$").FindAllSubmatch(b, -1) {
		documented = append(documented, string(m[1]))
	}
	for _, f := range Formats() {
		if !slices.Contains(documented, f) {
			t.Errorf("%s has no section for format %s; add \"## `%s`\" saying what it reads, its keys and units", doc, f, f)
		}
	}
	for _, f := range documented {
		if !slices.Contains(Formats(), f) {
			t.Errorf("%s documents format %s, which no reader reads; remove its section", doc, f)
		}
	}
}
