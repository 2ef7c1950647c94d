package figure

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
)

// Figures are drawn in points at the width they are shown in CSS pixels
// (one point = one CSS px), so a 12 pt label is 12 CSS px on the page.
// PNGs are rasterised at twice that (DPI 144) for high-density screens.
//
// Each figure is also drawn narrow (NarrowWidth, panels in one column,
// SVG only) for phones, where the wide drawing would be scaled to half its
// size and its text to about 6 CSS px: the narrow one, shown at up to its
// own width, keeps every text at least MinFont × (shown width /
// NarrowWidth) px, 11.9 px on a 390 px screen.
// (spec.Width and spec.NarrowWidth are the two widths.)
const (
	DPI       = 144
	MinFont   = vg.Length(12) // smallest text drawn, in points = CSS px
	fontBody  = vg.Length(13)
	fontTitle = vg.Length(15)
)

// Output is one rendered figure in one language.
type Output struct {
	PNG, SVG []byte
	// Width and Height are the size the figure is shown at, in CSS px;
	// the PNG is twice that in pixels.
	Width, Height int
	// Glyphs is every glyph drawn, with the font of the chain that drew it.
	Glyphs []typeset.Glyph
	// MinText is the size of the smallest text drawn, in points (CSS px
	// at the width the figure is drawn).
	MinText vg.Length
}

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, // blue
	color.RGBA{R: 0xe3, G: 0x6c, B: 0x09, A: 0xff}, // orange
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, // green
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, // red
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, // purple
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, // brown
}

var ink = color.RGBA{R: 0x1d, G: 0x23, B: 0x2a, A: 0xff}

// Render draws the figure for lang with the font chain fonts, as PNG and
// SVG (text as outlines). It fails on unresolved evidence, missing texts
// for lang, or a rune no font of the chain has.
func (s *Spec) Render(st *evidence.Store, lang string, fonts *typeset.Fonts) (*Output, error) {
	return s.renderAt(st, lang, fonts, spec.Layout{Width: spec.Width}, true)
}

// RenderNarrow draws the figure for lang as Render does, NarrowWidth wide
// with its panels in one column, as SVG only (Output.PNG is nil).
func (s *Spec) RenderNarrow(st *evidence.Store, lang string, fonts *typeset.Fonts) (*Output, error) {
	return s.renderAt(st, lang, fonts, spec.Layout{Width: spec.NarrowWidth, Cols: 1}, false)
}

// renderAt resolves the figure's evidence, checks its texts for lang and
// that fonts draw every rune of them, then draws it at layout l.
func (s *Spec) renderAt(st *evidence.Store, lang string, fonts *typeset.Fonts, l spec.Layout, png bool) (*Output, error) {
	d, errs := s.data(st)
	if errs != nil {
		return nil, errs
	}
	if ds := s.MissingTexts(lang); ds.HasErrors() {
		return nil, ds
	}
	if ds := s.MissingGlyphs(lang, fonts); ds.HasErrors() {
		return nil, ds
	}
	return s.render(d, lang, fonts, l, png)
}

// render draws the figure at layout l: SVG, and PNG when png is set.
func (s *Spec) render(d *figData, lang string, fonts *typeset.Fonts, l spec.Layout, png bool) (*Output, error) {
	o := typeset.NewOutlines(fonts)
	legend := s.legendLines(o, s.legendEntries(lang), l.Width)
	title := s.titleLines(o, spec.Plain(s.Title, lang), l.Width)
	h := s.Height(len(legend), len(title), l)
	if h > spec.MaxHeight {
		at := s.KeyPos("kind")
		return nil, diag.List{diag.Errorf(at, diag.FigureSpec, "figure %q would be drawn %.0f px tall; at most %d (limit MaxHeight): fewer panels, more columns, fewer groups or a shorter legend", s.Name, float64(h), spec.MaxHeight).Spanning(s.Index().LineEnd(at.Offset))}
	}
	out := &Output{Width: int(l.Width), Height: int(h)}

	if png {
		img := vgimg.NewWith(vgimg.UseWH(l.Width, h), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
		if err := s.draw(img, d, lang, o, legend, title, l); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("figure %q: %v", s.Name, err)
		}
		out.PNG = buf.Bytes()
	}

	svgText := typeset.NewOutlines(fonts)
	if !png {
		svgText = o // the glyphs drawn are those of the SVG
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(l.Width, h))
	if err := s.draw(svg, d, lang, svgText, legend, title, l); err != nil {
		return nil, err
	}
	var sb bytes.Buffer
	if _, err := svg.WriteTo(&sb); err != nil {
		return nil, fmt.Errorf("figure %q: %v", s.Name, err)
	}
	out.SVG = sb.Bytes()
	out.Glyphs = o.Glyphs()
	out.MinText = o.Min()
	if len(o.Misses()) > 0 {
		var rs []string
		for r := range o.Misses() {
			rs = append(rs, typeset.RuneName(r))
		}
		return nil, fmt.Errorf("%s: figure %q drew runes no font has: %s", s.File, s.Name, strings.Join(rs, ", "))
	}
	return out, nil
}

