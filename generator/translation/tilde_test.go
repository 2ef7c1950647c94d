package translation

import (
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
		ds := strikethroughRanges(&Page{Lang: "ko", Path: "content/ko/p.md", Parsed: pp}, claim.MarkdownConfig{})
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
