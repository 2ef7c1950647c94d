// Package figure renders charts from evidence values with gonum/plot, one
// PNG per language, reproducibly: the same evidence, spec and fonts give
// the same bytes.
//
// A figure is declared in figures/NAME.toml. The one kind so far,
// "snapshot-deltas", draws, for each row (counter) of an evidence table,
// one horizontal bar per snapshot column giving its change from the
// baseline column:
//
//	kind     = "snapshot-deltas"
//	set      = "dns-inflight-part2"   # evidence set id
//	table    = "strict"               # value prefix: strict.<row>.<column>
//	baseline = "before"
//	columns  = ["mid1", "mid2", "after"]
//	rows     = ["membership_change", "upstream_cx_active"]
//	[title]   ko = "…"  ja = "…"      # per language
//	[axis]    ko = "…"
//	[legend]  ko = ["…", "…", "…"]    # one per column
//	[caption] ko = "…"                # shown under the figure
//	[alt]     ko = "…"                # image alt text
//
// Fonts are TrueType files given per language by the caller (Korean and
// Japanese glyphs need their own faces); no global font cache is touched.
package figure

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// Spec is a decoded figures/NAME.toml.
type Spec struct {
	Name     string              `toml:"-"`
	File     string              `toml:"-"`
	Kind     string              `toml:"kind"`
	Set      string              `toml:"set"`
	Table    string              `toml:"table"`
	Baseline string              `toml:"baseline"`
	Columns  []string            `toml:"columns"`
	Rows     []string            `toml:"rows"`
	Title    map[string]string   `toml:"title"`
	Axis     map[string]string   `toml:"axis"`
	Legend   map[string][]string `toml:"legend"`
	Caption  map[string]string   `toml:"caption"`
	Alt      map[string]string   `toml:"alt"`
}

// Size of every rendered figure, in points, and its raster resolution.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
	DPI    = 144
)

// PixelSize returns the pixel width and height of a rendered PNG.
func PixelSize() (w, h int) {
	return int(Width.Dots(DPI) + 0.5), int(Height.Dots(DPI) + 0.5)
}

