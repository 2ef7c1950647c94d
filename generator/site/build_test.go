package site

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// untranslate empties the body of the reference site's Japanese
// VirtualService/DestinationRule page in the project copy at dir, leaving
// its front matter: an untranslated page, which falls back to Korean.
func untranslate(t testing.TB, dir string) {
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

// TestReferencePagesTranslated holds that both reference pages have a
// Japanese translation: neither falls back to Korean.
func TestReferencePagesTranslated(t *testing.T) {
	s := loadReference(t)
	for _, f := range s.Fallbacks()["ja"] {
		t.Errorf("ja page for %q falls back to the Korean original", f.Source.Key)
	}
}

func TestFallbackFromSourcePage(t *testing.T) {
	dir := copyProject(t)
	untranslate(t, dir)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var found *Fallback
	for _, f := range s.Fallbacks()["ja"] {
		if f.Source.Key == "virtualservice-destinationrule" {
			f := f
			found = &f
		}
	}
	if found == nil {
		t.Fatal("no ja fallback for the VirtualService/DestinationRule page")
	}
	if found.Target == nil || found.Target.Title == "" || found.Target.Title == found.Source.Title {
		t.Fatalf("fallback should keep the ja page's own title; target=%+v", found.Target)
	}
	b, err := found.Render(s.Config.Source())
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, want := range []string{"title: " + found.Target.Title, "evdoc_fallback:", "lang: ko", "source_url: /docs/istio/traffic/virtualservice-destinationrule/"} {
		if !strings.Contains(out, want) {
			t.Errorf("fallback page lacks %q", want)
		}
	}
	if !strings.HasSuffix(out, string(found.Source.Body())) {
		t.Error("fallback body is not the Korean body verbatim")
	}
	// A translated page is not a fallback.
	for _, f := range s.Fallbacks()["ja"] {
		if f.Source.Key == "gslb-dns-flip-qa" {
			t.Error("the translated Q&A page must not fall back")
		}
	}
}

// copyProject copies the reference project's site inputs into a new
// temporary directory.
func copyProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyProjectTo(t, dir)
	return dir
}

