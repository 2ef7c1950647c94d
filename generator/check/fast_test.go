package check

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// TestMatchFast: matchFast decides the common matches in int64 and leaves
// mismatches, conversions, magnitudes and numbers that overflow an int64
// to matchDecimal; whatever it decides, matchDecimal agrees.
func TestMatchFast(t *testing.T) {
	tests := []struct {
		lit, value string // value as a raw cell: number and unit
		derived    bool
		fast       bool // decided by matchFast
		ok         bool // Match's answer
	}{
		{"44%", "43.9024390243902439%", false, true, true},
		{"44.0%", "43.9024390243902439%", false, false, false},
		{"51.7%", "51.75%", false, true, true}, // the edge: ½ step above
		{"51.7%", "51.65%", false, true, true}, // ½ step below
		{"51.7%", "51.7500000000000001%", false, false, false},
		{"51.7%", "51.6499999999999999%", false, false, false},
		{"86", "86", false, true, true},
		{"85", "86", false, false, false},
		{"0", "0", false, true, true},
		{"0", "0.4", false, true, true},
		{"0", "-0.5", false, true, true},
		{"0", "-0.51", false, false, false},
		// negative numbers
		{"-3", "-3.4", false, true, true},
		{"-3", "-3.6", false, false, false},
		{"−2.5초", "-2.54s", false, true, true},
		{"+1", "+1", false, true, true},
		{"+1", "1", false, false, false}, // signed, not a difference
		{"Δ-1", "Δ-1", false, true, true},
		// precision: the literal may not be finer than the record
		{"40.05초", "40.045811s", false, true, true},
		{"40.05초", "40.1s", false, false, false},
		{"40.00초", "40.0s", false, false, false},
		{"40.00초", "40.0s", true, true, true}, // derived: no such rule
		{"1500", "1500", false, true, true},
		{"1500", "1.5e3", false, true, true},
		{"1500", "2e3", false, false, false}, // 1500 claims to the hundred
		// approximation words
		{"약 40초", "43s", false, true, true},
		{"약 40초", "44s", false, true, true}, // 10% of 40, the edge
		{"약 40초", "44.01s", false, false, false},
		{"약 40초", "36s", false, true, true},
		{"40초 남짓", "43s", false, true, true},
		{"40초 남짓", "39.4s", false, false, false},
		{"40秒弱", "37s", false, true, true},
		{"40秒弱", "40.6s", false, false, false},
		{"약 -40초", "-43s", false, true, true},
		// a number after ± is a spread, judged on its own (judgeSpread):
		// the mean is matched at its precision, never widened by it
		{"43±1秒", "43.4s", false, true, true},
		{"43±1秒", "44s", false, false, false},
		// large and long numbers: 18 digits stay fast, more go to math/big
		{"123456789012345678", "123456789012345678", false, true, true},
		{"123456789012345678", "123456789012345678.4", false, false, true}, // 19 digits
		{"1234567890123456789", "1234567890123456789", false, false, true},
		{"9223372036854775808", "9223372036854775808", false, false, true},
		{"1", "9223372036854775808", false, false, false},
		{"0.123456789012345", "0.1234567890123454", false, true, true},
		{"0.1234567890123456", "0.1234567890123456", false, false, true}, // 16 decimals
		{"1.5", "1.5000000000000000000001", false, false, true},
		// units: a conversion or a magnitude word is decimal's
		{"1.5초", "1500ms", false, false, true},
		{"1500ms", "1500ms", false, true, true},
		{"12만", "120000", false, false, true},
		{"40초", "40", false, false, false}, // evidence without a unit
		{"40", "40s", false, true, true},
		// zero at any exponent: a derived 0 carries 28 decimals
		{"0.0%", "0.0000000000000000000000000000%", true, true, true},
		{"0.0%", "0.0000000000000000000000000001%", true, false, true},
	}
	opt := DefaultOptions()
	for _, tt := range tests {
		l, err := literal.ParseLiteral(tt.lit)
		if err != nil {
			t.Fatalf("%q: %v", tt.lit, err)
		}
		n, ok := raw.ParseCell(tt.value)
		if !ok {
			t.Fatalf("value %q", tt.value)
		}
		v := &evidence.Value{Ref: "s/v", Value: n.Value, Unit: n.Unit, Delta: n.Signed, Derived: tt.derived}
		q := l.Quantities[0]
		fast := matchFast(&q, l.Approx, v, opt)
		slow, _ := matchDecimal(q, l.Approx, v, opt)
		got, _ := Match(q, l.Approx, v, opt)
		if fast != tt.fast || slow != tt.ok || got != tt.ok {
			t.Errorf("%q against %s: matchFast %v, matchDecimal %v, Match %v; want %v, %v, %v", tt.lit, tt.value, fast, slow, got, tt.fast, tt.ok, tt.ok)
		}
	}
}

