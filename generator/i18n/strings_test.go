package i18n_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/i18n"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestI18nStringMissing is case 07: a string removed from one language's
// i18n file (figureSource, used by the evfigure shortcode) is an error on
// that file, naming the layout that uses it and the language that has it.
// The strings and layouts are the theme component's (themes/evdoc), as
// the reference site uses it; a project's own i18n file fills the gap.
func TestI18nStringMissing(t *testing.T) {
	langs := []string{"ko", "ja"}
	themes := []string{"evdoc"}
	for _, tc := range []struct {
		drop    string // language whose file loses the key
		want    string
		related []string
	}{
		{"ko", `themes/evdoc/i18n/ko.toml:1:1: error: i18n string "evdoc_figureSource" is missing or empty for ko (the layouts use it, ja defines it)`,
			[]string{"themes/evdoc/layouts/_shortcodes/evfigure.html", "themes/evdoc/i18n/ja.toml"}},
		{"ja", `themes/evdoc/i18n/ja.toml:1:1: error: i18n string "evdoc_figureSource" is missing or empty for ja (the layouts use it, ko defines it)`,
			[]string{"themes/evdoc/layouts/_shortcodes/evfigure.html", "themes/evdoc/i18n/ko.toml"}},
	} {
		t.Run(tc.drop, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, "layouts", dir)
			copyDir(t, "themes", dir)
			if ds := i18n.Check(dir, themes, langs); len(ds) != 0 {
				t.Fatalf("reference i18n files: %v", ds)
			}
			p := filepath.Join(dir, "themes", "evdoc", "i18n", tc.drop+".toml")
			b, _ := os.ReadFile(p)
			out := regexp.MustCompile(`(?m)^evdoc_figureSource.*\n`).ReplaceAll(b, nil)
			if len(out) == len(b) {
				t.Fatal("no evdoc_figureSource line to remove")
			}
			if err := os.WriteFile(p, out, 0o644); err != nil {
				t.Fatal(err)
			}
			ds := i18n.Check(dir, themes, langs)
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
			if err := os.WriteFile(p, append(out, "evdoc_figureSource = \"\"\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			if ds := i18n.Check(dir, themes, langs); len(ds) != 1 {
				t.Errorf("empty string: got %v", ds)
			}
			// The project's own i18n file defines it: Hugo merges the two.
			own := filepath.Join(dir, "i18n", tc.drop+".toml")
			if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(own, []byte("evdoc_figureSource = \"src\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if ds := i18n.Check(dir, themes, langs); len(ds) != 0 {
				t.Errorf("project i18n file defines the string: got %v", ds)
			}
		})
	}
	// A language without any i18n file lacks every string.
	dir := t.TempDir()
	copyDir(t, "layouts", dir)
	copyDir(t, "themes", dir)
	ds := i18n.Check(dir, themes, append(langs, "en"))
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

// TestI18nHostTheme runs Check on each testdata/*.txtar
// project (theme list evdoc, then shelf; languages ko and ja) and compares
// its findings (text, with related notes) with the archive's want.
func TestI18nHostTheme(t *testing.T) {
	langs := []string{"ko", "ja"}
	txtartest.Run(t, "testdata/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		ds := i18n.Check(dir, []string{"evdoc", "shelf"}, langs)
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

// TestI18nStrings: the strings of YAML and JSON i18n files, each with the
// range the file writes it at. A string the file spells byte for byte is
// Exact, and its TextStart is where those bytes are (after a quote, after
// multibyte text on the same line); an escaped, folded or block string is
// not, and its range starts at the value.
func TestI18nStrings(t *testing.T) {
	for _, tc := range []struct {
		file, src string
		want      []string // key, text, exact, and the file's bytes from Start to End
	}{
		{"ja.yaml", "footer: \"カウンターは転記した値です\"\nplain: 素の 文字列\n",
			[]string{`footer|カウンターは転記した値です|true|"カウンターは転記した値です"`, `plain|素の 文字列|true|素の 文字列`}},
		{"ja.yaml", "note:\n  one: 一回\n  other: '二回'\nempty: \"\"\nnull: ~\n",
			[]string{`note|一回|true|一回`, `note|二回|true|'二回'`}},
		{"ja.yaml", "esc: \"リトライ\\tと\"\nblock: |\n  一行目\nfold: あ\n  い\n",
			[]string{"esc|リトライ\tと|false|\"リトライ\\tと\"", "block|一行目\n|false||", "fold|あ い|false|あ"}},
		{"ja.json", "[\n  {\"id\": \"legend\", \"translation\": \"retry あり\"},\n  {\"id\": \"n\", \"translation\": {\"other\": \"件\"}},\n  {\"id\": \"d\", \"description\": \"x\"}\n]\n",
			[]string{`legend|retry あり|true|"retry あり"`, `n|件|true|"件"`}},
		{"ja.json", `{"a": "あ", "b": "\u3044"}`,
			[]string{`a|あ|true|"あ"`, `b|い|false|"\u3044"}`}},
	} {
		strs, ds := i18n.Strings(tc.file, []byte(tc.src))
		if len(ds) != 0 {
			t.Errorf("%q: %v", tc.src, ds)
		}
		var got []string
		for _, s := range strs {
			if s.Start < 0 || s.Start > s.End || s.End > len(tc.src) {
				t.Errorf("%q: %s: range [%d, %d) outside the file", tc.src, s.Key, s.Start, s.End)
				continue
			}
			if s.Exact && tc.src[s.TextStart:s.TextStart+len(s.Text)] != s.Text {
				t.Errorf("%q: %s: exact, but the file has %q at %d", tc.src, s.Key, tc.src[s.TextStart:s.TextStart+len(s.Text)], s.TextStart)
			}
			got = append(got, fmt.Sprintf("%s|%s|%v|%s", s.Key, s.Text, s.Exact, tc.src[s.Start:s.End]))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.src, got, tc.want)
		}
	}
	for _, bad := range []string{"a: [", "- just\n- items\n", "\"a string\"\n"} {
		strs, ds := i18n.Strings("ja.yaml", []byte(bad))
		if len(strs) != 0 || len(ds) != 1 || ds[0].RangeError() != nil {
			t.Errorf("%q: got %v and %v; want one finding with a range and no strings", bad, strs, ds)
		}
	}
}

// FuzzI18nStrings: any input gives strings whose ranges lie in the file,
// an exact string's bytes at its TextStart, and findings with ranges;
// never a panic.
func FuzzI18nStrings(f *testing.F) {
	f.Add("footer: \"カウンター\"\nnote:\n  other: 再試行\n")
	f.Add("[{\"id\": \"a\", \"translation\": \"retry\"}]")
	f.Add("k: |\n  block\nq: 'it''s'\n")
	f.Fuzz(func(t *testing.T, src string) {
		strs, ds := i18n.Strings("ja.yaml", []byte(src))
		for _, s := range strs {
			if s.Start < 0 || s.Start > s.End || s.End > len(src) {
				t.Fatalf("%s: range [%d, %d) outside %d bytes", s.Key, s.Start, s.End, len(src))
			}
			if s.Exact && (s.TextStart < 0 || s.TextStart+len(s.Text) > len(src) || src[s.TextStart:s.TextStart+len(s.Text)] != s.Text) {
				t.Fatalf("%s: exact %q not at %d", s.Key, s.Text, s.TextStart)
			}
		}
		for _, d := range ds {
			if err := d.RangeError(); err != nil {
				t.Fatalf("%v: %v", d, err)
			}
		}
	})
}

// TestI18nText: a key's string is the first definition in Hugo's order
// (the project's i18n/, then each theme of the list), in TOML (a string
// or plural forms' "other"), YAML list form or JSON, the file name in
// any case; a key no file defines is not found.
func TestI18nText(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"i18n/ko.toml":               "own = \"프로젝트\"\n",
		"themes/evdoc/i18n/ko.toml":  "own = \"evdoc\"\nevidenceIndex = \"측정 근거 목록\"\nplural = { other = \"여러 개\" }\n[nav]\nhome = \"홈\"\n[nav.count]\nother = \"{{ .Count }}개\"\n",
		"themes/shelf/i18n/ko.yaml":  "- id: evidenceIndex\n  translation: 선반\n- id: shelfOnly\n  translation: 선반만\n",
		"themes/evdoc/i18n/JA.json":  "{\"evidenceIndex\": \"エビデンス\"}\n",
		"themes/shelf/i18n/ja.toml":  "broken = \n",
		"themes/unused/i18n/ko.toml": "unused = \"x\"\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	themes := []string{"evdoc", "shelf"}
	for _, tc := range []struct {
		code, key, want string
		ok              bool
	}{
		{"ko", "own", "프로젝트", true},
		{"ko", "evidenceIndex", "측정 근거 목록", true},
		{"ko", "plural", "여러 개", true},
		{"ko", "shelfOnly", "선반만", true},
		{"ko", "nav.home", "홈", true},              // a nested table's key, as Hugo reads it
		{"ko", "nav.count", "{{ .Count }}개", true}, // a nested table of plural forms
		{"ko", "nav", "", false},
		{"ko", "unused", "", false},
		{"ja", "evidenceIndex", "エビデンス", true},
		{"ja", "own", "", false},
	} {
		got, ok := i18n.Text(dir, themes, tc.code, tc.key)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Text(%s, %s) = %q, %v; want %q, %v", tc.code, tc.key, got, ok, tc.want, tc.ok)
		}
	}
}

// copyDir copies the reference project's directory d into dir.
func copyDir(t *testing.T, d, dir string) {
	t.Helper()
	sitetest.CopyTree(t, filepath.Join("..", "..", d), filepath.Join(dir, d))
}
