package staging

import (
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/slots"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
)

func TestReadMarks(t *testing.T) {
	for _, tc := range []struct {
		inner, key string
		role       slots.Role
		pinned     bool
		line, col  int
		ok         bool
	}{
		{"ev:s/a", "ev:s/a", slots.RolePlain, false, 0, 0, true},
		{"ev:s/a @+", "ev:s/a", slots.RoleFirst, false, 0, 0, true},
		{"ev:s/a @=", "ev:s/a", slots.RoleRepeat, false, 0, 0, true},
		{"ev:s/a ~1 @3:4=", "ev:s/a ~1", slots.RoleRepeat, true, 3, 4, true},
		{"ev:s/a ~0,1ms", "ev:s/a ~0,1ms", slots.RolePlain, false, 0, 0, true},
		{"ev:s/a @12:7", "ev:s/a", slots.RolePlain, true, 12, 7, true},
		{"ev:s/b", "", 0, false, 0, 0, false},
		{"ev:s/a x", "", 0, false, 0, 0, false},
		{"ev:s/a @x:1", "", 0, false, 0, 0, false},
	} {
		key, role, pinned, line, col, ok := readMarks("ev:s/a", tc.inner)
		if ok != tc.ok || ok && (key != tc.key || role != tc.role || pinned != tc.pinned || line != tc.line || col != tc.col) {
			t.Errorf("%q: %q %v %v %d:%d %v", tc.inner, key, role, pinned, line, col, ok)
		}
	}
}

func TestParagraphAfter(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // the text the boundary follows; "" for none
	}{
		{"next paragraph", "a [1](ev:x)\n\nnext line\nmore\n\nlast\n", "more\n"},
		{"same paragraph", "a [1](ev:x)\nsame\n\nnext\n\n", "next\n"},
		{"heading not", "a [1](ev:x)\n\n## h\n\n- item\n\n1. item\n\n> q\n\npara\n\n", "para\n"},
		{"fence", "a [1](ev:x)\n\n```\n\ncode\n\n```\n\npara\n\n", "para\n"},
		{"setext", "a [1](ev:x)\n\ntitle\n---\n\npara\n\n", "para\n"},
		{"table", "a [1](ev:x)\n\nx | y\n--|--\n\npara\n\n", "para\n"},
		{"reference", "a [1](ev:x)\n\n[r]: /u\n\n[^1]: note\n\n[2](ev:y) para\n\n", "[2](ev:y) para\n"},
		{"indented", "a [1](ev:x)\n\n    code\n\n", ""},
		{"to the end", "a [1](ev:x)\n\npara", ""},
	} {
		at := strings.Index(tc.src, "[1]") + 1
		got := paragraphAfter([]byte(tc.src), at)
		want := len(tc.src)
		if tc.want != "" {
			want = strings.Index(tc.src, tc.want) + len(tc.want)
		}
		if got != want {
			t.Errorf("%s: %d, want %d", tc.name, got, want)
		}
	}
}

func TestSummaryFrom(t *testing.T) {
	cands := func(src string) []stagedata.Candidate {
		var cs []stagedata.Candidate
		for i := 0; ; {
			j := strings.Index(src[i:], "](ev:")
			if j < 0 {
				return cs
			}
			cs = append(cs, stagedata.Candidate{Lit: i + j - 1})
			i += j + 1
		}
	}
	page := "---\nt: 1\n---\n\n[1](ev:x) [2](ev:x)\n[3](ev:x)\n\nnext [4](ev:x)\n\nafter [5](ev:x)\n"
	for _, tc := range []struct {
		name, src string
		fm        map[string]any
		n         int
		want      string // the text the boundary follows; "" for none, "0" for all
	}{
		{"n claims", page, nil, 2, "next [4](ev:x)\n"},
		{"fewer claims than n", page, nil, 9, ""},
		{"summary", page, map[string]any{"Summary": "x"}, 2, "0"},
		{"divider", page + "<!--more-->\n", nil, 2, "0"},
		{"shortcode", page + "{{< x >}}\n", nil, 2, ""},
		{"comment", page + "<!-- x\n\ny -->\n", nil, 2, ""},
	} {
		got := summaryFrom([]byte(tc.src), tc.fm, cands(tc.src), tc.n)
		want := len(tc.src)
		switch tc.want {
		case "0":
			want = 0
		case "":
		default:
			want = strings.Index(tc.src, tc.want) + len(tc.want)
		}
		if got != want {
			t.Errorf("%s: %d, want %d", tc.name, got, want)
		}
	}
}

