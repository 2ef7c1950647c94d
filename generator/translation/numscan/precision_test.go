package numscan

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// FuzzClaimPrecision holds parity's reading of two claims of one value to
// the judge's: for two literals of one number each, as the claim grammar
// reads them (a Korean claim and a Japanese one), parity agrees on their
// values exactly when a value exists that the judge finds both right
// for at their written precision (check.Match): where it agrees, the
// middle of the values the two stand for matches both; where it
// disagrees, neither number's value matches the other claim. It agrees
// alike whichever page is the source.
func FuzzClaimPrecision(f *testing.F) {
	for _, p := range [][2]string{
		{"1만 3천 건", "1万3042件"}, {"1.3만 건", "13,042件"}, {"1.2초", "1,234ms"}, {"14시", "14:03"}, {"약 1만 3천 건", "約1万3042件"},
		{"1만 3천 건", "1万4000件"}, {"13,000건", "13,042件"}, {"1.3초", "1,234ms"}, {"14시", "15:00"}, {"40초", "41秒"},
		{"두 번", "三回"}, {"2.5GB", "2,512MB"}, {"43±1초", "44秒"}, {"12.5%", "12.46%"}, {"1분 30초", "90秒"}, {"-1.2초", "-1,180ms"},
	} {
		f.Add(p[0], p[1])
	}
	md := claim.NewMarkdown()
	opt := check.DefaultOptions()
	// read returns the one number of the claim [lit](ev:r/t.x) and its
	// quantity, when the claim grammar reads one signless number without
	// a comparator or a ± tolerance there
	read := func(lit, lang string) (Number, literal.Quantity, bool) {
		p, _ := claim.Parse(md, "content/"+lang+"/p.md", []byte("["+lit+"](ev:r/t.x)\n"))
		if len(p.Claims) != 1 {
			return Number{}, literal.Quantity{}, false
		}
		c := &p.Claims[0]
		if c.ParseErr != nil || len(c.Parsed.Quantities) != 1 || c.Parsed.Cmp != "" || c.Parsed.Quantities[0].Spread != nil {
			// (a written ± is a spread, compared as a number of its
			// own: the judge checks it against the value's spread)
			return Number{}, literal.Quantity{}, false
		}
		q := c.Parsed.Quantities[0]
		ns := ClaimNumbers(string(p.Source), c, lang, &Slab{}, nil)
		if len(ns) != 1 || !ns[0].span || ns[0].Sign != "" || ns[0].Cmp != "" || q.Delta || q.Sign != "" {
			return Number{}, literal.Quantity{}, false
		}
		return ns[0], q, true
	}
	// matches reports whether the judge finds q right for the value v
	// in parity's base unit n.Unit (the value given in q's own unit)
	matches := func(n Number, q literal.Quantity, v decimal.Decimal) bool {
		f := decimal.NewFromInt(1)
		if bu, ok := parityUnits[q.Unit]; ok {
			f = bu.factor
		}
		ok, _ := check.Match(q, literal.Exact, &evidence.Value{Value: v.Div(f), Unit: q.Unit, Derived: true}, opt)
		return ok
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 64 || len(b) > 64 {
			return // a claim's one number; longer literals read no differently
		}
		na, qa, ok := read(a, "ko")
		if !ok {
			return
		}
		nb, qb, ok := read(b, "ja")
		if !ok || na.Unit != nb.Unit {
			return
		}
		agree := valuesAgree(na, nb)
		if agree != valuesAgree(nb, na) {
			t.Fatalf("[%s] and [%s]: valuesAgree is not symmetric", a, b)
		}
		if na.Value.Equal(nb.Value) {
			return
		}
		if agree {
			aBelow, aAbove := na.spanOf()
			bBelow, bAbove := nb.spanOf()
			lo := decimal.Max(na.Value.Sub(aBelow), nb.Value.Sub(bBelow))
			hi := decimal.Min(na.Value.Add(aAbove), nb.Value.Add(bAbove))
			mid := lo.Add(hi).Div(decimal.NewFromInt(2))
			if !matches(na, qa, mid) || !matches(nb, qb, mid) {
				t.Fatalf("[%s] and [%s] agree in parity, but the judge does not find both right for %s %s", a, b, mid, na.Unit)
			}
			return
		}
		if matches(na, qa, nb.Value) || matches(nb, qb, na.Value) {
			t.Fatalf("[%s] and [%s] disagree in parity, but the judge finds one right for the other's value", a, b)
		}
	})
}
