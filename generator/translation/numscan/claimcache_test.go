package numscan

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// testUnits gives each reference a unit by its last byte: none, a time,
// a ratio or a count, so that numbers written without a unit are read in
// their value's unit.
func testUnits(ref string) (string, bool) {
	if ref == "" {
		return "", false
	}
	return [...]string{"", "ms", "ratio", "%", "s"}[int(ref[len(ref)-1])%5], true
}

// compareCached checks that ClaimNumbersCached, with one cache for the
// page's claims in page order, returns for every claim of p what
// ClaimNumbers returns: the same numbers, each span read from the same
// quantity of the claim's own reading. It returns how many claims were
// read from the cache.
func compareCached(t *testing.T, p *claim.Page, lang string) int {
	t.Helper()
	src := string(p.Source)
	var cache ClaimCache
	var sl, sl2 Slab
	for i := range p.Claims {
		c := &p.Claims[i]
		if c.Exempt {
			continue
		}
		got := ClaimNumbersCached(src, c, lang, &sl, testUnits, &cache)
		want := ClaimNumbers(src, c, lang, &sl2, testUnits)
		if len(got) != len(want) {
			t.Fatalf("%s: claim %d [%s]: %d numbers from the cache, %d read anew", p.Path, i, c.Literal, len(got), len(want))
		}
		for k := range got {
			g, w := got[k], want[k]
			if g.spanQ != w.spanQ {
				t.Errorf("%s: claim %d [%s] number %d: span read from %p, anew from %p (the claim's own quantity)", p.Path, i, c.Literal, k, g.spanQ, w.spanQ)
			}
			g.spanQ, w.spanQ = nil, nil
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: claim %d [%s] number %d:\ncached %+v\nanew   %+v", p.Path, i, c.Literal, k, g, w)
			}
		}
	}
	return cache.hits
}

// TestClaimNumbersCachedEqual compares ClaimNumbersCached with
// ClaimNumbers on a generated page and its translation (where values are
// quoted again) and on the reference site's pages.
func TestClaimNumbersCachedEqual(t *testing.T) {
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 3, ClaimsPerPage: 480}); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "content", "ko", "bench", "p00001.md"), filepath.Join(dir, "content", "ja", "bench", "p00001.md")}
	err := filepath.WalkDir("../../../content", func(path string, e fs.DirEntry, err error) error {
		if err == nil && filepath.Ext(path) == ".md" {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	md := claim.NewMarkdown()
	hits := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := claim.Parse(md, path, src)
		lang := "ko"
		if strings.Contains(filepath.ToSlash(path), "/ja/") {
			lang = "ja"
		}
		hits += compareCached(t, p, lang)
	}
	if len(paths) < 10 || hits < 100 {
		t.Fatalf("%d pages, %d claims read from the cache: the test compares too little", len(paths), hits)
	}
}

// TestClaimNumbersCachedReading: a claim read from the cache must have
// been read alike by the grammar; one whose reading differs (a quantity's
// value, exponent, unit or spread) is read anew, and a span is always
// read from the claim's own quantity.
func TestClaimNumbersCachedReading(t *testing.T) {
	md := claim.NewMarkdown()
	p, _ := claim.Parse(md, "content/ko/p.md", []byte("약 [1.50초 ± 0.2초](ev:r/t.x) 뒤\n\n약 [1.50초 ± 0.2초](ev:r/t.x) 뒤\n\n약 [1.50초 ± 0.2초](ev:r/t.x) 뒤\n"))
	if len(p.Claims) != 3 {
		t.Fatalf("%d claims, expected 3", len(p.Claims))
	}
	// the second claim's reading changed as a grammar reading the page
	// around a literal might: not the first claim's numbers any more
	q := &p.Claims[1].Parsed.Quantities[0]
	q.Value = q.Value.Add(q.Value)
	p.Claims[2].Parsed.Quantities[0].Spread = nil
	if hits := compareCached(t, p, "ko"); hits != 0 {
		t.Errorf("%d claims read from the cache; their readings differ from the first's", hits)
	}
	p2, _ := claim.Parse(md, "content/ko/p.md", []byte("약 [1.50초 ± 0.2초](ev:r/t.x) 뒤\n\n약 [1.50초 ± 0.2초](ev:r/t.x) 뒤\n"))
	if hits := compareCached(t, p2, "ko"); hits != 1 {
		t.Errorf("%d claims read from the cache, expected 1", hits)
	}
	for _, a := range []string{"1.5", "1.50", "1.500"} {
		x, _ := claim.Parse(md, "p.md", []byte("[1.50초](ev:r/t.x)\n"))
		y, _ := claim.Parse(md, "p.md", []byte("[1.50초](ev:r/t.x)\n"))
		// the same literal read at another precision: the same value
		x.Claims[0].Parsed.Quantities[0].Value = decimal.RequireFromString(a)
		if got, want := sameReading(&x.Claims[0], &y.Claims[0]), a == "1.50"; got != want {
			t.Errorf("sameReading of %s and 1.50 = %v, expected %v (1.5 and 1.500 are another precision)", a, got, want)
		}
	}
}

// FuzzClaimNumbersCached compares ClaimNumbersCached with ClaimNumbers on
// every claim of any page, and of the page written twice (every claim
// then quoted again).
func FuzzClaimNumbersCached(f *testing.F) {
	for _, s := range []string{
		"약 [40초](ev:r/x) 동안, 약 [40초](ev:r/x) 동안 최대 [3단계](ev:r/y)까지\n",
		"| a | b |\n|---|---|\n| [1분 30초](ev:r/t.x) | [18 (+1)](ev:a,b) |\n",
		"[0.9975](ev:r/z) [43±1초](ev:r/w) [51.7%→0.21%](ev:a,b)まで [▲3](ev:r/v)\n",
		"各列の時点は、MID1が[12秒](ev:r/a)。[12秒](ev:r/a)\n",
	} {
		f.Add(s)
	}
	md := claim.NewMarkdown()
	f.Fuzz(func(t *testing.T, body string) {
		for _, lang := range []string{"ko", "ja"} {
			for _, text := range []string{body, body + "\n\n" + body} {
				p, _ := claim.Parse(md, "content/"+lang+"/p.md", []byte(text))
				compareCached(t, p, lang)
			}
		}
	})
}

// BenchmarkClaimNumbers reads the numbers of every claim of a generated
// Korean page, each read anew (plain) and through one ClaimCache a page
// (cached).
func BenchmarkClaimNumbers(b *testing.B) {
	dir := b.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 1, ClaimsPerPage: 480}); err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "content", "ko", "bench", "p00001.md"))
	if err != nil {
		b.Fatal(err)
	}
	p, _ := claim.Parse(claim.NewMarkdown(), "ko.md", src)
	text := string(p.Source)
	for _, cached := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "cached"}[cached]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var sl Slab
				var cache ClaimCache
				cache.Grow(len(p.Claims))
				for i := range p.Claims {
					if c := &p.Claims[i]; !c.Exempt {
						if cached {
							ClaimNumbersCached(text, c, "ko", &sl, testUnits, &cache)
						} else {
							ClaimNumbers(text, c, "ko", &sl, testUnits)
						}
					}
				}
			}
		})
	}
}
