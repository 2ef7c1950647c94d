// Package buildtest builds sites with the pinned Hugo through
// generator/site and inspects the output: the reference site (built once
// for every test that only reads it), its URL layouts and link walks,
// plain Hugo on it, reproducible builds, and small projects for escaping,
// link forms, unpublished pages, popover ids and precisions, sparse
// evidence pages, and Korean and Japanese text (emphasis next to CJK
// punctuation, East Asian line breaks, languages told apart by file
// name).
package buildtest

import (
	"bytes"
	"context"
	"crypto/md5"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/committedfigures"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// reference is the reference site built once for every test that only
// reads the built output (TestBuildReferenceSite, TestBuildReproducible,
// TestLinkWalk's root layout): a copy of the project with the ja
// VirtualService/DestinationRule page untranslated (so the site has a
// fallback page), built under baseURL "/". No test writes into it.
var reference sitetest.Shared

// referenceFigures keeps the figures of the reference site for the
// shared build (builtReference) and the builds of its variants
// (TestLinkWalk's layouts, buildVariant): their figure specs and evidence
// are the reference site's, so project.FigureCache gives them the
// drawings committed in assets/figures (committedfigures, which
// generator/figure/output's golden tests compare with fresh drawings)
// instead of drawing them, as evdoc serve does between stagings (drawing
// is most of a build's time under -race). TestBuildReproducible draws
// one of its own (reproducibleDrawn), and compares it with the shared
// build's.
// figuresMu keeps the builds using it to one at a time: a FigureCache
// serves one Stage at a time.
var (
	figuresMu        sync.Mutex
	referenceFigures *project.FigureCache
)

// builtReference returns the project directory of the shared build,
// building it on first use. It skips under -short.
func builtReference(t *testing.T) string {
	t.Helper()
	skipShort(t)
	return reference.Dir(t, func(t testing.TB, dir string) {
		sitetest.CopyProjectTo(t, dir)
		sitetest.Untranslate(t, dir)
		buildReferenceFigures(t, dir)
	})
}

// buildReferenceFigures is build with the default options for a copy of
// the reference project, its figures through referenceFigures (the
// committed drawings, or drawn where a committed one is not the figure's).
func buildReferenceFigures(t testing.TB, dir string) {
	t.Helper()
	figuresMu.Lock()
	defer figuresMu.Unlock()
	if referenceFigures == nil {
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		referenceFigures = committedfigures.Cache(t, s)
	}
	if err := tryBuildFigures(t, dir, site.BuildOptions{}, referenceFigures); err != nil {
		t.Fatal(err)
	}
}

// skipShort skips t under -short: it runs Hugo.
func skipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Hugo")
	}
}

// builtProject writes testdata/archive as a project of the evdoc theme
// (sitetest.ThemedProject), builds it with opt and returns its
// directory. It skips under -short.
func builtProject(t *testing.T, archive string, opt site.BuildOptions) string {
	t.Helper()
	skipShort(t)
	dir := sitetest.ThemedProject(t, filepath.Join("testdata", archive))
	build(t, dir, opt)
	return dir
}

// build loads the project in dir and builds it into public/ with the
// pinned Hugo and the default check options; opt sets the rest.
func build(t testing.TB, dir string, opt site.BuildOptions) {
	t.Helper()
	if err := tryBuild(t, dir, opt); err != nil {
		t.Fatal(err)
	}
}

// tryBuild is build returning the build's error.
func tryBuild(t testing.TB, dir string, opt site.BuildOptions) error {
	t.Helper()
	return tryBuildFigures(t, dir, opt, nil)
}

// tryBuildFigures is tryBuild drawing the figures through figures (nil
// draws every figure).
func tryBuildFigures(t testing.TB, dir string, opt site.BuildOptions, figures *project.FigureCache) error {
	t.Helper()
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.FigureCache = figures
	if opt.Out == "" {
		opt.Out = "public"
	}
	opt.Hugo = sitetest.HugoCommand(t)
	opt.Check = check.DefaultOptions()
	return site.Build(context.Background(), s, opt)
}

func TestMain(m *testing.M) {
	code := m.Run()
	reference.Remove()
	os.Exit(code)
}