// legendEntries returns the legend's swatches for lang.
func (s *Spec) legendEntries(lang string) []legendEntry {
	if !s.hasLegend() {
		return nil
	}
	var es []legendEntry
	for i, id := range s.SeriesOrder() {
		e := legendEntry{label: s.label(id, lang), col: palette[i%len(palette)]}
		if s.Kind == spec.KindTimeline || s.Kind == spec.KindSpectrum || s.Kind == spec.KindSeries || s.Kind == spec.KindDistribution && s.Mode == "cdf" {
			e.shape = shapes[i%len(shapes)]
		}
		es = append(es, e)
	}
	return es
}

// legendLines breaks the legend into centred lines that fit the width.
func (s *Spec) legendLines(h *typeset.Outlines, es []legendEntry, width vg.Length) [][]legendEntry {
	ts := s.textStyle(h, MinFont)
	avail := width - 2*spec.Margin
	var (
		lines [][]legendEntry
		cur   []legendEntry
		w     vg.Length
	)
	for _, e := range es {
		ew := spec.Swatch + 5 + ts.Width(e.label) + 16
		if len(cur) > 0 && w+ew > avail {
			lines = append(lines, cur)
			cur, w = nil, 0
		}
		cur = append(cur, e)
		w += ew
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// titleLines breaks the title into lines that fit the width: at spaces,
// or between any two characters of a word wider than a line.
func (s *Spec) titleLines(h *typeset.Outlines, title string, width vg.Length) []string {
	ts := s.textStyle(h, fontTitle)
	avail := width - 2*spec.Margin
	var lines []string
	cur := ""
	for _, w := range strings.Fields(title) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if ts.Width(try) <= avail || cur == "" && ts.Width(w) <= avail {
			cur = try
			continue
		}
		if ts.Width(w) <= avail { // the word starts the next line
			lines = append(lines, cur)
			cur = w
			continue
		}
		// A word wider than a line (CJK text has few spaces) continues
		// this line and breaks between characters.
		if cur != "" {
			cur += " "
		}
		for _, r := range w {
			if strings.TrimSpace(cur) != "" && ts.Width(cur+string(r)) > avail {
				lines = append(lines, strings.TrimSpace(cur))
				cur = ""
			}
			cur += string(r)
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func (s *Spec) hasLegend() bool {
	switch s.Kind {
	case spec.KindTimeline, spec.KindBars, spec.KindSpectrum, spec.KindSeries, spec.KindDistribution, spec.KindCompare:
		return true
	}
	return false
}

// legendEntry is one swatch of the figure's legend row.
type legendEntry struct {
	label string
	col   color.Color
	shape draw.GlyphDrawer // nil: a filled square
}

var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

func (s *Spec) textStyle(h text.Handler, size vg.Length) text.Style {
	st := text.Style{Color: ink, Handler: h}
	st.Font.Size = size
	return st
}

func (s *Spec) draw(c vg.CanvasSizer, d *figData, lang string, h *typeset.Outlines, legend [][]legendEntry, title []string, l spec.Layout) error {
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	dc = draw.Crop(dc, spec.Margin, -spec.Margin, spec.Margin, -spec.Margin)

	// Figure title, centred.
	ts := s.textStyle(h, fontTitle)
	ts.XAlign, ts.YAlign = text.XCenter, text.YTop
	top := dc.Max.Y
	for i, line := range title {
		if i > 0 {
			top -= spec.TitleLineHeight
		}
		dc.FillText(ts, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top}, line)
	}
	top -= spec.TitleBand

	series := s.SeriesOrder()
	for _, line := range legend {
		s.drawLegend(dc, h, line, top)
		top -= spec.LegendBand
	}

	rows, cols := s.Grid(l)
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	for i := range s.Panels {
		p, err := s.panel(i, d, lang, h, series)
		if err != nil {
			return err
		}
		plots[i/cols][i%cols] = p
	}
	body := dc
	body.Max.Y = top
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 14, PadY: 10}
	canvases := plot.Align(plots, tiles, body)
	for r := range plots {
		for col, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][col])
			}
		}
	}
	return nil
}

