package figure

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var gridColor = color.Gray{Y: 0xdd}

// hgrid returns horizontal grid lines only.
func hgrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal.Color = gridColor
	return g
}

// vline marks a moment (the DNS flip) with a dashed vertical line and a
// label at its top.
type vline struct {
	x     float64
	label string
	style text.Style
}

func (v *vline) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(v.x)
	c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 0x55}, Width: 1.5, Dashes: []vg.Length{5, 3}}, x, c.Min.Y, x, c.Max.Y)
	if v.label != "" {
		st := v.style
		st.XAlign, st.YAlign = text.XLeft, text.YTop
		st.Color = color.Gray{Y: 0x33}
		c.FillText(st, vg.Point{X: x + 3, Y: c.Max.Y - 2}, v.label)
	}
}

// barsPlot draws grouped, optionally stacked bars with their values
// written on them; a zero bar is a thick baseline stroke labelled 0.
type barsPlot struct {
	groups []groupData
	colors map[string]color.Color
	style  text.Style
}

const groupWidth = 0.72

func (b *barsPlot) maxTotal() float64 {
	m := 0.0
	for _, g := range b.groups {
		for _, bar := range g.bars {
			m = math.Max(m, bar.total)
		}
	}
	return m
}

func (b *barsPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	m := b.maxTotal()
	if m == 0 {
		m = 1
	}
	return -0.5, float64(len(b.groups)) - 0.5, 0, m * 1.15
}

func (b *barsPlot) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for gi, g := range b.groups {
		n := len(g.bars)
		w := groupWidth / float64(n)
		for bi, bar := range g.bars {
			cx := float64(gi) + (float64(bi)-float64(n-1)/2)*w
			x0, x1 := trX(cx-w/2*0.92), trX(cx+w/2*0.92)
			segs := bar.segs
			if len(segs) == 0 {
				segs = []segData{{series: bar.series, v: bar.total}}
			}
			base := 0.0
			for _, sg := range segs {
				if sg.v == 0 {
					continue
				}
				y0, y1 := trY(base), trY(base+sg.v)
				c.SetColor(b.colors[sg.series])
				c.Fill(rect(x0, y0, x1, y1))
				if len(segs) > 1 {
					st := b.style
					st.XAlign, st.YAlign = text.XCenter, text.YCenter
					lbl := formatNum(sg.v)
					if y1-y0 >= st.Font.Size+2 {
						st.Color = color.White
						c.FillText(st, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, lbl)
					} else {
						st.XAlign = text.XLeft
						c.FillText(st, vg.Point{X: x1 + 3, Y: (y0 + y1) / 2}, lbl)
					}
				}
				base += sg.v
			}
			if bar.total == 0 {
				// A zero bar stays visible: a thick stroke on the baseline.
				c.StrokeLine2(draw.LineStyle{Color: b.colors[segs[0].series], Width: 4}, x0, trY(0)+2, x1, trY(0)+2)
			}
			st := b.style
			st.XAlign, st.YAlign = text.XCenter, text.YBottom
			c.FillText(st, vg.Point{X: (x0 + x1) / 2, Y: trY(bar.total) + 5}, formatNum(bar.total))
		}
	}
}

func rect(x0, y0, x1, y1 vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x0, Y: y0})
	p.Line(vg.Point{X: x1, Y: y0})
	p.Line(vg.Point{X: x1, Y: y1})
	p.Line(vg.Point{X: x0, Y: y1})
	p.Close()
	return p
}

// ratePlot draws one rate per category as a lollipop on a log scale,
// labelled with the rate as the evidence writes it.
type ratePlot struct {
	groups []groupData
	min    float64
	style  text.Style
}

func (r *ratePlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.min, 100, -0.5, float64(len(r.groups)) - 0.5
}

func (r *ratePlot) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	n := len(r.groups)
	for i, g := range r.groups {
		y := trY(float64(n - 1 - i))
		col := palette[i%len(palette)]
		c.StrokeLine2(draw.LineStyle{Color: col, Width: 3}, trX(r.min), y, trX(g.rate), y)
		c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: 6, Shape: draw.CircleGlyph{}}, vg.Point{X: trX(g.rate), Y: y})
		st := r.style
		st.XAlign, st.YAlign = text.XLeft, text.YCenter
		lbl := g.rateRaw
		if !strings.HasSuffix(lbl, "%") {
			lbl = formatNum(g.rate) + "%"
		}
		c.FillText(st, vg.Point{X: trX(g.rate) + 10, Y: y}, lbl)
	}
}

// pointLabels writes each point's value above it.
type pointLabels struct {
	xys   plotter.XYs
	unit  string
	style text.Style
}

func (l *pointLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	st := l.style
	st.XAlign, st.YAlign = text.XCenter, text.YBottom
	for _, p := range l.xys {
		c.FillText(st, vg.Point{X: trX(p.X), Y: trY(p.Y) + 8}, formatNum(p.Y)+" "+l.unit)
	}
}
