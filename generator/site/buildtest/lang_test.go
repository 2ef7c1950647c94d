package buildtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// The built HTML of Korean and Japanese text: emphasis next to CJK
// punctuation, soft line breaks between East Asian characters, languages
// told apart by file name, and no literal "**" on any page of the
// reference site (testdata/lang).

// readBuilt returns a reader of the files the build of dir published.
func readBuilt(t *testing.T, dir string) func(string) string {
	return func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "public", p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

var tagRe = regexp.MustCompile(`(?s)<[^>]*>`)

// TestBuildCJKEmphasis: emphasis next to CJK punctuation renders as
// <strong> where the author put it.
func TestBuildCJKEmphasis(t *testing.T) {
	t.Parallel()
	read := readBuilt(t, builtProject(t, "lang/01-cjk-emphasis-render.txtar", site.BuildOptions{}))
	ja := read("ja/docs/p/index.html")
	ko := read("docs/p/index.html")
	for lang, page := range map[string]string{"ja": ja, "ko": ko} {
		if strings.Contains(page, "**") || strings.Contains(page, `\ `) {
			t.Errorf("%s page has a literal ** or escaped space:\n%s", lang, page)
		}
	}
	// A claim's popover (span.ev-pop) is not part of the sentence.
	pop := regexp.MustCompile(`(?s)<span class="ev-pop".*?</span></span>`)
	plain := func(s string) string { return tagRe.ReplaceAllString(pop.ReplaceAllString(s, ""), "") }
	strong := regexp.MustCompile(`(?s)<strong>(.*?)</strong>`)
	for _, c := range []struct {
		lang, page string
		want       []string
	}{
		{"ja", ja, []string{"40秒。", "「1,250 rps」"}},
		{"ko", ko, []string{"40초.", "「1,250 rps」"}},
	} {
		var got []string
		for _, m := range strong.FindAllStringSubmatch(c.page, -1) {
			got = append(got, plain(m[1]))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s <strong> texts %q; want %q", c.lang, got, c.want)
		}
	}
}

// TestBuildEastAsianLineBreaks: with eastAsianLineBreaks on, a soft
// break next to a link or code span keeps its space in Korean and Latin
// text and is dropped between Japanese characters.
func TestBuildEastAsianLineBreaks(t *testing.T) {
	t.Parallel()
	read := readBuilt(t, builtProject(t, "lang/03-east-asian-line-breaks.txtar", site.BuildOptions{}))
	ko := read("docs/p/index.html")
	ja := read("ja/docs/p/index.html")
	for _, want := range []string{"처리량은 <span class=\"ev\"><a", "limit is <code>", "다시 <span class=\"ev\"><a"} {
		if !strings.Contains(ko, want) {
			t.Errorf("ko page lacks %q:\n%s", want, ko)
		}
	}
	for _, want := range []string{"処理量は<span class=\"ev\"><a", "limit is <code>"} {
		if !strings.Contains(ja, want) {
			t.Errorf("ja page lacks %q:\n%s", want, ja)
		}
	}
	if regexp.MustCompile(`>초당 1,250<`).FindString(ko) == "" {
		t.Errorf("ko claim across a line break lost its space:\n%s", ko)
	}
}

// codeText matches an HTML code or pre element with its content.
var codeText = regexp.MustCompile(`(?s)<code[ >].*?</code>|<pre[ >].*?</pre>`)

// TestBuildReferenceNoLiteralEmphasis builds the reference site with its
// ja VirtualService/DestinationRule page untranslated and linked from
// both Q&A pages, and reads every page it publishes: no "**" reaches a
// reader, and the fallback page is marked where it is listed and linked.
// Raw evidence pages (public/evidence/, public/ja/evidence/) show report
// lines byte for byte and are not read.
func TestBuildReferenceNoLiteralEmphasis(t *testing.T) {
	t.Parallel()
	skipShort(t)
	dir := buildVariant(t, func(dir string) {
		sitetest.Untranslate(t, dir)
		for _, lang := range []string{"ko", "ja"} {
			p := filepath.Join(dir, "content", lang, "docs", "istio", "egress", "gslb-dns-flip-qa.md")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, append(b, "\n[VirtualService](/docs/istio/traffic/virtualservice-destinationrule/)\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
	read := readBuilt(t, dir)
	fb := read("ja/docs/istio/traffic/virtualservice-destinationrule/index.html")
	if strings.Contains(fb, `rel="alternate"`) || !strings.Contains(fb, `<link rel="canonical" href="/docs/istio/traffic/virtualservice-destinationrule/">`) {
		t.Error("the ja fallback page advertises alternates or lacks its canonical source")
	}
	ko := read("docs/istio/traffic/virtualservice-destinationrule/index.html")
	if strings.Contains(ko, `hreflang="ja-JP" href=`) {
		t.Error("the ko page lists the ja fallback as an hreflang alternate")
	}
	if !regexp.MustCompile(`class="fallback"[^>]*>日本語 <small class="badge">원문 표시</small>`).MatchString(ko) {
		t.Error("the ko language switcher does not mark the ja fallback")
	}
	qa := read("ja/docs/istio/egress/gslb-dns-flip-qa/index.html")
	if !regexp.MustCompile(`/ja/docs/istio/traffic/virtualservice-destinationrule/"[^>]*>[^<]*</a><small class="fallback-marker"> \(原文表示\)</small>`).MatchString(qa) {
		t.Error("a link from the ja Q&A to the fallback page carries no marker")
	}
	pages := 0
	err := filepath.WalkDir(filepath.Join(dir, "public"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(dir, "public"), p)
		if r := filepath.ToSlash(rel); strings.HasPrefix(r, "evidence/") || strings.HasPrefix(r, "ja/evidence/") || strings.HasPrefix(r, "ko/evidence/") {
			return nil
		}
		pages++
		html, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Code (a code block) shows its text literally: a ** there is
		// the evidence's, not emphasis. (Popover bodies, with their raw
		// lines, are in the sets' popover files, not in the page.)
		html = codeText.ReplaceAll(html, nil)
		if i := strings.Index(string(html), "**"); i >= 0 {
			t.Errorf("%s: literal ** in %q", rel, html[max(0, i-80):min(len(html), i+80)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 5 {
		t.Fatalf("read %d pages; expected the whole site", pages)
	}
}

// TestBuildFilenameTranslations builds a site whose languages share one
// content directory and are told apart by file name (p.md, p.ja.md,
// q.ko.md): every page is built in its language with claim links to the
// raw line, and the page without a Japanese file gets a fallback page
// under /ja/.
func TestBuildFilenameTranslations(t *testing.T) {
	t.Parallel()
	read := readBuilt(t, builtProject(t, "lang/04-filename-translations.txtar", site.BuildOptions{}))
	claimRe := regexp.MustCompile(`class="ev-claim[^"]*" href="(/(?:ja/)?evidence/run/result-txt/)#L2-\d+"`)
	for page, want := range map[string]string{
		"docs/p/index.html":    "처리량은",
		"ja/docs/p/index.html": "処理量は",
		"docs/q/index.html":    "p99는",
		"ja/docs/q/index.html": "p99は",
		"docs/r/index.html":    "p99는",
	} {
		html := read(page)
		if !strings.Contains(html, want) {
			t.Errorf("%s lacks %q: not built in its language", page, want)
		}
		m := claimRe.FindStringSubmatch(html)
		if m == nil {
			t.Errorf("%s: no claim link to result.txt line 2:\n%s", page, html)
			continue
		}
		if strings.HasPrefix(page, "ja/") != strings.HasPrefix(m[1], "/ja/") {
			t.Errorf("%s links %s: the other language's evidence page", page, m[1])
		}
		read(strings.TrimPrefix(m[1], "/") + "index.html") // the raw page exists
	}
	fallback := read("ja/docs/r/index.html")
	if !strings.Contains(fallback, "p99는") || !strings.Contains(fallback, `class="fallback-notice"`) {
		t.Errorf("ja/docs/r/: no fallback page with the Korean text:\n%s", fallback)
	}
}