// TestBuildReferenceSite builds the whole reference site with the pinned
// Hugo (compiled on first use) and inspects the output.
func TestBuildReferenceSite(t *testing.T) {
	t.Parallel() // reads the shared build; its failing build is in a copy
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
		// The appendix B evtable's first header cell is its head= label,
		// not the values' prefix "strict".
		if head := map[string]string{"ko": "카운터", "ja": "カウンタ"}[lang]; !strings.Contains(page, `<thead><tr><th scope="col">`+head+`</th>`) {
			t.Errorf("%s Q&A page: the evtable's first header cell is not %q", lang, head)
		}
		// 86/86 links to its token in the D-1 table row of the raw
		// report (#L12-34: line and column).
		if !regexp.MustCompile(`<a class="ev-claim[^"]*" href="` + prefix + `/evidence/dns-passthrough-tcp/report-md/#L\d+-\d+"[^>]*>86/86</a>`).MatchString(page) {
			t.Errorf("%s Q&A page: 86/86 is not linked to its raw evidence line", lang)
		}
		// Its tooltip says, in the page's language, that the value was
		// transcribed from a published document, in a sentence of its
		// own: the set's source (a manifest string in any language) comes
		// after a label, not inside the ko or ja sentence.
		notice := map[string]string{"ko": "공개된 문서에서 옮겨 적은 값입니다. ", "ja": "公開文書から転記した値です。"}[lang]
		if !regexp.MustCompile(`<a class="ev-claim ev-transcribed" href="` + prefix + `/evidence/dns-passthrough-tcp/report-md/#L\d+-\d+"[^>]*>86/86</a>`).MatchString(page) {
			t.Errorf("%s Q&A page: 86/86 is not marked transcribed", lang)
		}
		pop := html.UnescapeString(popoverBodies(t, filepath.Join(built, "public"), page)["86/86"])
		if !strings.Contains(pop, notice) {
			t.Errorf("%s Q&A page: the popover of 86/86 does not state the evidence's origin (%q)", lang, notice)
		}
		// The source after the label is the manifest's [text.LANG] one,
		// not the top-level string (which cites 부록 D, Korean, on a
		// Japanese page).
		source := map[string]string{"ko": "옮겨 적은 문서: “Q&A — GSLB가", "ja": "転記元: 「Q&A — GSLB가"}[lang]
		other := map[string]string{"ko": "付録", "ja": "부록"}[lang]
		if pop != "" && (!strings.Contains(pop, source) || strings.Contains(pop, other)) {
			t.Errorf("%s Q&A page: the popover of 86/86 does not cite the source in the page's language (want %q, no %q)", lang, source, other)
		}
		if strings.Contains(page, `href="ev:`) {
			t.Errorf("%s Q&A page leaks an ev: link", lang)
		}
		// Each claim's popover id is the first 8 hex digits of its
		// destination's md5, the first 6 of its page's content path's
		// md5 and its LINE-COL within the page, or for the page's first
		// claim of a value it cites again the key's and the page's (the render hook's
		// claim.html and claim-page.html), unique within the page, and
		// evdoc.js names it as the claim's link's details (aria-details)
		// and its description (the id with "-d") as the link's
		// aria-describedby when the page loads: the HTML leaves them out.
		var claims [][]string
		for _, m := range regexp.MustCompile(`data-ev-at="`+lang+`:docs/istio/egress/gslb-dns-flip-qa\.md:(\d+):(\d+)" data-ev="([^"]*)"[^>]*>[^<]*</a><span class="ev-pop" id="([^"]*)"`).FindAllStringSubmatch(page, -1) {
			claims = append(claims, []string{m[0], m[4], m[1], m[2], m[3]})
		}
		if regexp.MustCompile(`<a class="ev-claim[^>]* aria-`).MatchString(page) {
			t.Errorf("%s Q&A page: the HTML writes a claim's aria attributes, which evdoc.js sets", lang)
		}
		if len(claims) < 10 {
			t.Errorf("%s Q&A page: %d claims with data-ev-at", lang, len(claims))
		}
		pageSum := md5.Sum([]byte("docs/istio/egress/gslb-dns-flip-qa.md"))
		// the page's first claim of a data key it has more than once:
		// the first 16 hex digits of the key's md5 and the page's part
		first := regexp.MustCompile(fmt.Sprintf(`^ev-[0-9a-f]{16}-%x$`, pageSum[:3]))
		firsts := 0
		for _, c := range claims {
			sum := md5.Sum([]byte(html.UnescapeString(c[4])))
			if first.MatchString(c[1]) {
				firsts++
			} else if want := fmt.Sprintf("ev-%x-%x-%s-%s", sum[:4], pageSum[:3], c[2], c[3]); c[1] != want {
				t.Errorf("%s Q&A page: claim %s at %s:%s is described by %q, want %q", lang, c[4], c[2], c[3], c[1], want)
			}
			if n := strings.Count(page, ` id="`+c[1]+`"`); n != 1 {
				t.Errorf("%s Q&A page: %d elements with id %q, want 1", lang, n, c[1])
			}
		}
		if firsts == 0 {
			t.Errorf("%s Q&A page: no claim is the first of a value the page cites again; the test needs one", lang)
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
		// Its heading and environment are the manifest's [text.LANG] ones.
		for _, w := range map[string][]string{"ko": {"재시도와 시간 예산", "재시도 측정: "}, "ja": {"リトライと時間の予算", "リトライの測定: "}}[lang] {
			if !strings.Contains(set, w) {
				t.Errorf("%s evidence set page of retry-istio-1.31 lacks %q ([text.%s] of its manifest)", lang, w, lang)
			}
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
	dir := sitetest.CopyProject(t)
	sitetest.Untranslate(t, dir)
	sitetest.CopyTree(t, filepath.Join(built, "public"), filepath.Join(dir, "public"))
	before := read("docs/istio/egress/gslb-dns-flip-qa/index.html")
	p := filepath.Join(dir, "evidence", "dns-passthrough-tcp", "report.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "| 86 | **86(100%)**", "| 87 | **86(100%)**", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tryBuild(t, dir, site.BuildOptions{}); err == nil {
		t.Fatal("build succeeded on mismatching evidence")
	}
	if after, err := os.ReadFile(filepath.Join(dir, "public", "docs/istio/egress/gslb-dns-flip-qa/index.html")); err != nil || string(after) != before {
		t.Errorf("a failed build changed public/ (%v)", err)
	}
}

// reproducibleDrawn is the figure TestBuildReproducible's second build
// draws in its stage: the reference figure quickest to draw (as
// generator/figure/output's TestRenderTwiceIdentical picks it). Every
// figure draws through the same staged fonts, evidence and encoders;
// that each figure's drawing is the committed one is what
// generator/figure/output's TestReferenceFigures checks.
const reproducibleDrawn = "d3-failure-rate"

// TestBuildReproducible: two builds of the same project, in two
// directories, give byte-identical sites. Each run stages into its own
// directory, so nothing in the output may depend on the stage path
// (popover ids once hashed it) or on the project's. The first build
// takes every figure from the committed drawings; the second draws
// reproducibleDrawn in its stage and takes the others from them, so a
// figure drawn in a stage is compared with the committed bytes.
func TestBuildReproducible(t *testing.T) {
	t.Parallel() // reads the shared build; builds in a copy
	// Build a is the shared reference build, made in a directory of its
	// own; build b is made here, in another.
	built := builtReference(t)
	dir := sitetest.CopyProject(t)
	sitetest.Untranslate(t, dir) // as builtReference's project
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := s.FigureProject()
	if err != nil {
		t.Fatal(err)
	}
	s.FigureCache = &project.FigureCache{}
	drawn := 0
	for _, f := range s.Figures {
		if f.Name == reproducibleDrawn {
			drawn++
			continue
		}
		// drawn too when its committed drawing is not the figure's (as
		// committedfigures.Cache does; TestReferenceFigures fails then)
		files, rec, why := committedfigures.Figure(proj, f)
		if why != "" {
			t.Logf("figure %s drawn by the build: its committed drawing %s", f.Name, why)
			continue
		}
		if !s.FigureCache.Put(proj, f, files, rec) {
			t.Logf("figure %s drawn by the build: its inputs cannot be read", f.Name)
		}
	}
	if drawn != 1 {
		t.Fatalf("the reference site has no figure %s; the test draws it", reproducibleDrawn)
	}
	// This build keeps its stage (--keep-stage): the output must not
	// depend on it, nor on the project's directory.
	kept := filepath.Join(t.TempDir(), "stage")
	if err := site.Build(context.Background(), s, site.BuildOptions{Out: "public-b", Hugo: sitetest.HugoCommand(t), Check: check.DefaultOptions(), KeepStage: kept}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"data/evdoc/claims.json", hugoconf.ConfigFile, "themes/evdoc/layouts/_markup/render-link.html"} {
		if _, err := os.Stat(filepath.Join(kept, f)); err != nil {
			t.Errorf("kept stage: %v", err)
		}
	}
	if stages, _ := filepath.Glob(filepath.Join(dir, ".evdoc", "stage-*")); len(stages) > 0 {
		t.Errorf("stages left in the project: %v", stages)
	}
	err = site.Build(context.Background(), s, site.BuildOptions{Out: "public-c", Hugo: sitetest.HugoCommand(t), Check: check.DefaultOptions(), KeepStage: kept})
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

// buildVariant builds a copy of the reference site after edit changed it
// (hugo.toml, content) and returns the project directory.
func buildVariant(t *testing.T, edit func(dir string)) string {
	t.Helper()
	dir := sitetest.CopyProject(t)
	if edit != nil {
		edit(dir)
	}
	buildReferenceFigures(t, dir)
	return dir
}

// TestLinkWalk builds the reference site under several URL layouts and
// walks every internal link of the result (cases 23 and 24): a baseURL
// with a path, the default language in a subdirectory, both, and a slug
// on a page that Japanese falls back to.
func TestLinkWalk(t *testing.T) {
	t.Parallel() // each layout in a copy of its own
	skipShort(t)
	const subpath = "https://example.github.io/evdoc/"
	tests := []struct {
		name    string
		baseURL string
		inSub   bool
		slug    bool
		// links adds a ko page linking by the URLs a reader sees: with
		// another language's prefix, and with other letter cases.
		links bool
		// want are files and contents the layout must produce.
		want map[string]string
	}{
		{name: "root", baseURL: "/", want: map[string]string{
			"ja/docs/istio/traffic/virtualservice-destinationrule/index.html": `href="/docs/istio/traffic/virtualservice-destinationrule/" hreflang="ko-KR">原文ページ`,
		}},
		{name: "case23-subpath", baseURL: subpath, want: map[string]string{
			"docs/istio/egress/gslb-dns-flip-qa/index.html":                   `" href="/evdoc/evidence/dns-`,
			"ja/docs/istio/traffic/virtualservice-destinationrule/index.html": `href="/evdoc/docs/istio/traffic/virtualservice-destinationrule/" hreflang="ko-KR">原文ページ`,
		}},
		{name: "case24-default-language-in-subdir", baseURL: "/", inSub: true, want: map[string]string{
			"ja/docs/istio/traffic/virtualservice-destinationrule/index.html": `href="/ko/docs/istio/traffic/virtualservice-destinationrule/" hreflang="ko-KR">原文ページ`,
			"ko/docs/istio/egress/gslb-dns-flip-qa/index.html":                `" href="/ko/evidence/dns-`,
		}},
		{name: "subpath-and-subdir", baseURL: subpath, inSub: true, links: true, want: map[string]string{
			"ja/docs/istio/egress/gslb-dns-flip-qa/index.html": `" href="/evdoc/ja/evidence/dns-`,
			"ko/docs/istio/links/index.html": `<a href="/evdoc/ja/docs/istio/egress/gslb-dns-flip-qa/">ja</a>` +
				` <a href="/evdoc/ko/docs/istio/egress/gslb-dns-flip-qa/">case</a>` +
				` <a href="/evdoc/ja/docs/istio/traffic/">ja-case</a>` +
				` <a href="/evdoc/ko/docs/istio/traffic/virtualservice-destinationrule/">own</a>` +
				` <a href="/evdoc/ja/">ja-home</a>`,
		}},
		{name: "case24-slug", baseURL: "/", slug: true, want: map[string]string{
			"ja/docs/istio/traffic/vs-dr/index.html": `href="/docs/istio/traffic/vs-dr/" hreflang="ko-KR">原文ページ`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "root" {
				// builtReference's project: untranslated, baseURL "/"
				walkBuilt(t, builtReference(t), tc.baseURL, tc.want)
				return
			}
			t.Parallel()
			dir := buildVariant(t, func(dir string) {
				sitetest.Untranslate(t, dir) // the ja VS/DR page falls back to the ko original
				cfg := filepath.Join(dir, hugoconf.ConfigFile)
				sitetest.ReplaceIn(t, cfg, `baseURL = "/"`, fmt.Sprintf("baseURL = %q", tc.baseURL))
				if tc.inSub {
					sitetest.ReplaceIn(t, cfg, "defaultContentLanguageInSubdir = false", "defaultContentLanguageInSubdir = true")
				}
				if tc.links {
					page := "---\ntitle: 링크\ntranslationKey: links\n---\n\n" +
						"[ja](/ja/docs/istio/egress/gslb-dns-flip-qa/) [case](/Docs/Istio/Egress/GSLB-DNS-flip-qa/)" +
						" [ja-case](/JA/docs/istio/Traffic/) [own](/ko/docs/istio/traffic/virtualservice-destinationrule/) [ja-home](/ja/)\n"
					if err := os.WriteFile(filepath.Join(dir, "content", "ko", "docs", "istio", "links.md"), []byte(page), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if tc.slug {
					sitetest.ReplaceIn(t, filepath.Join(dir, "content", "ko", "docs", "istio", "traffic", "virtualservice-destinationrule.md"), "\ntitle:", "\nslug: vs-dr\ntitle:")
				}
			})
			walkBuilt(t, dir, tc.baseURL, tc.want)
		})
	}
}

// walkBuilt walks every internal link of the site built in dir/public
// under baseURL, and checks that each file of want holds its text.
func walkBuilt(t *testing.T, dir, baseURL string, want map[string]string) {
	t.Helper()
	public := filepath.Join(dir, "public")
	base, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	if base.Host == "" {
		base = &url.URL{Scheme: "http", Host: "localhost", Path: base.Path}
	}
	problems, checked := sitetest.WalkLinks(t, public, base)
	for i, p := range problems {
		if i == 20 {
			t.Errorf("... and %d more", len(problems)-20)
			break
		}
		t.Error(p)
	}
	if checked < 500 {
		t.Errorf("only %d internal links checked; expected the claims of both Q&A pages and more", checked)
	}
	for file, w := range want {
		b, err := os.ReadFile(filepath.Join(public, file))
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(b), w) {
			t.Errorf("%s lacks %s", file, w)
		}
	}
}

// TestPlainHugo runs Hugo alone on the reference project, as `hugo
// server` or a host that only runs Hugo would: the site builds (exit 0),
// claims render as plain text with a warning, figures show their last
// rendering, and every internal link resolves.
func TestPlainHugo(t *testing.T) {
	skipShort(t)
	t.Parallel()
	dir := sitetest.CopyProject(t)
	cmd := sitetest.HugoCommand(t)
	public := filepath.Join(dir, "public")
	args := append(append([]string{}, cmd[1:]...), "--source", dir, "--destination", public, "--logLevel", "warn")
	c := exec.Command(cmd[0], args...)
	c.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(t.TempDir(), "cache"))
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("plain hugo failed: %v\n%s", err, out)
	}
	for _, want := range []string{"claims are shown as plain text", "evdoc build"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("hugo output lacks the warning %q:\n%s", want, out)
		}
	}
	for _, p := range []string{"docs/istio/egress/gslb-dns-flip-qa/index.html", "ja/docs/istio/egress/gslb-dns-flip-qa/index.html"} {
		b, err := os.ReadFile(filepath.Join(public, p))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if !strings.Contains(page, `<span class="ev-claim-plain">86/86</span>`) {
			t.Errorf("%s: 86/86 is not rendered as plain text", p)
		}
		if strings.Contains(page, `href="ev:`) || strings.Contains(page, "ev-pop") {
			t.Errorf("%s: a claim link or popover without data", p)
		}
		if !strings.Contains(page, `<figure class="ev-figure"`) {
			t.Errorf("%s: figures missing", p)
		}
	}
	problems, checked := sitetest.WalkLinks(t, public, sitetest.Localhost())
	for _, p := range problems {
		t.Error(p)
	}
	if checked < 20 {
		t.Errorf("only %d internal links checked", checked)
	}
}

// sparseBytes is generator/site's size above which a raw file's viewer
// pages are sparse (4 MiB). Were it raised, TestBuildSparseEvidence's
// file would get every window's page and the test would fail.
const sparseBytes = 4 << 20

// TestBuildSparseEvidence (issue 15, fault 8): a raw file over
// sparseBytes gets viewer pages only for its first window and the
// windows a value or a claim links to; the whole file is published as a
// download the pages link to; the claim's link resolves. The set is
// added to a small project with evdoc's theme.
func TestBuildSparseEvidence(t *testing.T) {
	t.Parallel() // a project of its own
	skipShort(t)
	dir := sitetest.ThemedProject(t, filepath.Join("..", "..", "checker", "testdata", "check", "clean.txtar"))
	var b strings.Builder
	key := func(i int) string {
		return fmt.Sprintf("cluster.outbound|80||svc%d.ns.svc.cluster.local.upstream_rq_total", i)
	}
	for i := 0; b.Len() <= sparseBytes+1; i++ {
		fmt.Fprintf(&b, "%s: %d\n", key(i), i*3)
	}
	set := filepath.Join(dir, "evidence", "big")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(set, "admin.stats"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"big\"\ntitle = \"big dump\"\ndate = \"2026-07-09\"\nenvironment = \"lab\"\nreport = \"r\"\norigin = \"raw\"\n\n" +
		"[[read]]\nfile = \"admin.stats\"\nformat = \"envoy-stats\"\nname = \"s\"\n" +
		fmt.Sprintf("select = { %q = \"mid\", %q = \"late\" }\n", key(30000), key(50000))
	if err := os.WriteFile(filepath.Join(set, "evidence.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	page := "---\ntitle: 큰 덤프\n---\n\n요청은 [150000건](ev:big/s.late)이다.\n"
	if err := os.WriteFile(filepath.Join(dir, "content", "ko", "big.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	build(t, dir, site.BuildOptions{})
	pub := filepath.Join(dir, "public")
	// Line 30001 is in window 76 (400 lines each), line 50001 in 126.
	for _, tc := range []struct {
		page string
		want bool
	}{{"admin-stats", true}, {"admin-stats-p2", false}, {"admin-stats-p76", true}, {"admin-stats-p77", false}, {"admin-stats-p126", true}} {
		_, err := os.Stat(filepath.Join(pub, "evidence", "big", tc.page, "index.html"))
		if (err == nil) != tc.want {
			t.Errorf("page %s: exists %v, want %v", tc.page, err == nil, tc.want)
		}
	}
	if fi, err := os.Stat(filepath.Join(pub, "evidence", "big", "admin.stats")); err != nil || fi.Size() != int64(b.Len()) {
		t.Errorf("the whole file is not published: %v", err)
	}
	first, err := os.ReadFile(filepath.Join(pub, "evidence", "big", "admin-stats", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="/evidence/big/admin.stats" download`, `href="/evidence/big/admin-stats-p76/"`, `id="L400"`} {
		if !strings.Contains(string(first), want) {
			t.Errorf("first viewer page lacks %s", want)
		}
	}
	mid, err := os.ReadFile(filepath.Join(pub, "evidence", "big", "admin-stats-p126", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="L50001"`, `rel="prev" href="/evidence/big/admin-stats-p76/"`, `href="#cite-L50001"`} {
		if !strings.Contains(string(mid), want) {
			t.Errorf("window 126 lacks %s", want)
		}
	}
	claimPage, err := os.ReadFile(filepath.Join(pub, "big", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`href="/evidence/big/admin-stats-p126/#L50001(-\d+)?"`).Match(claimPage) {
		t.Error("the claim does not link to its line's window")
	}
}
