package claim

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
)

// TestLiteralCacheAcrossPages: a literal an earlier page read (the
// process-wide litCache) reads in a later page as it does alone, in the
// later page's own quantities, also after the earlier page's room was
// recycled and written over by a third page.
func TestLiteralCacheAcrossPages(t *testing.T) {
	md := NewMarkdown()
	a := "[약 38초](ev:s/a) [319.5 ± 11.2ms](ev:s/b) [1분 30초](ev:s/c) [+9](ev:s/d) [51.7%→0.21%](ev:s/e,s/f) [세 번](ev:s/g)\n"
	b := "다시 [+9](ev:t/d), [약 38초](ev:t/a) 그리고 [1분 30초](ev:t/c), [319.5 ± 11.2ms](ev:t/b), [51.7%→0.21%](ev:t/e,t/f) [세 번](ev:exempt \"a count\")\n"
	c := "[12 hz](ev:u/a) [7](ev:u/b) [1,200 ms ± 3%](ev:u/c,u/d) [2만 건](ev:u/e) [3~5초](ev:u/f) [5x](ev:u/g)\n"
	var sc Scratch
	pa, _ := ParseScratch(md, "a.md", []byte(a), &sc)
	literalOracle(t, pa)
	for _, cl := range pa.Claims {
		if _, ok := cachedLiteral(cl.Literal); !ok {
			t.Fatalf("%q is not in the cache after page a", cl.Literal)
		}
	}
	pb, _ := Parse(md, "b.md", []byte(b))
	sc.Recycle(pa)
	pc, _ := ParseScratch(md, "c.md", []byte(c), &sc) // writes over a's room
	literalOracle(t, pb)
	literalOracle(t, pc)
	for i := range pb.Claims {
		for j := range pc.Claims {
			qb, qc := pb.Claims[i].Parsed.Quantities, pc.Claims[j].Parsed.Quantities
			if len(qb) > 0 && len(qc) > 0 && &qb[0] == &qc[0] {
				t.Fatalf("claims %q and %q share their quantities", pb.Claims[i].Literal, pc.Claims[j].Literal)
			}
		}
	}
}

// TestLiteralCacheBounded: the cache, filled by one goroutine, never
// holds more than litCacheMax literals, nor one longer than litCacheLen bytes, and a literal with an
// error is never kept.
func TestLiteralCacheBounded(t *testing.T) {
	var qs [8]literal.Quantity
	for i := range litCacheMax + 10 {
		if _, err := readLiteral(fmt.Sprintf("%d ms", i), qs[:0:len(qs)]); err != nil {
			t.Fatal(err)
		}
		if i%1024 != 0 && i < litCacheMax-2 {
			continue
		}
		if n := litCacheLenNow(); n > litCacheMax || n == 0 {
			t.Fatalf("after %d literals the cache holds %d", i+1, n)
		}
		if _, ok := cachedLiteral(fmt.Sprintf("%d ms", i)); !ok {
			t.Fatalf("%d ms, the last literal read, is not in the cache", i)
		}
	}
	long := strings.Repeat("1", litCacheLen) + " ms"
	if _, err := readLiteral(long, qs[:0:len(qs)]); err != nil {
		t.Fatal(err)
	}
	if _, ok := cachedLiteral(long); ok {
		t.Errorf("a literal of %d bytes was kept", len(long))
	}
	if _, err := readLiteral("12 ms 외", qs[:0:len(qs)]); err == nil {
		t.Fatal("12 ms 외 read without an error")
	}
	if _, ok := cachedLiteral("12 ms 외"); ok {
		t.Error("a literal with an error was kept")
	}
}

// FuzzLiteralCache: a literal read through the cache (read, then read
// again from the cache as the parse copies it) is what
// literal.ParseInto reads of it alone.
func FuzzLiteralCache(f *testing.F) {
	for _, s := range []string{"약 38초", "319.5 ± 11.2ms", "1분 30초", "+9", "51.7%→0.21%", "세 번", "1,200 ms ± 3%", "2만 건", "3~5초", "오후 2시 3분", "143h25m", "▲12%", "Δ+0.5", "１２３件"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		want, werr := literal.ParseInto(lit, nil, true)
		n := literal.DigitRuns(lit)
		got, gerr := readLiteral(lit, make([]literal.Quantity, 0, n))
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: read %+v (%v), alone %+v (%v)", lit, got, gerr, want, werr)
		}
		l, ok := cachedLiteral(lit)
		if ok != (werr == nil && len(lit) <= litCacheLen) {
			t.Fatalf("%q: kept %v with error %v", lit, ok, werr)
		}
		if ok {
			again := sameLiteral(l, make([]literal.Quantity, 0, n))
			if !reflect.DeepEqual(again, want) {
				t.Fatalf("%q: read from the cache %+v, alone %+v", lit, again, want)
			}
		}
	})
}

// TestLiteralCacheConcurrent: pages parsed at once by several
// goroutines, each in its own Scratch, read their shared literals as
// they read alone (run with -race: the cache is read and filled without
// a lock).
func TestLiteralCacheConcurrent(t *testing.T) {
	pages := []string{
		"[약 38초](ev:s/a) [319.5 ± 11.2ms](ev:s/b) [1분 30초](ev:s/c) [+9](ev:s/d)\n",
		"[+9](ev:t/d), [약 38초](ev:t/a) [51.7%→0.21%](ev:t/e,t/f) [세 번](ev:t/g) [12 hz](ev:t/h)\n",
		"[12 hz](ev:u/a) [1,200 ms ± 3%](ev:u/c,u/d) [2만 건](ev:u/e) [3~5초](ev:u/f) [319.5 ± 11.2ms](ev:u/b)\n",
	}
	md := NewMarkdown()
	errs := make(chan string, 4)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var sc Scratch
			for k := range 50 {
				src := pages[(g+k)%len(pages)]
				p, _ := ParseScratch(md, "p.md", []byte(src), &sc)
				for i := range p.Claims {
					c := &p.Claims[i]
					want, _ := literal.ParseInto(c.Literal, nil, !c.Exempt)
					if !reflect.DeepEqual(c.Parsed, want) {
						errs <- fmt.Sprintf("%q: read %+v, alone %+v", c.Literal, c.Parsed, want)
						return
					}
				}
				sc.Recycle(p)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// litCacheLenNow returns how many literals the cache holds.
func litCacheLenNow() int {
	litMu.Lock()
	defer litMu.Unlock()
	n := len(litNew)
	if m := litSnap.Load(); m != nil {
		n += len(*m)
	}
	return n
}