// TestSlotPage stages a page's claims with slots: each slot has the
// length of what it replaces (marks and brackets included), so every
// other byte stays; its position is the pinned one or its link's "["
// in the staged page; a claim whose key has no data, one whose literal
// does not follow its "[" and one before from keep their destinations.
func TestSlotPage(t *testing.T) {
	src := "---\ntitle: p\n---\n\nA [4건](ev:run/r.s1.n) b [4](ev:run/r.s1.n) c [**4**](ev:run/r.s1.n)\n\n" +
		"d [5](<ev:run/r.s1.m>) e [6](ev:run/none)\n"
	var cands []stagedata.Candidate
	var rs []stagedata.Repeat
	for _, d := range []struct{ lit, dest string }{{"4건", "ev:run/r.s1.n"}, {"4](", "ev:run/r.s1.n"}, {"**4**", "ev:run/r.s1.n"}, {"5]", "ev:run/r.s1.m"}, {"6]", "ev:run/none"}} {
		lit := strings.Index(src, "["+d.lit) + 1
		if d.lit == "**4**" {
			lit += 2 // the literal, as the claim parser reads it
		}
		at := lit + strings.Index(src[lit:], d.dest)
		c := stagedata.Candidate{Lit: lit, At: at, Dest: d.dest, Key: d.dest}
		cands = append(cands, c)
		if d.dest == "ev:run/r.s1.n" {
			rs = append(rs, stagedata.Repeat{Lit: lit, At: at, Dest: d.dest, Key: d.dest})
		}
	}
	var edits []edit
	marked, _ := markRepeats([]byte(src), rs, 0, &edits)
	staged, _ := emphasis.HugoMarkdown(marked, emphasis.MarkdownOptions{})
	table := slots.NewTable(1)
	pg := table.Page(0, "ko", "p.md")
	known := func(k string) bool { return k != "ev:run/none" }
	out, any := slotPage(staged, marked, []byte(src), edits, nil, cands, 0, known, false, pg)
	if !any || len(out) != len(staged) {
		t.Fatalf("slotted %v, %d bytes of %d", any, len(out), len(staged))
	}
	pad := func(id string, n int) string { return id + strings.Repeat("-", n-len(id)) }
	want := "---\ntitle: p\n---\n\nA [4건](" + pad("ev:#0-0", len("<ev:run/r.s1.n @+>")) + ") b [4](" + pad("ev:#0-1", len("<ev:run/r.s1.n @=>")) +
		") c [**4**](<ev:run/r.s1.n @=>)\n\nd [5](" + pad("ev:#0-2", len("<ev:run/r.s1.m>")) + ") e [6](ev:run/none)\n"
	if string(out) != want {
		t.Errorf("staged\n%s\nwant\n%s", out, want)
	}
	if table.Len() != 3 {
		t.Errorf("%d slots", table.Len())
	}
	// the hook's positions: its "[" in the staged page, where Hugo has
	// it
	sl, ok := table.Slot("0-1---")
	if !ok || sl.Lang != "ko" || sl.Line != 5 || sl.Col != len("A [4건](<ev:run/r.s1.n @+>) b [") || sl.Role != slots.RoleRepeat || sl.Key != "ev:run/r.s1.n" {
		t.Errorf("slot 0-1: %+v", sl)
	}
	if keys := table.Keys()["ko"]; strings.Join(keys, " ") != "ev:run/r.s1.m ev:run/r.s1.n" {
		t.Errorf("keys %v", keys)
	}
	// from: the claims before it keep their destinations
	pg2 := slots.NewTable(1).Page(0, "ko", "p.md")
	out, _ = slotPage(staged, marked, []byte(src), edits, nil, cands, strings.Index(src, "d [5]"), known, false, pg2)
	if strings.Count(string(out), "ev:#") != 1 {
		t.Errorf("from: %s", out)
	}
}

// TestSlotPageInsertions: where emphasis.HugoMarkdown inserts bytes
// (escaped spaces next to emphasis of CJK punctuation) or makes a
// newline a space (East Asian line breaks), a slot still replaces its
// destination in place and its position is its "[" in the staged page.
func TestSlotPageInsertions(t *testing.T) {
	src := "---\ntitle: x\n---\n**「強調」**する [4건](ev:run/r.s1.n) **「強調」**する [5](ev:run/r.s1.m)\n줄\n바꿈 [4건](ev:run/r.s1.n)\n"
	var cands []stagedata.Candidate
	for i := 0; ; {
		j := strings.Index(src[i:], "](ev:")
		if j < 0 {
			break
		}
		at := i + j + 2
		lit := strings.LastIndex(src[:at], "[") + 1
		dest := src[at : at+strings.IndexByte(src[at:], ')')]
		cands = append(cands, stagedata.Candidate{Lit: lit, At: at, Dest: dest, Key: dest})
		i = at
	}
	for _, lb := range []bool{false, true} {
		staged, ins := emphasis.HugoMarkdown([]byte(src), emphasis.MarkdownOptions{EastAsianLineBreaks: lb})
		if len(ins) == 0 {
			t.Fatal("no insertions: the test tests nothing")
		}
		table := slots.NewTable(1)
		pg := table.Page(0, "ko", "p.md")
		out, _ := slotPage(staged, []byte(src), []byte(src), nil, ins, cands, 0, func(string) bool { return true }, false, pg)
		if len(out) != len(staged) || table.Len() != 3 {
			t.Fatalf("line breaks %v: %d slots, %d bytes of %d:\n%s", lb, table.Len(), len(out), len(staged), out)
		}
		for n := range 3 {
			id := "0-" + strconv.Itoa(n)
			i := strings.Index(string(out), "(ev:#"+id)
			open := strings.LastIndex(string(out[:i]), "[")
			line := strings.Count(string(out[:open]), "\n") + 1
			col := open - strings.LastIndex(string(out[:open]), "\n")
			if sl, _ := table.Slot(id); sl.Line != line || sl.Col != col {
				t.Errorf("line breaks %v: slot %s at %d:%d, its [ at %d:%d", lb, id, sl.Line, sl.Col, line, col)
			}
		}
	}
}
