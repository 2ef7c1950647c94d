package spec

import (
	"math"

	"gonum.org/v1/plot/vg"
)

// Width is the width a figure is drawn at, in points (one point is one
// CSS px), and NarrowWidth that of its narrow drawing for phones, its
// panels in one column.
const (
	Width       = vg.Length(720)
	NarrowWidth = vg.Length(360)
)

// Layout is the width a figure is drawn at and its panel columns.
type Layout struct {
	Width vg.Length
	Cols  int // 0: the spec's
}

// Grid returns the number of panel rows and columns at layout l.
func (s *Spec) Grid(l Layout) (rows, cols int) {
	cols = s.Columns
	if l.Cols > 0 {
		cols = l.Cols
	}
	if cols <= 0 || cols > len(s.Panels) {
		cols = len(s.Panels)
	}
	if cols == 0 {
		return 0, 0
	}
	return (len(s.Panels) + cols - 1) / cols, cols
}

// The bands a figure is drawn in, from the top: the title (TitleBand, and
// TitleLineHeight for each further line), a LegendBand per legend line,
// then the panels; Margin on every side. Swatch is the size of a legend
// entry's colour.
const (
	TitleBand = vg.Length(34)
	// TitleLineHeight is the height of each further line of a title
	// broken to fit the width.
	TitleLineHeight = vg.Length(20)
	LegendBand      = vg.Length(28)
	Margin          = vg.Length(10)
)

func (s *Spec) panelHeight() vg.Length {
	switch s.Kind {
	case KindTimeline:
		return 250
	case KindRate:
		return 60 + 42*vg.Length(s.maxGroups())
	}
	return 300
}

func (s *Spec) maxGroups() int {
	n := 1
	for _, p := range s.Panels {
		n = max(n, len(p.Groups))
	}
	return n
}

// Height returns the height of the drawing at layout l with the legend
// and the title broken into that many lines.
func (s *Spec) Height(legendLines, titleLines int, l Layout) vg.Length {
	rows, _ := s.Grid(l)
	h := TitleBand + TitleLineHeight*vg.Length(max(titleLines-1, 0)) + Margin*2 + s.panelHeight()*vg.Length(rows) + LegendBand*vg.Length(legendLines)
	return vg.Length(math.Ceil(float64(h)))
}

const Swatch = vg.Length(12)

// SeriesOrder returns the legend's series ids: the counters of a
// timeline, or the bar and segment series in order of first use.
func (s *Spec) SeriesOrder() []string {
	if s.Kind == KindTimeline {
		return s.Counters
	}
	var out []string
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, p := range s.Panels {
		for _, se := range p.Series {
			add(se.ID)
		}
		for _, g := range p.Groups {
			for _, b := range g.Bars {
				if len(b.Segments) == 0 {
					add(b.Series)
				}
				for _, sg := range b.Segments {
					add(sg.Series)
				}
			}
		}
	}
	return out
}
