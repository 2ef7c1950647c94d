package translation

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/translation/numscan"
)

// TestDescribeClock: a parity message shows a time of day as a clock
// (14:04), not as seconds since midnight (50640 tod).
func TestDescribeClock(t *testing.T) {
	for _, tt := range []struct{ v, want string }{
		{"50640", "14:04"}, {"50632", "14:03:52"}, {"50632.713", "14:03:52.713"}, {"0", "00:00"}, {"3600.5", "01:00:00.5"},
	} {
		n := numscan.Number{Kind: "number", Value: decimal.RequireFromString(tt.v), Unit: literal.ClockUnit}
		if got := describe([]numscan.Number{n}); got != tt.want {
			t.Errorf("describe(%s tod) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
