package frontmatter

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestCheckDates: a date field whose string Hugo cannot read is an error
// at its value (Hugo fails the build on it); dates Hugo reads, and
// native TOML/YAML dates, are not.
func TestCheckDates(t *testing.T) {
	for src, want := range map[string]string{
		"---\ntitle: x\ndate: notadate\n---\n":                      `p.md:3:7: error: date "notadate" is not a date Hugo can read`,
		"+++\ntitle = \"x\"\nlastmod = \"2026-13-45\"\n+++\n":       `p.md:3:11: error: lastmod "2026-13-45" is not a date Hugo can read`,
		"---\ntitle: x\ndate: 2026-12-01\n---\n":                    "",
		"---\ntitle: x\ndate: \"2026-12-01T10:00:00+09:00\"\n---\n": "",
		"+++\ndate = 2026-12-01T10:00:00Z\n+++\n":                   "",
		"---\ntitle: x\nweight: notadate\n---\n":                    "",
	} {
		b, err := Split([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ix := diag.NewLineIndex("p.md", []byte(src))
		fields, d := Decode([]byte(src), b, ix)
		if d != nil {
			t.Fatalf("%q: %v", src, d)
		}
		got := CheckDates([]byte(src), b, ix, fields).Error()
		if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("%q: got %q, want %q", src, got, want)
		}
	}
}
