package buildtest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// mainList is the home page's list of main-section pages in the
// mainsections fixture theme.
var mainList = regexp.MustCompile(`(?s)<ul id="main".*?</ul>`)

// TestBuildMainSections builds testdata/mainsections.txtar, whose
// evidence section has more pages than any section of the project and
// which sets no mainSections, with evdoc and with plain Hugo: each
// language's home page lists the same main-section pages in both (ko
// its posts, ja its docs), never evidence pages. Every evidence page
// (index, set, file) prints the set's date, 2026-07-09, not year 0001.
func TestBuildMainSections(t *testing.T) {
	skipShort(t)
	t.Parallel()
	dir := txtartest.WriteFile(t, filepath.Join("testdata", "mainsections.txtar"))
	sitetest.CopyTree(t, filepath.Join(sitetest.Root(t), "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
	hugo := sitetest.HugoCommand(t)
	plain := exec.Command(hugo[0], append(hugo[1:], "--source", dir, "--destination", filepath.Join(dir, "plain"), "--logLevel", "warn")...)
	plain.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(t.TempDir(), "cache"))
	if out, err := plain.CombinedOutput(); err != nil {
		t.Fatalf("plain hugo: %v\n%s", err, out)
	}
	build(t, dir, site.BuildOptions{})
	for home, want := range map[string]string{"index.html": "[posts]", filepath.Join("ja", "index.html"): "[docs]"} {
		read := func(out string) string {
			b, err := os.ReadFile(filepath.Join(dir, out, home))
			if err != nil {
				t.Fatal(err)
			}
			return mainList.FindString(string(b))
		}
		withEvdoc, without := read("public"), read("plain")
		if withEvdoc != without || without == "" {
			t.Errorf("%s: evdoc build lists\n%s\nplain hugo lists\n%s", home, withEvdoc, without)
		}
		if !regexp.MustCompile(`data-sections="` + regexp.QuoteMeta(want) + `" data-param="` + regexp.QuoteMeta(want) + `" data-lastmod="2026-08-01"`).MatchString(withEvdoc) {
			t.Errorf("%s: main sections in evdoc's build: %s; want %s", home, withEvdoc, want)
		}
	}
	n := 0
	err := filepath.WalkDir(filepath.Join(dir, "public"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(filepath.ToSlash(p), "/evidence/") || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if !strings.Contains(string(b), "<time>2026-07-09</time>") {
			t.Errorf("%s: dated %q, want the set's date 2026-07-09", p, regexp.MustCompile(`<time>[^<]*</time>`).FindString(string(b)))
		}
		return nil
	})
	if err != nil || n < 5 {
		t.Fatalf("evidence pages: %d read (%v); want the index, the set and its 3 files", n, err)
	}
}

// TestBuildEvidenceListContent: a theme whose section layout lists its
// pages' titles instead of showing the page's .Content (as FixIt's and
// Stack's list layouts do) would publish the evidence index and set
// pages without any of evdoc's content: evdoc build draws them with the
// theme's page template (page.html, which a layout front matter cannot
// choose for a section), and they show the set's environment and files.
// A project's own layouts/evidence/section.html is its choice: when it
// shows no .Content the build fails naming the pages and the layout.
func TestBuildEvidenceListContent(t *testing.T) {
	skipShort(t)
	t.Parallel()
	lister := `{{ define "main" }}<h1>{{ .Title }}</h1>{{ range .Pages }}<p>{{ .Title }}: {{ .Summary }}</p>{{ end }}{{ end }}` + "\n"
	for _, tc := range []struct {
		name, file string
		ok         bool
	}{{"theme-section", "themes/lister/layouts/section.html", true}, {"own-section", "layouts/evidence/section.html", false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := txtartest.WriteFile(t, filepath.Join("testdata", "mainsections.txtar"))
			sitetest.CopyTree(t, filepath.Join(sitetest.Root(t), "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
			sitetest.Write(t, dir, tc.file, lister)
			err := tryBuild(t, dir, site.BuildOptions{})
			if tc.ok {
				if err != nil {
					t.Fatalf("evdoc build: %v", err)
				}
				for _, page := range []string{"public/evidence/run/index.html", "public/ja/evidence/run/index.html"} {
					b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(page)))
					if err != nil {
						t.Fatal(err)
					}
					for _, want := range []string{"<dd>lab</dd>", "evidence/run/r.md", `data-ev-list="`} {
						if !strings.Contains(string(b), want) {
							t.Errorf("%s lacks %q:\n%s", page, want, b)
						}
					}
				}
				if _, err := os.Stat(filepath.Join(dir, "layouts", "evidence")); err == nil {
					t.Error("evdoc build wrote layouts/evidence into the project; the theme's page template belongs in the staged project only")
				}
				return
			}
			if err == nil {
				t.Fatal("evdoc build succeeded; want the evidence index and set pages reported")
			}
			for _, want := range []string{"evidence index /evidence/ (ko)", "evidence set page /evidence/run/ (ja)", "origin, date, environment and files", "layouts/evidence/section.html"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("build error lacks %q:\n%v", want, err)
				}
			}
		})
	}
}

