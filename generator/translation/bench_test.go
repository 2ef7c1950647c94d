package translation

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// BenchmarkCheckPair is the parity and staleness check of a generated
// Korean page and its Japanese translation (issue 14's page shape: ~40 KB,
// 480 bound claims each), parsed once beforehand as evdoc check parses
// them. MB/s counts both pages' Markdown.
func BenchmarkCheckPair(b *testing.B) {
	dir := b.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 1, ClaimsPerPage: 480}); err != nil {
		b.Fatal(err)
	}
	md := claim.NewMarkdown()
	var pages []*Page
	size, claims := 0, 0
	for _, lang := range []string{"ko", "ja"} {
		src, err := os.ReadFile(filepath.Join(dir, "content", lang, "bench", "p00001.md"))
		if err != nil {
			b.Fatal(err)
		}
		p, _ := claim.Parse(md, lang+".md", src)
		pages = append(pages, &Page{Lang: lang, Path: lang + ".md", Parsed: p, FrontMatter: map[string]any{}})
		size += len(src)
		claims += len(p.Claims)
	}
	pr := PagePair{Source: pages[0], Target: pages[1]}
	if ds := CheckPair(pr, nil); len(ds) > 0 {
		b.Fatalf("the generated translation disagrees: %v", ds[0])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		CheckPair(pr, nil)
	}
	b.ReportMetric(float64(claims)*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
}
