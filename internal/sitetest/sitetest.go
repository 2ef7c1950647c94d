// Package sitetest holds what the tests of generator/site and of the
// packages split from it (checker, staging, viewer, hugoconf, hugorun,
// verify, project), site's integration test packages
// (generator/site/buildtest, generator/site/browsertest) and cmd/evdoc's
// tests share: copies of the reference project, the
// pinned Hugo command, a build made once per test binary, and the walk
// over every link of a built site. It imports no evdoc package, so
// those packages' own tests can use it too.
package sitetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// module is the module path of the repository holding the reference site.
const module = "github.com/evdoc-lab/evdoc"

// Root returns the repository holding the reference site, as an absolute
// path: the nearest directory above the working directory (a test's
// package directory) whose go.mod declares evdoc's module.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if declaresModule(filepath.Join(dir, "go.mod")) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("no go.mod of module %s above the working directory", module)
		}
		dir = up
	}
}

func declaresModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return fields[1] == module
		}
	}
	return false
}

// projectDirs and projectFiles are the reference project's site inputs.
var (
	projectDirs  = []string{"content", "evidence", "figures", "layouts", "themes", "assets"}
	projectFiles = []string{"hugo.toml", "evdoc.toml"}
)

// CopyProject copies the reference project's site inputs, and the
// project files named in extra (glossary.toml), into a new temporary
// directory and returns it.
func CopyProject(t testing.TB, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	CopyProjectTo(t, dir, extra...)
	return dir
}