func (s *Spec) drawLegend(dc draw.Canvas, h *typeset.Outlines, es []legendEntry, top vg.Length) {
	ts := s.textStyle(h, MinFont)
	ts.YAlign = text.YCenter
	const sw = spec.Swatch
	var total vg.Length
	widths := make([]vg.Length, len(es))
	for i, e := range es {
		widths[i] = sw + 5 + ts.Width(e.label) + 16
		total += widths[i]
	}
	x := (dc.Min.X+dc.Max.X)/2 - total/2
	x = max(x, dc.Min.X)
	y := top - spec.LegendBand/2
	for i, e := range es {
		if e.shape != nil {
			dc.StrokeLine2(draw.LineStyle{Color: e.col, Width: 2}, x, y, x+sw, y)
			dc.DrawGlyph(draw.GlyphStyle{Color: e.col, Radius: 4.5, Shape: e.shape}, vg.Point{X: x + sw/2, Y: y})
		} else {
			dc.SetColor(e.col)
			var p vg.Path
			p.Move(vg.Point{X: x, Y: y - sw/2})
			p.Line(vg.Point{X: x + sw, Y: y - sw/2})
			p.Line(vg.Point{X: x + sw, Y: y + sw/2})
			p.Line(vg.Point{X: x, Y: y + sw/2})
			p.Close()
			dc.Fill(p)
		}
		dc.FillText(ts, vg.Point{X: x + sw + 5, Y: y}, e.label)
		x += widths[i]
	}
}

// newPlot returns a plot whose text all goes through h at legible sizes.
func (s *Spec) newPlot(h *typeset.Outlines, title string) *plot.Plot {
	p := plot.New()
	p.TextHandler = h
	p.BackgroundColor = color.Transparent
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Handler = h
		st.Color = ink
		st.Font.Size = MinFont
	}
	p.Title.TextStyle.Font.Size = fontBody + 1
	p.X.Label.TextStyle.Font.Size = fontBody
	p.Y.Label.TextStyle.Font.Size = fontBody
	p.Title.Text = title
	p.Title.Padding = 6
	return p
}

func (s *Spec) panel(i int, d *figData, lang string, h *typeset.Outlines, series []string) (*plot.Plot, error) {
	sp := s.Panels[i]
	pd := d.panels[i]
	p := s.newPlot(h, spec.Plain(sp.Title, lang))
	p.X.Label.Text = spec.Plain(s.XAxis, lang)
	p.Y.Label.Text = spec.Plain(s.YAxis, lang)
	if sp.YAxis[lang] != "" {
		p.Y.Label.Text = spec.Plain(sp.YAxis, lang)
	}
	switch s.Kind {
	case spec.KindTimeline:
		return s.timeline(p, d, pd, h, lang)
	case spec.KindBars:
		return s.bars(p, sp, pd, lang, h, series)
	case spec.KindRate:
		return s.rate(p, sp, pd, lang, h)
	case spec.KindPercentiles:
		return s.percentiles(p, sp, pd, h)
	case spec.KindSpectrum:
		return s.spectrum(p, pd, h, series)
	case spec.KindSeries:
		return s.timeseries(p, d, pd, lang, h, series)
	case spec.KindDistribution:
		return s.distribution(p, pd, h, series)
	case spec.KindCompare:
		return s.compare(p, d, sp, pd, lang, h, series)
	}
	return nil, fmt.Errorf("figure %q: unknown kind %q", s.Name, s.Kind)
}

// formatNum writes v with at most 3 significant decimals, no exponent.
func formatNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	a := math.Abs(v)
	dec := 0
	switch {
	case a < 1:
		dec = 3
	case a < 10:
		dec = 2
	case a < 100:
		dec = 1
	}
	// Rounded as the decimal the value is written as (40.55 → 40.6,
	// half away from zero), not as its binary float (40.549999… → 40.5).
	return decimal.NewFromFloat(v).Round(int32(dec)).StringFixed(int32(dec))
}

func signed(v float64) string {
	if v == 0 {
		return "0"
	}
	if v > 0 {
		return "+" + formatNum(v)
	}
	return formatNum(v)
}

func (s *Spec) timeline(p *plot.Plot, d *figData, pd panelData, h *typeset.Outlines, lang string) (*plot.Plot, error) {
	n := len(s.Counters)
	span := d.times[len(d.times)-1] - d.times[0]
	dodge := span / 45
	lo, hi := 0.0, 1.0
	for ci, row := range pd.deltas {
		xys := make(plotter.XYs, len(row))
		for j, v := range row {
			xys[j] = plotter.XY{X: d.times[j] + dodge*(float64(ci)-float64(n-1)/2), Y: v}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		col := palette[ci%len(palette)]
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("figure %q: %v", s.Name, err)
		}
		l.LineStyle = draw.LineStyle{Color: col, Width: 2}
		sc, _ := plotter.NewScatter(xys)
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 4.5, Shape: shapes[ci%len(shapes)]}
		p.Add(l, sc)
	}
	p.Y.Min, p.Y.Max = lo-0.35, hi+0.45
	p.X.Min = d.times[0] - span*0.06
	p.X.Max = d.times[len(d.times)-1] + span*0.06
	var ticks []plot.Tick
	for j, t := range d.times {
		ticks = append(ticks, plot.Tick{Value: t, Label: strings.ToUpper(s.Snapshots[j]) + "\n" + signed(t) + " s"})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Marker = plot.TickerFunc(integerTicks)
	p.Add(hgrid())
	if !math.IsNaN(d.flip) {
		p.Add(&vline{x: d.flip, label: spec.Plain(s.FlipLabel, lang), style: s.textStyle(h, MinFont)})
	}
	return p, nil
}

