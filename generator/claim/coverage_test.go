package claim

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim/prose"
)

func TestCoverageRules(t *testing.T) {
	tests := []struct {
		text string
		want string // "number:rule" for each prose number; rule "" = unbound
	}{
		{"Istio 1.30.0 에서", "1.30.0:version"},
		{"v1.8.7 이상", "1.8.7:version"},
		{"backend 10.250.147.30 으로", "10.250.147.30:ip"},
		{"2026-07-09 측정", "2026-07-09:date"},
		{"2026年7月9日に測定", "2026年7月9日:date"},
		{"L7 과 L4, MID1, run2, p50", "7:identifier 4:identifier 1:identifier 2:identifier 50:identifier"},
		{"D-1 과 HTTP/2", "1:identifier 2:identifier"},
		{"§3 참고", "3:numbering"},
		{"host:443 포트", "443:port"},
		{"40초 동안 86건", "40: 86:"},
		{"12s 뒤", "12:"},
		// a number glued to any unit spelling is a measurement, not a name
		{"3sec 뒤 40us, 2ns, 3min, 3hr, 3hours", "3: 40: 2: 3: 3: 3:"},
		{"1.5GB 와 4GiB, 300Mi, 5cores, 3pp", "1.5: 4: 300: 5: 3:"},
		{"2FA 와 4K, 3rd, 5G, 64bit, 3DES", "2:identifier 4:identifier 3:identifier 5:identifier 64:identifier 3:identifier"},
		// a fraction, digit groups, a multiplier, a measure word or a
		// rate make a glued number a quantity; names keep whole numbers
		{"1.2k 요청, 10k rps, 3M, 60fps, 1.5Gbps, 40dB, 5req/s, 1_000", "1.2: 10: 3: 60: 1.5: 40: 5: 1_000:"},
		{"2.5x 빨라졌고 1,000rps, 3kHz, 2Mbps, 10K 건, 7msg/sec", "2.5: 1,000: 3: 2: 10: 7:"},
		{"p99 와 h2, x86, p99.9, L7, 2D, 3D, 8K, 6G, 2secure/session", "99:identifier 2:identifier 86:identifier 99.9:identifier 7:identifier 2:identifier 3:identifier 8:identifier 6:identifier 2:identifier"},
		{"x86_64 와 run_3, 1_0000", "86:identifier 64:identifier 3:identifier 1: 0000:identifier"},
		// digits of any script and vulgar fractions are numbers
		{"½ 과 𝟒𝟎초, ٣ 개, 1½ 시간, ⅔, ४२", "½: 𝟒𝟎: ٣: 1½: ⅔: ४२:"},
		{"버전 {{< param \"version\" 3 >}} 와 {{% x 5 %}}", "3:shortcode 5:shortcode"},
		// a diagram's or formula's numbers are its syntax
		{"그림\n\n{{< mermaid >}}\ngraph LR; A-->|40%|B\n{{< /mermaid >}} 뒤 12건", "40:shortcode 12:"},
		{"식 {{< katex >}}x^2 + 3{{< /katex >}} 와 {{< Mermaid >}}7{{< /Mermaid >}}", "2:shortcode 3:shortcode 7:shortcode"},
		{"식 {{< mermaid >}} 9 without its end", "9:"},
		{"11:42:01 에", "11:42:01:time"},
		{"12:30 과 09:05", "12:30:time 09:05:time"},
		{"날짜 2026년 7월 9일", "2026년 7월 9일:date"},
		// a time of day in Korean or Japanese; 시간/時間 are hours
		{"측정은 오후 2시 3분에", "2시 3분:time"},
		{"午後2時3分に測定", "2時3分:time"},
		{"14時3分22秒に", "14時3分22秒:time"},
		{"2시에 시작", "2시:time"},
		{"2시간 5분 동안", "2: 5:"},
		{"2時間かかった", "2:"},
		{"2026/07/09 와 7月9日", "2026/07/09:date 7月9日:date"},
		{"fe80::1 과 10.0.0.0/8", "80:ip 1:ip 10.0.0.0:ip 8:ip"},
		{"x86_64 빌드", "86:identifier 64:identifier"},
		{"2001:db8::/32 대역", "2001:ip 8:ip 32:ip"},
		{"1e3 회", "1e3:"},
		// HTTP status codes are identifiers next to a status word
		{"HTTP 503 이 났다", "503:status"},
		{"응답 코드 200 을 받았다", "200:status"},
		{"503 응답이 왔다", "503:status"},
		{"ステータス503が返った", "503:status"},
		{"status: 404 and 200 OK", "404:status 200:status"},
		{"503エラー", "503:status"},
		{"응답 200건", "200:"},
		{"HTTP 요청 503", "503:"},
		{"200ms 응답", "200:"},
		{"응답 코드 700", "700:"},
		// 0 after a code word is a status code (Envoy's "no response")
		{"응답 코드 0(`http2.remote_reset`)", "0:status"},
		{"応答コード0で終わった", "0:status"},
		{"response code 0 and status: 0, HTTP 0", "0:status 0:status 0:status"},
		{"응답 0건", "0:"},
		{"응답 0", "0:"},
		{"코드 0ms", "0:"},
		{"응답 코드 05", "05:"},
		// an exponent is part of its number; other numeric symbols are
		// numbering marks, units' or names' superscripts, or numbers
		{"10² 건과 10^3 건, 10⁻³ 초", "10²: 10^3: 10⁻³:"},
		{"③ 단계와 ⑶, Ⅻ, ❶", "③:numbering ⑶:numbering Ⅻ:numbering ❶:numbering"},
		{"5m² 와 H₂O", "5: ²:identifier ₂:identifier"},
		{"결과¹ 참고", "¹:numbering"},
		{"𐄇 개", "𐄇:"},
		// a symbol right after digits is a token of its own, not a
		// repeat of the digits' (fuzz: "0〦" lost the 〦)
		{"0〦 과 7Ⅻ 와 3𐄇", "0: 〦: 7: Ⅻ:numbering 3: 𐄇:"},
		// a token widened past its match (an exponent) leaves no digit
		// after it unread (fuzz: the ",000" of "x1e5,000" was lost)
		{"x1e5,000 y 와 2e3,5", "1e5:identifier 000: 2e3: 5:"},
		{"二〇二六年", ""},
		// a compound number is one number
		{"요청은 1만 2천 건", "1만 2천:"},
		{"1万2千件のリクエスト", "1万2千:"},
		{"1万2000件", "1万2000:"},
		{"3억 원과 1만", "3억: 1만:"},
		// character references are decoded first, as CommonMark does
		{"응답은 &#52;&#48;초", "40:"},
		{"&#x33;&#x30;% 실패", "30:"},
		{"&#x34;0ms 지연", "40:"},
		{"4&#48;ms 지연", "40:"},
		{"지연&nbsp;40ms", "40:"},
		{"\\&#52; 그대로", "52:numbering"}, // escaped: literal text
		{"&#x31;.30.0 에서", "1.30.0:version"},
		// an argument a reader sees is prose; the others are the call's
		{`그림 {{< figure src="a-2.png" width="600" caption="실패 15건" alt="Istio 1.30.0" >}}`, "2:shortcode 600:shortcode 15: 1.30.0:version"},
		{`상세 {{< details "2905회 중 6건" open=1 >}}내용 3건{{< /details >}}`, "2905: 6: 1:shortcode 3:"},
		{`상세 {{% Details Title="29회" %}}x{{% /Details %}}`, "29:"},
		{`참고 {{< ref "post-2" >}} {{< evtable set="s" caption="§1 표" >}} {{< tab 2 >}}`, "2:shortcode 1:numbering 2:shortcode"},
		{"그림 {{< mermaid title=\"9\" >}}\ngraph LR; A-->|40%|B\n{{< /mermaid >}}", "9:shortcode 40:shortcode"},
	}
	for _, tt := range tests {
		src := []byte(tt.text + "\n")
		p, errs := Parse(NewMarkdown(), "p.md", src)
		if errs != nil {
			t.Fatal(errs)
		}
		var got []string
		for _, pn := range p.Prose {
			got = append(got, pn.Text+":"+pn.Rule)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, strings.Join(got, " "), tt.want)
		}
	}
}

