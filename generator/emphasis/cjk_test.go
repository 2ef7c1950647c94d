package emphasis

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"

	"github.com/evdoc-lab/evdoc/generator/claim"
)

func renderHugo(t *testing.T, src []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := claim.NewMarkdownWith(claim.MarkdownConfig{}.Staged()).Convert(src, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestEmphasisNextToCJKPunctuation renders, with goldmark as Hugo runs it
// with cjk.escapedSpace, what HugoMarkdown stages.
func TestEmphasisNextToCJKPunctuation(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"**「強調」**する", "<strong>「強調」</strong>する"},
		{`**"요청 경계"**다`, "<strong>&ldquo;요청 경계&rdquo;</strong>다"},
		{"税込**¥10,000**で", "税込<strong>¥10,000</strong>で"},
		{"**「cycle（循環）」**とは", "<strong>「cycle（循環）」</strong>とは"},
		{"結果は**「ホストがゼロ」**と表示", "結果は<strong>「ホストがゼロ」</strong>と表示"},
		{"p99は**[40秒](/x)。**でした。処理量は**「[1,250 rps](/y)」**でした。",
			`p99は<strong><a href="/x">40秒</a>。</strong>でした。処理量は<strong>「<a href="/y">1,250 rps</a>」</strong>でした。`},
		{"*「斜体」*です", "<em>「斜体」</em>です"},
		{"**강조**한다", "<strong>강조</strong>한다"},
		{"plain **bold** text", "plain <strong>bold</strong> text"},
		{"`**「code」**です` は**そのまま**", "<code>**「code」**です</code> は<strong>そのまま</strong>"},
		{"| a |\n|---|\n| **「表」**です |", "<td><strong>「表」</strong>です</td>"},
		{"## **「見出し」**とは", "<strong>「見出し」</strong>とは</h2>"},
		{"2 * 3 * 4", "2 * 3 * 4"},
	} {
		src := []byte("---\ntitle: x\n---\n" + tc.in + "\n")
		out, _ := HugoMarkdown(src, MarkdownOptions{})
		html := renderHugo(t, blankFrontMatter(out, len("---\ntitle: x\n---\n")))
		if !strings.Contains(html, tc.want) {
			t.Errorf("%s\nstaged %q\nrendered %q\nwant %q", tc.in, out, html, tc.want)
		}
		if strings.Contains(strings.ReplaceAll(html, "<code>**「code」**です</code>", ""), "**") {
			t.Errorf("%s: literal ** in %q", tc.in, html)
		}
		if ds := Check(parsePage(t, src), claim.MarkdownConfig{}); tc.in != "2 * 3 * 4" && len(ds) != 0 {
			t.Errorf("%s: %v", tc.in, ds)
		}
	}
}

// TestEmphasisReadWithSiteConfig: Check and HugoMarkdown read a
// page with the site's goldmark configuration, as check and Hugo do: a
// "*" inside a passthrough formula ($2*3$) is the formula's, neither a
// page-emphasis finding nor a place for an escaped space, and a "*" in a
// table row is text where the site turns tables off as in a table.
func TestEmphasisReadWithSiteConfig(t *testing.T) {
	math := claim.MarkdownConfig{PassthroughInline: [][2]string{{"$", "$"}}}
	for _, tc := range []struct {
		in               string
		md               claim.MarkdownConfig
		findings, staged int
		defaultFindings  int
	}{
		{"면적은 $2*3$ 이다", math, 0, 0, 1},
		{"식 $**「x」**。$ 끝", math, 0, 0, 0},
		{"| a*b |\n|---|\n| c |", claim.MarkdownConfig{NoTable: true}, 1, 0, 1},
	} {
		src := []byte("---\ntitle: x\n---\n" + tc.in + "\n")
		p, _ := claim.Parse(claim.NewMarkdownWith(tc.md), "p.md", src)
		if ds := Check(p, tc.md); len(ds) != tc.findings {
			t.Errorf("%q with the site's config: %d findings %v, want %d", tc.in, len(ds), ds, tc.findings)
		}
		if ds := Check(parsePage(t, src), claim.MarkdownConfig{}); len(ds) != tc.defaultFindings {
			t.Errorf("%q with Hugo's defaults: %d findings %v, want %d", tc.in, len(ds), ds, tc.defaultFindings)
		}
		if _, ins := HugoMarkdown(src, MarkdownOptions{Markdown: tc.md}); len(ins) != tc.staged {
			t.Errorf("%q: staged with %d insertions %v, want %d", tc.in, len(ins), ins, tc.staged)
		}
	}
}

func parsePage(t *testing.T, src []byte) *claim.Page {
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", src)
	return p
}

