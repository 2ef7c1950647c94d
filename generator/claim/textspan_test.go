package claim

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// textSpanOracle compares textSpan with textSpanWalk, the reading of
// any link by walking it, on every link and image of src read by md: the
// same span, text, offsets and flags, and the same slab after. It returns
// how many links had one text node as their only child (textSpan's fast
// path).
func textSpanOracle(t *testing.T, md goldmark.Markdown, src []byte) int {
	t.Helper()
	doc := md.Parser().Parse(text.NewReader(src))
	fast := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Link, *ast.Image:
		default:
			return ast.WalkContinue, nil
		}
		if tx, ok := n.FirstChild().(*ast.Text); ok && tx.NextSibling() == nil {
			fast++
		}
		// both slabs hold the same text before, as in a page's walk
		a := slab{lit: []byte("before ")}
		b := slab{lit: []byte("before ")}
		got, want := textSpan(n, src, &a), textSpanWalk(n, src, &b)
		if got.start != want.start || got.end != want.end || got.code != want.code || got.image != want.image ||
			string(got.literal) != string(want.literal) || !slices.Equal(got.offsets, want.offsets) ||
			string(a.lit) != string(b.lit) || cap(got.offsets) != cap(want.offsets) {
			t.Fatalf("%q: textSpan = %+v (slab %q), textSpanWalk = %+v (slab %q)", src, got, a.lit, want, b.lit)
		}
		return ast.WalkContinue, nil
	})
	return fast
}

// TestTextSpanEqualsWalk: on a generated page pair (480 claims each) and
// the reference site's pages, textSpan reads every link and image as
// textSpanWalk does.
func TestTextSpanEqualsWalk(t *testing.T) {
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 2, ClaimsPerPage: 480}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "content", "*", "*", "*.md"))
	ref, _ := filepath.Glob("../../content/*/docs/*/*/*.md")
	files = append(files, ref...)
	md := NewMarkdown()
	fast := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fast += textSpanOracle(t, md, b)
	}
	for _, src := range []string{
		"[86&percnt;](ev:a/b) [86\\%](ev:a/c) [a\nb](ev:a/d) [`1`](ev:a/e) [\"1\"](ev:a/f) ![7 ms](ev:a/g) [![i](x.png) 3](ev:a/h) [](ev:a/i) [*4* s](ev:a/j)",
	} {
		fast += textSpanOracle(t, md, []byte(src))
	}
	if len(files) < 3 || fast < 1000 {
		t.Fatalf("%d pages, %d links on the fast path: the test reads too little", len(files), fast)
	}
}