// TestBuildDocsType: a theme with a docs layout (layouts/docs/, as Docsy
// and Hextra draw their sidebar only on pages of type docs) gets the
// evidence pages drawn with it, with no cascade in the project; a
// project's own cascade leaves the choice to it.
func TestBuildDocsType(t *testing.T) {
	skipShort(t)
	t.Parallel()
	for _, tc := range []struct {
		name    string
		cascade bool
	}{{"docs-layout", false}, {"own-cascade", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := txtartest.WriteFile(t, filepath.Join("testdata", "mainsections.txtar"))
			sitetest.CopyTree(t, filepath.Join(sitetest.Root(t), "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
			sitetest.Write(t, dir, "themes/lister/layouts/docs/page.html", `{{ define "main" }}<nav id="sidebar"></nav><h1>{{ .Title }}</h1>{{ .Content }}{{ end }}`+"\n")
			sitetest.Write(t, dir, "themes/lister/layouts/docs/section.html", `{{ define "main" }}<nav id="sidebar"></nav><h1>{{ .Title }}</h1>{{ .Content }}{{ end }}`+"\n")
			if tc.cascade {
				cfg, _ := os.ReadFile(filepath.Join(dir, "hugo.toml"))
				sitetest.Write(t, dir, "hugo.toml", string(cfg)+"\n[[cascade]]\n  [cascade.params]\n    lab = true\n")
			}
			build(t, dir, site.BuildOptions{})
			for _, p := range []string{"evidence/index.html", "evidence/run/index.html", "evidence/run/r-md/index.html", "ja/evidence/run/index.html"} {
				b, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(p)))
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(string(b), `<nav id="sidebar">`); got == tc.cascade {
					t.Errorf("%s: docs layout used: %v, want %v", p, got, !tc.cascade)
				}
			}
			b, _ := os.ReadFile(filepath.Join(dir, "public", "posts", "a", "index.html"))
			if strings.Contains(string(b), `id="sidebar"`) {
				t.Error("posts/a: the project's own page got the docs layout")
			}
		})
	}
}

// TestBuildNeedsExtended: a theme compiling SCSS with libsass (css.Sass's
// default transpiler) fails on Hugo's standard edition, the pinned one;
// the build's error says to install the extended edition and how.
func TestBuildNeedsExtended(t *testing.T) {
	skipShort(t)
	t.Parallel()
	hugo := sitetest.HugoCommand(t)
	if out, err := exec.Command(hugo[0], append(hugo[1:], "version")...).Output(); err != nil || strings.Contains(string(out), "+extended") {
		t.Skipf("needs Hugo's standard edition (%s, %v)", out, err)
	}
	dir := txtartest.WriteFile(t, filepath.Join("testdata", "mainsections.txtar"))
	sitetest.CopyTree(t, filepath.Join(sitetest.Root(t), "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
	sitetest.Write(t, dir, "themes/lister/assets/main.scss", "$c: #123;\nbody { color: $c; }\n")
	sitetest.Write(t, dir, "themes/lister/layouts/baseof.html", `<!doctype html>
<html lang="{{ site.Language.Lang }}">
<head><title>{{ .Title }}</title>{{ with resources.Get "main.scss" | css.Sass }}<link rel="stylesheet" href="{{ .RelPermalink }}">{{ end }}{{ partial "extend_head.html" . }}</head>
<body>{{ block "main" . }}{{ end }}{{ partial "extend_footer.html" . }}</body>
</html>
`)
	err := tryBuild(t, dir, site.BuildOptions{})
	if err == nil {
		t.Fatal("evdoc build succeeded with Hugo's standard edition on a theme that compiles SCSS with libsass")
	}
	for _, want := range []string{"extended edition", "go install -tags extended", "--hugo PATH"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("build error lacks %q:\n%v", want, err)
		}
	}
}