// TestPublishedNumbers: a number in a shortcode argument a reader sees
// is prose (claim-unbound when unbound), named by where it is; a number in
// an image's alt text or title or a link's title, where no claim can be
// written, is listed as unchecked, at its source position.
func TestPublishedNumbers(t *testing.T) {
	tests := []struct{ src, prose, unchecked string }{
		{`그림 {{< figure caption="실패 15건" >}}`, "15@1:35 in argument caption of shortcode figure", ""},
		{"상세 {{< details \"2905회\" >}}", "2905@1:21 in argument 0 of shortcode details", ""},
		{`배지 {{< badge content="49초" color="blue" >}} {{< card link="/" tag="7건" >}}`, "49@1:27 in argument content of shortcode badge|7@1:74 in argument tag of shortcode card", ""},
		{`![실패 6건](a.png "시도 2905회") [x](https://e/ '14건') [y](<b c> (3건))`,
			"", "6@1:10 in the alt text of image a.png|2905@1:30 in the title of image a.png|14@1:56 in the title of link https://e/|3@1:75 in the title of link b c"},
		{"![**v1.2.3** 와 7건](a.png \"2026-07-09\")", "", "1.2.3@1:6 in the alt text of image a.png:version|7@1:18 in the alt text of image a.png|2026-07-09@1:31 in the title of image a.png:date"},
		{"[x][r] 와 ![y][r]\n\n[r]: /u \"5건\"\n", "", ""},
		{`[86/86](ev:s/a,b "9") ![8](ev:s/a)`, "", ""},
	}
	for _, tt := range tests {
		p, _ := Parse(NewMarkdown(), "p.md", []byte(tt.src))
		str := func(ns []prose.Number, withIn bool) string {
			var out []string
			for _, n := range ns {
				if withIn && n.In == "" {
					continue
				}
				s := n.Text + "@" + strings.TrimPrefix(n.Pos.String(), "p.md:") + " in " + n.In
				if n.Rule != "" {
					s += ":" + n.Rule
				}
				out = append(out, s)
			}
			return strings.Join(out, "|")
		}
		if got := str(p.Prose, true); got != tt.prose {
			t.Errorf("%q: prose %q, want %q", tt.src, got, tt.prose)
		}
		if got := str(p.Unchecked, false); got != tt.unchecked {
			t.Errorf("%q: unchecked %q, want %q", tt.src, got, tt.unchecked)
		}
	}
}

