package claim

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseLiteral(t *testing.T) {
	tests := []struct {
		lit    string
		want   string // "value/decimals/unit/delta" per number, space separated
		approx bool
	}{
		{"86/86", "86/0//false 86/0//false", false},
		{"44%", "44/0/%/false", false},
		{"51.7%→0.21%", "51.7/1/%/false 0.21/2/%/false", false},
		{"+1", "1/0//true", false},
		{"Δ0", "0/0//true", false},
		{"Δ+1", "1/0//true", false},
		{"−2", "-2/0//false", false},
		{"~5 s", "5/0/s/false", true},
		{"약 40초", "40/0/s/false", true},
		{"約40秒", "40/0/s/false", true},
		{"40秒ほど", "40/0/s/false", true},
		{"409610바이트", "409610/0/B/false", false},
		{"409610バイト", "409610/0/B/false", false},
		{"1500ms", "1500/0/ms/false", false},
		{"3회", "3/0/count/false", false},
		{"3回", "3/0/count/false", false},
		{"86件中86件", "86/0/count/false 86/0/count/false", false},
		{"86개 중 86개", "86/0/count/false 86/0/count/false", false},
		{"17→18", "17/0//false 18/0//false", false},
		{"８６％", "86/0/%/false", false},
		{"1,234", "1234/0//false", false},
		{"40.045811", "40.045811/6//false", false},
		// a rate prefix, then an approximation word, then the number
		{"초당 1,250건", "1250/0//s/false", false},
		{"약 초당 38건", "38/0//s/false", true},
		{"초당 약 38건", "38/0//s/false", true},
		{"毎秒約38件", "38/0//s/false", true},
		{"秒間約38件", "38/0//s/false", true},
		{"毎秒 およそ 38件", "38/0//s/false", true},
		// a size per second is a throughput
		{"1.23 MB/s", "1.23/2/MB/s/false", false},
		{"1.2MB/초", "1.2/1/MB/s/false", false},
		{"12.9MB/秒", "12.9/1/MB/s/false", false},
		{"초당 40KB", "40/0/KB/s/false", false},
		{"毎秒約3.5GiB", "3.5/1/GiB/s/false", true},
		{"498 kB per second", "498/0/KB/s/false", false},
		// a multiplier letter a tool prints (wrk's 2.76k): the number it
		// scales, at the precision written; a unit word that starts with
		// one (kB, Mi) stays a unit
		{"2.76k", "2760/2//false", false},
		{"2.76k req/s", "2760/2//s/false", false},
		{"1.20M", "1200000/2//false", false},
		{"3G", "3000000000/0//false", false},
		{"2.5k~3.31k", "2500/1//false 3310/2//false", false},
		{"약 2.8k", "2800/1//false", true},
		{"12Mi", "12/0/MiB/false", false},
		{"5kB", "5/0/KB/false", false},
	}
	for _, tt := range tests {
		l, err := ParseLiteral(tt.lit)
		if err != nil {
			t.Errorf("ParseLiteral(%q): %v", tt.lit, err)
			continue
		}
		var got []string
		for _, q := range l.Quantities {
			got = append(got, q.Value.String()+"/"+itoa(q.Decimals)+"/"+q.Unit+"/"+boolStr(q.Delta))
		}
		if strings.Join(got, " ") != tt.want || (l.Approx != "") != tt.approx {
			t.Errorf("ParseLiteral(%q) = %s approx=%v, want %s approx=%v", tt.lit, strings.Join(got, " "), l.Approx, tt.want, tt.approx)
		}
	}
}

func TestParseLiteralErrors(t *testing.T) {
	for _, lit := range []string{"없음", "", "1.30.0", "10.0.0.1", "MID1에서 +1", "40초/회", "3%/s", "40ms/초"} {
		if _, err := ParseLiteral(lit); err == nil {
			t.Errorf("ParseLiteral(%q) succeeded; want error", lit)
		}
	}
}