// TestMatchRangeFast: as TestMatchFast, for a range bound to one value.
func TestMatchRangeFast(t *testing.T) {
	tests := []struct {
		lit, value string
		fast, ok   bool
	}{
		{"35〜38秒", "36.2s", true, true},
		{"35〜38秒", "34.5s", true, true},
		{"35〜38秒", "38.5s", true, true},
		{"35〜38秒", "38.51s", false, false},
		{"35〜38秒", "34.49s", false, false},
		{"약 10~20초", "22s", true, true},
		{"약 10~20초", "9s", true, true},
		{"약 10~20초", "22.1s", false, false},
		{"-5~5", "-5.5", true, true},
		{"-5~5", "-5.51", false, false},
		{"10~20ms", "0.015s", false, true}, // a conversion
		{"1~2초", "1.5s", true, true},
		{"1~2초", "1.5", false, false},                   // evidence without a unit
		{"1~2초", "1.2345678901234567890s", false, true}, // 20 digits
		{"0~1", "0.0000000000000000000000000000", true, true},
	}
	opt := DefaultOptions()
	for _, tt := range tests {
		l, err := literal.ParseLiteral(tt.lit)
		if err != nil || !l.Range || len(l.Quantities) != 2 {
			t.Fatalf("%q: %v, %+v", tt.lit, err, l)
		}
		n, ok := raw.ParseCell(tt.value)
		if !ok {
			t.Fatalf("value %q", tt.value)
		}
		v := &evidence.Value{Ref: "s/v", Value: n.Value, Unit: n.Unit}
		lo, hi := l.Quantities[0], l.Quantities[1]
		fast := matchRangeFast(&lo, &hi, l.Approx, v, opt)
		slow, _ := matchRangeDecimal(lo, hi, l.Approx, v, opt)
		got, _ := MatchRange(lo, hi, l.Approx, v, opt)
		if fast != tt.fast || slow != tt.ok || got != tt.ok {
			t.Errorf("%q against %s: matchRangeFast %v, matchRangeDecimal %v, MatchRange %v; want %v, %v, %v", tt.lit, tt.value, fast, slow, got, tt.fast, tt.ok, tt.ok)
		}
	}
}