func TestCoverageSkipsCodeClaimsAndMarkers(t *testing.T) {
	src := "# 1. 개요\n\n`attempts: 2` 와 [86/86](ev:s/a,b), [3 × 3 = 9](ev:exempt \"arithmetic example\"), 그리고 44 건.\n\n```\n99\n```\n\n![img 7](/x7.png) <span>8</span> [link 5](https://x/5)\n"
	p, errs := Parse(NewMarkdown(), "p.md", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	c := PageCoverage(p)
	if c.Bound != 2 || len(c.Unbound) != 3 || c.Unbound[0].Text != "44" || c.Unbound[0].Pos.String() != "p.md:3:94" {
		t.Errorf("coverage = %+v", c)
	}
	// Text between raw HTML tags and an ordinary link's text are prose.
	if c.Unbound[1].Text != "8" || c.Unbound[2].Text != "5" {
		t.Errorf("second unbound = %+v", c.Unbound[1])
	}
}

// TestCoverageFootnotesAndDefinitions: goldmark walks footnote
// definitions after the body; an unbound number in one is reported with
// every unbound number of the body, in one run.
func TestCoverageFootnotesAndDefinitions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"본문[^1]\n\n[^1]: 응답은 41초 걸렸다.\n\n다음 요청은 12초 걸렸다.\n", "41@3:17 12@5:18"},
		{"本文[^1]\n\n[^1]: 応答は41秒かかった。\n\n次は12秒かかった。\n", "41@3:16 12@5:7"},
		{"지연\n: 응답은 41초\n\n다음 요청은 12초 걸렸다.\n", "41@2:13 12@4:18"},
	}
	for _, tt := range tests {
		p, errs := Parse(NewMarkdown(), "p.md", []byte(tt.src))
		if errs != nil {
			t.Fatal(errs)
		}
		var got []string
		for _, u := range PageCoverage(p).Unbound {
			got = append(got, u.Text+"@"+strings.TrimPrefix(u.Pos.String(), "p.md:"))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: unbound %q, want %q", tt.src, strings.Join(got, " "), tt.want)
		}
	}
}

