package translation_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestI18nStringMissing is case 07: a string removed from one language's
// i18n file (figureSource, used by the evfigure shortcode) is an error on
// that file, naming the layout that uses it and the language that has it.
// The strings and layouts are the theme component's (themes/evdoc), as
// the reference site uses it; a project's own i18n file fills the gap.
func TestI18nStringMissing(t *testing.T) {
	langs := []translation.Language{{Code: "ko"}, {Code: "ja"}}
	themes := []string{"evdoc"}
	for _, tc := range []struct {
		drop    string // language whose file loses the key
		want    string
		related []string
	}{
		{"ko", `themes/evdoc/i18n/ko.toml:1:1: error: i18n string "figureSource" is missing or empty for ko (the layouts use it, ja defines it)`,
			[]string{"themes/evdoc/layouts/_shortcodes/evfigure.html", "themes/evdoc/i18n/ja.toml"}},
		{"ja", `themes/evdoc/i18n/ja.toml:1:1: error: i18n string "figureSource" is missing or empty for ja (the layouts use it, ko defines it)`,
			[]string{"themes/evdoc/layouts/_shortcodes/evfigure.html", "themes/evdoc/i18n/ko.toml"}},
	} {
		t.Run(tc.drop, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, "layouts", dir)
			copyDir(t, "themes", dir)
			if ds := translation.CheckI18nStrings(dir, themes, langs); len(ds) != 0 {
				t.Fatalf("reference i18n files: %v", ds)
			}
			p := filepath.Join(dir, "themes", "evdoc", "i18n", tc.drop+".toml")
			b, _ := os.ReadFile(p)
			out := regexp.MustCompile(`(?m)^figureSource.*\n`).ReplaceAll(b, nil)
			if len(out) == len(b) {
				t.Fatal("no figureSource line to remove")
			}
			if err := os.WriteFile(p, out, 0o644); err != nil {
				t.Fatal(err)
			}
			ds := translation.CheckI18nStrings(dir, themes, langs)
			if len(ds) != 1 {
				t.Fatalf("got %d findings, want 1: %v", len(ds), ds)
			}
			if got := ds[0].String(); !strings.HasPrefix(got, tc.want) {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			for i, r := range tc.related {
				if i >= len(ds[0].Related) || ds[0].Related[i].Pos.File != r || ds[0].Related[i].Pos.Line < 1 {
					t.Errorf("related %d: %+v; want a line of %s", i, ds[0].Related, r)
				}
			}
			// An empty value is missing too.
			if err := os.WriteFile(p, append(out, "figureSource = \"\"\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			if ds := translation.CheckI18nStrings(dir, themes, langs); len(ds) != 1 {
				t.Errorf("empty string: got %v", ds)
			}
			// The project's own i18n file defines it: Hugo merges the two.
			own := filepath.Join(dir, "i18n", tc.drop+".toml")
			if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(own, []byte("figureSource = \"src\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if ds := translation.CheckI18nStrings(dir, themes, langs); len(ds) != 0 {
				t.Errorf("project i18n file defines the string: got %v", ds)
			}
		})
	}
	// A language without any i18n file lacks every string.
	dir := t.TempDir()
	copyDir(t, "layouts", dir)
	copyDir(t, "themes", dir)
	ds := translation.CheckI18nStrings(dir, themes, append(langs, translation.Language{Code: "en"}))
	n := 0
	for _, d := range ds {
		if strings.Contains(d.Message, "add it to i18n/en.toml") {
			n++
		}
	}
	if n < 5 {
		t.Errorf("en without i18n file: %v", ds)
	}
}

// TestI18nHostTheme runs CheckI18nStrings on each testdata/i18n/*.txtar
// project (theme list evdoc, then shelf; languages ko and ja) and compares
// its findings (text, with related notes) with the archive's want.
func TestI18nHostTheme(t *testing.T) {
	langs := []translation.Language{{Code: "ko"}, {Code: "ja"}}
	txtartest.Run(t, "testdata/i18n/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		ds := translation.CheckI18nStrings(dir, []string{"evdoc", "shelf"}, langs)
		txtartest.CheckRanges(t, ds)
		var b bytes.Buffer
		for _, d := range ds {
			b.WriteString(d.String() + "\n")
			for _, r := range d.Related {
				b.WriteString("\t" + r.Pos.String() + ": " + r.Message + "\n")
			}
		}
		return b.Bytes()
	})
}
