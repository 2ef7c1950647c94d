package check

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// FuzzRewriteKeepsStyle: the rewrite fix makes of a quantity for an
// evidence value (its Format, where fix accepts it) re-parses in the same
// style class — unit, duration or clock parts, magnitude words (1만 2천
// stays in 만 and 천), meridiem words, digit width, decimals — and
// passes against that value.
func FuzzRewriteKeepsStyle(f *testing.F) {
	for _, s := range []string{"1만 2천 건", "1万2000件", "3割5分", "1.2만 건", "12만", "１万２千", "−1만 2천",
		"14:03", "14:03:52.72", "오후 2시 3분", "午前9時", "2:03 PM KST", "14시", "午後2時3分52秒",
		"143h25m", "1분 30초", "PT1M30S", "86/86", "51.7%→0.21%", "약 40초", "Δ+1", "８６％", "1,234.5ms",
		"12% 감소", "±11%", "△5", "40여 건", "초당 1,250건", "5~10초", "43±1秒", "2.76k", "1.20M req/s", "3G"} {
		f.Add(s, int64(13042), int8(0))
		f.Add(s, int64(50632713), int8(-3))
	}
	opt := DefaultOptions()
	f.Fuzz(func(t *testing.T, lit string, vc int64, ve int8) {
		l, err := literal.ParseLiteral(lit)
		if err != nil {
			return
		}
		for i, q := range l.Quantities {
			if !q.Rewritable() {
				continue
			}
			val := decimal.New(vc, int32(ve%8))
			if q.Unit == literal.ClockUnit {
				val = val.Abs().Mod(decimal.NewFromInt(86400)) // a time of day
			}
			if q.SignWord != "" && val.Sign() != 0 && val.Sign() != q.Value.Sign() {
				continue // 감소 on an increase: fix leaves it to a person
			}
			if q.ZeroPart(val) {
				continue // 1만 0천: fix leaves it to a person
			}
			v := &evidence.Value{Ref: "s/v", Value: val, Unit: q.Unit, Delta: q.Delta, Derived: true}
			nw := q.Format(val)
			if !literal.RewriteKeepsReading(lit, q, nw) {
				continue // fix leaves it to a person
			}
			again := lit[:q.NumStart] + nw + lit[q.NumEnd:]
			l2, err := literal.ParseLiteral(again)
			if err != nil || len(l2.Quantities) != len(l.Quantities) {
				t.Fatalf("%q rewritten for %v as %q: %v, %d quantities", lit, val, again, err, len(l2.Quantities))
			}
			q2 := l2.Quantities[i]
			if q2.Unit != q.Unit || len(q2.Parts) != len(q.Parts) || len(q2.MagParts) != len(q.MagParts) || q2.MagnitudeWord != q.MagnitudeWord ||
				(q2.Meridiem == "") != (q.Meridiem == "") || q2.FullWidth != q.FullWidth || q2.Decimals != q.Decimals || q2.Word {
				t.Fatalf("%q rewritten for %v as %q changes its style: %+v → %+v", lit, val, again, q, q2)
			}
			if ok, want := Match(q2, l2.Approx, v, opt); !ok {
				t.Fatalf("%q rewritten for %v as %q does not pass: expected %s", lit, val, again, want)
			}
		}
	})
}
