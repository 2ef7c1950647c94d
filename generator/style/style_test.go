package style

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

const testGlossary = `# terms of a test site
[[term]]
concept = "retry"
ko = "재시도"
ja = "リトライ"
avoid = { ja = ["再試行", "retry"], ko = ["리트라이"] }

[[term]]
concept = "outlier detection"
ko = "outlier detection"
ja = "外れ値検出"
avoid.ja = ["outlier detection"]
allow.ja = ["外れ値検出（outlier detection）"]

[[term]]
concept = "counter"
ko = "카운터"
ja = "カウンタ"
avoid = { ja = ["カウンター"] }
`

func mustGlossary(t *testing.T) *Glossary {
	t.Helper()
	g, ds := ParseGlossary("glossary.toml", []byte(testGlossary))
	if len(ds) > 0 {
		t.Fatalf("ParseGlossary: %v", ds)
	}
	return g
}

func parsePage(t *testing.T, path, src string) *claim.Page {
	t.Helper()
	p, ds := claim.Parse(claim.NewMarkdown(), path, []byte(src))
	if ds.HasErrors() {
		t.Fatalf("claim.Parse: %v", ds)
	}
	return p
}

func TestParseGlossary(t *testing.T) {
	g := mustGlossary(t)
	if len(g.Terms) != 3 {
		t.Fatalf("terms = %d, want 3", len(g.Terms))
	}
	r := g.Terms[0]
	if r.Concept != "retry" || r.Preferred["ja"] != "リトライ" || strings.Join(r.Avoid["ja"], ",") != "再試行,retry" || strings.Join(r.Avoid["ko"], ",") != "리트라이" {
		t.Errorf("retry term = %+v", r)
	}
	if r.Pos.Line != 2 || r.Pos.Column != 3 {
		t.Errorf("retry term at %v, want glossary.toml:2:3", r.Pos)
	}
	o := g.Terms[1]
	if strings.Join(o.Avoid["ja"], ",") != "outlier detection" || len(o.Allow["ja"]) != 1 {
		t.Errorf("dotted avoid/allow = %+v", o)
	}
}

func TestParseGlossaryErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"bad toml", "[[term]]\nconcept = \"x\nja = \"y\"\n", "glossary.toml:2:"},
		{"unknown table", "[terms]\n", "glossary.toml:1:2: error: unknown table [terms]; expected [[term]] tables"},
		{"key outside term", "ja = \"x\"\n", "glossary.toml:1:1: error: key ja outside a [[term]] table"},
		{"avoid not a list", "[[term]]\nconcept = \"c\"\nja = \"x\"\navoid.ja = \"y\"\n", "glossary.toml:4:12: error: avoid.ja: expected an array of strings"},
		{"empty variant", "[[term]]\nconcept = \"c\"\nja = \"x\"\navoid.ja = [\"\"]\n", "glossary.toml:4:13: error: avoid.ja: expected a non-empty string"},
		{"no concept", "[[term]]\nja = \"x\"\n", "glossary.toml:1:3: error: [[term]] without a concept"},
		{"avoid without preferred", "[[term]]\nconcept = \"c\"\navoid.ja = [\"y\"]\n", "lists variants to avoid in ja but no preferred ja term"},
		{"language not a string", "[[term]]\nconcept = \"c\"\nja = 3\n", "glossary.toml:3:1: error: ja: expected the preferred term"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := ParseGlossary("glossary.toml", []byte(tc.src))
			if !ds.HasErrors() {
				t.Fatalf("no error, want %q", tc.want)
			}
			if got := fmt.Sprint(ds); !strings.Contains(got, tc.want) {
				t.Errorf("got %s\nwant it to contain %q", got, tc.want)
			}
			for _, d := range ds {
				if err := d.RangeError(); err != nil {
					t.Errorf("%v: %v", d, err)
				}
			}
		})
	}
}

