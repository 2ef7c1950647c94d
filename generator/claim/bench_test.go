package claim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// benchPages returns the Korean and Japanese page of a one-page site
// written by benchgen (issue 14's page shape: ~40 KB, 480 bound claims).
func benchPages(b *testing.B) [][]byte {
	b.Helper()
	dir := b.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 1, ClaimsPerPage: 480}); err != nil {
		b.Fatal(err)
	}
	var out [][]byte
	for _, lang := range []string{"ko", "ja"} {
		src, err := os.ReadFile(filepath.Join(dir, "content", lang, "bench", "p00001.md"))
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, src)
	}
	return out
}

// BenchmarkParsePage is claim.Parse of a generated page pair: one goldmark
// parse and one walk each, reading claims, literals, prose numbers and the
// blocks the translation checks compare. MB/s counts Markdown bytes.
func BenchmarkParsePage(b *testing.B) {
	pages := benchPages(b)
	md := NewMarkdown()
	size, claims := 0, 0
	for _, src := range pages {
		size += len(src)
		p, _ := Parse(md, "p.md", src)
		claims += len(p.Claims)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range pages {
			Parse(md, "p.md", src)
		}
	}
	b.ReportMetric(float64(claims)*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
}
