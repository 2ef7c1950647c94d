package hugoconf

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestLoadConfig reads each project of testdata/config/*.txtar as Hugo
// would (a root hugo.*/config.* file, config/_default, config/production;
// TOML, YAML and JSON) and compares the languages evdoc reads with the
// archive's want section. When a Hugo binary is at hand (EVDOC_HUGO), it
// also asks Hugo itself (`hugo config --format json`) and requires the
// same default language and content directory per language, so evdoc's
// merging cannot drift from Hugo's.
func TestLoadConfig(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "config", "*.txtar"))
	if len(files) < 5 {
		t.Fatalf("%d config cases", len(files))
	}
	hugo := os.Getenv("EVDOC_HUGO")
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want string
			for _, af := range ar.Files {
				if af.Name == txtartest.WantFile {
					want = strings.TrimSpace(string(af.Data))
				}
			}
			dir := txtartest.Write(t, ar)
			c, err := LoadConfig(dir)
			got := ""
			if err != nil {
				var ds diag.List
				if errors.As(err, &ds) {
					got = strings.TrimSpace(ds.Error())
				} else {
					got = strings.Replace(err.Error(), dir+string(filepath.Separator), "", -1)
				}
			} else {
				got = describeConfig(c)
			}
			if got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if err != nil || hugo == "" {
				return
			}
			dirs, def := hugoContentDirs(t, hugo, dir)
			if def != c.DefaultContentLanguage {
				t.Errorf("Hugo's defaultContentLanguage is %q, evdoc's %q", def, c.DefaultContentLanguage)
			}
			for code, l := range c.Languages {
				if hd, ok := dirs[code]; ok && hd != l.ContentDir || !ok && dirs[""] != l.ContentDir {
					t.Errorf("language %s: Hugo mounts %q (all languages: %q), evdoc reads %q", code, hd, dirs[""], l.ContentDir)
				}
			}
		})
	}
}

func describeConfig(c *Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "default=%s source=%s files=%s", c.DefaultContentLanguage, c.SourceCode(), strings.Join(c.Files, ","))
	var codes []string
	for code := range c.Languages {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		l := c.Languages[code]
		fmt.Fprintf(&b, "\n%s %s weight=%d", code, l.ContentDir, l.Weight)
	}
	return b.String()
}

