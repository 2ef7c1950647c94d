package emphasis

import (
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestStrikethroughRanges: a range written with one ~ between digits is
// reported when Hugo's goldmark closes it as a strikethrough at a later ~
// of the paragraph (the text between struck out, the numbers joined);
// every form that renders as written is not.
func TestStrikethroughRanges(t *testing.T) {
	tests := []struct {
		body string
		want int
	}{
		{"지연은 3~5초였고 실패율은 10~20%였다.", 1},
		{"3~5초와 10~20%, 그리고 1~2회.", 1}, // the third ~ opens nothing it can close
		{"지연은 3~5초였다.", 0},             // no closing ~: the tilde stays
		{"遅延は3〜5秒で失敗率は10〜20%だった。", 0},
		{"遅延は3～5秒で失敗率は10～20%だった。", 0},
		{"지연은 3\\~5초였고 실패율은 10\\~20%였다.", 0},
		{"~~지운 문장 3~~과 5", 0},  // a strikethrough meant as one
		{"a~b 그리고 c~d", 0},     // not between digits
		{"`3~5` 와 `10~20`", 0}, // code spans
		{"구간 3~5초\n\n다른 문단 10~20%", 0},
	}
	for _, tt := range tests {
		src := "---\ntitle: t\n---\n\n" + tt.body + "\n"
		pp, errs := claim.Parse(claim.NewMarkdown(), "content/ko/p.md", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		ds := strikethroughRanges(pp, claim.MarkdownConfig{})
		if len(ds) != tt.want {
			t.Errorf("%q: %d findings, want %d: %v", tt.body, len(ds), tt.want, ds)
		}
		for _, d := range ds {
			if d.Rule != diag.PageStrikethrough || d.Pos.Line != 5 || d.End.Offset <= d.Pos.Offset {
				t.Errorf("%q: %v", tt.body, d)
			}
		}
	}
}

// strikesBothWays returns strikethroughRanges of body (a page with front
// matter) read from the page's parse and from a parse of its own, and
// whether the page's parse recorded its strikethroughs.
func strikesBothWays(t *testing.T, body string, md claim.MarkdownConfig) (fromParse, own diag.List, recorded bool) {
	t.Helper()
	src := "---\ntitle: t\n---\n\n" + body + "\n"
	p, _ := claim.Parse(claim.NewMarkdownWith(md), "content/ko/p.md", []byte(src))
	_, recorded = p.Strikethroughs(md)
	fromParse = strikethroughRanges(p, md)
	forceStrikeParse = true
	defer func() { forceStrikeParse = false }()
	return fromParse, strikethroughRanges(p, md), recorded
}

// TestStrikethroughsFromParse: the strikethroughs the page's parse
// records give the findings a parse of the page's own gives, nested,
// inside links and emphasis, in tables, with Hugo syntax, with the
// extras' subscript and with strikethrough off; and the page's parse is
// used only with the configuration it was read with.
func TestStrikethroughsFromParse(t *testing.T) {
	bodies := []string{
		"지연은 3~5초였고 실패율은 10~20%였다.",
		"~~a 3~5 b~~ 그리고 ~1~2~",
		"[3~5초](ev:s/a) 와 [10~20%](ev:s/b)",
		"[x 3~5 y 7~8 z](https://e.x) 와 *3~5 and 6~7*",
		"~3 ~4~5~ 6~",
		"1~2 ~3~4~ 5~6", // a strikethrough inside one
		"| a | b |\n|---|---|\n| 3~5 | 6~7 |\n| 1~2초 그리고 3~4 | x |",
		"{{< fig 3~5 >}} 그리고 10~20 그리고 1~2",
		"H~2~O 와 1~2~3",
		"- 1~2\n- 3~4 and 5~6\n\n> 7~8 그리고 9~1",
	}
	cfgs := []claim.MarkdownConfig{{}, {NoStrikethrough: true}, {Subscript: true}, {Delete: true}}
	used := 0
	for _, md := range cfgs {
		for _, b := range bodies {
			fromParse, own, recorded := strikesBothWays(t, b, md)
			if recorded {
				used++
			}
			if !reflect.DeepEqual(fromParse, own) {
				t.Errorf("%+v %q: from the page's parse %v, from its own parse %v", md, b, fromParse, own)
			}
		}
	}
	if used != len(cfgs)*len(bodies) {
		t.Errorf("the page's parse recorded its strikethroughs for %d of %d pages", used, len(cfgs)*len(bodies))
	}
	pp, _ := claim.Parse(claim.NewMarkdownWith(claim.MarkdownConfig{NoStrikethrough: true}), "p.md", []byte("1~2 3~4"))
	if _, ok := pp.Strikethroughs(claim.MarkdownConfig{}); ok {
		t.Error("a page read with strikethrough off gave its strikethroughs to a check with it on")
	}
}

// FuzzStrikethroughsFromParse: for any body, the findings from the
// page's parse are those of a parse of the page's own.
func FuzzStrikethroughsFromParse(f *testing.F) {
	for _, s := range []string{"3~5초 10~20%", "~~a 3~5 b~~ ~1~2~", "[1~2](x) 3~4 *5~6*", "| 1~2 | 3~4 |"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		fromParse, own, _ := strikesBothWays(t, body, claim.MarkdownConfig{})
		if !reflect.DeepEqual(fromParse, own) {
			t.Errorf("%q: from the page's parse %v, from its own parse %v", body, fromParse, own)
		}
	})
}
