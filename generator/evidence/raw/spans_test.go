package raw

import "testing"

// TestSpansOverlaps: a range's overlap is found whether the ranges' ends
// are sorted with their starts (no maxEnd) or a long range covers later
// ones (maxEnd), and a point after every range overlaps none.
func TestSpansOverlaps(t *testing.T) {
	for _, tt := range []struct {
		ranges [][2]int
		a, b   int
		want   bool
	}{
		{[][2]int{{10, 12}, {0, 2}, {5, 7}}, 6, 7, true},
		{[][2]int{{10, 12}, {0, 2}, {5, 7}}, 7, 10, false},
		{[][2]int{{10, 12}, {0, 2}, {5, 7}}, 12, 20, false},
		{[][2]int{{0, 30}, {5, 7}, {10, 12}}, 20, 21, true}, // {0, 30} covers it: maxEnd
		{[][2]int{{0, 30}, {5, 7}, {10, 12}}, 30, 31, false},
		{nil, 0, 1, false},
	} {
		var s spans
		for _, r := range tt.ranges {
			s.add(r[0], r[1])
		}
		s.sort()
		if got := s.overlaps(tt.a, tt.b); got != tt.want {
			t.Errorf("%v overlaps [%d, %d) = %v, want %v", tt.ranges, tt.a, tt.b, got, tt.want)
		}
	}
}