// integerTicks labels whole numbers, signed: timeline values are changes
// of counters.
func integerTicks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	step := math.Max(1, math.Ceil((max-min)/6))
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: signed(v)})
	}
	return ts
}

func countTicks(min, max float64) []plot.Tick { return niceTicks(max, true) }

func valueTicks(min, max float64) []plot.Tick { return niceTicks(max, false) }

// niceTicks returns ticks from 0 to max at a 1-2-5 step; whole steps only
// when integer.
func niceTicks(max float64, integer bool) []plot.Tick {
	raw := max / 5
	if raw <= 0 {
		raw = 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	if integer && mag < 1 {
		mag = 1
	}
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	for k := 0; float64(k)*step <= max*(1+1e-9); k++ {
		v := float64(k) * step
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ts
}

func (s *Spec) bars(p *plot.Plot, sp spec.Panel, pd panelData, lang string, h *typeset.Outlines, series []string) (*plot.Plot, error) {
	cols := map[string]color.Color{}
	for i, id := range series {
		cols[id] = palette[i%len(palette)]
	}
	bp := &barsPlot{groups: pd.groups, colors: cols, style: s.textStyle(h, MinFont)}
	p.Add(hgrid(), bp)
	var ticks []plot.Tick
	for gi, g := range sp.Groups {
		ticks = append(ticks, plot.Tick{Value: float64(gi), Label: spec.Plain(g.Label, lang)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	_, _, _, ymax := bp.DataRange()
	p.Y.Min, p.Y.Max = 0, ymax
	p.Y.Tick.Marker = plot.TickerFunc(countTicks)
	return p, nil
}

func (s *Spec) rate(p *plot.Plot, sp spec.Panel, pd panelData, lang string, h *typeset.Outlines) (*plot.Plot, error) {
	lo := 100.0
	for _, g := range pd.groups {
		lo = math.Min(lo, g.rate)
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	rp := &ratePlot{groups: pd.groups, min: lo, style: s.textStyle(h, fontBody)}
	p.X.Scale = plot.LogScale{}
	var xt []plot.Tick
	for v := lo; v <= 100*1.0001; v *= 10 {
		xt = append(xt, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64) + "%"})
	}
	p.X.Tick.Marker = plot.ConstantTicks(xt)
	p.X.Min, p.X.Max = lo, 100
	g := plotter.NewGrid()
	g.Horizontal.Color = nil
	g.Vertical.Color = gridColor
	p.Add(g, rp)
	n := len(sp.Groups)
	var yt []plot.Tick
	for i, gr := range sp.Groups {
		yt = append(yt, plot.Tick{Value: float64(n - 1 - i), Label: spec.Plain(gr.Label, lang)})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(yt)
	p.Y.Tick.Length = 0
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	return p, nil
}

func (s *Spec) percentiles(p *plot.Plot, sp spec.Panel, pd panelData, h *typeset.Outlines) (*plot.Plot, error) {
	xys := make(plotter.XYs, len(pd.lat))
	hi := 0.0
	var ticks []plot.Tick
	for i, v := range pd.lat {
		xys[i] = plotter.XY{X: float64(i), Y: v}
		hi = math.Max(hi, v)
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: strings.ReplaceAll(sp.Percentiles[i], "_", ".")})
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("figure %q: %v", s.Name, err)
	}
	l.LineStyle = draw.LineStyle{Color: palette[0], Width: 2}
	sc, _ := plotter.NewScatter(xys)
	sc.GlyphStyle = draw.GlyphStyle{Color: palette[0], Radius: 4.5, Shape: draw.CircleGlyph{}}
	p.Add(hgrid(), l, sc, &pointLabels{xys: xys, unit: s.Unit, style: s.textStyle(h, MinFont)})
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(xys))-0.5
	p.Y.Min, p.Y.Max = 0, hi*1.2
	if hi == 0 {
		p.Y.Max = 1
	}
	p.Y.Tick.Marker = plot.TickerFunc(valueTicks)
	return p, nil
}
