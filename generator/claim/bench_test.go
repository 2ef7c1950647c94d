package claim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// BenchmarkParseLiteral reads the claim literals of the reference site's
// shapes; the lexer reads each in one pass without regular expressions.
func BenchmarkParseLiteral(b *testing.B) {
	lits := []string{"86/86", "51.7%→0.21%", "약 40초", "約40秒", "Δ+1", "40.045811초", "1만 2천 건", "초당 1,250건",
		"0→46 (+46)", "409610바이트", "40秒弱", "43±1秒", "10∼20ms", "두 번", "2973 (+1)"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, l := range lits {
			if _, err := ParseLiteral(l); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(lits))*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
}

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