func TestCheckPageGlossary(t *testing.T) {
	g := mustGlossary(t)
	src := "---\ntitle: t\n---\n" +
		"# 再試行の回数\n\n" +
		"retryポリシーを書かなくても、Istioはリトライを付けます。`retries`と`retryOn`はコードです。\n\n" +
		"外れ値検出（outlier detection）は排除を決めます。outlier detectionの設定もあります。\n\n" +
		"| カウンター | 値 |\n|---|---|\n| a | b |\n\n" +
		"```\nretry 再試行 in a code block\n```\n\n" +
		"[再試行の例](/docs/x/) と retryOn と pre-retry と retry_on。\n\n" +
		"> Envoy will retry the request on a different host.\n\nエラーはretry limit exceededでした。\n"
	p := parsePage(t, "content/ja/p.md", src)
	ds := CheckPage(g, p, "ja")
	var got []string
	for _, d := range ds {
		if d.Rule != diag.TermGlossary {
			continue
		}
		got = append(got, d.Pos.String()+" "+string(src[d.Pos.Offset:d.End.Offset])+" -> "+d.Fixes[0].Edits[0].NewText)
		if err := d.RangeError(); err != nil {
			t.Errorf("%v: %v", d, err)
		}
	}
	want := []string{
		"content/ja/p.md:4:3 再試行 -> リトライ",
		"content/ja/p.md:6:1 retry -> リトライ",
		"content/ja/p.md:8:66 outlier detection -> 外れ値検出",
		"content/ja/p.md:10:3 カウンター -> カウンタ",
		"content/ja/p.md:18:2 再試行 -> リトライ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the same page read as Korean has none of the ja variants
	for _, d := range CheckPage(g, p, "ko") {
		if d.Rule == diag.TermGlossary {
			t.Errorf("ko: %v", d)
		}
	}
	// no glossary: no term findings
	for _, d := range CheckPage(nil, p, "ja") {
		if d.Rule == diag.TermGlossary {
			t.Errorf("nil glossary: %v", d)
		}
	}
}

// TestCheckPageGlossaryShortcodes: a shortcode call's text is checked
// only where a reader sees it: a text argument (a figure's caption, a
// details summary, a quoted positional argument of a shortcode that
// shows it) and the content between a paired call's tags; not a file
// name, a class, an option or a reference. A term is not read across a
// call.
func TestCheckPageGlossaryShortcodes(t *testing.T) {
	g := mustGlossary(t)
	src := "---\ntitle: t\n---\n" +
		"{{< figure src=\"retry.png\" class=\"retry\" caption=\"再試行の図\" >}}\n\n" +
		"{{% details summary=\"カウンター\" %}}\nretryの話{{% /details %}}\n\n" +
		"{{< badge \"再試行\" >}} {{< ref \"retry.md\" >}} {{< tabs items=\"retry,カウンター\" >}}\n\n" +
		"再{{< br >}}試行、outlier {{< x >}} detection。\n"
	p := parsePage(t, "content/ja/p.md", src)
	var got []string
	for _, d := range CheckPage(g, p, "ja") {
		if d.Rule != diag.TermGlossary {
			continue
		}
		got = append(got, d.Pos.String()+" "+src[d.Pos.Offset:d.End.Offset])
		if err := d.RangeError(); err != nil {
			t.Errorf("%v: %v", d, err)
		}
	}
	want := []string{
		"content/ja/p.md:4:51 再試行",
		"content/ja/p.md:6:22 カウンター",
		"content/ja/p.md:7:1 retry",
		"content/ja/p.md:9:12 再試行",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCheckPageQuotePair(t *testing.T) {
	for _, tc := range []struct {
		name, lang, body string
		want             []string // "line:col fix"
	}{
		{"ko closing before particle", "ko", "A레코드가 \"연결을 잘라 낸다\"는 말은 틀렸습니다.\n", []string{"4:39 \u201d"}},
		{"ko matched pair", "ko", "그는 \"drain\" 이라고 썼습니다.\n", nil},
		{"ko curly written out", "ko", "“연결을 잘라 낸다”는 말입니다.\n", nil},
		{"ja closing before kana", "ja", "ドキュメントは\"drain\"と書いています。\n", nil},
		{"ja mismatch", "ja", "文書は \"接続を閉じる\"と書いています。\n", []string{"4:30 \u201d"}},
		{"two in one paragraph", "ko", "\"a\"는 \"b\"를 뜻합니다.\n", []string{"4:3 \u201d", "4:10 \u201d"}},
		{"escaped quote", "ko", "\\\"a\" 는 b.\n", nil},
		{"code span", "ko", "`\"a\"`는 \"b\" 입니다.\n", nil},
		// Hugo replaces a shortcode call before its typographer runs
		{"shortcode argument", "ko", "{{< details summary=\"[29회](ev:s/a) 중\" >}}\"x\"는 y.\n", []string{"4:48 \u201d"}},
		{"table cell", "ko", "| a | b |\n|---|---|\n| \"x\"는 | \"y\" 값 |\n", []string{"6:5 \u201d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "---\ntitle: t\n---\n" + tc.body
			p := parsePage(t, "content/"+tc.lang+"/p.md", src)
			var got []string
			for _, d := range CheckPage(nil, p, tc.lang) {
				if d.Rule != diag.PageQuotePair {
					continue
				}
				if src[d.Pos.Offset] != '"' {
					t.Errorf("%v does not point at a straight quote", d)
				}
				got = append(got, strings.TrimPrefix(d.Pos.String(), "content/"+tc.lang+"/p.md:")+" "+d.Fixes[0].Edits[0].NewText)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckPageParticleSpace(t *testing.T) {
	for _, tc := range []struct {
		name, lang, body string
		want             []string
	}{
		{"detached", "ko", "`subset` 은 DestinationRule에, `weight` 는 VirtualService에 씁니다.\n", []string{"4:9 은", "4:42 는"}},
		{"attached", "ko", "`subset`은 DestinationRule에 씁니다.\n", nil},
		{"longer particle", "ko", "`timeout: 1s` 처럼 잡습니다. `503` 으로 끝납니다.\n", []string{"4:14 처럼", "4:41 으로"}},
		{"a word, not a particle", "ko", "`x` 이번에는 `y` 가장 먼저.\n", nil},
		{"japanese is not checked", "ja", "`subset` は別です。\n", nil},
		{"particle then punctuation", "ko", "값은 `503` 을, 그다음은.\n", []string{"4:13 을"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "---\ntitle: t\n---\n" + tc.body
			p := parsePage(t, "content/"+tc.lang+"/p.md", src)
			var got []string
			for _, d := range CheckPage(nil, p, tc.lang) {
				if d.Rule != diag.PageParticleSpace {
					continue
				}
				if src[d.Pos.Offset] != ' ' || src[d.Pos.Offset-1] != '`' {
					t.Errorf("%v does not point at the space after a code span", d)
				}
				w := src[d.Pos.Offset+1 : d.End.Offset]
				got = append(got, strings.TrimPrefix(d.Pos.String(), "content/"+tc.lang+"/p.md:")+" "+w)
				e := d.Fixes[0].Edits[0]
				if fixed := src[:e.Pos.Offset] + e.NewText + src[e.End:]; !strings.Contains(fixed, "`"+w) {
					t.Errorf("fix gives %q", fixed)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckStrings(t *testing.T) {
	g := mustGlossary(t)
	spec := "kind = \"bars\"\n" +
		"[title]\nko = \"카운터 변화\"\nja = \"カウンターの変化\"\n" +
		"[[panel]]\ntitle = { ko = \"리트라이\", ja = \"retry あり\" }\n" +
		"caption.ja = \"再試行\\tと escaped\"\n" +
		"alt.ja = \"[1.5秒](ev:retry-set/x) と [503](ev:exempt 'retry status')\"\n"
	ds := CheckStrings(g, "figures/f.toml", []byte(spec), LastKeyLanguage([]string{"ko", "ja"}))
	var got []string
	for _, d := range ds {
		got = append(got, d.Pos.String()+" "+spec[d.Pos.Offset:d.End.Offset])
		if err := d.RangeError(); err != nil {
			t.Errorf("%v: %v", d, err)
		}
	}
	want := []string{
		"figures/f.toml:4:7 カウンター",
		"figures/f.toml:6:17 리트라이",
		"figures/f.toml:6:38 retry",
		"figures/f.toml:7:14 \"再試行\\tと escaped\"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	i18n := "footer = \"カウンターは転記した値です\"\nother = \"x\"\n"
	ds = CheckStrings(g, "i18n/ja.toml", []byte(i18n), FileLanguage("i18n/ja.toml"))
	if len(ds) != 1 || ds[0].Pos.String() != "i18n/ja.toml:1:11" {
		t.Errorf("i18n: %v", ds)
	}
	if ds := CheckStrings(g, "i18n/ko.toml", []byte(i18n), FileLanguage("i18n/ko.toml")); len(ds) != 0 {
		t.Errorf("ko i18n file: %v", ds)
	}
}

// FuzzParseGlossary: any input gives a glossary or positioned errors,
// never a panic, and every error has a well-formed range.
func FuzzParseGlossary(f *testing.F) {
	f.Add(testGlossary)
	f.Add("[[term]]\nconcept = \"c\"\nja = \"x\"\navoid.ja = [\"y\", 3]\n")
	f.Add("[[term]]\navoid = { ja = [\"a\"] }\n[x]\n")
	f.Fuzz(func(t *testing.T, src string) {
		g, ds := ParseGlossary("glossary.toml", []byte(src))
		if g == nil {
			t.Fatal("nil glossary")
		}
		for _, d := range ds {
			if err := d.RangeError(); err != nil {
				t.Fatalf("%v: %v", d, err)
			}
		}
	})
}

// FuzzCheckPage: every finding on any page points into the page with a
// well-formed range and a fix that replaces exactly that range or less;
// no glossary finding touches a part of a shortcode call a reader never
// sees (claim.Page.Unseen), whose ranges are in order.
func FuzzCheckPage(f *testing.F) {
	f.Add("\"a\"는 `b` 은 retry 再試行 カウンター\n")
	f.Add("| \"x\"는 | `y` 를 |\n|---|---|\n| a | b |\n")
	f.Add("{{< figure src=\"retry.png\" caption=\"再試行\" >}} {{< badge \"retry\" >}}{{</* x a=\"retry\" */>}} re{{< br >}}try\n")
	g, _ := ParseGlossary("glossary.toml", []byte(testGlossary))
	md := claim.NewMarkdown()
	f.Fuzz(func(t *testing.T, body string) {
		src := []byte("---\ntitle: t\n---\n" + body)
		p, _ := claim.Parse(md, "content/ko/p.md", src)
		if p == nil {
			return
		}
		unseen := p.Unseen()
		for i, u := range unseen {
			if u[0] >= u[1] || u[1] > len(src) || i > 0 && u[0] < unseen[i-1][1] {
				t.Fatalf("unseen ranges %v out of order or outside the page", unseen)
			}
		}
		for _, lang := range []string{"ko", "ja"} {
			for _, d := range CheckPage(g, p, lang) {
				if err := d.RangeError(); err != nil {
					t.Fatalf("%v: %v", d, err)
				}
				if d.End.Offset > len(src) || d.Pos.Offset < len(src)-len(body) {
					t.Fatalf("%v: outside the body", d)
				}
				for _, u := range unseen {
					if d.Rule == diag.TermGlossary && d.Pos.Offset < u[1] && u[0] < d.End.Offset {
						t.Fatalf("%v: in %q, which a reader never sees", d, src[u[0]:u[1]])
					}
				}
			}
		}
	})
}

// TestCheckPageHeadingSplit: punctuation that ends a heading, written on
// the line below it, is reported once per heading; the fix puts it back
// at the end of the heading line, which leaves the paragraph below it
// after a blank line. Punctuation after a blank line, a setext heading
// and a paragraph starting with a word are not reported.
func TestCheckPageHeadingSplit(t *testing.T) {
	for _, tc := range []struct {
		name, body, fixed string
		want              []string // "line:col"
	}{
		{"ja question", "## Q1. 失敗しますか\n？\n**失敗しません。**\n", "## Q1. 失敗しますか？\n\n**失敗しません。**\n", []string{"5:1"}},
		{"ascii question", "### Does it fail\n?\nNo.\n", "### Does it fail?\n\nNo.\n", []string{"5:1"}},
		{"closing parenthesis, CRLF", "## 付録B（§1\r\n）\r\n本文。\r\n", "## 付録B（§1）\r\n\r\n本文。\r\n", []string{"5:1"}},
		{"after a blank line", "## Q1. 失敗しますか\n\n？ではなく\n", "", nil},
		{"setext heading", "見出し\n===\n？\n", "", nil},
		{"word under heading", "## 見出し\n本文です。\n", "", nil},
		{"two headings", "## A\n？\n## B\n。\n", "## A？\n\n## B。\n\n", []string{"5:1", "7:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "---\ntitle: t\n---\n" + tc.body
			p := parsePage(t, "content/ja/p.md", src)
			var got []string
			fixed := []byte(src)
			var edits []diag.TextEdit
			for _, d := range CheckPage(nil, p, "ja") {
				if d.Rule != diag.PageHeadingSplit {
					continue
				}
				if err := d.RangeError(); err != nil {
					t.Errorf("%v: %v", d, err)
				}
				got = append(got, strings.TrimPrefix(d.Pos.String(), "content/ja/p.md:"))
				edits = append(edits, d.Fixes[0].Edits...)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := len(edits) - 1; i >= 0; i-- { // edits are in order; apply from the end
				e := edits[i]
				fixed = append(fixed[:e.Pos.Offset:e.Pos.Offset], append([]byte(e.NewText), fixed[e.End:]...)...)
			}
			if tc.fixed != "" && string(fixed) != "---\ntitle: t\n---\n"+tc.fixed {
				t.Errorf("fixed:\n%q\nwant\n%q", fixed, "---\ntitle: t\n---\n"+tc.fixed)
			}
		})
	}
}
