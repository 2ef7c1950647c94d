package claim

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlocks lists the blocks Parse records and reads back their text
// the way the translation checks do.
func TestBlocks(t *testing.T) {
	src := "---\ntitle: x\n---\n" +
		"# 제목 1\n\n" +
		"첫 [86/86](ev:s/a) 중 [문서](/docs/x/) `&#52;` &#52;0초\n다음 줄 \"인용\"\n\n" +
		"- 항목 [제외 3](ev:exempt \"예\")\n\n" +
		"| a | b |\n|---|---|\n| 1 | *2* |\n\n" +
		"```\ncode 9\n```\n\n" +
		"<div>\n7\n</div>\n\n" +
		"## 끝\n"
	p, errs := Parse(NewMarkdown(), "p.md", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, b := range p.Blocks {
		var parts []string
		for _, x := range b.Inlines {
			switch x.Kind {
			case InlineText:
				parts = append(parts, "t:"+src[x.Start:x.Stop])
			case InlineCode:
				parts = append(parts, "c:"+src[x.Start:x.Stop])
			case InlineBreak:
				parts = append(parts, fmt.Sprintf("br@%d", x.Start))
			case InlineString:
				parts = append(parts, "s:"+x.Value)
			case InlineClaim:
				parts = append(parts, "claim:"+src[x.Start:x.Start+5])
			case InlineLink:
				parts = append(parts, "link:"+x.Value)
			}
		}
		got = append(got, fmt.Sprintf("%d/%d@%q:%s", b.Kind, b.Level, firstLine(src[b.Start:]), strings.Join(parts, "|")))
	}
	want := []string{
		`1/1@"제목 1":t:제목|t: 1`,
		`2/0@"첫 [86/86](ev:s/a) 중 [문서](/docs/x/) ` + "`&#52;`" + ` &#52;0초":t:첫 |claim:86/86|t: 중 |link:/docs/x/|t:문서|t: |c:&#52;|t: &#52;0초|br@89|t:다음 줄 |s:&ldquo;|t:인용|s:&rdquo;`,
		`2/0@"항목 [제외 3](ev:exempt \"예\")":t:항목 |t:제외 3`,
		`3/0@"a | b |":`,
		`4/0@"a | b |":`,
		`5/0@"a | b |":t:a`,
		`5/0@"b |":t:b`,
		`4/0@"1 | *2* |":`,
		`5/0@"1 | *2* |":t:1`,
		`5/0@"*2* |":t:2`,
		"6/0@\"code 9\":c:code 9\n",
		`1/2@"끝":t:끝`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
