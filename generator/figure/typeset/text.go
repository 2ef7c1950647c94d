package typeset

import (
	"compress/gzip"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"

	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// GoRegular names the Go Regular font (golang.org/x/image/font/gofont,
// BSD licence) in a font chain. It is compiled in, so it needs no file;
// it covers Latin, Greek (μ), the micro sign µ and math symbols (≈, ≤).
const GoRegular = "go-regular"

// embeddedFonts are the CJK fonts evdoc ships, so that a project needs
// none of its own: NanumSquare Regular (Korean; SIL Open Font License,
// fonts/NanumSquareR.LICENSE) and IPA P Gothic (Japanese; IPA Font
// License, fonts/ipagp.LICENSE). Each font file is kept gzip-compressed
// (NAME.gz, its bytes unchanged once read: TestEmbeddedFontBytes), which
// keeps the checkout 2.6 MB smaller.
//
//go:embed fonts/NanumSquareR.ttf.gz fonts/ipagp.ttf.gz fonts/NanumSquareR.LICENSE fonts/ipagp.LICENSE
var embeddedFonts embed.FS

// fontFiles holds each embedded font's bytes once read (EmbeddedFont).
var fontFiles sync.Map // name → *fontFile

type fontFile struct {
	once sync.Once
	b    []byte
	ok   bool
}

// EmbeddedFont returns the bytes of a font file evdoc ships (a name of
// FontChains other than GoRegular), or of its licence (NAME.LICENSE),
// and whether there is one.
// FontMaxSize bounds one font file read from a font directory: 64 MiB
// (the largest CJK fonts are about 20 MB).
const FontMaxSize int64 = 64 << 20

func EmbeddedFont(name string) ([]byte, bool) {
	v, _ := fontFiles.LoadOrStore(name, &fontFile{})
	f := v.(*fontFile)
	f.once.Do(func() { f.b, f.ok = readEmbeddedFont(name) })
	return f.b, f.ok
}

// readEmbeddedFont reads and decompresses fonts/NAME.gz, or reads a
// licence (fonts/NAME.LICENSE) as it is.
func readEmbeddedFont(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, "/\\") {
		return nil, false
	}
	if strings.HasSuffix(name, ".LICENSE") {
		b, err := embeddedFonts.ReadFile("fonts/" + name)
		return b, err == nil
	}
	z, err := embeddedFonts.Open("fonts/" + name + ".gz")
	if err != nil {
		return nil, false
	}
	defer z.Close()
	r, err := gzip.NewReader(z)
	if err != nil {
		return nil, false
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, false
	}
	return b, true
}

// FontChains lists, per language, the fonts figure text is drawn with, in
// fallback order: each rune is drawn with the first font in the chain that
// has a glyph for it. Names are font files evdoc embeds (see EmbeddedFont)
// or GoRegular; a project overrides one with a file of the same name in
// its assets/fonts directory.
// Korean figures fall back to IPA P Gothic for kanji (約) and Japanese
// figures to NanumSquare for Hangul; both fall back to Go Regular for
// symbols neither CJK font has.
var FontChains = map[string][]string{
	"ko": {"NanumSquareR.ttf", "ipagp.ttf", GoRegular},
	"ja": {"ipagp.ttf", "NanumSquareR.ttf", GoRegular},
}

// Fonts is a loaded fallback chain of TrueType faces for one language.
// Build one with LoadChain or NewChain.
type Fonts struct {
	names []string
	faces []*sfnt.Font

	mu    sync.Mutex
	picks map[rune]pick
}

type pick struct {
	font  int
	glyph sfnt.GlyphIndex
}

// LoadChain loads the fonts FontChains names for lang: a file of that name
// in dir (the project's assets/fonts, which need not exist) overrides the
// font evdoc embeds. An unknown language gets Latin first (Go Regular,
// then the CJK fonts). It fails when a font is neither in dir nor
// embedded, when dir's file cannot be read, or when a font does not parse.
func LoadChain(dir, lang string) (*Fonts, error) {
	names, ok := FontChains[lang]
	if !ok {
		names = []string{GoRegular, "NanumSquareR.ttf", "ipagp.ttf"}
	}
	files := make([][]byte, len(names))
	for i, n := range names {
		if n == GoRegular {
			files[i] = goregular.TTF
			continue
		}
		var b []byte
		err := fs.ErrNotExist
		if dir != "" {
			// A regular file (links followed: font directories link
			// to system fonts) of at most FontMaxSize bytes.
			b, err = safefile.ReadPath(filepath.Join(dir, n), FontMaxSize)
		}
		if errors.Is(err, fs.ErrNotExist) {
			var ok bool
			if b, ok = EmbeddedFont(n); ok {
				err = nil
			}
		}
		if err != nil {
			return nil, fmt.Errorf("font %s for language %q: %v", n, lang, err)
		}
		files[i] = b
	}
	return NewChain(names, files)
}