// hugoContentDirs runs `hugo config --format json` in dir and returns
// the content mount source of each language ("" for a mount of every
// language) and the default content language.
func hugoContentDirs(t *testing.T, hugo, dir string) (map[string]string, string) {
	t.Helper()
	c := exec.Command(hugo, "config", "--format", "json")
	c.Dir = dir
	c.Env = append(os.Environ(), "HUGO_ENVIRONMENT="+Environment)
	out, err := c.Output()
	if err != nil {
		t.Fatalf("hugo config: %v", err)
	}
	var cfg struct {
		DefaultContentLanguage string `json:"defaultcontentlanguage"`
		Module                 struct {
			Mounts []struct {
				Source, Target string
				Sites          struct {
					Matrix struct {
						Languages []string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	for _, m := range cfg.Module.Mounts {
		if m.Target != "content" {
			continue
		}
		if len(m.Sites.Matrix.Languages) == 0 {
			dirs[""] = m.Source
		}
		for _, l := range m.Sites.Matrix.Languages {
			dirs[l] = m.Source
		}
	}
	return dirs, cfg.DefaultContentLanguage
}

// TestHugoEnv: Hugo runs in evdoc's environment with the CJK extension
// and escaped spaces on whatever the files say, except that an explicit
// false (in any file format) is an error naming the files.
func TestHugoEnv(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		wantErr         bool
		eastAsian       bool
	}{
		{"unset", "hugo.toml", "[languages.ko]\n", false, false},
		{"on", "hugo.toml", "[languages.ko]\n[markup.goldmark.extensions.cjk]\nenable = true\neastAsianLineBreaks = true\n", false, true},
		{"off-toml", "hugo.toml", "[languages.ko]\n[markup.goldmark.extensions.cjk]\nenable = false\n", true, false},
		{"off-yaml", "hugo.yaml", "languages: {ko: {}}\nmarkup: {goldmark: {extensions: {cjk: {escapedSpace: false}}}}\n", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte("defaultContentLanguage = 'ko'\n"+tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.file == "hugo.yaml" {
				_ = os.WriteFile(filepath.Join(dir, tc.file), []byte("defaultContentLanguage: ko\n"+tc.src), 0o644)
			}
			c, err := LoadConfig(dir)
			if err != nil {
				t.Fatal(err)
			}
			env, opt, err := c.HugoEnv()
			if (err != nil) != tc.wantErr || err != nil && !strings.Contains(err.Error(), tc.file) {
				t.Fatalf("err %v; want error %v naming %s", err, tc.wantErr, tc.file)
			}
			if err == nil && (!strings.Contains(strings.Join(env, " "), "HUGO_MARKUP_GOLDMARK_EXTENSIONS_CJK_ESCAPEDSPACE=true") || opt.EastAsianLineBreaks != tc.eastAsian) {
				t.Errorf("env %v, options %+v", env, opt)
			}
		})
	}
}

// TestConfigThemes: the theme list is Hugo's: the module imports in
// order (TOML's array of tables, YAML's list; keys in any case), then
// the theme setting's entries not imported already.
func TestConfigThemes(t *testing.T) {
	const tomlLangs = "[languages.ko]\ncontentDir = \"content/ko\"\n[languages.ja]\ncontentDir = \"content/ja\"\n"
	const yamlLangs = "languages:\n  ko: {contentDir: content/ko}\n  ja: {contentDir: content/ja}\n"
	for _, tc := range []struct {
		file, src string
		themes    []string
	}{
		{"hugo.toml", "defaultContentLanguage = \"ko\"\ntheme = [\"evdoc\", \"book\"]\n" + tomlLangs, []string{"evdoc", "book"}},
		{"hugo.toml", "defaultContentLanguage = \"ko\"\ntheme = \"evdoc\"\n" + tomlLangs + "[module]\n[[module.imports]]\npath = \"github.com/a/book\"\n[[module.imports]]\nPath = \"evdoc\"\n", []string{"github.com/a/book", "evdoc"}},
		{"hugo.yaml", "defaultContentLanguage: ko\n" + yamlLangs + "module:\n  imports:\n    - path: evdoc\n    - path: github.com/a/book\ntheme: [extra]\n", []string{"evdoc", "github.com/a/book", "extra"}},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := LoadConfig(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if !slices.Equal(c.Themes, tc.themes) {
			t.Errorf("%q: themes %q, want %q", tc.src, c.Themes, tc.themes)
		}
	}
}

// TestGoldmarkConfig: the markup.goldmark settings that change how Hugo's
// goldmark reads a page are read into the one configuration every stage
// parses with (Config.NewMarkdown).
func TestGoldmarkConfig(t *testing.T) {
	for _, tt := range []struct {
		toml string
		want claim.MarkdownConfig
	}{
		{"", claim.MarkdownConfig{}},
		{"[markup.goldmark.extensions]\ntable = false\nlinkify = false\nfootnote = true\n", claim.MarkdownConfig{NoTable: true, NoLinkify: true}},
		{"[markup.goldmark.extensions]\nstrikethrough = false\ntaskList = false\ndefinitionList = false\nfootnote = false\n",
			claim.MarkdownConfig{NoStrikethrough: true, NoTaskList: true, NoDefinitionList: true, NoFootnote: true}},
		{"[markup.goldmark.extensions.typographer]\ndisable = true\n", claim.MarkdownConfig{NoTypographer: true}},
		{"[markup.goldmark.parser]\nautoHeadingID = false\n[markup.goldmark.parser.attribute]\ntitle = false\n", claim.MarkdownConfig{NoAutoHeadingID: true, NoAttribute: true}},
		{"[markup.goldmark.extensions.extras.mark]\nenable = true\n[markup.goldmark.extensions.extras.superscript]\nenable = true\n[markup.goldmark.extensions.extras.insert]\nenable = false\n",
			claim.MarkdownConfig{Mark: true, Superscript: true}},
		{"[markup.goldmark.extensions]\nstrikethrough = false\nextras = { delete = { enable = true }, subscript = { enable = true }, insert = { enable = true } }\n",
			claim.MarkdownConfig{NoStrikethrough: true, Delete: true, Subscript: true, Insert: true}},
		{"[markup.goldmark.extensions.passthrough]\nenable = true\n[markup.goldmark.extensions.passthrough.delimiters]\ninline = [['$', '$']]\n",
			claim.MarkdownConfig{PassthroughInline: [][2]string{{"$", "$"}}}},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte("defaultContentLanguage = \"ko\"\n[languages.ko]\ncontentDir = \"content/ko\"\n"+tt.toml), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := LoadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.Markdown, tt.want) {
			t.Errorf("%q: %+v, want %+v", tt.toml, c.Markdown, tt.want)
		}
	}
}

// TestEditURL: a generated page's editURL is the repository file it shows
// joined to the parent of params.editURL.base (Hextra's URL of content/),
// only when params.editURL.enable is true.
func TestEditURL(t *testing.T) {
	for _, tc := range []struct{ params, rel, want string }{
		{"[params.editURL]\nenable = true\nbase = \"https://example.org/o/r/edit/main/content\"\n", "evidence/run/r.md", "https://example.org/o/r/edit/main/evidence/run/r.md"},
		{"[params.editURL]\nenable = true\nbase = \"https://example.org/o/r/edit/main/site/content/\"\n", "content/ko/docs/x.md", "https://example.org/o/r/edit/main/site/content/ko/docs/x.md"},
		{"[params.editURL]\nenable = false\nbase = \"https://example.org/o/r/edit/main/content\"\n", "evidence/run/r.md", ""},
		{"[params]\nx = 1\n", "evidence/run/r.md", ""},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte("baseURL = \"/\"\ndefaultContentLanguage = \"ko\"\n[languages.ko]\ncontentDir = \"content/ko\"\n"+tc.params), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := LoadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.EditURL(tc.rel); got != tc.want {
			t.Errorf("%q, %s: EditURL = %q, want %q", tc.params, tc.rel, got, tc.want)
		}
	}
}
