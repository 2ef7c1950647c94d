package claim

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../content/*/docs/istio/*/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("---\nt: 1\n---\n[86/86](ev:s/a,b) [x](/y/)\n"))
	md := NewMarkdown()
	f.Fuzz(func(t *testing.T, src []byte) {
		p, errs := Parse(md, "f.md", src)
		for _, e := range errs {
			if e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
				t.Fatalf("error position %v outside file", e.Pos)
			}
		}
		for _, c := range p.Claims {
			if c.Pos.Offset < 0 || c.End > len(src) || c.Pos.Offset > c.End {
				t.Fatalf("claim span [%d,%d) outside file of %d bytes", c.Pos.Offset, c.End, len(src))
			}
			_, _ = ParseLiteral(c.Literal)
		}
	})
}

func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{"86/86", "51.7%→0.21%", "약 40초", "約40秒", "Δ+1", "８６％", "1,234.5ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLiteral(s)
		if err != nil {
			return
		}
		for _, q := range l.Quantities {
			if q.Start < 0 || q.End > len(s) || q.Start >= q.End {
				t.Fatalf("ParseLiteral(%q): quantity range [%d,%d)", s, q.Start, q.End)
			}
		}
	})
}
