package claim

import (
	"fmt"
	"strings"
	"testing"
)

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
