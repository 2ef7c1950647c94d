package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildHugo returns the Hugo binary the build tests run (EVDOC_HUGO, else
// the pinned one; see testHugo), skipping the test under -short.
func buildHugo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	return testHugo(t)
}

// checkClaimLinks fails unless page (under public) has claim links to
// evidence pages that exist, and no #ZgotmplZ link.
func checkClaimLinks(t *testing.T, public, page string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(public, page))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if strings.Contains(html, "ZgotmplZ") {
		t.Errorf("%s has a #ZgotmplZ link", page)
	}
	hrefs := regexp.MustCompile(`href="(/(?:ja/)?evidence/[^"#]+/)#L\d+(?:-\d+)?"`).FindAllStringSubmatch(html, -1)
	if len(hrefs) == 0 {
		t.Errorf("%s: no claim link to a raw line:\n%s", page, html)
	}
	for _, h := range hrefs {
		if _, err := os.Stat(filepath.Join(public, h[1], "index.html")); err != nil {
			t.Errorf("%s: claim link %s leads nowhere", page, h[1])
		}
	}
	return html
}

// TestInitFreshProject: evdoc init in an empty directory outside the
// repository gives a project that checks and builds, with claim links.
func TestInitFreshProject(t *testing.T) {
	hugo := buildHugo(t)
	dir := t.TempDir()
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	for _, f := range []string{"hugo.toml", "themes/evdoc/layouts/_markup/render-link.html", "evidence/example/evidence.toml", ".github/workflows/evdoc.yml", "content/ja/docs/example.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("init wrote no %s", f)
		}
	}
	if code, out, _ := evdoc("check", "--strict", "--root", dir); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	if code, out, stderr := evdoc("build", "--strict", "--hugo", hugo, "--root", dir); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, out, stderr)
	}
	checkClaimLinks(t, filepath.Join(dir, "public"), "docs/example/index.html")
	checkClaimLinks(t, filepath.Join(dir, "public"), "ja/docs/example/index.html")
	// A second init upgrades: it updates the component and keeps the
	// user's files.
	page := filepath.Join(dir, "content/ko/docs/example.md")
	if err := os.WriteFile(page, []byte("---\ntitle: mine\n---\n\nmine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := evdoc("init", "--root", dir); code != 0 || !strings.Contains(out, "updated  themes/evdoc") || strings.Contains(out, "example.md") {
		t.Errorf("second init: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(page); string(b) != "---\ntitle: mine\n---\n\nmine\n" {
		t.Error("init overwrote a page")
	}
}

// TestInitOwnTheme is issue 13's "done when": a user's site with its own
// theme, a config/_default/ directory and data/ read by a shortcode gets
// evdoc with init and a page quoting a fortio value; check and build pass
// and claim links have real hrefs.
func TestInitOwnTheme(t *testing.T) {
	hugo := buildHugo(t)
	dir := extract(t, "testdata/own-theme.txtar")
	cfg, _ := os.ReadFile(filepath.Join(dir, "hugo.toml"))
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 || !strings.Contains(out, "theme mytheme is not one whose hooks evdoc knows") {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hugo.toml")); string(b) != string(cfg) {
		t.Error("init changed the site's hugo.toml")
	}
	if _, err := os.Stat(filepath.Join(dir, "layouts", "baseof.html")); err == nil {
		t.Error("init wrote site layouts into a site with its own theme")
	}
	if code, out, _ := evdoc("check", "--strict", "--root", dir); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	if code, out, stderr := evdoc("build", "--hugo", hugo, "--root", dir); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, out, stderr)
	}
	public := filepath.Join(dir, "public")
	for _, p := range []string{"docs/cb/index.html", "ja/docs/cb/index.html"} {
		html := checkClaimLinks(t, public, p)
		for _, want := range []string{`class="mytheme-page"`, "Fortio Circuit Lab", `<span class="cluster">seoul-kind-01</span>`} {
			if !strings.Contains(html, want) {
				t.Errorf("%s lacks %q (theme, config/_default/ or data/ not staged)", p, want)
			}
		}
	}
}

// TestInitCreatesRoot: init --root names a directory that does not exist
// yet (two levels deep): init creates it and writes the project there;
// a --root that is a file is an error (exit 2) that writes nothing.
func TestInitCreatesRoot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "labs", "my-site")
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("init into a new directory: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "hugo.toml")); err != nil {
		t.Errorf("init wrote no hugo.toml in the new directory: %v", err)
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := evdoc("init", "--root", file); code != 2 {
		t.Errorf("init --root FILE: exit %d; want 2", code)
	}
}

// TestInitExistingSiteLayout: init in an existing site puts the example
// pages where the site's configuration keeps each language's pages — one
// shared content directory told apart by file name (a.md, a.ja.md), or a
// contentDir per language — and check then passes (before, the pages went
// to content/ko and content/ja and check reported a duplicate
// translationKey).
func TestInitExistingSiteLayout(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"shared content dir", "defaultContentLanguage = \"ko\"\n[languages.ko]\n  weight = 1\n[languages.ja]\n  weight = 2\n",
			[]string{"content/docs/example.md", "content/docs/example.ja.md"}},
		{"contentDir per language", "defaultContentLanguage = \"ko\"\n[languages.ko]\n  contentDir = \"pages/ko\"\n[languages.ja]\n  contentDir = \"pages/ja\"\n",
			[]string{"pages/ko/docs/example.md", "pages/ja/docs/example.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
				t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
			}
			for _, f := range tc.want {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
					t.Errorf("init wrote no %s: %v", f, err)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "content", "ja")); err == nil {
				t.Errorf("init wrote content/ja, which this site does not use")
			}
			if code, out, stderr := evdoc("check", "--root", dir); code != 0 {
				t.Errorf("check after init: exit %d\n%s%s", code, out, stderr)
			}
		})
	}
}