// CopyProjectTo copies the reference project's site inputs, and the
// project files named in extra that it has, into dir.
func CopyProjectTo(t testing.TB, dir string, extra ...string) {
	t.Helper()
	root := Root(t)
	for _, d := range projectDirs {
		CopyTree(t, filepath.Join(root, d), filepath.Join(dir, d))
	}
	for _, f := range append(projectFiles[:len(projectFiles):len(projectFiles)], extra...) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if errors.Is(err, fs.ErrNotExist) && f != "hugo.toml" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// CopyTree copies the directory tree from into to, which must not hold
// any of its files yet.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// Untranslate empties the body of the reference site's Japanese
// VirtualService/DestinationRule page in the project copy at dir, leaving
// its front matter: an untranslated page, which falls back to Korean.
func Untranslate(t testing.TB, dir string) {
	t.Helper()
	p := filepath.Join(dir, "content", "ja", "docs", "istio", "traffic", "virtualservice-destinationrule.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(b), "---\n", 3)
	if len(parts) != 3 {
		t.Fatalf("%s has no front matter", p)
	}
	if err := os.WriteFile(p, []byte("---\n"+parts[1]+"---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// HugoCommand returns the Hugo the tests build with: $EVDOC_HUGO, else
// the pinned one (go -C ROOT/tools/hugo tool hugo).
func HugoCommand(t testing.TB) []string {
	if bin := os.Getenv("EVDOC_HUGO"); bin != "" {
		return []string{bin}
	}
	return []string{"go", "-C", filepath.Join(Root(t), "tools", "hugo"), "tool", "hugo"}
}

// ThemedProject writes the txtar project archive into a new temporary
// directory and gives it evdoc's theme (AddEvdocTheme).
func ThemedProject(t testing.TB, archive string) string {
	t.Helper()
	dir := txtartest.WriteFile(t, archive)
	AddEvdocTheme(t, dir)
	return dir
}

// AddEvdocTheme copies the repository's layouts, themes and assets into
// the project dir and puts theme = ["evdoc"] first in its hugo.toml.
func AddEvdocTheme(t testing.TB, dir string) {
	t.Helper()
	root := Root(t)
	for _, d := range []string{"layouts", "themes", "assets"} {
		CopyTree(t, filepath.Join(root, d), filepath.Join(dir, d))
	}
	cfg := filepath.Join(dir, "hugo.toml")
	cfgSrc, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append([]byte("theme = [\"evdoc\"]\n"), cfgSrc...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReplaceIn replaces old by new in a project file, failing when old is
// absent (the edit would silently test nothing).
func ReplaceIn(t testing.TB, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Write writes content to the file rel of the project dir, creating its
// directory.
func Write(t testing.TB, dir, rel, content string) {
	t.Helper()
	Mkdir(t, dir, filepath.Dir(rel))
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Mkdir creates the directory rel of the project dir.
func Mkdir(t testing.TB, dir, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Shared is a build made once per test binary and read by every test
// that only inspects its output. A test package holds one in a variable
// and removes it in TestMain.
type Shared struct {
	once sync.Once
	dir  string
}

// Dir returns the directory of the shared build, calling build on a new
// directory on first use; build fails the test that asked first when it
// cannot build, and every later test fails with a pointer to it.
func (s *Shared) Dir(t testing.TB, build func(t testing.TB, dir string)) string {
	t.Helper()
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "evdoc-shared-build-")
		if err != nil {
			t.Fatal(err)
		}
		build(t, dir)
		s.dir = dir
	})
	if s.dir == "" {
		t.Fatal("the shared build failed (see the first test that asked for it)")
	}
	return s.dir
}

// Remove deletes the shared build, if one was made.
func (s *Shared) Remove() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

var (
	attrURLRe = regexp.MustCompile(`\s(href|src)="([^"]*)"`)
	// popSetRe matches a claim popover's evidence set (data-ev-s);
	// popMetaRe the page's popover files (<meta name="evdoc-popovers">).
	popSetRe  = regexp.MustCompile(`\sdata-ev-s="([^"]*)"`)
	popMetaRe = regexp.MustCompile(`<meta name="evdoc-popovers" content="([^"]*)"`)
	idRe      = regexp.MustCompile(`\sid="([^"]*)"`)
)

// WithPopovers returns page, an HTML file of the built site in public
// served under basePath ("/" or "/sub/"), followed by the HTML of each
// popover body evdoc.js puts into the page: every body of the popover
// file of each evidence set the page's claims name (data-ev-s), read at
// the URL the page's <meta name="evdoc-popovers"> gives.
func WithPopovers(public, basePath, page string) string {
	m := popMetaRe.FindStringSubmatch(page)
	if m == nil {
		return page
	}
	var files map[string]string
	if json.Unmarshal([]byte(html.UnescapeString(m[1])), &files) != nil {
		return page
	}
	seen := map[string]bool{}
	for _, s := range popSetRe.FindAllStringSubmatch(page, -1) {
		set := html.UnescapeString(s[1])
		if seen[set] {
			continue
		}
		seen[set] = true
		u, ok := files[set]
		if !ok || !strings.HasPrefix(u, basePath) {
			continue
		}
		u, _, _ = strings.Cut(u, "?") // the file's version (?v=…)
		b, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(strings.TrimPrefix(u, basePath))))
		if err != nil {
			continue
		}
		_, bodies := ParsePopoverFile(b)
		keys := make([]string, 0, len(bodies))
		for k := range bodies {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			page += bodies[k]
		}
	}
	return page
}

// ParsePopoverFile reads a popover file of the built site,
// evdocPopovers("SET",{KEY: BODY, …});, as a browser runs it: its set
// and bodies (nil when it is not one).
func ParsePopoverFile(b []byte) (string, map[string]string) {
	b = bytes.TrimSpace(b)
	rest, ok := bytes.CutPrefix(b, []byte("evdocPopovers("))
	if !ok {
		return "", nil
	}
	rest, ok = bytes.CutSuffix(rest, []byte(");"))
	if !ok {
		return "", nil
	}
	var args []json.RawMessage
	if json.Unmarshal(append(append([]byte("["), rest...), ']'), &args) != nil || len(args) != 2 {
		return "", nil
	}
	var set string
	var bodies map[string]string
	if json.Unmarshal(args[0], &set) != nil || json.Unmarshal(args[1], &bodies) != nil || bodies == nil {
		return "", nil
	}
	return set, bodies
}

// LinkProblem is one link of the built site that does not resolve.
type LinkProblem struct {
	Page, Link, Why string
}

func (p LinkProblem) String() string { return fmt.Sprintf("%s: %s: %s", p.Page, p.Link, p.Why) }

// WalkLinks checks every href and src of every HTML file under public,
// served at base (scheme, host and path of baseURL): internal links must
// stay under the base path, name an existing file or directory index, and
// a fragment must name an id of the target page. It also reports
// template-escaper output (ZgotmplZ). It returns the problems and the
// number of internal links checked.
func WalkLinks(t testing.TB, public string, base *url.URL) ([]LinkProblem, int) {
	t.Helper()
	ids := map[string]map[string]bool{}
	pageIDs := func(file string) map[string]bool {
		if m, ok := ids[file]; ok {
			return m
		}
		m := map[string]bool{}
		if b, err := os.ReadFile(file); err == nil {
			for _, x := range idRe.FindAllStringSubmatch(string(b), -1) {
				m[html.UnescapeString(x[1])] = true
			}
		}
		ids[file] = m
		return m
	}
	var problems []LinkProblem
	checked := 0
	err := filepath.WalkDir(public, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(public, p)
		rel = filepath.ToSlash(rel)
		if strings.Contains(string(b), "ZgotmplZ") {
			problems = append(problems, LinkProblem{rel, "", "contains ZgotmplZ (a URL or attribute the template escaper rejected)"})
		}
		pageURL := base.ResolveReference(&url.URL{Path: strings.TrimSuffix(rel, "index.html")})
		// Claims' popover bodies are in their sets' popover files,
		// which evdoc.js puts into the page: their links are checked too.
		basePath := base.Path
		if !strings.HasSuffix(basePath, "/") {
			basePath += "/"
		}
		for _, m := range attrURLRe.FindAllStringSubmatch(WithPopovers(public, basePath, string(b)), -1) {
			raw := html.UnescapeString(m[2])
			if raw == "" {
				problems = append(problems, LinkProblem{rel, raw, "empty " + m[1]})
				continue
			}
			u, err := url.Parse(raw)
			if err != nil {
				problems = append(problems, LinkProblem{rel, raw, err.Error()})
				continue
			}
			if u.Scheme == "ev" {
				problems = append(problems, LinkProblem{rel, raw, "ev: link left unrendered"})
				continue
			}
			abs := pageURL.ResolveReference(u)
			if abs.Host != base.Host || (abs.Scheme != base.Scheme && abs.Scheme != "") {
				continue // external
			}
			checked++
			if !strings.HasPrefix(abs.Path, base.Path) {
				problems = append(problems, LinkProblem{rel, raw, "outside the base path " + base.Path})
				continue
			}
			target := path.Join(public, strings.TrimPrefix(abs.Path, base.Path))
			if strings.HasSuffix(abs.Path, "/") {
				target = path.Join(target, "index.html")
			} else if fi, err := os.Stat(target); err == nil && fi.IsDir() {
				target = path.Join(target, "index.html")
			}
			if _, err := os.Stat(target); err != nil {
				problems = append(problems, LinkProblem{rel, raw, "404"})
				continue
			}
			if abs.Fragment != "" && strings.HasSuffix(target, ".html") && !pageIDs(target)[abs.Fragment] {
				problems = append(problems, LinkProblem{rel, raw, "no element with id " + abs.Fragment})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return problems, checked
}

// Localhost returns the base a site built under baseURL "/" is walked at.
func Localhost() *url.URL { return &url.URL{Scheme: "http", Host: "localhost", Path: "/"} }

// ReadTree returns the contents of the regular files under dir whose
// slash-separated path relative to dir keep accepts, by that path.
func ReadTree(dir string, keep func(rel string) bool) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	return files, err
}