// LoadSpecs reads every figures/*.toml under root/dir. File names give the
// figure names. Errors carry file:line:col.
func LoadSpecs(root, dir string) ([]*Spec, diag.List) {
	entries, err := os.ReadDir(path.Join(root, dir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, diag.List{diag.Errorf(diag.Position{File: dir}, diag.FigureSpec, "cannot read figures: %v", err)}
	}
	var (
		specs []*Spec
		errs  diag.List
	)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		file := path.Join(dir, e.Name())
		src, err := os.ReadFile(path.Join(root, file))
		if err != nil {
			errs = append(errs, diag.Errorf(diag.Position{File: file}, diag.FigureSpec, "%v", err))
			continue
		}
		s := &Spec{Name: strings.TrimSuffix(e.Name(), ".toml"), File: file}
		md, err := toml.Decode(string(src), s)
		if err != nil {
			var pe toml.ParseError
			pos := diag.Position{File: file, Line: 1, Column: 1}
			if errors.As(err, &pe) {
				pos = diag.NewLineIndex(file, src).LineCol(pe.Position.Line, pe.Position.Col)
			}
			errs = append(errs, diag.Errorf(pos, diag.FigureSpec, "invalid figure spec: %v", err))
			continue
		}
		if u := md.Undecoded(); len(u) > 0 {
			errs = append(errs, diag.Errorf(diag.Position{File: file, Line: 1, Column: 1}, diag.FigureSpec, "unknown key %q", u[0].String()))
			continue
		}
		if s.Kind != "snapshot-deltas" {
			errs = append(errs, diag.Errorf(diag.Position{File: file, Line: 1, Column: 1}, diag.FigureSpec, "kind %q: expected \"snapshot-deltas\"", s.Kind))
			continue
		}
		specs = append(specs, s)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs, errs
}

// Validate reports what Render would fail on for the given languages:
// missing per-language texts, a legend that does not match the columns,
// and evidence values the spec names that st lacks. Positions point into
// the spec file.
func (s *Spec) Validate(st *evidence.Store, langs []string, src []byte) diag.List {
	ix := diag.NewLineIndex(s.File, src)
	at := func(key string) diag.Position {
		if i := strings.Index(string(src), "["+key+"]"); i >= 0 {
			return ix.Pos(i)
		}
		return ix.Pos(0)
	}
	var ds diag.List
	for _, lang := range langs {
		for key, m := range map[string]map[string]string{"title": s.Title, "axis": s.Axis, "caption": s.Caption, "alt": s.Alt} {
			if strings.TrimSpace(m[lang]) == "" {
				ds = append(ds, diag.Errorf(at(key), diag.FigureSpec, "figure %q has no %s for language %q; expected %s = \"…\" under [%s]", s.Name, key, lang, lang, key))
			}
		}
		if n := len(s.Legend[lang]); n != len(s.Columns) {
			ds = append(ds, diag.Errorf(at("legend"), diag.FigureSpec, "figure %q has %d legend entries for %q; expected one per column (%d)", s.Name, n, lang, len(s.Columns)))
		}
	}
	if _, _, err := s.Data(st); err != nil {
		ds = append(ds, diag.Errorf(ix.Pos(0), diag.FigureData, "%v", err))
	}
	ds.Sort()
	return ds
}

// Input is one evidence value a figure drew, for provenance.
type Input struct {
	Ref string        `json:"ref"`
	Pos diag.Position `json:"pos"`
}

// Data resolves the spec's values in st: deltas[row][col] = value − baseline.
// Missing values are reported at the spec file.
func (s *Spec) Data(st *evidence.Store) (deltas [][]float64, inputs []Input, err error) {
	var missing []string
	get := func(row, col string) (*evidence.Value, bool) {
		ref := fmt.Sprintf("%s/%s.%s.%s", s.Set, s.Table, row, col)
		v, ok := st.Lookup(ref)
		if !ok {
			missing = append(missing, ref)
			return nil, false
		}
		inputs = append(inputs, Input{Ref: ref, Pos: v.Pos})
		return v, true
	}
	for _, row := range s.Rows {
		base, ok := get(row, s.Baseline)
		line := make([]float64, len(s.Columns))
		for j, col := range s.Columns {
			v, vok := get(row, col)
			if ok && vok {
				line[j] = v.Value.Sub(base.Value).InexactFloat64()
			}
		}
		deltas = append(deltas, line)
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("%s: figure %q names unknown evidence values: %s", s.File, s.Name, strings.Join(missing, ", "))
	}
	return deltas, inputs, nil
}

// Render draws the figure for language lang with the TrueType font ttf and
// returns PNG bytes. It fails when the spec lacks text for lang or a value
// is missing.
func (s *Spec) Render(st *evidence.Store, lang string, ttf []byte) ([]byte, error) {
	deltas, _, err := s.Data(st)
	if err != nil {
		return nil, err
	}
	legend := s.Legend[lang]
	if s.Title[lang] == "" || s.Axis[lang] == "" || len(legend) != len(s.Columns) {
		return nil, fmt.Errorf("%s: figure %q needs title, axis and %d legend entries for language %q", s.File, s.Name, len(s.Columns), lang)
	}
	face, err := opentype.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("figure %q: cannot read font for %q: %v", s.Name, lang, err)
	}
	fnt := font.Font{Typeface: font.Typeface("evdoc-" + lang)}
	handler := text.Plain{Fonts: font.NewCache(font.Collection{{Font: fnt, Face: face}})}

	p := plot.New()
	p.TextHandler = handler
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Handler = handler
		st.Font = font.Font{Typeface: fnt.Typeface, Size: st.Font.Size}
	}
	p.Title.Text = s.Title[lang]
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = s.Axis[lang]
	p.Y.Tick.Label.Font.Size = vg.Points(8)

	n := len(s.Rows)
	barWidth := vg.Points(7)
	palette := []color.Color{
		color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
		color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
		color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
		color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	}
	// Rows are drawn top to bottom in spec order: reverse for the Y axis.
	for j := range s.Columns {
		vals := make(plotter.Values, n)
		for i := range s.Rows {
			vals[n-1-i] = deltas[i][j]
		}
		bars, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return nil, fmt.Errorf("figure %q: %v", s.Name, err)
		}
		bars.Horizontal = true
		bars.LineStyle.Width = 0
		bars.Color = palette[j%len(palette)]
		bars.Offset = barWidth * vg.Length(float64(len(s.Columns)-1-j)-float64(len(s.Columns)-1)/2)
		p.Add(bars)
		p.Legend.Add(legend[j], bars)
	}
	names := make([]string, n)
	for i, r := range s.Rows {
		names[n-1-i] = r
	}
	p.NominalY(names...)
	p.X.Min, p.X.Max = -0.25, maxOf(deltas)+1.5 // room for the legend
	p.Y.Min, p.Y.Max = -0.8, float64(n)-0.2
	p.X.Tick.Marker = plot.TickerFunc(integerTicks)
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(3)
	p.Legend.XOffs = -vg.Points(6)
	p.Legend.YOffs = -vg.Points(6)

	c := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI))
	// Leave a margin so no text touches the image edge.
	margin := vg.Points(6)
	p.Draw(draw.Crop(draw.New(c), margin, -margin, margin, -margin))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("figure %q: %v", s.Name, err)
	}
	return buf.Bytes(), nil
}

func maxOf(xs [][]float64) float64 {
	m := 1.0
	for _, r := range xs {
		for _, x := range r {
			if x > m {
				m = x
			}
		}
	}
	return m
}

// integerTicks labels whole numbers only: counter deltas are counts.
func integerTicks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := float64(int(min)); v <= max; v++ {
		if v < min {
			continue
		}
		label := fmt.Sprintf("%+.0f", v)
		if v == 0 {
			label = "0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}
