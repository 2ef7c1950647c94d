package claim

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestBOMPositions holds that a page saved with a UTF-8 byte order mark
// gives its claims and findings the same lines and columns as the page
// without one (the mark takes no column, as in an editor), on line 1 too.
func TestBOMPositions(t *testing.T) {
	pages := []string{
		"[3건](ev:lab/ok.count) 성공\n",
		"+++\ntitle = \"t\"\n+++\n[86/86](ev:lab/ok.count) 성공, [2건](ev:lab/fail.count)\n",
		"---\ntitle: t\n---\n\n표: [51.7%→0.21%](ev:lab/a.rate ev:lab/b.rate)\n",
		"[3건]() 성공\n",
		"[3건](ev:) and [x](ev:lab/a)\n",
		"+++\ntitle = \"t\"\n",
	}
	lc := func(p diag.Position) [2]int { return [2]int{p.Line, p.Column} }
	md := NewMarkdown()
	claims, findings := 0, 0
	defer func() {
		if claims == 0 || findings == 0 {
			t.Errorf("%d claims and %d findings compared; want some of each", claims, findings)
		}
	}()
	for _, src := range pages {
		plain, perrs := Parse(md, "p.md", []byte(src))
		marked, merrs := Parse(md, "p.md", []byte("\ufeff"+src))
		if len(plain.Claims) != len(marked.Claims) {
			t.Errorf("%q: %d claims, with a BOM %d", src, len(plain.Claims), len(marked.Claims))
			continue
		}
		claims += len(plain.Claims)
		findings += len(perrs)
		for i := range plain.Claims {
			a, b := plain.Claims[i], marked.Claims[i]
			if lc(a.Pos) != lc(b.Pos) || lc(a.RefPos) != lc(b.RefPos) || b.Pos.Offset != a.Pos.Offset+3 {
				t.Errorf("%q: claim %d at %s (reference %s), with a BOM at %s (%s)", src, i, a.Pos, a.RefPos, b.Pos, b.RefPos)
			}
		}
		if len(perrs) != len(merrs) {
			t.Errorf("%q: findings %v, with a BOM %v", src, perrs, merrs)
			continue
		}
		for i := range perrs {
			if lc(perrs[i].Pos) != lc(merrs[i].Pos) || lc(perrs[i].End) != lc(merrs[i].End) || perrs[i].Message != merrs[i].Message {
				t.Errorf("%q: finding %s, with a BOM %s", src, perrs[i], merrs[i])
			}
		}
	}
}
