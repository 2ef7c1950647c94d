package site

import (
	"fmt"
	"strings"
	"testing"

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
	vf := &viewerFile{File: "evidence/big/big.stats", Set: set, Lines: lines, Starts: windowStarts(lines)}
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
		for i, h := range highlightLines(file, lines) {
			if strings.Contains(h, "<b>") || strings.Contains(h, "<script>") {
				t.Errorf("%s line %d not escaped: %s", file, i+1, h)
			}
			if got := stripTags(h); got != esc.Replace(lines[i]) {
				t.Errorf("%s line %d: text %q, want %q", file, i+1, got, esc.Replace(lines[i]))
			}
		}
	}
}
