package viewer

import (
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

// TestViewerWindows: a large raw file is shown on several viewer pages
// (by line count and by bytes), and a line's target is the page that
// shows it.
func TestViewerWindows(t *testing.T) {
	var lines []string
	for i := 1; i <= 1000; i++ {
		lines = append(lines, fmt.Sprintf("cluster.x.counter_%d: %d", i, i))
	}
	long := strings.Repeat("x", windowBytes-10)
	lines = append(lines, long, long)
	set := &evidence.Set{Dir: "evidence/big", Manifest: manifest.Manifest{ID: "big"}}
	vf := &ViewerFile{File: "evidence/big/big.stats", Set: set, Total: len(lines), Starts: windowStarts(lines)}
	v := &Viewer{Files: map[string]*ViewerFile{vf.File: vf}}
	if got, want := fmt.Sprint(vf.Starts), "[1 401 801 1001 1002]"; got != want {
		t.Errorf("window starts %s, want %s", got, want)
	}
	tests := []struct {
		line int
		page string
	}{
		{1, "/evidence/big/big-stats"},
		{400, "/evidence/big/big-stats"},
		{401, "/evidence/big/big-stats-p2"},
		{1000, "/evidence/big/big-stats-p3"},
		{1002, "/evidence/big/big-stats-p5"},
	}
	for _, tc := range tests {
		tg, ok := v.Target(diag.Position{File: vf.File, Line: tc.line})
		if !ok || tg.Page != tc.page || tg.Line != tc.line {
			t.Errorf("line %d: target %+v, want page %s", tc.line, tg, tc.page)
		}
	}
	if _, ok := v.Target(diag.Position{File: "evidence/big/other.txt", Line: 1}); ok {
		t.Error("a file the viewer does not show has a target")
	}
}

// TestHighlightLinesKeepsText: highlighting never drops or alters raw
// text, and escapes it.
func TestHighlightLinesKeepsText(t *testing.T) {
	lines := []string{`| a | <b>"1"</b> |`, `{"k": "<script>", "n": 1}`, `$ curl -s 'x' && echo "&"`, `key=value # c`}
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	for _, file := range []string{"r.md", "x.json", "a.stats", "t.txt", "m.toml", "d.csv"} {
		for i, h := range HighlightLines(lexerName(file, true), lines, nil) {
			if strings.Contains(h, "<b>") || strings.Contains(h, "<script>") {
				t.Errorf("%s line %d not escaped: %s", file, i+1, h)
			}
			if got := stripTags(h); got != esc.Replace(lines[i]) {
				t.Errorf("%s line %d: text %q, want %q", file, i+1, got, esc.Replace(lines[i]))
			}
		}
	}
}

// TestScanViewerFile: the streaming scan finds the windows, line count
// and offsets the whole-file split gives, for files with and without a
// final newline, empty lines, an empty file and lines longer than the
// read buffer; a sparse file's first window and linked windows get
// pages, the others do not.
func TestScanViewerFile(t *testing.T) {
	long := strings.Repeat("y", 200<<10) // longer than the 64 KiB buffer and a window
	tests := map[string]string{
		"empty":      "",
		"newline":    "\n",
		"one":        "a",
		"one-nl":     "a\n",
		"blank-tail": "a\n\n",
		"crlf":       "a\r\nb\r\n",
		"long":       "a\n" + long + "\nb\n" + long,
		"many":       strings.Repeat("cluster.x.upstream_rq_total: 12\n", 2000),
		"console":    "note\n$ curl -s x\n200\n",
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "evidence", "s"), 0o755); err != nil {
				t.Fatal(err)
			}
			rel := "evidence/s/r.txt"
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			vf, err := scanViewerFile(context.Background(), root, rel, &evidence.Set{})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
			if vf.Total != len(lines) {
				t.Errorf("%d lines, want %d", vf.Total, len(lines))
			}
			if got, want := fmt.Sprint(vf.Starts), fmt.Sprint(windowStarts(lines)); got != want {
				t.Errorf("window starts %s, want %s", got, want)
			}
			for w, start := range vf.Starts {
				off := len(strings.Join(lines[:start-1], "\n"))
				if start > 1 {
					off++
				}
				if vf.Offsets[w] != int64(off) {
					t.Errorf("window %d: offset %d, want %d", w, vf.Offsets[w], off)
				}
			}
			wantLexer := "plaintext"
			if name == "console" {
				wantLexer = "Bash Session"
			}
			if !strings.EqualFold(vf.Lexer, wantLexer) {
				t.Errorf("lexer %s, want %s", vf.Lexer, wantLexer)
			}
		})
	}
	sparse := &ViewerFile{Sparse: true, Starts: []int{1, 401, 801, 1201}}
	sparse.Show(2)
	for w, want := range []bool{true, false, true, false} {
		if got := sparse.HasPage(w); got != want {
			t.Errorf("sparse window %d: page %v, want %v", w, got, want)
		}
	}
}