// NewChain parses TrueType/OpenType files into a fallback chain; names
// label them in errors and in RenderedGlyphs.
func NewChain(names []string, files [][]byte) (*Fonts, error) {
	if len(names) == 0 || len(names) != len(files) {
		return nil, fmt.Errorf("font chain: %d names for %d files", len(names), len(files))
	}
	f := &Fonts{names: names, picks: map[rune]pick{}}
	for i, b := range files {
		face, err := opentype.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("font %s: %v", names[i], err)
		}
		f.faces = append(f.faces, face)
	}
	return f, nil
}

// Names returns the chain's font names in fallback order.
func (f *Fonts) Names() []string { return append([]string(nil), f.names...) }

// pick returns the index in the chain of the font drawing r and its glyph,
// or -1 when no font has it. A font "has" a visible rune only when its
// glyph has an outline: some fonts map a rune in their cmap to an empty
// glyph (NanumSquare maps 約 and ≈ so), which would draw nothing.
func (f *Fonts) pick(buf *sfnt.Buffer, r rune) (int, sfnt.GlyphIndex) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.picks[r]; ok {
		return p.font, p.glyph
	}
	p := pick{font: -1}
	for i, face := range f.faces {
		g, err := face.GlyphIndex(buf, r)
		if err != nil || g == 0 {
			continue
		}
		if !unicode.IsSpace(r) {
			segs, err := face.LoadGlyph(buf, g, fixed.I(upem), nil)
			if err != nil || len(segs) == 0 {
				continue
			}
		}
		p = pick{font: i, glyph: g}
		break
	}
	f.picks[r] = p
	return p.font, p.glyph
}

// Missing returns the runes of s no font of the chain has a glyph for,
// in order of first appearance. Control characters (newlines) are ignored.
func (f *Fonts) Missing(s string) []rune {
	var (
		buf  sfnt.Buffer
		out  []rune
		seen = map[rune]bool{}
	)
	for _, r := range s {
		if unicode.IsControl(r) || seen[r] {
			continue
		}
		seen[r] = true
		if i, _ := f.pick(&buf, r); i < 0 {
			out = append(out, r)
		}
	}
	return out
}

// RuneName formats r for a message: the character and its code point.
func RuneName(r rune) string { return fmt.Sprintf("%q (U+%04X)", r, r) }

// Glyph is one glyph drawn into a figure: the rune, the font of the chain
// that drew it, and whether its outline had any segments (a space has
// none; a drawn visible character always has some).
type Glyph struct {
	Rune     rune
	Font     string
	Segments int
}

// Outlines is a text.Handler that draws every glyph as a filled outline
// path, choosing per rune the first font of the chain that has it. The
// output therefore does not depend on the reader's fonts (SVG) and mixes
// scripts in one label. It records every glyph it drew.
type Outlines struct {
	fonts  *Fonts
	cache  *font.Cache
	drawn  map[Glyph]bool
	misses map[rune]bool
	// min is the size of the smallest text drawn (0: none yet).
	min vg.Length
}

var _ text.Handler = (*Outlines)(nil)

// NewOutlines returns a handler drawing with the chain f.
func NewOutlines(f *Fonts) *Outlines {
	tf := font.Typeface("evdoc")
	return &Outlines{
		fonts:  f,
		cache:  font.NewCache(font.Collection{{Font: font.Font{Typeface: tf}, Face: f.faces[0]}}),
		drawn:  map[Glyph]bool{},
		misses: map[rune]bool{},
	}
}

// Min returns the size of the smallest text drawn (0: none yet).
func (o *Outlines) Min() vg.Length { return o.min }

// Misses returns the runes drawn that no font of the chain has.
func (o *Outlines) Misses() map[rune]bool { return o.misses }

// Cache returns a cache holding the chain's first font.
func (o *Outlines) Cache() *font.Cache { return o.cache }

// upem is the pixels-per-em glyphs are loaded at: one font unit scale.
const upem = 2048

