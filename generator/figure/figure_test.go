package figure

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

const repoRoot = "../.."

var langs = []string{"ko", "ja"}

func repoFonts(t testing.TB) map[string]*Fonts {
	t.Helper()
	f, err := LoadFonts("", langs)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func loadProject(t testing.TB, root string) *Project {
	t.Helper()
	st, errs := evidence.Load(root, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	specs, serrs := LoadSpecs(root, "figures")
	if serrs.HasErrors() {
		t.Fatal(serrs)
	}
	return &Project{Root: root, Store: st, Specs: specs, Langs: langs, Fonts: repoFonts(t)}
}

// TestReferenceFigures is the golden-image test of the reference site's
// figures: the committed files under assets/figures are the goldens, and
// every figure must validate (texts, glyphs, caption claims) and render to
// exactly those bytes. -update rewrites them (as `evdoc figures` does);
// look at the new images before committing.
func TestReferenceFigures(t *testing.T) {
	p := loadProject(t, repoRoot)
	if len(p.Specs) < 5 {
		t.Fatalf("%d figure specs; expected the reference site's five or more", len(p.Specs))
	}
	for _, s := range p.Specs {
		if ds := s.Validate(p.Store, langs, p.Fonts, check.DefaultOptions(), claim.MarkdownConfig{}); len(ds) > 0 {
			t.Errorf("%s:\n%v", s.Name, ds)
		}
	}
	if txtartest.Updating() {
		if _, err := p.Write(); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, d := range p.Check() {
		t.Errorf("%s (run go run ./cmd/evdoc figures, or go test ./generator/figure -update)", d)
	}
}

// TestRenderTwiceIdentical draws one reference figure twice at the same
// time, sharing the project's fonts and evidence as Write and Check do
// (they draw specs side by side): the two drawings are byte-identical
// (and under -race, free of data races).
func TestRenderTwiceIdentical(t *testing.T) {
	p := loadProject(t, repoRoot)
	s := p.Specs[0]
	var a, b []File
	var errA, errB error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a, _, errA = p.Files(s) }()
	go func() { defer wg.Done(); b, _, errB = p.Files(s) }()
	wg.Wait()
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("%s: two renders differ", a[i].Path)
		}
	}
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
	if out.Width != int(Width) || w != 2*out.Width || h != 2*out.Height {
		t.Errorf("shown %dx%d, PNG %dx%d; expected the PNG at twice the shown size", out.Width, out.Height, w, h)
	}
	if !bytes.Contains(out.SVG, []byte("<svg")) || bytes.Contains(out.SVG, []byte("<text")) || bytes.Contains(out.SVG, []byte("font-family")) {
		t.Error("SVG must draw text as outlines, with no <text> or font reference")
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
// 11 CSS px in a 390 px screen's column; the wide drawing keeps MinFont too.
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
				w, err := s.Render(p.Store, lang, p.Fonts[lang])
				if err != nil {
					t.Fatal(err)
				}
				shown := float64(n.MinText) * min(phoneColumn, float64(n.Width)) / float64(NarrowWidth)
				if n.Width != int(NarrowWidth) || n.MinText < MinFont || w.MinText < MinFont || shown < 11 {
					t.Errorf("%s (%s, %s): narrow %d px wide, smallest text %v pt (%.1f CSS px at 390 px), wide %v pt; want %v pt and 11 px or more",
						s.Name, s.Kind, lang, n.Width, n.MinText, shown, w.MinText, MinFont)
				}
			}
		}
	}
	for _, k := range Kinds {
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
			for _, l := range langs {
				if _, err := s.Render(st, l, fonts[l]); err == nil && ds.HasErrors() && (ds[0].Rule == diag.FigureData || ds[0].Rule == diag.FigureSpec) {
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

// TestStaleNamesEvidenceChange copies the reference project, changes one
// evidence number, and expects figures --check to report exactly the
// figures drawn from it, naming the change.
func TestStaleNamesEvidenceChange(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"evidence", "figures", "assets/figures"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join(repoRoot, d))); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(dir, "evidence", "dns-passthrough-tcp", "report.md")
	b, _ := os.ReadFile(report)
	b2 := bytes.Replace(b, []byte("**0.21%**"), []byte("**0.25%**"), 1)
	if bytes.Equal(b, b2) {
		t.Fatal("0.21% not found in the D-3 report")
	}
	if err := os.WriteFile(report, b2, 0o644); err != nil {
		t.Fatal(err)
	}
	ds := loadProject(t, dir).Check()
	if len(ds) != 1 || ds[0].Pos.File != "figures/d3-failure-rate.toml" ||
		!strings.Contains(ds[0].Message, "evidence dns-passthrough-tcp/d3.b.fail_rate changed from 0.21% to 0.25%") {
		t.Fatalf("got %v; want d3-failure-rate stale because d3.b.fail_rate changed", ds)
	}
}

// TestFortioPercentilesGolden draws the percentile ladder of fortio's own
// README example (testdata/fortio, a fixture, not a lab measurement) and
// compares it with testdata/fortio/golden; -update rewrites the goldens.
func TestFortioPercentilesGolden(t *testing.T) {
	root := filepath.Join("testdata", "fortio")
	p := loadProject(t, root)
	p.OutDir = "golden"
	for _, s := range p.Specs {
		if ds := s.Validate(p.Store, langs, p.Fonts, check.DefaultOptions(), claim.MarkdownConfig{}); len(ds) > 0 {
			t.Fatalf("%s:\n%v", s.Name, ds)
		}
	}
	if txtartest.Updating() {
		if _, err := p.Write(); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, d := range p.Check() {
		t.Errorf("%s (go test ./generator/figure -update)", d)
	}
	alt, err := p.Specs[0].AltText(p.Store, "ja")
	if err != nil || !strings.Contains(alt, "p50 492 µs") || !strings.Contains(alt, "p99.9 930 µs") {
		t.Errorf("alt text does not give the data: %q %v", alt, err)
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
	s := &Spec{Name: "glyphs", File: "figures/glyphs.toml", Kind: KindTimeline,
		Snapshots: []string{"before", "mid1", "mid2", "after"},
		Times:     []string{"dns-inflight-part2/curl.strict.before", "dns-inflight-part2/curl.strict.mid1", "dns-inflight-part2/curl.strict.mid2", "dns-inflight-part2/curl.strict.after"},
		Counters:  c.Rows[:3],
		Panels:    []Panel{{Ref: "dns-inflight-part2/strict.{counter}.{snapshot}"}},
		Title:     c.Title, XAxis: c.Axis, YAxis: c.Axis, Caption: c.Title, Alt: c.Title,
		Legend: map[string]Text{}}
	for i, r := range s.Counters {
		s.Legend[r] = Text{"ko": c.Legend["ko"][i], "ja": c.Legend["ja"][i]}
	}
	want := map[string]map[rune]string{
		"ko": {'約': "ipagp.ttf", '지': "NanumSquareR.ttf"},
		"ja": {'약': "NanumSquareR.ttf", '遅': "ipagp.ttf"},
	}
	for _, lang := range langs {
		if ds := s.glyphCheck(lang, p.Fonts[lang]); len(ds) > 0 {
			t.Fatalf("%s: %v", lang, ds)
		}
		out, err := s.Render(p.Store, lang, p.Fonts[lang])
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		drawn := map[rune]Glyph{}
		for _, g := range out.Glyphs {
			drawn[g.Rune] = g
		}
		label := c.Axis[lang] + c.Title[lang] + strings.Join(c.Legend[lang], "")
		for _, r := range label {
			g, ok := drawn[r]
			switch {
			case !ok:
				t.Errorf("%s: %s was not drawn", lang, RuneName(r))
			case r != ' ' && g.Segments == 0:
				t.Errorf("%s: %s drawn with an empty outline (font %s)", lang, RuneName(r), g.Font)
			}
		}
		for _, r := range []rune{'µ', 'μ', '≈'} {
			if g := drawn[r]; g.Segments == 0 {
				t.Errorf("%s: %s not drawn", lang, RuneName(r))
			}
		}
		for r, font := range want[lang] {
			if g := drawn[r]; g.Font != font {
				t.Errorf("%s: %s drawn with %q; want %q", lang, RuneName(r), g.Font, font)
			}
		}
	}
}

// TestMissingGlyphIsAnError: a rune no font has is reported before
// drawing, and Render refuses to draw it.
func TestMissingGlyphIsAnError(t *testing.T) {
	p := loadProject(t, repoRoot)
	s := *p.Specs[0]
	s.Title = Text{"ko": "제목 \U0001F9EA", "ja": "題"}
	ds := s.glyphCheck("ko", p.Fonts["ko"])
	if len(ds) != 1 || ds[0].Rule != diag.FigureGlyph || !strings.Contains(ds[0].Message, "U+1F9EA") {
		t.Fatalf("got %v", ds)
	}
	if _, err := s.Render(p.Store, "ko", p.Fonts["ko"]); err == nil || !strings.Contains(err.Error(), "U+1F9EA") {
		t.Errorf("Render: %v", err)
	}
}

// FuzzParseSpec holds that no spec file panics the parser and every
// diagnostic lies inside the file.
// specPieces cuts a figure spec into seeds of at most about 256 bytes:
// its top-level keys (lines of up to 120 bytes), then its tables
// ([[panel]], [title], …) packed in order, each piece led by the spec's
// kind line. Go's fuzzer minimizes an input that finds new coverage in a
// number of executions that grows with the square of its length, and the
// reference specs (up to 3.3 KB, about 1 ms an execution) held a
// 20-second run in one minimization after 17 executions; the whole specs
// are read by the package's other tests.
func specPieces(src []byte) [][]byte {
	const limit = 256
	var lead []byte
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("kind")) {
			lead = line
			break
		}
	}
	sections := bytes.SplitAfter(src, []byte("\n["))
	var top []byte
	for _, line := range bytes.SplitAfter(bytes.TrimSuffix(sections[0], []byte("[")), []byte("\n")) {
		if len(line) <= 120 && len(top)+len(line) <= limit {
			top = append(top, line...)
		}
	}
	out := [][]byte{top}
	piece := slices.Clip(lead)
	flush := func() {
		if len(piece) > len(lead) {
			out = append(out, piece)
		}
		piece = slices.Clip(lead)
	}
	for _, sec := range sections[1:] {
		sec = append([]byte("["), bytes.TrimSuffix(sec, []byte("["))...) // "[" starts the next header
		lines := bytes.SplitAfter(sec, []byte("\n"))
		if len(piece)+len(sec) > limit {
			flush()
		}
		if len(lead)+len(sec) <= limit {
			piece = append(piece, sec...)
			continue
		}
		// a long table: its lines in pieces under its header, each line cut to the limit
		piece = append(piece, lines[0]...)
		for _, line := range lines[1:] {
			if len(piece)+len(line) > limit {
				flush()
				piece = append(piece, lines[0]...)
			}
			if len(line) > limit-len(piece) {
				line = line[:limit-len(piece)]
			}
			piece = append(piece, line...)
		}
		flush()
	}
	flush()
	return out
}

func FuzzParseSpec(f *testing.F) {
	add := func(src []byte) {
		for _, p := range specPieces(src) {
			f.Add(p)
		}
	}
	files, _ := filepath.Glob(filepath.Join(repoRoot, "figures", "*.toml"))
	for _, file := range files {
		b, _ := os.ReadFile(file)
		add(b)
	}
	cases, _ := filepath.Glob("testdata/specs/*.txtar")
	for _, c := range cases {
		if ar, err := txtar.ParseFile(c); err == nil {
			for _, m := range ar.Files {
				if m.Name == "figures/fig.toml" {
					add(m.Data)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, ds := ParseSpec("figures/f.toml", src)
		if s == nil && !ds.HasErrors() {
			t.Fatal("nil spec without an error")
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, d := range ds {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Offset > len(src) {
				t.Fatalf("%s outside the %d-line file", d, lines)
			}
		}
		if s != nil {
			checkTextPositions(t, s)
		}
	})
}

// checkTextPositions holds that every string value of spec s is read as
// go-toml reads it, with offsets inside the string, in order; that each
// text field with a string of its own maps into it (never into another
// field's string of the same text); and that a byte written as it is
// maps to itself.
func checkTextPositions(t *testing.T, s *Spec) {
	for k, sp := range s.stringSpans() {
		val, offs, ok := decodeTOMLString(s.Src[sp.start:sp.end])
		if !ok || val != sp.value {
			t.Fatalf("%q: string %q read as %q (%v); go-toml reads %q", strings.ReplaceAll(k, "\x00", "."), s.Src[sp.start:sp.end], val, ok, sp.value)
		}
		for i := range offs {
			if offs[i] < 0 || offs[i] >= sp.end-sp.start || i > 0 && offs[i] < offs[i-1] {
				t.Fatalf("%q: offsets %v out of order or outside the string", s.Src[sp.start:sp.end], offs)
			}
		}
	}
	starts := map[int]string{}
	for _, lang := range langs {
		for _, f := range s.fields(lang) {
			at := s.textOffset(f)
			sp, ok := s.stringSpans()[pathKey(f.path...)]
			if f.text != "" && ok && sp.value == f.text && at == nil {
				t.Fatalf("%s (%s): %q not mapped into its string", f.key, lang, f.text)
			}
			if at == nil {
				continue
			}
			if other, dup := starts[at(0)]; dup {
				t.Fatalf("%s (%s) and %s map to one offset %d", f.key, lang, other, at(0))
			}
			starts[at(0)] = f.key + " (" + lang + ")"
			for i := 0; i < len(f.text); i++ {
				if at(i+1)-at(i) == 1 && s.Src[at(i)] != f.text[i] {
					t.Fatalf("%s (%s): byte %d of %q maps to %q", f.key, lang, i, f.text, s.Src[at(i)])
				}
			}
		}
	}
}

// TestDecodeTOMLString: each kind of TOML string, with escapes and line
// continuations, reads as its value with each byte's offset.
func TestDecodeTOMLString(t *testing.T) {
	for _, tc := range []struct {
		raw, val string
		offs     []int
		ok       bool
	}{
		{`"ab"`, "ab", []int{1, 2, 3}, true},
		{`"a\"b"`, `a"b`, []int{1, 2, 4, 5}, true},
		{`"\u306F!"`, "は!", []int{1, 1, 1, 7, 8}, true},
		{`"\U0001F9EA"`, "\U0001F9EA", []int{1, 1, 1, 1, 11}, true},
		{`"a\x41"`, "aA", []int{1, 2, 6}, true},
		{`"\n\t\\"`, "\n\t\\", []int{1, 3, 5, 7}, true},
		{`'a\n'`, `a\n`, []int{1, 2, 3, 4}, true},
		{"'''\nab'''", "ab", []int{4, 5, 6}, true},
		{"\"\"\"\na\\\n  b\"\"\"", "ab", []int{4, 9, 10}, true},
		{"\"\"\"\r\na\"\"\"", "a", []int{5, 6}, true},
		{`"\q"`, "", nil, false},
		{`"\u12"`, "", nil, false},
		{`"\uD800"`, "", nil, false},
		{`x`, "", nil, false},
	} {
		val, offs, ok := decodeTOMLString([]byte(tc.raw))
		if ok != tc.ok || val != tc.val || !slices.Equal(offs, tc.offs) {
			t.Errorf("%q: %q %v %v; want %q %v %v", tc.raw, val, offs, ok, tc.val, tc.offs, tc.ok)
		}
	}
}

// TestFontOverride: a project's assets/fonts file overrides the embedded
// font of the same name; a missing directory means the embedded fonts; an
// unreadable override is an error naming the font.
func TestFontOverride(t *testing.T) {
	hangul := '지'
	embedded, err := LoadChain(filepath.Join(t.TempDir(), "no-such-dir"), "ko")
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := embedded.pick(nil, hangul); i != 0 {
		t.Fatalf("embedded ko chain draws %q with font %d; want NanumSquare (0)", hangul, i)
	}
	dir := t.TempDir()
	// Go Regular under NanumSquare's name: a font without Hangul.
	if err := os.WriteFile(filepath.Join(dir, "NanumSquareR.ttf"), goregular.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	over, err := LoadChain(dir, "ko")
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := over.pick(nil, hangul); i == 0 {
		t.Fatalf("override NanumSquareR.ttf (Go Regular) still draws %q", hangul)
	}
	bad := t.TempDir()
	if err := os.Mkdir(filepath.Join(bad, "ipagp.ttf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadChain(bad, "ja"); err == nil || !strings.Contains(err.Error(), "ipagp.ttf") {
		t.Fatalf("unreadable override: err %v; want an error naming ipagp.ttf", err)
	}
	if b, ok := EmbeddedFont("ipagp.LICENSE"); !ok || !bytes.Contains(b, []byte("IPA")) {
		t.Error("the IPA font licence is not embedded next to the font")
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
		data := strings.TrimPrefix(ja, strings.TrimSpace(Plain(s.Alt, "ja")))
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
	if !kinds[KindTimeline] || !kinds[KindBars] || !kinds[KindRate] {
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
