package figure

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

const repoRoot = "../.."

var langs = []string{"ko", "ja"}

func repoFonts(t testing.TB) map[string]*typeset.Fonts {
	t.Helper()
	f, err := typeset.LoadFonts("", langs)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// loaded is what the tests draw from: a project's evidence, its figure
// specs and the font chains of langs.
type loaded struct {
	Store *evidence.Store
	Specs []*Spec
	Fonts map[string]*typeset.Fonts
}

func loadProject(t testing.TB, root string) *loaded {
	t.Helper()
	st, errs := evidence.Load(root, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	specs, serrs := LoadSpecs(root, "figures")
	if serrs.HasErrors() {
		t.Fatal(serrs)
	}
	return &loaded{Store: st, Specs: specs, Fonts: repoFonts(t)}
}

// TestLegibleSizes: figures are drawn in CSS px (1 pt = 1 px at the width
// shown), no text smaller than 12 px, and the PNG is exactly twice the size.
func TestLegibleSizes(t *testing.T) {
	if MinFont < 12 {
		t.Fatalf("MinFont = %v", MinFont)
	}
	p := loadProject(t, repoRoot)
	out, err := p.Specs[0].Render(p.Store, "ko", p.Fonts["ko"])
	if err != nil {
		t.Fatal(err)
	}
	w, h := pngSize(t, out.PNG)
	if out.Width != int(spec.Width) || w != 2*out.Width || h != 2*out.Height {
		t.Errorf("shown %dx%d, PNG %dx%d; expected the PNG at twice the shown size", out.Width, out.Height, w, h)
	}
	if !bytes.Contains(out.SVG, []byte("<svg")) || bytes.Contains(out.SVG, []byte("<text")) || bytes.Contains(out.SVG, []byte("font-family")) {
		t.Error("SVG must draw text as Outlines, with no <text> or font reference")
	}
}

// phoneColumn is the width, in CSS px, a figure is shown at on a 390 px
// phone: the article column of evdoc's theme (1rem of padding a side);
// generator/site/browsertest measures it on the built reference site.
const phoneColumn = 390 - 2*16

// TestPhoneTextSizes draws every figure of every kind (the reference
// site's, fortio's ladder and testdata/kinds' spectrum, timeseries,
// distribution and compare) narrow, as phones are shown it, and measures
// the smallest text actually drawn: at least MinFont points, so at least
// 11 CSS px in a 390 px screen's column; the wide drawing keeps MinFont too
// (measured on its SVG: TestLegibleSizes draws a PNG).
func TestPhoneTextSizes(t *testing.T) {
	kinds := map[string]bool{}
	for _, root := range []string{repoRoot, filepath.Join("testdata", "fortio"), filepath.Join("testdata", "kinds")} {
		p := loadProject(t, root)
		for _, s := range p.Specs {
			kinds[s.Kind] = true
			for _, lang := range langs {
				n, err := s.RenderNarrow(p.Store, lang, p.Fonts[lang])
				if err != nil {
					t.Fatal(err)
				}
				// The wide drawing as Render draws it, without the PNG:
				// MinText is the smallest text the drawing sets, the same
				// in the SVG as in the PNG (one draw function, one layout),
				// and rasterizing is most of a drawing's time under -race.
				w, err := s.renderAt(p.Store, lang, p.Fonts[lang], spec.Layout{Width: spec.Width}, false)
				if err != nil {
					t.Fatal(err)
				}
				shown := float64(n.MinText) * min(phoneColumn, float64(n.Width)) / float64(spec.NarrowWidth)
				if n.Width != int(spec.NarrowWidth) || n.MinText < MinFont || w.MinText < MinFont || shown < 11 {
					t.Errorf("%s (%s, %s): narrow %d px wide, smallest text %v pt (%.1f CSS px at 390 px), wide %v pt; want %v pt and 11 px or more",
						s.Name, s.Kind, lang, n.Width, n.MinText, shown, w.MinText, MinFont)
				}
			}
		}
	}
	for _, k := range spec.Kinds {
		if !kinds[k] {
			t.Errorf("no %s figure measured", k)
		}
	}
}

func pngSize(t *testing.T, b []byte) (int, int) {
	t.Helper()
	if len(b) < 24 || string(b[1:4]) != "PNG" {
		t.Fatal("not a PNG")
	}
	be := func(x []byte) int { return int(x[0])<<24 | int(x[1])<<16 | int(x[2])<<8 | int(x[3]) }
	return be(b[16:20]), be(b[20:24])
}

// TestSpecErrors runs each testdata/specs/*.txtar project (a bad spec)
// and compares the diagnostics, each at the spec's file:line:col, with
// the archive's want section.
func TestSpecErrors(t *testing.T) {
	fonts := repoFonts(t)
	txtartest.Run(t, "testdata/specs/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		st, errs := evidence.Load(dir, "evidence")
		if errs.HasErrors() {
			t.Fatal(errs)
		}
		specs, ds := LoadSpecs(dir, "figures")
		for _, s := range specs {
			ds = append(ds, s.Validate(st, langs, fonts, check.DefaultOptions(), claim.MarkdownConfig{})...)
			// Render must refuse a spec whose first error is of its data
			// or spec; it is not called on others (a drawing that
			// succeeds is seconds of CPU time under -race, for nothing
			// the test compares).
			if !ds.HasErrors() || (ds[0].Rule != diag.FigureData && ds[0].Rule != diag.FigureSpec) {
				continue
			}
			for _, l := range langs {
				if _, err := s.Render(st, l, fonts[l]); err == nil {
					t.Errorf("Render(%s) succeeded on a spec with errors", l)
				}
			}
		}
		ds.Sort()
		txtartest.CheckRanges(t, ds)
		var got strings.Builder
		for _, d := range ds {
			if d.Pos.File != "figures/fig.toml" || d.Pos.Line < 1 {
				t.Errorf("not positioned in the spec: %s", d)
			}
			fmt.Fprintln(&got, d)
		}
		if !ds.HasErrors() {
			t.Error("no error")
		}
		return []byte(got.String())
	})
}

// TestCaptionNumberChecked changes one number of the STRICT figure's
// caption and expects a claim-mismatch at that number in the spec.
func TestCaptionNumberChecked(t *testing.T) {
	p := loadProject(t, repoRoot)
	var s *Spec
	for _, x := range p.Specs {
		if x.Name == "strict-l7-snapshots" {
			s = x
		}
	}
	if s == nil {
		t.Fatal("no strict-l7-snapshots spec")
	}
	for _, lang := range langs {
		old := s.Caption[lang]
		i := strings.Index(old, "[+1]")
		mutated := bytes.Replace(s.Src, []byte(old), []byte(old[:i]+"[+2]"+old[i+4:]), 1)
		m, ds := ParseSpec(s.File, mutated)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		ds = m.Validate(p.Store, langs, p.Fonts, check.DefaultOptions(), claim.MarkdownConfig{})
		if len(ds) != 1 || ds[0].Rule != diag.ClaimMismatch {
			t.Fatalf("%s: got %v; want one claim-mismatch", lang, ds)
		}
		at := bytes.Index(mutated, []byte("[+2]")) + 1
		if ds[0].Pos.Offset != at || !strings.Contains(ds[0].Message, "caption ("+lang+")") {
			t.Errorf("%s: %s at offset %d; want the caption's +2 at offset %d", lang, ds[0], ds[0].Pos.Offset, at)
		}
	}
}

// TestCaseFigureGlyphs is ../shared/cases/08-figure-glyphs.toml (copied to
// testdata): labels mixing µs (U+00B5), μs (U+03BC), ≈, 約 and Hangul in
// both languages. The figure is drawn and the set of glyphs actually
// drawn (outlines loaded and filled) must hold every rune of the labels,
// each with a non-empty outline from a font of the chain: Hangul in the
// Japanese figure from NanumSquare, 約 in the Korean one from IPA P Gothic.
func TestCaseFigureGlyphs(t *testing.T) {
	var c struct {
		Title  map[string]string   `toml:"title"`
		Axis   map[string]string   `toml:"axis"`
		Legend map[string][]string `toml:"legend"`
		Rows   []string            `toml:"rows"`
	}
	if _, err := toml.DecodeFile(filepath.Join("testdata", "08-figure-glyphs.toml"), &c); err != nil {
		t.Fatal(err)
	}
	p := loadProject(t, repoRoot)
	s := &Spec{&spec.Spec{Name: "glyphs", File: "figures/glyphs.toml", Kind: spec.KindTimeline,
		Snapshots: []string{"before", "mid1", "mid2", "after"},
		Times:     []string{"dns-inflight-part2/curl.strict.before", "dns-inflight-part2/curl.strict.mid1", "dns-inflight-part2/curl.strict.mid2", "dns-inflight-part2/curl.strict.after"},
		Counters:  c.Rows[:3],
		Panels:    []spec.Panel{{Ref: "dns-inflight-part2/strict.{counter}.{snapshot}"}},
		Title:     c.Title, XAxis: c.Axis, YAxis: c.Axis, Caption: c.Title, Alt: c.Title,
		Legend: map[string]spec.Text{}}}
	for i, r := range s.Counters {
		s.Legend[r] = spec.Text{"ko": c.Legend["ko"][i], "ja": c.Legend["ja"][i]}
	}
	want := map[string]map[rune]string{
		"ko": {'約': "ipagp.ttf", '지': "NanumSquareR.ttf"},
		"ja": {'약': "NanumSquareR.ttf", '遅': "ipagp.ttf"},
	}
	for _, lang := range langs {
		if ds := s.MissingGlyphs(lang, p.Fonts[lang]); len(ds) > 0 {
			t.Fatalf("%s: %v", lang, ds)
		}
		out, err := s.Render(p.Store, lang, p.Fonts[lang])
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		drawn := map[rune]typeset.Glyph{}
		for _, g := range out.Glyphs {
			drawn[g.Rune] = g
		}
		label := c.Axis[lang] + c.Title[lang] + strings.Join(c.Legend[lang], "")
		for _, r := range label {
			g, ok := drawn[r]
			switch {
			case !ok:
				t.Errorf("%s: %s was not drawn", lang, typeset.RuneName(r))
			case r != ' ' && g.Segments == 0:
				t.Errorf("%s: %s drawn with an empty outline (font %s)", lang, typeset.RuneName(r), g.Font)
			}
		}
		for _, r := range []rune{'µ', 'μ', '≈'} {
			if g := drawn[r]; g.Segments == 0 {
				t.Errorf("%s: %s not drawn", lang, typeset.RuneName(r))
			}
		}
		for r, font := range want[lang] {
			if g := drawn[r]; g.Font != font {
				t.Errorf("%s: %s drawn with %q; want %q", lang, typeset.RuneName(r), g.Font, font)
			}
		}
	}
}

// TestMissingGlyphIsAnError: a rune no font has is reported before
// drawing, and Render refuses to draw it.
func TestMissingGlyphIsAnError(t *testing.T) {
	p := loadProject(t, repoRoot)
	ss := *p.Specs[0].Spec
	ss.Title = spec.Text{"ko": "제목 \U0001F9EA", "ja": "題"}
	s := &Spec{&ss}
	ds := s.MissingGlyphs("ko", p.Fonts["ko"])
	if len(ds) != 1 || ds[0].Rule != diag.FigureGlyph || !strings.Contains(ds[0].Message, "U+1F9EA") {
		t.Fatalf("got %v", ds)
	}
	if _, err := s.Render(p.Store, "ko", p.Fonts["ko"]); err == nil || !strings.Contains(err.Error(), "U+1F9EA") {
		t.Errorf("Render: %v", err)
	}
}

// TestBrokenSetNamed: a figure drawn from an evidence set that did not
// load says so, once per set, instead of calling each of its values
// unknown (the set's own errors give the cause).
func TestBrokenSetNamed(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/specs/unknown-ref.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range ar.Files {
		if f.Name == "figures/fig.toml" {
			// two bars of the broken set
			ar.Files[i].Data = append(f.Data, []byte("    [[panel.group.bar]]\n    series = \"ok\"\n    ref = \"lab/r.b.ok\"\n")...)
		}
		if f.Name == "evidence/lab/evidence.toml" {
			ar.Files[i].Data = append(f.Data, []byte("colour = 1\n")...) // the set does not load
		}
	}
	dir := txtartest.Write(t, ar)
	st, errs := evidence.Load(dir, "evidence")
	if !st.Broken["lab"] || !errs.HasErrors() {
		t.Fatalf("the set loaded: %v", errs)
	}
	specs, ds := LoadSpecs(dir, "figures")
	for _, s := range specs {
		ds = append(ds, s.Validate(st, langs, repoFonts(t), check.DefaultOptions(), claim.MarkdownConfig{})...)
	}
	if len(ds) != 1 || !strings.Contains(ds[0].Message, `evidence set "lab" did not load (see its errors)`) {
		t.Errorf("got %v; want one finding naming the set that did not load", ds)
	}
}

// TestAltTextPunctuation: the data part of a Japanese alt text is written
// with Japanese punctuation (、。：（）), with no ASCII separator between
// its values, labels or sentences; a Korean one keeps ASCII punctuation.
// Every reference figure is checked, each kind of chart among them.
func TestAltTextPunctuation(t *testing.T) {
	p := loadProject(t, repoRoot)
	kinds := map[string]bool{}
	for _, s := range p.Specs {
		kinds[s.Kind] = true
		ja, err := s.AltText(p.Store, "ja")
		if err != nil {
			t.Fatal(err)
		}
		data := strings.TrimPrefix(ja, strings.TrimSpace(spec.Plain(s.Alt, "ja")))
		for _, ascii := range []string{", ", ". ", ": ", "; ", " (", ")."} {
			if strings.Contains(data, ascii) {
				t.Errorf("%s: ja alt text has %q: %s", s.Name, ascii, data)
			}
		}
		if !strings.HasSuffix(ja, "。") || strings.HasPrefix(data, " ") {
			t.Errorf("%s: ja alt text: %q", s.Name, ja)
		}
		ko, err := s.AltText(p.Store, "ko")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(ko, ".") || strings.ContainsAny(ko, "、。") {
			t.Errorf("%s: ko alt text: %q", s.Name, ko)
		}
	}
	if !kinds[spec.KindTimeline] || !kinds[spec.KindBars] || !kinds[spec.KindRate] {
		t.Errorf("reference figures cover %v; want timeline, bars and rate", kinds)
	}
}

// TestFormatNum: value labels round the decimal the value is written as,
// half away from zero, at three significant decimals at most; a binary
// float's rounding (40.55 is 40.5499… as a float64) would disagree with
// the page that quotes the same value.
func TestFormatNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{40.55, "40.6"}, {-40.55, "-40.6"}, {2.675, "2.68"}, {0.1235, "0.124"},
		{162.8, "163"}, {5, "5"}, {0.21, "0.210"}, {1234.5, "1235"},
	} {
		if got := formatNum(tc.v); got != tc.want {
			t.Errorf("formatNum(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
