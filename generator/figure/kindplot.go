package figure

import (
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
	"github.com/shopspring/decimal"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// spectrumX is the x position of percentile p (in percent): log10 of
// 1/(1−p).
func spectrumX(p float64) float64 { return -math.Log10(1 - p/100) }

// shownUnit is how a unit name is written on a chart.
func shownUnit(u string) string {
	if u == "us" {
		return "µs"
	}
	return u
}

// unitTicks returns ticks from 0 (or lo, when below 0) to hi at a 1-2-5
// step, labelled with the unit.
func unitTicks(u string) plot.TickerFunc { return signedUnitTicks(u, true) }

// signedUnitTicks is unitTicks, with no tick below 0 unless neg.
func signedUnitTicks(u string, neg bool) plot.TickerFunc {
	return func(lo, hi float64) []plot.Tick {
		ts := niceTicks(hi, false)
		if lo < 0 && neg {
			neg := niceTicks(-lo, false)
			for k := len(neg) - 1; k > 0; k-- {
				ts = append([]plot.Tick{{Value: -neg[k].Value, Label: "-" + neg[k].Label}}, ts...)
			}
		}
		for k := range ts {
			// a clean decimal: 3 × 0.1 is written 0.3
			ts[k].Label = decimal.NewFromFloat(ts[k].Value).Round(9).String()
			if u != "" {
				ts[k].Label += " " + shownUnit(u)
			}
		}
		return ts
	}
}

// seriesColor returns the colour and marker of series id.
func (s *Spec) seriesColor(id string, series []string) (color.Color, draw.GlyphDrawer) {
	for i, x := range series {
		if x == id {
			return palette[i%len(palette)], shapes[i%len(shapes)]
		}
	}
	return palette[0], shapes[0]
}

func (s *Spec) spectrum(p *plot.Plot, pd panelData, h *typeset.Outlines, series []string) (*plot.Plot, error) {
	hi := 0.0
	for _, run := range pd.runs {
		col, shape := s.seriesColor(run.id, series)
		var xys plotter.XYs
		for k, q := range run.p {
			if spec.InSpectrum(q) {
				xys = append(xys, plotter.XY{X: spectrumX(q), Y: run.v[k]})
				hi = math.Max(hi, run.v[k])
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle = draw.LineStyle{Color: col, Width: 2}
		if run.derived { // interpolated in buckets, not measured
			l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		if len(xys) <= 40 {
			sc, _ := plotter.NewScatter(xys)
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 3.5, Shape: shape}
			p.Add(sc)
		}
	}
	marks := &markLabels{}
	for _, m := range s.Mark {
		q, _ := spec.PercentileOf(m)
		p.Add(&vline{x: spectrumX(q), label: strings.ReplaceAll(m, "_", "."), style: s.textStyle(h, MinFont)})
		for _, run := range pd.runs {
			col, _ := s.seriesColor(run.id, series)
			for k, rq := range run.p {
				if math.Abs(rq-q) < 1e-9 {
					marks.ms = append(marks.ms, markLabel{x: spectrumX(q), y: run.v[k], label: run.txt[k] + " " + s.Unit, col: col})
				}
			}
		}
	}
	p.Add(marks, hgrid())
	var ticks []plot.Tick
	for _, t := range []struct {
		p float64
		l string
	}{{50, "50%"}, {90, "90%"}, {99, "99%"}, {99.9, "99.9%"}, {99.99, "99.99%"}, {99.999, "99.999%"}} {
		ticks = append(ticks, plot.Tick{Value: spectrumX(t.p), Label: t.l})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = spectrumX(spec.SpectrumMin), spectrumX(spec.SpectrumMax)+0.15
	p.Y.Min, p.Y.Max = 0, hi*1.2
	if hi == 0 {
		p.Y.Max = 1
	}
	p.Y.Tick.Marker = unitTicks(spec.TimeUnits[s.Unit])
	return p, nil
}

// markLabel is a marked value: a ring on its point and its value.
type markLabel struct {
	x, y  float64
	label string
	col   color.Color
}

// markLabels writes the marked values left of their points, those of one
// mark moved apart so that no two overlap.
type markLabels struct{ ms []markLabel }

func (m *markLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	st := plt.Y.Tick.Label
	st.XAlign, st.YAlign = text.XRight, text.YBottom
	line := st.Font.Size + 3
	order := make([]int, len(m.ms))
	for k := range order {
		order[k] = k
	}
	// by mark, then from the lowest point up
	sort.SliceStable(order, func(a, b int) bool {
		ma, mb := m.ms[order[a]], m.ms[order[b]]
		if ma.x != mb.x {
			return ma.x < mb.x
		}
		return ma.y < mb.y
	})
	var prevX float64
	var prevY vg.Length
	for n, k := range order {
		mk := m.ms[k]
		pt := vg.Point{X: trX(mk.x), Y: trY(mk.y)}
		c.DrawGlyph(draw.GlyphStyle{Color: mk.col, Radius: 5, Shape: draw.RingGlyph{}}, pt)
		y := pt.Y + 4
		if n > 0 && mk.x == prevX && y < prevY+line {
			y = prevY + line
		}
		prevX, prevY = mk.x, y
		st.Color = mk.col
		c.FillText(st, vg.Point{X: pt.X - 8, Y: y}, mk.label)
	}
}

func (s *Spec) timeseries(p *plot.Plot, d *figData, pd panelData, lang string, h *typeset.Outlines, series []string) (*plot.Plot, error) {
	lo, hi, xmax := 0.0, 0.0, 0.0
	for _, line := range pd.lines {
		col, shape := s.seriesColor(line.id, series)
		xys := make(plotter.XYs, len(line.xs))
		for k := range line.xs {
			xys[k] = plotter.XY{X: line.xs[k], Y: line.ys[k]}
			lo, hi, xmax = math.Min(lo, line.ys[k]), math.Max(hi, line.ys[k]), math.Max(xmax, line.xs[k])
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle = draw.LineStyle{Color: col, Width: 2}
		p.Add(l)
		if len(xys) <= 60 {
			sc, _ := plotter.NewScatter(xys)
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 3.5, Shape: shape}
			p.Add(sc)
		}
	}
	for i, e := range d.events {
		xmax = math.Max(xmax, e.t)
		p.Add(&vline{x: e.t, label: spec.Plain(s.Events[i].Label, lang), style: s.textStyle(h, MinFont)})
	}
	if xmax == 0 {
		xmax = 1
	}
	p.Add(hgrid())
	p.X.Min, p.X.Max = -xmax*0.04, xmax*1.06
	p.X.Tick.Marker = plot.TickerFunc(func(_, _ float64) []plot.Tick {
		ts := niceTicks(xmax, false)
		if len(ts) > 6 { // a narrow panel: every other tick
			var half []plot.Tick
			for k := 0; k < len(ts); k += 2 {
				half = append(half, ts[k])
			}
			ts = half
		}
		for k := range ts {
			ts[k].Label = "+" + ts[k].Label + " s"
		}
		ts[0].Label = "0 s"
		return ts
	})
	if hi == lo {
		hi = lo + 1
	}
	p.Y.Min, p.Y.Max = lo*1.15, hi*1.15
	p.Y.Tick.Marker = unitTicks(pd.yUnit)
	return p, nil
}

func (s *Spec) distribution(p *plot.Plot, pd panelData, h *typeset.Outlines, series []string) (*plot.Plot, error) {
	cdf := s.Mode == "cdf"
	hists := make([]distPlotted, len(pd.hists))
	xmin, xmax, ymax := math.Inf(1), math.Inf(-1), 0.0
	for k, hd := range pd.hists {
		col, shape := s.seriesColor(hd.id, series)
		dp := distPlotted{histData: hd, col: col, shape: shape}
		dp.right = append([]float64(nil), hd.hi...)
		for b := range hd.hi {
			if math.IsInf(hd.hi[b], 1) {
				// The open last bucket is drawn as wide as the one before it.
				w := 0.0
				if b > 0 {
					w = hd.hi[b-1] - hd.lo[b-1]
				}
				if w <= 0 {
					w = math.Max(hd.lo[b]*0.25, 1)
				}
				dp.right[b] = hd.lo[b] + w
				dp.open = true
			}
			xmin, xmax = math.Min(xmin, hd.lo[b]), math.Max(xmax, dp.right[b])
		}
		total := 0.0
		for _, n := range hd.n {
			total += n
		}
		dp.total = total
		if !cdf {
			for _, n := range hd.n {
				ymax = math.Max(ymax, n)
			}
		}
		hists[k] = dp
	}
	slots := len(hists) > 0
	for _, hd := range hists {
		slots = slots && hd.slots
	}
	if slots {
		// one equal slot per bucket, at 0, 1, …: the tool's bounds are
		// its labels
		xmin, xmax = 0, 0
		for k := range hists {
			n := len(hists[k].n)
			lo, right := make([]float64, n), make([]float64, n)
			for b := range lo {
				lo[b], right[b] = float64(b), float64(b+1)
			}
			hists[k].lo, hists[k].right = lo, right
			xmax = math.Max(xmax, float64(n))
		}
	}
	if math.IsInf(xmin, 1) {
		xmin, xmax = 0, 1
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	dp := &distPlot{hists: hists, cdf: cdf, style: s.textStyle(h, MinFont)}
	p.Add(hgrid(), dp)
	// Ticks at the bucket bounds when few, else at a 1-2-5 step.
	var bounds []float64
	open := false
	if len(hists) > 0 {
		bounds = append(bounds, hists[0].lo...)
		if n := len(hists[0].hi); n > 0 {
			bounds = append(bounds, hists[0].right[n-1])
			open = hists[0].open
		}
	}
	u := shownUnit(spec.TimeUnits[s.Unit])
	if slots || len(bounds) > 0 && len(bounds) <= 8 {
		var ts []plot.Tick
		// a histogram's many bounds: a label at every n-th (about 5), the
		// others a tick; the last (+Inf) always
		every := 1
		if len(bounds) > 8 {
			every = (len(bounds) + 3) / 4
		}
		for k, b := range bounds {
			if k > 0 && b == bounds[k-1] {
				continue
			}
			last := len(bounds) - 1
			if k != last && (k%every != 0 || last-k < every) {
				ts = append(ts, plot.Tick{Value: b})
				continue
			}
			lbl := hists[0].boundTxt(k)
			if b != 0 {
				lbl += " " + u
			}
			if k == len(bounds)-1 && open {
				lbl = "+Inf"
			}
			ts = append(ts, plot.Tick{Value: b, Label: lbl})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ts)
	} else {
		p.X.Tick.Marker = signedUnitTicks(spec.TimeUnits[s.Unit], false)
	}
	pad := (xmax - xmin) * 0.03
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	if cdf {
		p.Y.Min, p.Y.Max = 0, 105
		p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0%"}, {Value: 25, Label: "25%"}, {Value: 50, Label: "50%"}, {Value: 75, Label: "75%"}, {Value: 100, Label: "100%"}})
	} else {
		if ymax == 0 {
			ymax = 1
		}
		p.Y.Min, p.Y.Max = 0, ymax*1.18
		p.Y.Tick.Marker = plot.TickerFunc(countTicks)
	}
	return p, nil
}

// distPlotted is a distribution as drawn: its open bucket's right edge.
type distPlotted struct {
	histData
	right []float64
	open  bool
	total float64
	col   color.Color
	shape draw.GlyphDrawer
}

// boundTxt is the k-th bound of the buckets as labels write it.
func (d distPlotted) boundTxt(k int) string {
	if k < len(d.loTxt) {
		return d.loTxt[k]
	}
	return d.hiTxt[len(d.hiTxt)-1]
}

// distPlot draws histograms as bars (translucent when several overlap),
// each labelled with its count, or CDFs as steps through each bucket's
// upper bound.
type distPlot struct {
	hists []distPlotted
	cdf   bool
	style text.Style
}

func (d *distPlot) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, hd := range d.hists {
		if d.cdf {
			var pts []vg.Point
			cum := 0.0
			if len(hd.lo) > 0 {
				pts = append(pts, vg.Point{X: trX(hd.lo[0]), Y: trY(0)})
			}
			for b := range hd.n {
				cum += hd.n[b]
				y := 0.0
				if hd.total > 0 {
					y = cum / hd.total * 100
				}
				pts = append(pts, vg.Point{X: trX(hd.right[b]), Y: trY(y)})
			}
			c.StrokeLines(draw.LineStyle{Color: hd.col, Width: 2}, pts)
			for _, pt := range pts {
				c.DrawGlyph(draw.GlyphStyle{Color: hd.col, Radius: 3.5, Shape: hd.shape}, pt)
			}
			continue
		}
		r, g, b, _ := hd.col.RGBA()
		fill := color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0xff}
		if len(d.hists) > 1 {
			fill.A = 0x8c
		}
		for k := range hd.n {
			x0, x1 := trX(hd.lo[k]), trX(hd.right[k])
			if x1-x0 < 2 { // a bucket of no width (hey's first) stays visible
				x1 = x0 + 2
			}
			y0, y1 := trY(0), trY(hd.n[k])
			c.SetColor(fill)
			c.Fill(rect(x0+0.5, y0, x1-0.5, y1))
			if len(hd.n) <= 16 && len(d.hists) == 1 {
				st := d.style
				st.XAlign, st.YAlign = text.XCenter, text.YBottom
				c.FillText(st, vg.Point{X: (x0 + x1) / 2, Y: y1 + 3}, formatNum(hd.n[k]))
			}
		}
	}
}

func (s *Spec) compare(p *plot.Plot, d *figData, sp spec.Panel, pd panelData, lang string, h *typeset.Outlines, series []string) (*plot.Plot, error) {
	cols := map[string]color.Color{}
	for i, id := range series {
		cols[id] = palette[i%len(palette)]
	}
	cp := &comparePlot{groups: pd.groups, colors: cols, style: s.textStyle(h, MinFont), delta: s.textStyle(h, fontBody)}
	p.Add(hgrid(), cp)
	var ticks []plot.Tick
	for gi, g := range sp.Groups {
		ticks = append(ticks, plot.Tick{Value: float64(gi), Label: spec.Plain(g.Label, lang)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = -0.5, float64(len(sp.Groups))-0.5
	p.Y.Min, p.Y.Max = 0, cp.top()*1.35
	p.Y.Tick.Marker = unitTicks(pd.yUnit)
	return p, nil
}

// comparePlot draws grouped bars with error bars, each bar labelled with
// its value and spread, each group with its delta above it.
type comparePlot struct {
	groups       []groupData
	colors       map[string]color.Color
	style, delta text.Style
}

func (b *comparePlot) top() float64 {
	m := 0.0
	for _, g := range b.groups {
		for _, bar := range g.bars {
			m = math.Max(m, bar.total)
			if bar.more.hasErr {
				m = math.Max(m, bar.more.hi)
			}
		}
	}
	if m == 0 {
		m = 1
	}
	return m
}

func (b *comparePlot) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ink2 := draw.LineStyle{Color: ink, Width: 1.5}
	for gi, g := range b.groups {
		n := len(g.bars)
		w := groupWidth / float64(n)
		top := vg.Length(0)
		for bi, bar := range g.bars {
			cx := float64(gi) + (float64(bi)-float64(n-1)/2)*w
			x0, x1 := trX(cx-w/2*0.9), trX(cx+w/2*0.9)
			xm := (x0 + x1) / 2
			c.SetColor(b.colors[bar.series])
			if bar.total == 0 {
				c.StrokeLine2(draw.LineStyle{Color: b.colors[bar.series], Width: 4}, x0, trY(0)+2, x1, trY(0)+2)
			} else {
				c.Fill(rect(x0, trY(0), x1, trY(bar.total)))
			}
			y := trY(bar.total)
			lbl := bar.more.txt
			if bar.more.hasErr {
				ylo, yhi := trY(math.Max(bar.more.lo, 0)), trY(bar.more.hi)
				c.StrokeLine2(ink2, xm, ylo, xm, yhi)
				cap := (x1 - x0) / 4
				c.StrokeLine2(ink2, xm-cap, ylo, xm+cap, ylo)
				c.StrokeLine2(ink2, xm-cap, yhi, xm+cap, yhi)
				y = max(y, yhi)
				lbl += "\n" + bar.more.spreadRaw
			}
			st := b.style
			st.XAlign, st.YAlign = text.XCenter, text.YBottom
			c.FillText(st, vg.Point{X: xm, Y: y + 4}, lbl)
			top = max(top, y+4+st.Height(lbl))
		}
		if g.delta != "" {
			st := b.delta
			st.XAlign, st.YAlign = text.XCenter, text.YBottom
			c.FillText(st, vg.Point{X: trX(float64(gi)), Y: top + 4}, g.delta)
		}
	}
}