// TestLexerNamesResolve: every lexer name the viewer records resolves to
// that lexer again when its windows are highlighted.
func TestLexerNamesResolve(t *testing.T) {
	for _, f := range []string{"r.md", "m.toml", "x.json", "a.stats", "t.txt", "t.log", "d.csv", "n"} {
		for _, console := range []bool{false, true} {
			name := lexerName(f, console)
			if l := lexers.Get(name); l == nil || l.Config().Name != name {
				t.Errorf("%s: lexer %q does not resolve to itself", f, name)
			}
		}
	}
}

// TestGroupCitations: consecutive citations from one page share a group,
// in order; a page citing again after another page starts a new group.
func TestGroupCitations(t *testing.T) {
	c := func(page, text string) Citation { return Citation{Page: page, Text: text} }
	tests := []struct {
		name string
		in   []Citation
		want []citeGroup
	}{
		{"none", nil, nil},
		{"one", []Citation{c("/a", "1")}, []citeGroup{{"/a", []string{"1"}}}},
		{"runs", []Citation{c("/a", "1"), c("/a", "2"), c("/b", "3"), c("/a", "4")},
			[]citeGroup{{"/a", []string{"1", "2"}}, {"/b", []string{"3"}}, {"/a", []string{"4"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GroupCitations(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMarkedText: the marked ranges of a line are wrapped in
// <mark class="ev-token">, across token spans, and the text stays
// exactly the line's, escaped.
func TestMarkedText(t *testing.T) {
	tests := []struct {
		text  string
		off   int
		marks []TokenMark
		want  string
	}{
		{"a: 12", 0, []TokenMark{{Start: 3, end: 5}}, `a: <mark class="ev-token">12</mark>`},
		{"12", 3, []TokenMark{{Start: 3, end: 5}}, `<mark class="ev-token">12</mark>`},
		{"1", 4, []TokenMark{{Start: 3, end: 5}}, `<mark class="ev-token">1</mark>`},
		{"x<1>", 0, []TokenMark{{Start: 1, end: 3}}, `x<mark class="ev-token">&lt;1</mark>&gt;`},
		{"가나다", 0, []TokenMark{{Start: 1, end: 4}}, `가나다`}, // not on a character boundary
		{"가나다", 0, []TokenMark{{Start: 3, end: 6}}, `가<mark class="ev-token">나</mark>다`},
		{"abc", 0, nil, "abc"},
		{"a 7 b", 0, []TokenMark{{Start: 2, end: 3, unread: true}}, `a <mark class="ev-unread">7</mark> b`},
		{"abc", 10, []TokenMark{{Start: 0, end: 2}}, "abc"},
		// a cited token's anchor: on its first piece, data-ev-tok on the
		// next (a token split by the lexer's spans)
		{"a: 12", 0, []TokenMark{{Start: 3, end: 5, Id: "L7-4"}}, `a: <mark class="ev-token" id="L7-4">12</mark>`},
		{"12", 3, []TokenMark{{Start: 3, end: 5, Id: "L7-4"}}, `<mark class="ev-token" id="L7-4">12</mark>`},
		{"2", 4, []TokenMark{{Start: 3, end: 5, Id: "L7-4"}}, `<mark class="ev-token" data-ev-tok="L7-4">2</mark>`},
		// a token starting inside another keeps its anchor, before the mark
		{"86/86", 0, []TokenMark{{Start: 0, end: 5, Id: "L1-1"}, {Start: 3, end: 5, Id: "L1-4"}}, `<span id="L1-4"></span><mark class="ev-token" id="L1-1">86/86</mark>`},
		{"x 86/86", 0, []TokenMark{{Start: 2, end: 7, Id: "L1-3"}, {Start: 5, end: 7, Id: "L1-6"}}, `x <span id="L1-6"></span><mark class="ev-token" id="L1-3">86/86</mark>`},
		// off a character boundary: the anchor without the mark
		{"가나다", 0, []TokenMark{{Start: 1, end: 4, Id: "L2-2"}}, `가<span id="L2-2"></span>나다`},
	}
	for _, tc := range tests {
		if got := markedText(tc.text, tc.off, tc.marks); got != tc.want {
			t.Errorf("markedText(%q, %d, %v) = %s, want %s", tc.text, tc.off, tc.marks, got, tc.want)
		}
	}
	// Highlighting with marks keeps every character.
	lines := []string{`upstream_rq_2xx: 86`, `| D-1 | "x" | 41 |`}
	out := HighlightLines("yaml", lines, map[int][]TokenMark{0: {{Start: 17, end: 19}}, 1: {{Start: 15, end: 17, unread: true}}})
	for i, l := range lines {
		if stripTags(out[i]) != html.EscapeString(l) {
			t.Errorf("line %d: text %q, want %q", i, stripTags(out[i]), l)
		}
		if strings.Count(out[i], `<mark class="ev-`) == 0 {
			t.Errorf("line %d: no mark in %s", i, out[i])
		}
	}
}

// FuzzMarkedText: whatever the text and ranges, the text is kept exactly
// (escaped), marks never nest, and a valid text stays valid UTF-8 (an
// anchor never splits a character).
func FuzzMarkedText(f *testing.F) {
	f.Add("a: 12 가나", 0, 3, 5)
	f.Add("x<&>", 2, 0, 4)
	f.Fuzz(func(t *testing.T, text string, off, s, e int) {
		got := markedText(text, off, []TokenMark{{Start: s, end: e, Id: "L1-1"}, {Start: e - 1, end: e + 3, unread: true}, {Start: s + 1, end: e, Id: "L1-2"}})
		if stripTags(got) != html.EscapeString(text) {
			t.Fatalf("markedText(%q) = %q lost text", text, got)
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("markedText(%q) = %q splits a character", text, got)
		}
		if strings.Contains(got, "\"><mark") || strings.Count(got, "<mark") != strings.Count(got, "</mark>") {
			t.Fatalf("markedText(%q) = %q: marks unbalanced", text, got)
		}
	})
}

// TestRawLine: a value's raw line is read from its file with the token
// where the value's position says, cut to rawContext either side at
// character boundaries; a position whose bytes are not the raw token
// gives no line (nothing else is ever marked as the value).
func TestRawLine(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("가", 40) // 120 bytes
	src := "first\nrq_total: 86 # after\n" + long + " 41 " + long + "\n"
	if err := os.MkdirAll(filepath.Join(dir, "evidence", "s"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "evidence", "s", "r.txt"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	file := "evidence/s/r.txt"
	v := &Viewer{root: dir, Files: map[string]*ViewerFile{file: {File: file}}}
	off := strings.Index(src, "86")
	got := v.rawLineOf(&evidence.Value{Raw: "86", Pos: diag.Position{File: file, Line: 2, Column: 11, Offset: off}})
	if got == nil || got.Before != "rq_total: " || got.Token != "86" || got.After != " # after" || got.CutBefore || got.CutAfter {
		t.Errorf("short line: %+v", got)
	}
	off = strings.Index(src, " 41 ") + 1
	col := off - strings.Index(src, long) + 1
	got = v.rawLineOf(&evidence.Value{Raw: "41", Pos: diag.Position{File: file, Line: 3, Column: col, Offset: off}})
	if got == nil || got.Token != "41" || !got.CutBefore || !got.CutAfter || len(got.Before) > rawContext || len(got.After) > rawContext ||
		!utf8.ValidString(got.Before) || !utf8.ValidString(got.After) || !strings.HasSuffix(got.Before, "가 ") || !strings.HasPrefix(got.After, " 가") {
		t.Errorf("long line: %+v", got)
	}
	if v.Marks[file][2][0] != (TokenMark{Start: 10, end: 12}) || v.Marks[file][3][0] != (TokenMark{Start: col - 1, end: col + 1}) {
		t.Errorf("marks %v", v.Marks[file])
	}
	if got := v.rawLineOf(&evidence.Value{Raw: "87", Pos: diag.Position{File: file, Line: 2, Column: 11, Offset: strings.Index(src, "86")}}); got != nil {
		t.Errorf("a token not at its position gave %+v", got)
	}
}

// TestReadAtKeepsFiles: readAt gives what the file's ReadAt gives (the
// bytes, and io.EOF for a read past or up to its end) from the bytes it
// keeps of a file, reads each file once until the kept bytes would pass
// rawCacheBytes, and then starts over.
func TestReadAtKeepsFiles(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"a.txt": "0123456789\nabc\n", "b.txt": strings.Repeat("x", 12) + "\n"}
	v := &Viewer{root: root, Files: map[string]*ViewerFile{}}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		v.Files[name] = &ViewerFile{File: name, Size: int64(len(text))}
	}
	defer func(n int) { rawCacheBytes = n }(rawCacheBytes)
	rawCacheBytes = 20
	for _, c := range []struct {
		file   string
		off, n int
		want   string
		eof    bool
		kept   []string
	}{
		{file: "a.txt", off: 2, n: 4, want: "2345", kept: []string{"a.txt"}},
		{file: "a.txt", off: 11, n: 10, want: "abc\n", eof: true, kept: []string{"a.txt"}},
		{file: "a.txt", off: 40, n: 3, want: "", eof: true, kept: []string{"a.txt"}},
		// 15 + 13 bytes pass 20: the cache starts over with b.txt
		{file: "b.txt", off: 10, n: 3, want: "xx\n", kept: []string{"b.txt"}},
	} {
		buf := make([]byte, c.n)
		n, err := v.readAt(c.file, buf, int64(c.off))
		if string(buf[:n]) != c.want || (err == io.EOF) != c.eof || (err != nil && err != io.EOF) {
			t.Errorf("readAt(%s, %d bytes at %d) = %q, %v; want %q (EOF %v)", c.file, c.n, c.off, buf[:n], err, c.want, c.eof)
		}
		var kept []string
		for f := range v.raw {
			kept = append(kept, f)
		}
		if !slices.Equal(kept, c.kept) {
			t.Errorf("after readAt(%s): kept %v, want %v", c.file, kept, c.kept)
		}
	}
	// a file kept is not read again
	if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2)
	if n, _ := v.readAt("b.txt", buf, 0); string(buf[:n]) != "xx" {
		t.Errorf("b.txt read again: %q", buf[:n])
	}
	// a sparse file is read from the file each time
	v.Files["b.txt"].Sparse = true
	if n, _ := v.readAt("b.txt", buf, 0); string(buf[:n]) != "ch" {
		t.Errorf("a sparse file read from kept bytes: %q", buf[:n])
	}
}