// Extents are the first font's, scaled to fnt's size.
func (o *Outlines) Extents(fnt font.Font) font.Extents {
	var buf sfnt.Buffer
	m, err := o.fonts.faces[0].Metrics(&buf, fixed.I(upem), xfont.HintingNone)
	if err != nil {
		return font.Extents{Ascent: fnt.Size * 0.8, Descent: fnt.Size * 0.2, Height: fnt.Size * 1.2}
	}
	sc := float64(fnt.Size) / upem
	return font.Extents{
		Ascent:  vg.Length(float64(m.Ascent.Round()) * sc),
		Descent: vg.Length(float64(m.Descent.Round()) * sc),
		Height:  vg.Length(float64(m.Height.Round()) * sc),
	}
}

// Lines splits txt at newlines.
func (o *Outlines) Lines(txt string) []string {
	return strings.Split(strings.TrimRight(txt, "\n"), "\n")
}

// Box measures one line of txt.
func (o *Outlines) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	e := o.Extents(fnt)
	return o.width(txt, fnt.Size), e.Ascent, e.Descent
}

func (o *Outlines) width(s string, size vg.Length) vg.Length {
	var (
		buf sfnt.Buffer
		w   float64
	)
	for _, r := range s {
		i, g := o.fonts.pick(&buf, r)
		if i < 0 {
			i, g = 0, 0
		}
		adv, err := o.fonts.faces[i].GlyphAdvance(&buf, g, fixed.I(upem), xfont.HintingNone)
		if err == nil {
			w += float64(adv) / 64
		}
	}
	return vg.Length(w * float64(size) / upem)
}

// Draw draws txt as outlines, like text.Plain.Draw but per-rune fonts.
func (o *Outlines) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	if strings.TrimSpace(txt) != "" && (o.min == 0 || sty.Font.Size < o.min) {
		o.min = sty.Font.Size
	}
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin

	lines := o.Lines(txt)
	e := o.Extents(sty.Font)
	ht := sty.Height(txt)
	pt.Y += ht*vg.Length(sty.YAlign) - e.Ascent
	for i, line := range lines {
		xoffs := vg.Length(sty.XAlign) * o.width(line, sty.Font.Size)
		n := vg.Length(len(lines) - i)
		o.drawLine(c, line, sty.Font.Size, pt.Add(vg.Point{X: xoffs, Y: n * sty.Font.Size}))
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

// drawLine fills the outline of each glyph of line with its baseline
// origin at pt.
func (o *Outlines) drawLine(c vg.Canvas, line string, size vg.Length, pt vg.Point) {
	var buf sfnt.Buffer
	sc := float64(size) / upem / 64 // 26.6 font units to points
	x := float64(pt.X)
	for _, r := range line {
		i, g := o.fonts.pick(&buf, r)
		if i < 0 {
			o.misses[r] = true
			i, g = 0, 0
		}
		face := o.fonts.faces[i]
		segs, err := face.LoadGlyph(&buf, g, fixed.I(upem), nil)
		if err == nil && len(segs) > 0 {
			var p vg.Path
			at := func(q fixed.Point26_6) vg.Point {
				return vg.Point{X: vg.Length(x + float64(q.X)*sc), Y: vg.Length(float64(pt.Y) - float64(q.Y)*sc)}
			}
			for k, s := range segs {
				switch s.Op {
				case sfnt.SegmentOpMoveTo:
					if k > 0 {
						p.Close()
					}
					p.Move(at(s.Args[0]))
				case sfnt.SegmentOpLineTo:
					p.Line(at(s.Args[0]))
				case sfnt.SegmentOpQuadTo:
					p.QuadTo(at(s.Args[0]), at(s.Args[1]))
				case sfnt.SegmentOpCubeTo:
					p.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
				}
			}
			p.Close()
			c.Fill(p)
		}
		if !unicode.IsControl(r) {
			o.drawn[Glyph{Rune: r, Font: o.fonts.names[i], Segments: len(segs)}] = true
		}
		adv, err := face.GlyphAdvance(&buf, g, fixed.I(upem), xfont.HintingNone)
		if err == nil {
			x += float64(adv) * sc
		}
	}
}

// Glyphs returns the drawn glyph set sorted by rune and font.
func (o *Outlines) Glyphs() []Glyph {
	out := make([]Glyph, 0, len(o.drawn))
	for g := range o.drawn {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rune != out[j].Rune {
			return out[i].Rune < out[j].Rune
		}
		return out[i].Font < out[j].Font
	})
	return out
}