// copyProjectTo copies the reference project's files into dir.
func copyProjectTo(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{"content", "evidence", "figures", "layouts", "themes", "assets"} {
		if err := copyTree(filepath.Join(repoRoot, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{ConfigFile, "evdoc.toml"} {
		if _, err := os.Stat(filepath.Join(repoRoot, f)); err != nil && f != ConfigFile {
			continue
		}
		if err := copyFile(filepath.Join(repoRoot, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
}

func hugoCommand(t testing.TB) []string {
	if bin := os.Getenv("EVDOC_HUGO"); bin != "" {
		return []string{bin}
	}
	abs, err := filepath.Abs(filepath.Join(repoRoot, "tools", "hugo"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{"go", "-C", abs, "tool", "hugo"}
}

// TestBuildReferenceSite builds the whole reference site with the pinned
// Hugo (compiled on first use) and inspects the output.
func TestBuildReferenceSite(t *testing.T) {
	built := builtReference(t)
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(built, "public", p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ko := read("docs/istio/egress/gslb-dns-flip-qa/index.html")
	ja := read("ja/docs/istio/egress/gslb-dns-flip-qa/index.html")
	for lang, page := range map[string]string{"ko": ko, "ja": ja} {
		prefix := map[string]string{"ko": "", "ja": "/ja"}[lang]
		if !strings.Contains(page, `src="/figures/strict-l7-snapshots.`+lang+`.png"`) ||
			!strings.Contains(page, `srcset="/figures/strict-l7-snapshots.`+lang+`.svg"`) {
			t.Errorf("%s Q&A page lacks its chart", lang)
		}
		// 86/86 links to the D-1 table row of the raw report.
		if !regexp.MustCompile(`<a class="ev-claim[^"]*" href="` + prefix + `/evidence/dns-passthrough-tcp/report-md/#L\d+"[^>]*>86/86</a>`).MatchString(page) {
			t.Errorf("%s Q&A page: 86/86 is not linked to its raw evidence line", lang)
		}
		// Its tooltip says, in the page's language, that the value was
		// transcribed from a published document, in a sentence of its
		// own: the set's source (a manifest string in any language) comes
		// after a label, not inside the ko or ja sentence.
		notice := map[string]string{"ko": "공개된 문서에서 옮겨 적은 값입니다. ", "ja": "公開文書から転記した値です。"}[lang]
		m := regexp.MustCompile(`(?s)<a class="ev-claim ev-transcribed" href="` + prefix + `/evidence/dns-passthrough-tcp/report-md/#L\d+"[^>]*data-ev-origin="transcribed">86/86</a><span class="ev-pop"[^>]* data-ev-pop="([^"]*)"></span></span>`).FindStringSubmatch(page)
		if m == nil || !strings.Contains(html.UnescapeString(m[1]), notice) {
			t.Errorf("%s Q&A page: the popover of 86/86 does not state the evidence's origin (%q)", lang, notice)
		}
		if strings.Contains(page, `href="ev:`) {
			t.Errorf("%s Q&A page leaks an ev: link", lang)
		}
		// Each claim's popover id is the first 8 hex digits of its
		// destination's md5, the first 6 of its page's content path's
		// md5 and its LINE-COL within the page (the render hook's
		// claim.html and claim-page.html), unique within the page, and
		// the claim's link is described by it.
		claims := regexp.MustCompile(`aria-describedby="([^"]*)" data-ev-at="`+lang+`:docs/istio/egress/gslb-dns-flip-qa\.md:(\d+):(\d+)" data-ev="([^"]*)"`).FindAllStringSubmatch(page, -1)
		if len(claims) < 10 {
			t.Errorf("%s Q&A page: %d claims with data-ev-at", lang, len(claims))
		}
		for _, c := range claims {
			sum := md5.Sum([]byte(html.UnescapeString(c[4])))
			pageSum := md5.Sum([]byte("docs/istio/egress/gslb-dns-flip-qa.md"))
			if want := fmt.Sprintf("ev-%x-%x-%s-%s", sum[:4], pageSum[:3], c[2], c[3]); c[1] != want {
				t.Errorf("%s Q&A page: claim %s at %s:%s is described by %q, want %q", lang, c[4], c[2], c[3], c[1], want)
			}
			if n := strings.Count(page, ` id="`+c[1]+`"`); n != 1 {
				t.Errorf("%s Q&A page: %d elements with id %q, want 1", lang, n, c[1])
			}
		}
		// The findings banner is evdoc serve's alone (data/evdoc/serve.json).
		if strings.Contains(page, "evdoc-serve-banner") {
			t.Errorf("%s Q&A page of a build shows serve's findings banner", lang)
		}
	}
	if set := read("evidence/dns-passthrough-tcp/index.html"); !strings.Contains(set, `data-origin="transcribed">공개된 문서에서 옮겨 적은 값입니다`) {
		t.Errorf("evidence set page does not show the set's origin")
	}
	// A set whose date is "unknown" says so in words, with no <time>.
	for lang, want := range map[string]string{"ko": "<dd>기록 없음</dd>", "ja": "<dd>記載なし</dd>"} {
		set := read(map[string]string{"ko": "", "ja": "ja/"}[lang] + "evidence/retry-istio-1.31/index.html")
		if !strings.Contains(set, want) || strings.Contains(set, "unknown") {
			t.Errorf("%s evidence set page of retry-istio-1.31: the unknown date is not shown as %q", lang, want)
		}
		// The evidence index lists it the same way, under a title in the page's language.
		idx := read(map[string]string{"ko": "", "ja": "ja/"}[lang] + "evidence/index.html")
		if strings.Contains(idx, "unknown") || strings.Contains(idx, "<title>Evidence") {
			t.Errorf("%s evidence index shows the manifest's \"unknown\" date or the English title \"Evidence\"", lang)
		}
	}
	for _, f := range []string{"figures/strict-l7-snapshots.ko.png", "figures/strict-l7-snapshots.ja.png", "figures/strict-l7-snapshots.ko.svg", "figures/strict-l7-snapshots.ja.svg"} {
		if fi, err := os.Stat(filepath.Join(built, "public", f)); err != nil || fi.Size() < 1000 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	fb := read("ja/docs/istio/traffic/virtualservice-destinationrule/index.html")
	for _, want := range []string{"このページはまだ翻訳されていないため", `class="fallback-notice"`, `<article lang="ko-KR">`, "VirtualService"} {
		if !strings.Contains(fb, want) {
			t.Errorf("ja fallback page lacks %q", want)
		}
	}
	raw := read("evidence/dns-passthrough-tcp/report-md/index.html")
	if !strings.Contains(raw, `id="L16"`) {
		t.Error("raw evidence page has no line anchors")
	}

	// A failing check leaves the built site as it was: a copy of the
	// project with the built site in public/ and one evidence number
	// changed.
	dir := copyProject(t)
	untranslate(t, dir)
	if err := copyTree(filepath.Join(built, "public"), filepath.Join(dir, "public")); err != nil {
		t.Fatal(err)
	}
	before := read("docs/istio/egress/gslb-dns-flip-qa/index.html")
	p := filepath.Join(dir, "evidence", "dns-passthrough-tcp", "report.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "| 86 | **86(100%)**", "| 87 | **86(100%)**", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Build(context.Background(), BuildOptions{Out: "public", Hugo: hugoCommand(t), Check: check.DefaultOptions()}); err == nil {
		t.Fatal("build succeeded on mismatching evidence")
	}
	if after, err := os.ReadFile(filepath.Join(dir, "public", "docs/istio/egress/gslb-dns-flip-qa/index.html")); err != nil || string(after) != before {
		t.Errorf("a failed build changed public/ (%v)", err)
	}
}

func TestOutputDirRefusesSources(t *testing.T) {
	dir := copyProject(t)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "README.md"), []byte("x"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "notes"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "notes", "a.txt"), []byte("x"), 0o644))
	s := &Site{Root: dir}
	for _, out := range []string{".", "..", "content", "content/ko", "evidence", "layouts", ".git", "README.md", "notes", dir} {
		if _, err := s.outputDir(out); err == nil {
			t.Errorf("--out %s accepted", out)
		}
	}
	for _, out := range []string{"public", "site/out", filepath.Join(t.TempDir(), "elsewhere")} {
		if _, err := s.outputDir(out); err != nil {
			t.Errorf("--out %s refused: %v", out, err)
		}
	}
}

// TestBuildReproducible: two builds of the same project, in two
// directories, give byte-identical sites. Each run stages into its own
// directory, so nothing in the output may depend on the stage path
// (popover ids once hashed it) or on the project's.
func TestBuildReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	// Build a of its own: the reference build other tests share may be
	// touched by them while this test runs.
	built := copyProject(t)
	untranslate(t, built)
	sa, err := Load(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := sa.Build(context.Background(), BuildOptions{Out: "public", Hugo: hugoCommand(t), Check: check.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	dir := copyProject(t)
	untranslate(t, dir) // as builtReference's project
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// This build keeps its stage (--keep-stage): the output must not
	// depend on it, nor on the project's directory.
	kept := filepath.Join(t.TempDir(), "stage")
	if err := s.Build(context.Background(), BuildOptions{Out: "public-b", Hugo: hugoCommand(t), Check: check.DefaultOptions(), KeepStage: kept}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"data/evdoc/claims.json", ConfigFile, "themes/evdoc/layouts/_markup/render-link.html"} {
		if _, err := os.Stat(filepath.Join(kept, f)); err != nil {
			t.Errorf("kept stage: %v", err)
		}
	}
	if stages, _ := filepath.Glob(filepath.Join(dir, workDir, "stage-*")); len(stages) > 0 {
		t.Errorf("stages left in the project: %v", stages)
	}
	err = s.Build(context.Background(), BuildOptions{Out: "public-c", Hugo: hugoCommand(t), Check: check.DefaultOptions(), KeepStage: kept})
	if err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("keeping the stage in an existing directory: got %v, want an error naming it", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public-c")); err == nil {
		t.Error("public-c built although --keep-stage was refused")
	}
	a, b := filepath.Join(built, "public"), filepath.Join(dir, "public-b")
	n := 0
	err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds of the same project", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d files built", n)
	}
}

// TestStageFallbacksLazy holds that a lazily loaded site (as evdoc build
// loads it) stages the same fallback pages as one loaded parsed, parsing
// the source page for it and dropping it afterwards.
func TestStageFallbacksLazy(t *testing.T) {
	dir := copyProject(t)
	untranslate(t, dir)
	staged := map[bool]map[string]string{}
	for _, lazy := range []bool{false, true} {
		s, err := LoadWith(dir, LoadOptions{Lazy: lazy})
		if err != nil {
			t.Fatal(err)
		}
		stage := t.TempDir()
		if err := s.stageFallbacks(context.Background(), stage, translation.MarkdownOptions{}, nil); err != nil {
			t.Fatalf("lazy=%v: %v", lazy, err)
		}
		files := map[string]string{}
		err = filepath.WalkDir(stage, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(stage, p)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		staged[lazy] = files
		if lazy {
			for _, p := range s.Pages {
				if p.Parsed != nil {
					t.Errorf("%s is still parsed after staging the fallbacks", p.Path)
				}
			}
		}
	}
	if len(staged[false]) == 0 {
		t.Fatal("no fallback page staged")
	}
	for name, want := range staged[false] {
		if got := staged[true][name]; got != want {
			t.Errorf("%s staged from the lazy site differs:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if len(staged[true]) != len(staged[false]) {
		t.Errorf("lazy staged %d files, eager %d", len(staged[true]), len(staged[false]))
	}
}

// TestStageTree: stageTree copies every regular file, writes the ones
// transform takes as it returned them (only .md files are offered), and
// reports a file it cannot read.
func TestStageTree(t *testing.T) {
	root, stage := t.TempDir(), t.TempDir()
	files := map[string]string{
		"content/ko/a.md":      "가 *나*",
		"content/ko/b.md":      "plain",
		"content/ko/img.png":   "PNG",
		"content/ja/deep/c.md": "*x*",
		"static/s.md":          "*static*",
	}
	for name, body := range files {
		if err := writeFile(filepath.Join(root, filepath.FromSlash(name)), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	var offered []string
	var mu sync.Mutex
	transform := func(rel string, b []byte) ([]byte, bool) {
		mu.Lock()
		offered = append(offered, rel)
		mu.Unlock()
		if !strings.HasPrefix(rel, "content/") || !bytes.Contains(b, []byte("*")) {
			return nil, false
		}
		return bytes.ReplaceAll(b, []byte("*"), []byte("_")), true
	}
	for _, d := range []string{"content", "static", "missing"} {
		if err := stageTree(context.Background(), root, stage, d, transform); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{
		"content/ko/a.md":      "가 _나_",
		"content/ko/b.md":      "plain",
		"content/ko/img.png":   "PNG",
		"content/ja/deep/c.md": "_x_",
		"static/s.md":          "*static*",
	}
	for name, body := range want {
		b, err := os.ReadFile(filepath.Join(stage, filepath.FromSlash(name)))
		if err != nil || string(b) != body {
			t.Errorf("%s: got %q (%v), want %q", name, b, err, body)
		}
	}
	sort.Strings(offered)
	if got := strings.Join(offered, " "); got != "content/ja/deep/c.md content/ko/a.md content/ko/b.md static/s.md" {
		t.Errorf("offered to transform: %s", got)
	}
	blocked := t.TempDir() // a directory where a page would go
	if err := os.MkdirAll(filepath.Join(blocked, "content", "ko", "b.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := stageTree(context.Background(), root, blocked, "content", transform); err == nil {
		t.Error("a page that cannot be written: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := stageTree(ctx, root, t.TempDir(), "content", transform); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
}

// TestHugoWarnings: build --strict fails on Hugo's warnings but its own
// deprecation notices, which a theme's templates cause; a template's
// warnf that mentions deprecation is a warning like any other.
func TestHugoWarnings(t *testing.T) {
	log := "Start building sites … \n" +
		"WARN  deprecated: .Language.LanguageName was deprecated in Hugo v0.158.0 and will be removed in Hugo 0.171.0. Use .Language.Label instead.\n" +
		"WARN  lab theme: oldParam is deprecated\n" +
		"WARN  raw HTML omitted while rendering \"content/ko/p.md\"\r\n" +
		"WARNING is not a level\n" +
		"INFO  deprecated: x was deprecated in Hugo v0.1.0\n"
	warns, deprecated := hugoWarnings([]byte(log))
	if len(warns) != 2 || warns[0] != "lab theme: oldParam is deprecated" || warns[1] != `raw HTML omitted while rendering "content/ko/p.md"` {
		t.Errorf("warnings %q", warns)
	}
	if len(deprecated) != 1 || !strings.Contains(deprecated[0], "LanguageName") {
		t.Errorf("deprecation notices %q", deprecated)
	}
}
