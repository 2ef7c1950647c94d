package raw

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestReadingsKeepEveryField: Readings gives back every reading exactly
// as added, packed or held whole: values beyond int64 (19 and 20
// digits), trailing zeros (1.50 is not 1.5), a negative exponent, an
// ambiguous comma's other reading, spreads, aggregates, a raw text that
// is not the file's bytes at its position, a position in another file,
// keys with and without a leaf, repeated stems, and a reading changed
// after it was added.
func TestReadingsKeepEveryField(t *testing.T) {
	src := []byte("a=1.50 b=9223372036854775807 c=92233720368547758070\nd=1,232 e=-0.000125 f=7ms\n")
	ix := diag.NewLineIndex("f", src)
	dec := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }
	at := func(off int, raw string) diag.Position { return ix.Pos(off) }
	amb, ok := ParseCell("1,232")
	if !ok || amb.Comma != CommaAmbiguous {
		t.Fatalf("ParseCell(1,232) = %+v", amb)
	}
	rs := []Reading{
		{Key: "r1.a", Number: Number{Value: dec("1.50"), End: 4}, Raw: "1.50", Pos: at(2, "1.50")},
		{Key: "r1.b", Number: Number{Value: dec("9223372036854775807"), End: 19}, Raw: "9223372036854775807", Pos: at(9, "")},
		{Key: "r1.c", Number: Number{Value: dec("92233720368547758070"), End: 20}, Raw: "92233720368547758070", Pos: at(31, "")},
		{Key: "r2.d", Number: amb, Raw: "1,232", Pos: at(54, "")},
		{Key: "r2.e", Number: Number{Value: dec("-0.000125"), End: 9, Signed: true, UnitFromName: true}, Raw: "-0.000125", Pos: at(62, "")},
		{Key: "r2.e_pm", Number: Number{Value: dec("7"), Unit: "ms", End: 3}, Raw: "7ms", Pos: at(74, ""), SpreadOf: "r2.e", SpreadRelative: true},
		{Key: "count", Number: Number{Value: dec("2"), End: 1}, Raw: "x", Pos: at(0, ""), Inputs: []diag.Position{at(2, ""), at(9, "")}},
		{Key: "g", Number: Number{Value: dec("3"), End: 1}, Raw: "3", Pos: diag.Position{File: "other", Line: 1, Column: 1}},
		{Key: "r2.f", Number: Number{Value: dec("7"), Unit: "ms", Start: 0, End: 1}, Raw: "7ms", Pos: at(74, "")},
		{Key: ".lead", Number: Number{Value: dec("7"), Implied: true, End: 3}, Raw: "7ms", Pos: at(74, "")},
		{Key: "trail.", Number: Number{Value: dec("0"), End: 3}, Raw: "7ms", Pos: at(74, "")},
	}
	l := ListOf("f", src, rs)
	for i := range rs {
		// a change through at after later readings were added is kept
		if i == 1 {
			l.Ref(0).Number.Unit = "s"
			l.Flush()
			rs[0].Number.Unit = "s"
		}
	}
	if l.Len() != len(rs) {
		t.Fatalf("%d readings, want %d", l.Len(), len(rs))
	}
	for i, want := range rs {
		got := l.At(i)
		if g, w := fmt.Sprintf("%+v|%s|%d", got, got.Number.Alt, got.Number.Value.Exponent()), fmt.Sprintf("%+v|%s|%d", want, want.Number.Alt, want.Number.Value.Exponent()); g != w {
			t.Errorf("reading %d:\n got %s\nwant %s", i, g, w)
		}
	}
	if l.full.n == 0 || l.full.n == len(rs) {
		t.Errorf("%d of %d readings held whole; want the packable ones packed", l.full.n, len(rs))
	}
}

// TestKeyCountsNumberAsAMap: rawRead.add numbers repeated keys ("#2",
// "#3", …) exactly as counting every key in a map would, through the
// table's growth, keys held whole or packed (with and without an interned
// leaf, more leaves than are interned), a key that itself ends in "#5",
// readings dropUnkept drops or moves (a dropped first reading still
// counts) and the access log's per-line reset.
func TestKeyCountsNumberAsAMap(t *testing.T) {
	const lines = 3000
	src := []byte(strings.Repeat("1 1 1 1 1 1 1 1\n", lines))
	r, errs := StartRead("f", src, diag.EvidenceHey)
	if errs != nil {
		t.Fatal(errs)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pool := []string{"a", "a#5", "b.x", "b.y", "c.d.e", "r1.duration"}
	ref := map[string]int{}
	var want []string
	drop := &dropped{}
	for line := range lines {
		if line%500 == 499 { // as ReadAccessLog between lines
			r.seen.reset()
			clear(ref)
		}
		before := r.Out.Len()
		var added []string
		for j := range 1 + rng.IntN(8) {
			var key string
			switch rng.IntN(4) {
			case 0:
				key = pool[rng.IntN(len(pool))]
			case 1:
				key = fmt.Sprintf("k%d.leaf%d", rng.IntN(50), rng.IntN(3)) // repeats
			default:
				key = fmt.Sprintf("u%d.v%d", line, j) // distinct; its leaves pass maxLeaves
			}
			r.Add(key, 16*line+2*j, "1", decimal.NewFromInt(1), "")
			ref[key]++
			if n := ref[key]; n > 1 {
				key = fmt.Sprintf("%s#%d", key, n)
			}
			added = append(added, key)
		}
		kept := map[string]bool{}
		for _, k := range added {
			kept[k] = rng.IntN(3) > 0
		}
		if line%2 == 0 {
			r.dropUnkept(before, func(k string) bool { return kept[k] }, drop)
			for _, k := range added {
				if kept[k] {
					want = append(want, k)
				}
			}
		} else {
			want = append(want, added...)
		}
	}
	if len(r.Errs) > 0 {
		t.Fatal(r.Errs)
	}
	got, _ := r.Result()
	if got.Len() != len(want) {
		t.Fatalf("%d readings, want %d", got.Len(), len(want))
	}
	for i, k := range want {
		if g := got.At(i).Key; g != k {
			t.Fatalf("reading %d: key %q, want %q", i, g, k)
		}
	}
}
