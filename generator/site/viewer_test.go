package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
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
	set := &evidence.Set{Dir: "evidence/big", Manifest: evidence.Manifest{ID: "big"}}
	vf := &viewerFile{File: "evidence/big/big.stats", Set: set, Total: len(lines), Starts: windowStarts(lines)}
	v := &viewer{files: map[string]*viewerFile{vf.File: vf}}
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
		tg, ok := v.target(diag.Position{File: vf.File, Line: tc.line})
		if !ok || tg.Page != tc.page || tg.Line != tc.line {
			t.Errorf("line %d: target %+v, want page %s", tc.line, tg, tc.page)
		}
	}
	if _, ok := v.target(diag.Position{File: "evidence/big/other.txt", Line: 1}); ok {
		t.Error("a file the viewer does not show has a target")
	}
}

// TestHighlightLinesKeepsText: highlighting never drops or alters raw
// text, and escapes it.
func TestHighlightLinesKeepsText(t *testing.T) {
	lines := []string{`| a | <b>"1"</b> |`, `{"k": "<script>", "n": 1}`, `$ curl -s 'x' && echo "&"`, `key=value # c`}
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	for _, file := range []string{"r.md", "x.json", "a.stats", "t.txt", "m.toml", "d.csv"} {
		for i, h := range highlightLines(lexerName(file, true), lines) {
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
	sparse := &viewerFile{Sparse: true, Starts: []int{1, 401, 801, 1201}}
	sparse.show(2)
	for w, want := range []bool{true, false, true, false} {
		if got := sparse.hasPage(w); got != want {
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

// TestBuildSparseEvidence (issue 15, fault 8): a raw file over
// sparseBytes gets viewer pages only for its first window and the
// windows a value or a claim links to; the whole file is published as a
// download the pages link to; the claim's link resolves.
func TestBuildSparseEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	dir := copyProject(t)
	var b strings.Builder
	key := func(i int) string {
		return fmt.Sprintf("cluster.outbound|80||svc%d.ns.svc.cluster.local.upstream_rq_total", i)
	}
	for i := 0; b.Len() <= sparseBytes+1; i++ {
		fmt.Fprintf(&b, "%s: %d\n", key(i), i*3)
	}
	set := filepath.Join(dir, "evidence", "big")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(set, "admin.stats"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"big\"\ntitle = \"big dump\"\ndate = \"2026-07-09\"\nenvironment = \"lab\"\nreport = \"r\"\norigin = \"raw\"\n\n" +
		"[[read]]\nfile = \"admin.stats\"\nformat = \"envoy-stats\"\nname = \"s\"\n" +
		fmt.Sprintf("select = { %q = \"mid\", %q = \"late\" }\n", key(30000), key(50000))
	if err := os.WriteFile(filepath.Join(set, "evidence.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	page := "---\ntitle: 큰 덤프\n---\n\n요청은 [150000건](ev:big/s.late)이다.\n"
	if err := os.WriteFile(filepath.Join(dir, "content", "ko", "big.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Build(context.Background(), BuildOptions{Out: "public", Hugo: hugoCommand(t), Check: check.DefaultOptions()}); err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "public")
	// Line 30001 is in window 76 (400 lines each), line 50001 in 126.
	for _, tc := range []struct {
		page string
		want bool
	}{{"admin-stats", true}, {"admin-stats-p2", false}, {"admin-stats-p76", true}, {"admin-stats-p77", false}, {"admin-stats-p126", true}} {
		_, err := os.Stat(filepath.Join(pub, "evidence", "big", tc.page, "index.html"))
		if (err == nil) != tc.want {
			t.Errorf("page %s: exists %v, want %v", tc.page, err == nil, tc.want)
		}
	}
	if fi, err := os.Stat(filepath.Join(pub, "evidence", "big", "admin.stats")); err != nil || fi.Size() != int64(b.Len()) {
		t.Errorf("the whole file is not published: %v", err)
	}
	first, err := os.ReadFile(filepath.Join(pub, "evidence", "big", "admin-stats", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="/evidence/big/admin.stats" download`, `href="/evidence/big/admin-stats-p76/"`, `id="L400"`} {
		if !strings.Contains(string(first), want) {
			t.Errorf("first viewer page lacks %s", want)
		}
	}
	mid, err := os.ReadFile(filepath.Join(pub, "evidence", "big", "admin-stats-p126", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="L50001"`, `rel="prev" href="/evidence/big/admin-stats-p76/"`, `href="#cite-L50001"`} {
		if !strings.Contains(string(mid), want) {
			t.Errorf("window 126 lacks %s", want)
		}
	}
	claimPage, err := os.ReadFile(filepath.Join(pub, "big", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(claimPage), `href="/evidence/big/admin-stats-p126/#L50001"`) {
		t.Error("the claim does not link to its line's window")
	}
}

// TestGroupCitations: consecutive citations from one page share a group,
// in order; a page citing again after another page starts a new group.
func TestGroupCitations(t *testing.T) {
	c := func(page, text string) citation { return citation{Page: page, Text: text} }
	tests := []struct {
		name string
		in   []citation
		want []citeGroup
	}{
		{"none", nil, nil},
		{"one", []citation{c("/a", "1")}, []citeGroup{{"/a", []string{"1"}}}},
		{"runs", []citation{c("/a", "1"), c("/a", "2"), c("/b", "3"), c("/a", "4")},
			[]citeGroup{{"/a", []string{"1", "2"}}, {"/b", []string{"3"}}, {"/a", []string{"4"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := groupCitations(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
