package translation

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// reversed reports whether b holds a's numbers in reverse order (and
// not in a's): 0.21%→51.7% against 51.7%→0.21%.
func reversed(a, b []numscan.Number) bool {
	if len(a) < 2 || len(a) != len(b) {
		return false
	}
	for i := range a {
		if numscan.Compare(a[i], b[len(b)-1-i]) == numscan.Disagree {
			return false
		}
	}
	return true
}

// signHint explains a difference of sign only: a difference (+1, Δ1)
// against a level (1), or △, which a Japanese or Korean reader reads as a
// minus sign.
func signHint(a, b []numscan.Number) string {
	if len(a) != len(b) {
		return ""
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Sign == y.Sign || !x.Value.Abs().Equal(y.Value.Abs()) {
			continue
		}
		for _, n := range []numscan.Number{x, y} {
			if strings.ContainsAny(n.Text, "△▼") {
				return "; △ (and ▼) before a number is a minus sign to a Japanese or Korean reader: write Δ or + for a difference"
			}
		}
		return "; the sign differs: a difference (+, Δ) is not a level"
	}
	return ""
}

// approxDifference says how two lists of numbers that Compare warns
// about differ in approximation.
func approxDifference(a, b []numscan.Number) string {
	for i := range a {
		if i >= len(b) || numscan.ApproxAgree(a[i].Approx, b[i].Approx) {
			continue
		}
		if (a[i].Approx == literal.Exact) != (b[i].Approx == literal.Exact) {
			return "one is approximate, the other exact"
		}
		return "one says a little over, the other a little under"
	}
	return "they differ in approximation"
}

// describe prints numbers in their normal form: "<= 3", "≈ 40 s".
func describe(ns []numscan.Number) string {
	var parts []string
	for _, n := range ns {
		s := n.Value.String()
		switch {
		case n.Kind != "number":
			s = n.Text
		case n.Sign == "+" && !n.Value.IsNegative():
			s = "+" + s
		case n.Sign == "-" && n.Value.IsZero():
			s = "-" + s
		case n.Sign == "▲":
			s = "▲" + s
		case n.Spread:
			s = "± " + s
		}
		switch {
		case n.Unit == literal.ClockUnit && n.Kind == "number":
			s = clock24(n.Value) // 14:03, not 50580 tod
		case n.Unit != "":
			s += " " + n.Unit
		}
		if n.Cmp != "" {
			s = n.Cmp + " " + s
		}
		switch n.Approx {
		case literal.Exact:
		case literal.Over:
			s = "a little over " + s
		case literal.Under:
			s = "a little under " + s
		default:
			s = "≈ " + s
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no number"
	}
	return strings.Join(parts, ", ")
}

// clock24 writes a time of day (seconds since midnight) as a 24-hour
// clock: 14:03, 14:03:52, 14:03:52.713.
func clock24(v decimal.Decimal) string {
	secs := v.Mod(decimal.NewFromInt(60))
	mins := v.Sub(secs).Div(decimal.NewFromInt(60)).IntPart()
	s := fmt.Sprintf("%02d:%02d", mins/60, mins%60)
	if !secs.IsZero() {
		s += fmt.Sprintf(":%02d", secs.IntPart())
		if frac := secs.Sub(secs.Truncate(0)); !frac.IsZero() {
			s += strings.TrimPrefix(frac.String(), "0")
		}
	}
	return s
}
