package claim

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// TestParseScratchEqualsParse parses pages one after another in one
// Scratch, recycling each before the next, as the checker does, and
// compares every page with Parse's: generated pages of the benchmark
// site (hundreds of claims), a small page after them (a smaller page in
// a larger room), a page with more claims than inline claim links (its
// claims outgrow the room) and one without claims. It fails when the
// room is not reused, or when a parse reads what the page before left
// in it.
func TestParseScratchEqualsParse(t *testing.T) {
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 2, Seed: 1, ClaimsPerPage: 120}); err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	type page struct {
		name string
		src  []byte
	}
	var pages []page
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), "](ev:"); n >= 50 {
			pages = append(pages, page{filepath.Base(f), src})
		}
	}
	if len(pages) < 2 {
		t.Fatalf("%d generated pages with claims; the test compares too little", len(pages))
	}
	pages = append(pages,
		page{"small.md", []byte("---\ntitle: small\n---\n\n# 제목\n\n지연은 [약 38초](ev:a/x)이고 [1,200 ms ± 3%](ev:a/y, a/z)였다.\n\n| a | b |\n|---|---|\n| [5](ev:a/n) | 7 |\n")},
		page{"refs.md", []byte("---\ntitle: refs\n---\n\n[12 ms][r] and [13 ms][r] and [14 ms][r], [4](ev:b/c).\n\n[r]: ev:b/d\n")},
		page{"none.md", []byte("---\ntitle: none\n---\n\nNo claims, 3 numbers, 4.5 s.\n")},
		pages[0], // a large page again, in the room the small ones left
	)
	md := NewMarkdown()
	var sc Scratch
	reusedClaims, reusedBlocks := 0, 0
	for i, pg := range pages {
		want, wantErrs := Parse(md, pg.name, pg.src)
		roomClaims, roomBlocks := sc.claims, sc.blocks
		got, gotErrs := ParseScratch(md, pg.name, pg.src, &sc)
		if !reflect.DeepEqual(got.Claims, want.Claims) {
			t.Errorf("page %d (%s): claims differ from Parse's", i, pg.name)
		}
		if !reflect.DeepEqual(got.Blocks, want.Blocks) {
			t.Errorf("page %d (%s): blocks differ from Parse's", i, pg.name)
		}
		if !reflect.DeepEqual(got.Prose, want.Prose) || !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Errorf("page %d (%s): prose numbers or findings differ from Parse's", i, pg.name)
		}
		if cap(roomClaims) >= len(want.Claims) && len(got.Claims) > 0 && len(got.Claims) <= cap(roomClaims) && &got.Claims[0] == &roomClaims[:1][0] {
			reusedClaims++
		}
		if len(got.Blocks) > 0 && cap(roomBlocks) > 0 && &got.Blocks[0] == &roomBlocks[:1][0] {
			reusedBlocks++
		}
		sc.Recycle(got)
		if got.Claims != nil || got.Blocks != nil {
			t.Errorf("page %d (%s): Recycle left the page its claims or blocks", i, pg.name)
		}
		for k, c := range sc.claims[:cap(sc.claims)] {
			if !reflect.DeepEqual(c, Claim{}) {
				t.Fatalf("page %d (%s): the recycled room's claim %d is not zero", i, pg.name, k)
			}
		}
		for k, q := range sc.quantities[:cap(sc.quantities)] {
			if !reflect.DeepEqual(q, literal.Quantity{}) {
				t.Fatalf("page %d (%s): the recycled room's quantity %d is not zero", i, pg.name, k)
			}
		}
		for _, ch := range sc.slab.pos.free {
			for k, ps := range ch[:cap(ch)] {
				if ps.File != "" || ps.Offset != 0 {
					t.Fatalf("page %d (%s): the recycled room's reference position %d is not zero", i, pg.name, k)
				}
			}
		}
		for _, ch := range sc.slab.refs.free {
			for k, r := range ch[:cap(ch)] {
				if r != "" {
					t.Fatalf("page %d (%s): the recycled room's reference %d is not empty", i, pg.name, k)
				}
			}
		}
		if len(sc.slab.pos.used) > 0 || sc.slab.pos.cur != nil || len(sc.slab.lit) > 0 {
			t.Fatalf("page %d (%s): Recycle left the slab in use", i, pg.name)
		}
		for k, b := range sc.blocks[:cap(sc.blocks)] {
			if b.Inlines != nil || b.Kind != 0 {
				t.Fatalf("page %d (%s): the recycled room's block %d is not zero", i, pg.name, k)
			}
		}
	}
	if reusedClaims < 2 || reusedBlocks < 2 {
		t.Errorf("the claims' room was reused %d times, the blocks' %d; expected each to serve the later pages", reusedClaims, reusedBlocks)
	}
}

// FuzzParseScratch parses two pages one after the other in one Scratch,
// recycling each, and the first again, and compares each parse with
// Parse's.
func FuzzParseScratch(f *testing.F) {
	f.Add("---\ntitle: a\n---\n\n[약 38초](ev:a/x), [1,200 ms ± 3%](ev:a/y,a/z)\n\n| a |\n|---|\n| [5](ev:a/n) |\n", "[12 ms][r] [13 ms][r]\n\n[r]: ev:b/d\n")
	f.Add("# 제목 [3](ev:exempt \"n\")\n\n[51.7%→0.21%](ev:a,b) `x 4`\n", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		md := NewMarkdown()
		var sc Scratch
		for i, src := range []string{a, b, a} {
			want, wantErrs := Parse(md, "p.md", []byte(src))
			got, gotErrs := ParseScratch(md, "p.md", []byte(src), &sc)
			if !reflect.DeepEqual(got.Claims, want.Claims) || !reflect.DeepEqual(got.Blocks, want.Blocks) ||
				!reflect.DeepEqual(got.Prose, want.Prose) || !reflect.DeepEqual(gotErrs, wantErrs) {
				t.Fatalf("parse %d of %q differs from Parse's", i, src)
			}
			sc.Recycle(got)
		}
	})
}