// TestCheckEmphasisOneParse: Check reads a page without
// insertions or escaped spaces from claim.NewMarkdown's document; it
// reports what reading the staged text as Hugo does (cjk.escapedSpace)
// reports, also for pages where the author wrote "\ " themselves.
func TestCheckEmphasisOneParse(t *testing.T) {
	for _, in := range []string{
		"plain **bold** text",
		"2 * 3 * 4",
		"a*b and **c",
		"**「強調」**する and **x",
		`**「強調」**\ する`,
		`*a\ *b* c\	d*`,
		`\ **강조**\ 한다 *`,
		"`**` and **a\\ **",
		"| a |\n|---|\n| **「表」**\\ です * |",
		`a **b\ ** c`,
		`foo*\ *bar`,
	} {
		p := parsePage(t, []byte("---\ntitle: x\n---\n"+in+"\n"))
		got := Check(p, claim.MarkdownConfig{})
		blanked := blankFrontMatter(p.Source, p.BodyStart)
		ins := hugoInsertions(claim.NewMarkdown().Parser().Parse(text.NewReader(blanked)), blanked, MarkdownOptions{})
		want := literalEmphasis(p, ins, claim.MarkdownConfig{})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q:\ngot  %v\nwant %v", in, got, want)
		}
	}
}

// TestEmphasisIgnoresHugoSyntax: Hugo reads a page's Markdown with every
// shortcode call replaced by a placeholder and every shortcode comment
// ({{</* x */>}}, {{%/* x */%}}) shown as the call's text without its
// markers, so a "*" there is no emphasis delimiter: no page-emphasis
// finding and no escaped space staged into a call's argument; a stray
// "*" of the prose around them still is a finding.
func TestEmphasisIgnoresHugoSyntax(t *testing.T) {
	for _, tc := range []struct {
		in       string
		findings int
	}{
		{"쇼트코드는 {{</* note */>}} 처럼 쓴다", 0},
		{"마크다운 쇼트코드는 {{%/* tab name=\"a\" */%}} 처럼 쓴다", 0},
		{"주석 {{</* note */>}} 과 a*b", 1},
		{"인자 {{< x a=\"*b\" >}} 와 {{% y \"**\" %}} 도", 0},
		{"{{< x a=\"**「強調」**する\" >}}と**「強調」**する", 0},
		{"여러 줄 {{< x a=\"*\"\n  b=\"*\" >}} 끝", 0},
		{"{{< x a=\"*\" >}}*강조*", 0},
	} {
		src := []byte("---\ntitle: x\n---\n" + tc.in + "\n")
		p := parsePage(t, src)
		if ds := Check(p, claim.MarkdownConfig{}); len(ds) != tc.findings {
			t.Errorf("%q: %d findings %v, want %d", tc.in, len(ds), ds, tc.findings)
		}
		out, _ := HugoMarkdown(src, MarkdownOptions{})
		for _, sp := range claim.HugoSyntax(src, len("---\ntitle: x\n---\n")) {
			if !bytes.Contains(out, src[sp[0]:sp[1]]) {
				t.Errorf("%q: staged as %q, which changes %q", tc.in, out, src[sp[0]:sp[1]])
			}
		}
	}
}

// FuzzHugoMarkdown: on any page, HugoMarkdown only inserts (escaped
// spaces, or a space for a line break), never into Hugo syntax (a
// shortcode call's or comment marker's bytes stay as written, in order),
// and Check reports positions inside the page.
func FuzzHugoMarkdown(f *testing.F) {
	for _, s := range []string{"**「強調」**する", "{{< x a=\"**「強調」**する\" >}}と**「強調」**する", "쇼트코드 {{</* note */>}} a*b",
		"{{% y \"**\" %}} *x*", "| a |\n|---|\n| **「表」**です |", "줄\n바꿈 **강조**다"} {
		f.Add("---\ntitle: x\n---\n"+s+"\n", false)
		f.Add("---\ntitle: x\n---\n"+s+"\n", true)
	}
	f.Fuzz(func(t *testing.T, s string, lineBreaks bool) {
		src := []byte(s)
		_, body, ok := claim.SplitFrontMatter(src)
		if !ok {
			return
		}
		out, ins := HugoMarkdown(src, MarkdownOptions{EastAsianLineBreaks: lineBreaks})
		moved := shiftSpans(claim.HugoSyntax(src, body), src, ins)
		for i, sp := range claim.HugoSyntax(src, body) {
			if m := moved[i]; m[1] > len(out) || !bytes.Equal(out[m[0]:m[1]], src[sp[0]:sp[1]]) {
				t.Fatalf("%q staged as %q: Hugo syntax %q changed", s, out, src[sp[0]:sp[1]])
			}
		}
		p, _ := claim.Parse(claim.NewMarkdown(), "p.md", src)
		if p == nil || p.Index == nil {
			return
		}
		for _, d := range Check(p, claim.MarkdownConfig{}) {
			if d.Pos.Offset < body || d.End.Offset > len(src) || d.End.Offset < d.Pos.Offset {
				t.Fatalf("%q: finding %v out of the page body", s, d)
			}
		}
	})
}