// TestCoverageCharRefPositions: a number written with character
// references is reported at its source bytes, whole.
func TestCoverageCharRefPositions(t *testing.T) {
	src := "응답은 &#52;&#48;초, 다음은 &#x34;0ms.\n"
	p, errs := Parse(NewMarkdown(), "p.md", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	var got []string
	for _, u := range PageCoverage(p).Unbound {
		got = append(got, u.Text+"="+src[u.Pos.Offset:u.End])
	}
	if want := "40=&#52;&#48; 40=&#x34;0"; strings.Join(got, " ") != want {
		t.Errorf("unbound %q, want %q", strings.Join(got, " "), want)
	}
}

func TestExemptMarkerNeedsReason(t *testing.T) {
	_, errs := Parse(NewMarkdown(), "p.md", []byte("[3개](ev:exempt)\n"))
	if len(errs) != 1 || errs[0].Rule != "claim-exempt-reason" {
		t.Errorf("errs = %v", errs)
	}
}

// TestProseNumberWords: number words with a counter in prose are found
// for the opt-in claim-number-word rule; ordinals, names and words
// without a counter are not.
func TestProseNumberWords(t *testing.T) {
	tests := []struct{ text, want string }{
		{"업스트림은 요청을 세 번 받았고 재시도는 두 번 일어났다.", "세 번|두 번"},
		{"アップストリームは三回リクエストを受け、リトライは二回でした。", "三回|二回"},
		{"ふたつの値と一つの表", "ふたつ|一つ"},
		{"It retried twice.", "twice"},
		{"두 번째 시도, 二回目, exactly-once", ""},
		{"한국과 세션, 一部の値, 統一", ""},
		{"초당 한 번씩", "한 번"},
		// homographs of a number word and a counter are no numbers
		{"내가 한 번역은 한 회의에서 두 개발자가 본 것이다.", ""},
		{"次のとおり、一番速い経路は一本だ。", "一本"},
		{"Once the pod restarts, it retries once.", "once"},
	}
	for _, tt := range tests {
		p, errs := Parse(NewMarkdown(), "p.md", []byte(tt.text+"\n"))
		if errs != nil {
			t.Fatal(errs)
		}
		var got []string
		for _, w := range p.ProseWords() {
			got = append(got, w.Text)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%q: number words %q; want %q", tt.text, strings.Join(got, "|"), tt.want)
		}
	}
}

// TestCoveragePassthroughFormulas: with Hugo's passthrough extension
// enabled (its delimiters in MarkdownConfig), a formula's numbers, inline
// or as a block, are the formula's and not prose; without it they are
// prose (Hugo renders the text as written), and a number next to a
// formula is prose either way.
func TestCoveragePassthroughFormulas(t *testing.T) {
	src := "식 \\(x^2 + 37\\) 과 44 건.\n\n$$\ny = 41 x\n$$\n\n그리고 \\[z = 5\\] 끝.\n"
	cfg := MarkdownConfig{PassthroughInline: [][2]string{{`\(`, `\)`}}, PassthroughBlock: [][2]string{{`\[`, `\]`}, {`$$`, `$$`}}}
	for _, tc := range []struct {
		md   MarkdownConfig
		want string
	}{
		{cfg, "44"},
		{MarkdownConfig{}, "2 37 44 41 5"},
	} {
		p, errs := Parse(NewMarkdownWith(tc.md), "p.md", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		var got []string
		for _, n := range PageCoverage(p).Unbound {
			got = append(got, n.Text)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("passthrough %v: unbound %q, want %q", tc.md, got, tc.want)
		}
	}
}

// TestBrokenClaimDestination: text meant as a claim that CommonMark does
// not read as a link is a claim-syntax error at its "ev:", saying why;
// its number stays unbound prose.
func TestBrokenClaimDestination(t *testing.T) {
	tests := []struct{ src, want string }{
		{"[5건](ev: hy/hy.total) 뒤", "1:8 ev: destination has a space after the scheme; write ev:SET/NAME"},
		{"앞\n[5건] (ev:hy/hy.total)", `2:9 claim text and its (ev:…) destination are apart`},
		{"[5건](ev:hy/hy.total 뒤", `1:8 ev: destination has no closing ")"`},
		{"[5건](ev:hy/hy.total x)", `1:8 ev: destination "ev:hy/hy.total x" holds a space`},
		{"[5件]( ev:hy/a,b c)", `1:9 ev: destination "ev:hy/a,b c" holds a space`},
		{"5건](ev:hy/hy.total) 뒤", `1:7 "](ev:hy/hy.total)" closes no link text`},
		{"[1건](ev:a/b) 과 5건](ev:hy/hy.total) 뒤", `1:26 "](ev:hy/hy.total)" closes no link text`},
		// a claim, code, an escaped bracket and prose about ev: are no finding
		{"[5건](ev:hy/hy.total \"t\") 과 `[5](ev: a)` 과 \\[5\\](ev: a) ev: 3", ""},
	}
	for _, tt := range tests {
		p, errs := Parse(NewMarkdown(), "p.md", []byte(tt.src+"\n"))
		var got []string
		for _, e := range errs {
			got = append(got, strings.TrimPrefix(e.Pos.String(), "p.md:")+" "+e.Message)
			if e.Rule != "claim-syntax" {
				t.Errorf("%q: rule %s", tt.src, e.Rule)
			}
		}
		g := strings.Join(got, "|")
		if tt.want == "" && g != "" || tt.want != "" && (len(got) != 1 || !strings.HasPrefix(g, tt.want)) {
			t.Errorf("%q: errors %q, want %q", tt.src, g, tt.want)
		}
		if tt.want != "" && len(PageCoverage(p).Unbound) == 0 {
			t.Errorf("%q: its number is not unbound", tt.src)
		}
	}
}