// TestInitRefusesLinkOut: a themes/evdoc that is a link to a directory
// outside the project makes init fail (exit 2) naming it, writing nothing
// there.
func TestInitRefusesLinkOut(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	css := filepath.Join(out, "static", "css", "site.css")
	if err := os.MkdirAll(filepath.Dir(css), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(css, []byte("USER CSS"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "themes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "themes", "evdoc")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := evdoc("init", "--root", dir)
	if code != 2 || !strings.Contains(stderr, "leads outside the project") {
		t.Errorf("init through a link out: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(css); string(b) != "USER CSS" {
		t.Errorf("init overwrote %s outside the project: %.60q", css, b)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Errorf("init wrote into the directory outside the project: %d entries", len(entries))
	}
}

// TestInitReplacesComponentWhole: rerunning init replaces themes/evdoc as
// one directory: a file evdoc no longer ships is gone, the new component
// is readable by others (0755 under umask 022, not os.MkdirTemp's 0700),
// and nothing of the swap is left beside it.
func TestInitReplacesComponentWhole(t *testing.T) {
	dir := t.TempDir()
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	stale := filepath.Join(dir, "themes", "evdoc", "layouts", "stale.html")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "themes", "evdoc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("second init: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a file of the old component survived init")
	}
	fi, err := os.Stat(filepath.Join(dir, "themes", "evdoc"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("themes/evdoc: %v, %v; want mode 0755", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "themes")); len(entries) != 1 {
		t.Errorf("themes/ holds %d entries after init, want only evdoc", len(entries))
	}
}

// TestInitAfterHugoNewSite: the natural Hugo path, `hugo new site x && cd
// x && evdoc init`, ends in a ko/ja project that checks and builds: init
// sets the skeleton's hugo.toml aside (hugo.toml.orig) and writes its
// own, with the site layouts.
func TestInitAfterHugoNewSite(t *testing.T) {
	hugo := buildHugo(t)
	dir := filepath.Join(t.TempDir(), "x")
	if out, err := exec.Command(hugo, "new", "site", dir).CombinedOutput(); err != nil {
		t.Fatalf("hugo new site: %v\n%s", err, out)
	}
	code, out, stderr := evdoc("init", "--root", dir)
	if code != 0 || !strings.Contains(out, "moved    hugo.toml to hugo.toml.orig") {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	// The new site's title and baseURL are the project's.
	if b, err := os.ReadFile(filepath.Join(dir, "hugo.toml")); err != nil || !strings.Contains(string(b), "\nbaseURL = \"https://example.org/\"\n") || !strings.Contains(string(b), "\ntitle = \"My New Hugo Project\"\n") {
		t.Errorf("init did not keep the new site's title and baseURL: %v\n%s", err, b)
	}
	if code, out, _ := evdoc("check", "--strict", "--root", dir); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	if code, out, stderr := evdoc("build", "--strict", "--hugo", hugo, "--root", dir); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, out, stderr)
	}
	checkClaimLinks(t, filepath.Join(dir, "public"), "docs/example/index.html")
	checkClaimLinks(t, filepath.Join(dir, "public"), "ja/docs/example/index.html")
	// A second init keeps the project as it now is.
	if code, out, _ := evdoc("init", "--root", dir); code != 0 || strings.Contains(out, "moved") {
		t.Errorf("second init: exit %d\n%s", code, out)
	}
}

// TestInitModuleImports: in a site that imports its theme as a Hugo
// Module, init names the theme by its module path, reads its hooks from
// _vendor/ once vendored, and says to import evdoc's component first
// (Hugo puts imports before the theme setting); an import in neither
// _vendor/ nor themes/ gets a note.
func TestInitModuleImports(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"hugo.toml": "title = \"lab\"\ndefaultContentLanguage = \"ko\"\n[languages.ko]\ncontentDir = \"content/ko\"\n[languages.ja]\ncontentDir = \"content/ja\"\n" +
			"[module]\n[[module.imports]]\npath = \"github.com/lab/fork\"\n[[module.imports]]\npath = \"github.com/lab/absent\"\n",
		"_vendor/github.com/lab/fork/layouts/_partials/docs/inject/head.html": "",
		"content/ko/docs/x.md": "---\ntitle: x\n---\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := evdoc("init", "--root", dir)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"as the first [[module.imports]] (before \"github.com/lab/fork\")",
		"path = \"evdoc\"",
		"theme    github.com/lab/fork is hugo-book",
		"note     module github.com/lab/absent is in neither _vendor/ nor themes/",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("init output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "theme = [") {
		t.Errorf("init suggests the theme setting to a Hugo Modules site:\n%s", out)
	}
}