// TestSmallScale: scaling refuses what would overflow an int64.
func TestSmallScale(t *testing.T) {
	tests := []struct {
		s    small
		e    int32
		want int64
		ok   bool
	}{
		{small{5, -1}, -3, 500, true},
		{small{-5, -1}, -3, -500, true},
		{small{999999999999999999, 0}, 0, 999999999999999999, true},
		{small{999999999999999999, 0}, -1, 0, false},
		{small{1, 0}, -18, 1e18, true},
		{small{1, 0}, -19, 0, false},
		{small{3, 0}, -18, 0, false}, // 3e18 ≥ 2^61
		{small{2, 0}, -18, 2e18, true},
		{small{1, -2}, -1, 0, false}, // e above the exponent
		{small{0, -2}, -40, 0, true}, // zero at any exponent
	}
	for _, tt := range tests {
		got, ok := tt.s.scaleTo(tt.e)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v.scaleTo(%d) = %d, %v; want %d, %v", tt.s, tt.e, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzMatchFast: on any quantity and value, a match matchFast decides is
// one matchDecimal finds.
func FuzzMatchFast(f *testing.F) {
	f.Add(int64(517), int32(-1), 1, int64(5175), int32(-2), int64(0), int32(0), uint8(0), false, false, false, "%", "%")
	f.Add(int64(-40), int32(0), 0, int64(-44), int32(0), int64(0), int32(0), uint8(1), false, false, true, "s", "s")
	f.Add(int64(1500), int32(0), 0, int64(15), int32(2), int64(0), int32(0), uint8(0), false, false, false, "", "")
	f.Add(int64(43), int32(0), 0, int64(44), int32(0), int64(1), int32(0), uint8(2), true, true, false, "s", "")
	f.Add(int64(1)<<62, int32(-3), 3, int64(1)<<62, int32(-3), int64(0), int32(0), uint8(3), false, false, false, "", "")
	f.Fuzz(func(t *testing.T, qc int64, qe int32, decimals int, vc int64, ve int32, tc int64, te int32, approx uint8, delta, vDelta, derived bool, qu, vu string) {
		if qe < -40 || qe > 40 || ve < -40 || ve > 40 || te < -40 || te > 40 || decimals < -2 || decimals > 30 {
			t.Skip()
		}
		q := literal.Quantity{Value: decimal.New(qc, qe), Decimals: decimals, Unit: qu, Delta: delta, Magnitude: decimal.NewFromInt(1)}
		if tc != 0 {
			// a spread written after ± plays no part in the mean's match
			q.Spread = &literal.Quantity{Value: decimal.New(tc, te), Unit: qu, Magnitude: decimal.NewFromInt(1)}
		}
		v := &evidence.Value{Ref: "s/v", Value: decimal.New(vc, ve), Unit: vu, Delta: vDelta, Derived: derived}
		a := []literal.Approx{literal.Exact, literal.About, literal.Over, literal.Under}[approx%4]
		opt := DefaultOptions()
		if approx >= 128 {
			opt.Approx = decimal.New(int64(approx), -3)
		}
		if matchFast(&q, a, v, opt) {
			if ok, want := matchDecimal(q, a, v, opt); !ok {
				t.Fatalf("matchFast matches %v (%d decimals, %q, %s) and %v %q; matchDecimal does not: %s", q.Value, decimals, qu, a, v.Value, vu, want)
			}
		}
	})
}

// FuzzMatchRangeFast: on any range and value, a match matchRangeFast
// decides is one matchRangeDecimal finds.
func FuzzMatchRangeFast(f *testing.F) {
	f.Add(int64(35), int32(0), 0, int64(38), int32(0), 0, int64(385), int32(-1), uint8(0), "s", "s", "s")
	f.Add(int64(-5), int32(0), 0, int64(5), int32(0), 0, int64(-55), int32(-1), uint8(1), "", "", "")
	f.Add(int64(10), int32(0), 0, int64(20), int32(0), 0, int64(15), int32(-3), uint8(2), "ms", "ms", "s")
	f.Fuzz(func(t *testing.T, lc int64, le int32, ld int, hc int64, he int32, hd int, vc int64, ve int32, approx uint8, lu, hu, vu string) {
		if le < -40 || le > 40 || he < -40 || he > 40 || ve < -40 || ve > 40 || ld < -2 || ld > 30 || hd < -2 || hd > 30 {
			t.Skip()
		}
		lo := literal.Quantity{Value: decimal.New(lc, le), Decimals: ld, Unit: lu, Magnitude: decimal.NewFromInt(1)}
		hi := literal.Quantity{Value: decimal.New(hc, he), Decimals: hd, Unit: hu, Magnitude: decimal.NewFromInt(1)}
		v := &evidence.Value{Ref: "s/v", Value: decimal.New(vc, ve), Unit: vu}
		a := []literal.Approx{literal.Exact, literal.About, literal.Over, literal.Under}[approx%4]
		opt := DefaultOptions()
		if approx >= 128 {
			opt.Approx = decimal.New(int64(approx), -3)
		}
		if matchRangeFast(&lo, &hi, a, v, opt) {
			if ok, want := matchRangeDecimal(lo, hi, a, v, opt); !ok {
				t.Fatalf("matchRangeFast matches %v~%v (%s) and %v %q; matchRangeDecimal does not: %s", lo.Value, hi.Value, a, v.Value, vu, want)
			}
		}
	})
}
