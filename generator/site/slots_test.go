package site

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestSlotsSameOutput builds projects with claim slots and without
// (noSlots, as evdoc serve stages): the two outputs must be the same
// bytes, file for file, and the slotted build must have given slots to
// claims (none on a site Hugo minifies).
func TestSlotsSameOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	const baseURL = `baseURL = "/sub/"`
	for _, tc := range []struct {
		name   string
		top    string // replaces hugo.toml's baseURL line
		config string // appended to hugo.toml
		slots  bool   // the slotted build gives slots
		// langs is appended to hugo.toml (languages of a multihost site)
		langs string
		// fails is what the error of a build the output check fails
		// says; "" when it succeeds
		fails string
		// links are, per output file, strings the file must hold: the
		// claims' links and the popover files' URLs as Hugo wrote them
		links map[string][]string
		// pageText keeps the project's layouts, which read the pages'
		// .Plain, .Truncated and .Content escaped: the viewer's
		// citations get no placeholder; without, the layouts only
		// write .Summary and .Content, and they get one
		pageText bool
	}{
		{name: "plain", slots: true, pageText: true},
		{name: "viewer", slots: true},
		// evdoc's output check does not read a minified popover file
		{name: "minify", pageText: true, config: "\n[minify]\n  minifyOutput = true\n"},
		// the feeds' root-relative URLs made absolute by Hugo, the
		// baseURL's path dropped where a URL starts with it
		{name: "feed", pageText: true, top: `baseURL = "https://example.org/lab/"`, slots: true},
		{name: "feed-root", pageText: true, top: `baseURL = "https://example.org"`, slots: true},
		{name: "feed-unset", pageText: true, top: "# no baseURL", slots: true},
		// Hugo rewrites every HTML file's URLs: no slots; the output
		// check resolves the absolute and the page-relative URLs
		{name: "canonify", pageText: true, top: "baseURL = \"https://example.org/lab/\"\ncanonifyURLs = true", links: map[string][]string{
			"docs/p1/index.html": {`href="https://example.org/lab/evidence/run/`, `href="https://example.org/lab/evdoc/css/site.css"`, `&#34;/lab/evidence/run/popovers.js?v=`}}},
		{name: "canonify-root", pageText: true, top: "baseURL = \"https://example.org/\"\ncanonifyURLs = true", links: map[string][]string{
			"docs/p1/index.html": {`href="https://example.org/evidence/run/`, `href="https://example.org/evdoc/css/site.css"`, `&#34;/evidence/run/popovers.js?v=`}}},
		// a baseURL without a scheme: links from the host on, which
		// a browser resolves on the page's own scheme
		{name: "canonify-schemeless", pageText: true, top: "baseURL = \"//example.org/lab/\"\ncanonifyURLs = true", links: map[string][]string{
			"docs/p1/index.html": {`href="//example.org/lab/evidence/run/`, `href="//example.org/lab/evdoc/css/site.css"`, `&#34;/lab/evidence/run/popovers.js?v=`}}},
		{name: "relative-root", pageText: true, top: "baseURL = \"https://example.org/\"\nrelativeURLs = true", links: map[string][]string{
			"docs/p1/index.html": {`href="../../evidence/run/`, `href="../../evdoc/css/site.css"`, `&#34;/evidence/run/popovers.js?v=`}}},
		// relativeURLs with a baseURL path: Hugo's links keep the path
		// (../../lab/x), which no browser resolves to the site's files
		{name: "relative", pageText: true, top: "baseURL = \"https://example.org/lab/\"\nrelativeURLs = true",
			fails: "docs/p1/index.html:8:1: link to ../../lab/evdoc/css/site.css: the built site has no such file (a 404)"},
		// a baseURL per language: no slots; one language is served at
		// its baseURL from public/, several each from public/LANG/
		{name: "multihost", pageText: true, top: `baseURL = "https://example.org/lab/"`, links: map[string][]string{
			"docs/p1/index.html": {`href="/evidence/run/`, `&#34;/evidence/run/popovers.js?v=`}}},
		// ko at https://ko.example.org/, ja under it at /ja/: the
		// language links from the root (RelPermalinks) resolve
		{name: "multihost-langs", pageText: true, top: `baseURL = "https://example.org/lab/"`, langs: "\n[languages.ja]\n  weight = 2\n  contentDir = \"content/ja\"\n  baseURL = \"https://ko.example.org/ja/\"\n", links: map[string][]string{
			"ko/docs/p1/index.html":       {`href="/evidence/run/`, `&#34;/evidence/run/popovers.js?v=`},
			"ja/docs/p1/index.html":       {`href="/ja/evidence/run/`, `&#34;/ja/evidence/run/popovers.js?v=`},
			"ja/docs/own/index.html":      {`href="/ja/evidence/run/`, `&#34;/ja/evidence/run/popovers.js?v=`},
			"ja/evidence/run/popovers.js": {`evdocPopovers("run"`}}},
		// ja on a host of its own: the layout's language links to a
		// translation on another host are its permalink
		{name: "multihost-hosts", pageText: true, top: `baseURL = "https://example.org/lab/"`, langs: "\n[languages.ja]\n  weight = 2\n  locale = \"ja-JP\"\n  contentDir = \"content/ja\"\n  baseURL = \"https://ja.example.org/jp/\"\n", links: map[string][]string{
			"ko/docs/p1/index.html": {`href="https://ja.example.org/jp/docs/p1/" hreflang="ja-JP"`, `href="/docs/p1/" hreflang="ko-KR"`, `&#34;/evidence/run/popovers.js?v=`},
			"ja/docs/p1/index.html": {`href="https://ko.example.org/docs/p1/" hreflang="ko-KR"`, `&#34;/jp/evidence/run/popovers.js?v=`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := sitetest.ThemedProject(t, filepath.Join("testdata", "slots.txtar"))
			multihost := strings.HasPrefix(tc.name, "multihost")
			if !tc.pageText {
				for name, text := range map[string]string{
					"section.html":    `{{ define "main" }}<ul>{{ range .Pages }}<li class="s">{{ .Summary }}</li><li class="c">{{ .Content }}</li>{{ end }}</ul>{{ end }}`,
					"section.rss.xml": `<rss><channel>{{ range .Pages }}<item><description>{{ .Summary | transform.XMLEscape | safeHTML }}</description></item>{{ end }}</channel></rss>`,
					"section.json":    `{{ $out := slice }}{{ range .Pages }}{{ $out = $out | append (dict "summary" .Summary) }}{{ end }}{{ jsonify $out }}`,
				} {
					if err := os.WriteFile(filepath.Join(dir, "layouts", "docs", name), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if tc.top != "" || multihost {
				conf := filepath.Join(dir, "hugo.toml")
				b, err := os.ReadFile(conf)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(b, []byte(baseURL)) {
					t.Fatalf("hugo.toml has no line %s", baseURL)
				}
				b = bytes.Replace(b, []byte(baseURL), []byte(tc.top), 1)
				if multihost {
					b = bytes.Replace(b, []byte("[languages.ko]\n"), []byte("[languages.ko]\n  baseURL = \"https://ko.example.org/\"\n"), 1)
				}
				if err := os.WriteFile(conf, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.config+tc.langs != "" {
				f, err := os.OpenFile(filepath.Join(dir, "hugo.toml"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(tc.config + tc.langs); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			if tc.langs != "" {
				// a page of the second language's own, with a claim
				if err := os.MkdirAll(filepath.Join(dir, "content", "ja", "docs"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "content", "ja", "docs", "own.md"), []byte("---\ntitle: 自前\n---\n\n[4](ev:run/r.s1.n)件を送った。\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(dir, "evdoc.toml"), []byte("[rules]\nlink-output-popover = \"warning\"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			outs := map[bool]string{}
			for _, noSlots := range []bool{false, true} {
				s, err := project.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				var log bytes.Buffer
				out := filepath.Join(t.TempDir(), "public")
				err = Build(context.Background(), s, BuildOptions{Out: out, Hugo: sitetest.HugoCommand(t), Check: check.DefaultOptions(), Log: &log, Verbose: true, noSlots: noSlots})
				if tc.fails != "" {
					// the check fails the build, with the advice
					// naming the setting
					if err == nil || !strings.Contains(err.Error(), tc.fails) {
						t.Fatalf("noSlots=%v: %v, want an error with %q", noSlots, err, tc.fails)
					}
					if relative := strings.Contains(tc.top, "relativeURLs"); relative != strings.Contains(err.Error(), "set baseURL without a path, or relativeURLs = false") {
						t.Errorf("noSlots=%v: the relativeURLs advice given %v, want %v:\n%v", noSlots, !relative, relative, err)
					} else if relative && strings.Contains(err.Error(), "the theme links no stylesheet") {
						t.Errorf("noSlots=%v: the theme's head blamed for the stylesheet relativeURLs lost:\n%v", noSlots, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("noSlots=%v: %v\n%s", noSlots, err, log.String())
				}
				n := 0
				if m := regexp.MustCompile(`(\d+) claims with slots`).FindStringSubmatch(log.String()); m != nil {
					n, _ = strconv.Atoi(m[1])
				}
				tables := 0
				if m := regexp.MustCompile(`(\d+) citation tables with slots`).FindStringSubmatch(log.String()); m != nil {
					tables, _ = strconv.Atoi(m[1])
				}
				t.Logf("noSlots=%v: %d claims with slots, %d citation tables", noSlots, n, tables)
				if want := !noSlots && tc.slots && !tc.pageText; (tables > 0) != want {
					t.Errorf("noSlots=%v: %d citation tables with slots, want some: %v", noSlots, tables, want)
				}
				switch {
				case noSlots && n > 0:
					t.Errorf("noSlots: %d claims with slots", n)
				case !noSlots && tc.slots && n == 0:
					t.Errorf("no claim got a slot:\n%s", log.String())
				case !noSlots && !tc.slots && n > 0:
					t.Errorf("%d claims got slots on a site evdoc gives none", n)
				}
				outs[noSlots] = out
			}
			if tc.fails != "" {
				return
			}
			same(t, outs[false], outs[true])
			for f, want := range tc.links {
				b, err := os.ReadFile(filepath.Join(outs[false], filepath.FromSlash(f)))
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range want {
					if !bytes.Contains(b, []byte(w)) {
						t.Errorf("%s has no %s:\n%s", f, w, b)
					}
				}
			}
			if strings.HasPrefix(tc.name, "feed") && strings.HasPrefix(tc.top, "baseURL") {
				// the section feed holds claims' markup, its URLs
				// made absolute
				b, err := os.ReadFile(filepath.Join(outs[false], "docs", "index.xml"))
				if err != nil {
					t.Fatal(err)
				}
				base := strings.TrimSuffix(strings.Trim(strings.TrimPrefix(tc.top, "baseURL = "), `"`), "/") + "/"
				if n := bytes.Count(b, []byte("href=&#34;"+base+"evidence/")); n < 10 {
					t.Errorf("docs/index.xml: %d claim links starting with %s, want at least 10:\n%s", n, base, b)
				}
			}
		})
	}
}

// same reports every file that differs between the trees a and b.
func same(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			b, err := os.ReadFile(p)
			m[filepath.ToSlash(rel)] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fa, fb := files(a), files(b)
	for rel, x := range fa {
		y, ok := fb[rel]
		switch {
		case !ok:
			t.Errorf("%s: only in the slotted build", rel)
		case !bytes.Equal(x, y):
			i := 0
			for i < len(x) && i < len(y) && x[i] == y[i] {
				i++
			}
			t.Errorf("%s differs at byte %d:\nslots:    %q\nno slots: %q", rel, i, x[max(0, i-80):min(len(x), i+120)], y[max(0, i-80):min(len(y), i+120)])
		}
	}
	for rel := range fb {
		if _, ok := fa[rel]; !ok {
			t.Errorf("%s: only in the build without slots", rel)
		}
	}
	if len(fa) < 5 {
		t.Errorf("the build wrote %d files", len(fa))
	}
	for rel, x := range fa {
		if strings.HasSuffix(rel, ".html") && bytes.Contains(x, []byte("<evdoc-c")) {
			t.Errorf("%s: a placeholder left", rel)
		}
	}
}

// TestFeedBaseURL reads the baseURL a Hugo command gives.
func TestFeedBaseURL(t *testing.T) {
	s := &project.Site{Config: &hugoconf.Config{BaseURL: "https://conf.example.org/"}}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "https://conf.example.org/"},
		{[]string{"--quiet"}, "https://conf.example.org/"},
		{[]string{"--baseURL", "https://a.example.org/x/"}, "https://a.example.org/x/"},
		{[]string{"--baseURL=https://b.example.org/"}, "https://b.example.org/"},
		{[]string{"-b", "https://c.example.org/"}, "https://c.example.org/"},
		{[]string{"-bhttps://d.example.org/"}, "https://d.example.org/"},
		{[]string{"-b=https://e.example.org/"}, "https://e.example.org/"},
		{[]string{"-b", "https://f.example.org/", "--baseURL", "https://g.example.org/"}, "https://g.example.org/"},
		{[]string{"--", "--baseURL", "https://h.example.org/"}, "https://conf.example.org/"},
	} {
		if got := feedBaseURL(s, BuildOptions{Hugo: append([]string{"hugo"}, tc.args...)}); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
}