func TestParseRefs(t *testing.T) {
	tests := []struct {
		dest, want, err string
	}{
		{"ev:s/a", "s/a", ""},
		{"ev:s/a,b", "s/a s/b", ""},
		{"ev:s/a, t/b,c", "s/a t/b t/c", ""},
		{"ev:", "", "empty evidence reference"},
		{"ev:a", "", "has no set"},
		{"ev:s/a,,b", "s/a", "empty item"},
		{"ev:s/a/b", "", "malformed evidence reference"},
		{"ev:/a", "", "malformed"},
	}
	for _, tt := range tests {
		refs, err := ParseRefs(tt.dest)
		if strings.Join(refs, " ") != tt.want || !strings.Contains(err, tt.err) || (tt.err == "") != (err == "") {
			t.Errorf("ParseRefs(%q) = %v, %q; want %s, %q", tt.dest, refs, err, tt.want, tt.err)
		}
	}
}

func TestParsePositions(t *testing.T) {
	src := "---\ntitle: t\n---\n\n# 제목\n\n실패율은 **[51.7%→0.21%](ev:s/a,b)** 로 줄었다.\n\n| a | b |\n|---|---|\n| x | [86/86](ev:s/ok,n) |\n\n`[1](ev:s/x)` and\n\n```\n[2](ev:s/y)\n```\n[site](/docs/x/) [bad](ev:)\n"
	p, errs := Parse(NewMarkdown(), "p.md", []byte(src))
	if len(errs) != 1 || errs[0].Pos.String() != "p.md:18:24" {
		t.Errorf("errs = %v", errs)
	}
	var got []string
	for _, c := range p.Claims {
		got = append(got, c.Pos.String()+" "+c.Literal+" "+strings.Join(c.Refs, ",")+" @"+c.RefPos.String())
	}
	want := []string{
		"p.md:7:17 51.7%→0.21% s/a,s/b @p.md:7:32",
		"p.md:11:8 86/86 s/ok,s/n @p.md:11:15",
		"p.md:18:19 bad  @p.md:18:24",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("claims:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(p.Links) != 1 || p.Links[0].Destination != "/docs/x/" {
		t.Errorf("links = %+v", p.Links)
	}
	if p.Claims[0].Literal != src[p.Claims[0].Pos.Offset:p.Claims[0].End] {
		t.Errorf("literal span %q", src[p.Claims[0].Pos.Offset:p.Claims[0].End])
	}
}

func TestSplitFrontMatter(t *testing.T) {
	tests := []struct {
		src  string
		fm   string
		body int
		ok   bool
	}{
		{"---\na: 1\n---\nbody", "a: 1\n", 13, true},
		{"+++\na = 1\n+++\n", "a = 1\n", 14, true},
		{"no front matter", "", 0, true},
		{"---\na: 1\n", "", 0, false},
		{"---\n---\n", "", 8, true},
	}
	for _, tt := range tests {
		fm, body, ok := SplitFrontMatter([]byte(tt.src))
		if string(fm) != tt.fm || body != tt.body || ok != tt.ok {
			t.Errorf("SplitFrontMatter(%q) = %q, %d, %v", tt.src, fm, body, ok)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestQuantityFormat(t *testing.T) {
	tests := []struct{ lit, value, want string }{
		{"44%", "43.9024", "44"},
		{"51.7%", "52.1341", "52.1"},
		{"0.21%", "0.3", "0.30"},
		{"+1", "2", "+2"},
		{"+1", "-1", "-1"},
		{"−1", "-3", "−3"},
		{"Δ0", "0", "Δ0"},
		{"Δ0", "1", "Δ+1"},
		{"Δ+1", "0", "Δ0"},
		{"1,234", "12345", "12,345"},
		{"８６％", "87", "８７"},
		{"＋３", "1", "＋１"},
		{"－３", "-1", "－１"},
		{"약 40초", "45.2", "45"},
		{"40.045811", "40.1", "40.100000"},
		{"2.76k", "2814", "2.81"},
	}
	for _, tt := range tests {
		l, err := ParseLiteral(tt.lit)
		if err != nil {
			t.Fatal(err)
		}
		q := l.Quantities[0]
		if got := q.Format(decimal.RequireFromString(tt.value)); got != tt.want {
			t.Errorf("%q.Format(%s) = %q, want %q", tt.lit, tt.value, got, tt.want)
		}
	}
}

func TestClaimsInsideImages(t *testing.T) {
	_, errs := Parse(NewMarkdown(), "p.md", []byte("[![](ev:e/x)](/docs/) [![44%](/x.png)](ev:e/x) [`44%`](ev:e/x)\n"))
	if len(errs) != 3 {
		t.Errorf("errs = %v", errs)
	}
}

// TestPositionsFromAST: identical links on one page are each reported at
// their own position (issue 8: bytes.Index found the first one twice).
func TestPositionsFromAST(t *testing.T) {
	src := "x [](ev:s/a) [](ev:s/a)\n<ev:s/x> <ev:s/x>\n![](ev:s/i) ![](ev:s/i)\n[t](ev:s/a,a) [u][r]\n\n[r]: ev:s/q\n"
	p, errs := Parse(NewMarkdown(), "p.md", []byte(src))
	var got []string
	for _, d := range errs {
		got = append(got, d.Pos.String())
	}
	want := []string{"p.md:1:3", "p.md:1:14", "p.md:2:1", "p.md:2:10", "p.md:3:1", "p.md:3:13"}
	// Each finding's range ends at its own link's end (the destination's
	// last byte, the autolink's ">").
	var ends []string
	for _, d := range errs {
		ends = append(ends, fmt.Sprintf("%d:%d", d.End.Line, d.End.Column))
	}
	if want := "1:12 1:23 2:9 2:18 3:11 3:23"; strings.Join(ends, " ") != want {
		t.Errorf("ends %v; want %s", ends, want)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("positions %v; want %v\n%v", got, want, errs)
	}
	if len(p.Claims) != 2 {
		t.Fatalf("claims: %+v", p.Claims)
	}
	c := p.Claims[0]
	if c.RefPos.String() != "p.md:4:5" || len(c.RefPositions) != 2 || c.RefPositions[0].String() != "p.md:4:8" || c.RefPositions[1].String() != "p.md:4:12" {
		t.Errorf("reference positions %v %v; want p.md:4:5, then p.md:4:8 and p.md:4:12", c.RefPos, c.RefPositions)
	}
	if len(c.RefEnds) != 2 || c.RefEnds[0].String() != "p.md:4:11" || c.RefEnds[1].String() != "p.md:4:13" || c.DestEnd.String() != "p.md:4:13" {
		t.Errorf("reference ends %v, destination end %v; want p.md:4:11 and p.md:4:13, p.md:4:13", c.RefEnds, c.DestEnd)
	}
	// A reference link has no inline destination: its findings are at the text end.
	if r := p.Claims[1]; r.Destination != "ev:s/q" || r.Pos.String() != "p.md:4:16" {
		t.Errorf("reference link claim %+v", r)
	}
}

// TestGuideListsGrammarWords: the claim grammar page (docs/guide/claims.md) lists every
// approximation word, comparator, particle and number word the lexer knows.
func TestGuideListsGrammarWords(t *testing.T) {
	b, err := os.ReadFile("../../docs/guide/claims.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.ReplaceAll(string(b), "\n", " ")
	var words []string
	for _, a := range approxWords {
		words = append(words, a.word)
	}
	for _, c := range cmpWords {
		words = append(words, c.word)
	}
	for w := range NumberWords() {
		words = append(words, w)
	}
	for _, sw := range signWords {
		words = append(words, sw.word)
	}
	for _, m := range meridiems {
		words = append(words, m.word)
	}
	words = append(words, timeZones...)
	for _, w := range words {
		if !strings.Contains(readme, "`"+w+"`") {
			t.Errorf("docs/guide/claims.md does not list %q", w)
		}
	}
	for _, p := range particles {
		if !strings.Contains(readme, " "+p+" ") && !strings.Contains(readme, "`"+p+" ") && !strings.Contains(readme, " "+p+"`") {
			t.Errorf("docs/guide/claims.md does not list particle %q", p)
		}
	}
}
