package output

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

const repoRoot = "../../.."

var langs = []string{"ko", "ja"}

func repoFonts(t testing.TB) map[string]*typeset.Fonts {
	t.Helper()
	f, err := typeset.LoadFonts("", langs)
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
	specs, serrs := figure.LoadSpecs(root, "figures")
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
	// Drawn afresh; kept for TestStaleNamesEvidenceChange.
	p.Draw = referenceDrawn.record(p)
	if txtartest.Updating() {
		if _, err := p.Write(); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, d := range p.Check() {
		t.Errorf("%s (run go run ./cmd/evdoc figures, or go test ./generator/figure/output -update)", d)
	}
}

// TestRenderTwiceIdentical draws one reference figure twice at the same
// time, sharing the project's fonts and evidence as Write and Check do
// (they draw specs side by side): the two drawings are byte-identical
// (and under -race, free of data races).
func TestRenderTwiceIdentical(t *testing.T) {
	p := loadProject(t, repoRoot)
	// d3-failure-rate, the reference figure quickest to draw (a fifth of
	// the time of the first spec, d1-success-failure): every figure
	// draws through the same fonts, evidence and encoders, so which one
	// is drawn twice does not change what the test holds (and Check, in
	// TestReferenceFigures, draws every kind side by side under -race).
	var s *figure.Spec
	for _, sp := range p.Specs {
		if sp.Name == "d3-failure-rate" {
			s = sp
		}
	}
	if s == nil {
		t.Fatal("no reference figure d3-failure-rate")
	}
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
	// The figures whose inputs did not change are taken from
	// TestReferenceFigures's drawing (drawn here when that test did not
	// run): only the changed figure is drawn again, and Check compares
	// every figure's files and record with the committed ones as before.
	p := loadProject(t, dir)
	p.Draw = referenceDrawn.draw(p)
	ds := p.Check()
	if len(ds) != 1 || ds[0].Pos.File != "figures/d3-failure-rate.toml" ||
		!strings.Contains(ds[0].Message, "evidence dns-passthrough-tcp/d3.b.fail_rate changed from 0.21% to 0.25%") {
		t.Fatalf("got %v; want d3-failure-rate stale because d3.b.fail_rate changed", ds)
	}
}

// TestFortioPercentilesGolden draws the percentile ladder of fortio's own
// README example (../testdata/fortio, a fixture, not a lab measurement) and
// compares it with ../testdata/fortio/golden; -update rewrites the goldens.
func TestFortioPercentilesGolden(t *testing.T) {
	root := filepath.Join("..", "testdata", "fortio")
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
		t.Errorf("%s (go test ./generator/figure/output -update)", d)
	}
	alt, err := p.Specs[0].AltText(p.Store, "ja")
	if err != nil || !strings.Contains(alt, "p50 492 µs") || !strings.Contains(alt, "p99.9 930 µs") {
		t.Errorf("alt text does not give the data: %q %v", alt, err)
	}
}

// TestKindsGolden is the golden-image test of the spectrum, timeseries,
// distribution and compare kinds: ../testdata/kinds holds real tool output
// (wrk, hey, vegeta, k6, an Istio access log, benchstat, hyperfine; see
// each set's source) and one spec per kind; every figure validates
// (texts, glyphs, caption claims) and draws to exactly the files under
// ../testdata/kinds/golden: the Korean PNGs and the records byte for byte,
// the SVGs and the Japanese PNGs by their SHA-256 in golden/hashed.sha256
// (the SVGs carry every glyph's path and the PNGs of both languages
// would be most of the repository's size; the Korean PNG shows the same
// drawing, the record each language's alt text). -update rewrites them;
// look at the images.
func TestKindsGolden(t *testing.T) {
	dir := copyKindsSource(t)
	// Drawn into OutputDir, as copyKinds draws: the same inputs and
	// output paths give the same InputKey, so copyKinds takes these
	// drawings (kindsDrawn) instead of drawing every figure again.
	p := loadProject(t, dir)
	kinds := map[string]bool{}
	for _, s := range p.Specs {
		kinds[s.Kind] = true
		if ds := s.Validate(p.Store, langs, p.Fonts, check.DefaultOptions(), claim.MarkdownConfig{}); len(ds) > 0 {
			t.Errorf("%s:\n%v", s.Name, ds)
		}
	}
	for _, k := range []string{spec.KindSpectrum, spec.KindSeries, spec.KindDistribution, spec.KindCompare} {
		if !kinds[k] {
			t.Errorf("no %s figure in ../testdata/kinds", k)
		}
	}
	if t.Failed() {
		return
	}
	// Drawn afresh; kept for the tests that copy ../testdata/kinds
	// (copyKinds), which then draw only what their change moves.
	p.Draw = kindsDrawn.record(p)
	if _, err := p.Write(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, filepath.FromSlash(OutputDir))
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("..", "testdata", "kinds", "golden")
	var sums strings.Builder
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".svg") || strings.HasSuffix(e.Name(), ".ja.png") {
			fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(b), e.Name())
			continue
		}
		files[e.Name()] = b
	}
	files["hashed.sha256"] = []byte(sums.String())
	if txtartest.Updating() {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(golden, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(golden, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have, err := os.ReadDir(golden)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range have {
		if _, ok := files[e.Name()]; !ok {
			t.Errorf("golden/%s is no longer drawn (go test ./generator/figure/output -update)", e.Name())
		}
	}
	for name, b := range files {
		want, err := os.ReadFile(filepath.Join(golden, name))
		if err != nil {
			t.Errorf("golden/%s: %v (go test ./generator/figure/output -update)", name, err)
			continue
		}
		if !bytes.Equal(b, want) {
			t.Errorf("golden/%s differs from what the spec draws now (go test ./generator/figure/output -update; look at the images)", name)
		}
	}
}

// copyKindsSource copies ../testdata/kinds's evidence and figure specs to a
// temporary project.
func copyKindsSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"evidence", "figures"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join("..", "testdata", "kinds", d))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyKinds copies ../testdata/kinds to a temporary project and draws its
// figures there as its committed ones (assets/figures), as evdoc figures
// does; TestKindsGolden holds what they are.
func copyKinds(t *testing.T) string {
	t.Helper()
	dir := copyKindsSource(t)
	p := loadProject(t, dir)
	p.Draw = kindsDrawn.draw(p)
	if _, err := p.Write(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// drawMemo keeps the files of each drawing by the spec's InputKey, so
// the tests that copy ../testdata/kinds and change one value draw only the
// figures that value changes (drawing every figure of the project twice
// a case made the package's tests the slowest under -race). Drawing is
// deterministic: TestKindsGolden and TestReferenceFigures draw every
// figure afresh (record), and the others take those drawings.
type drawMemo struct {
	mu sync.Mutex
	m  map[[32]byte]drawn
}

var (
	kindsDrawn     = &drawMemo{m: map[[32]byte]drawn{}}
	referenceDrawn = &drawMemo{m: map[[32]byte]drawn{}}
)

// record draws every spec afresh (never from the memo) and keeps each
// drawing for draw.
func (m *drawMemo) record(p *Project) func(*figure.Spec) ([]File, *Record, error) {
	return func(s *figure.Spec) ([]File, *Record, error) {
		files, rec, err := p.Files(s)
		if key, ok := p.InputKey(s); ok && err == nil {
			m.mu.Lock()
			m.m[key] = drawn{files, rec, nil}
			m.mu.Unlock()
		}
		return files, rec, err
	}
}

func (m *drawMemo) draw(p *Project) func(*figure.Spec) ([]File, *Record, error) {
	return func(s *figure.Spec) ([]File, *Record, error) {
		key, ok := p.InputKey(s)
		if !ok {
			return p.Files(s)
		}
		m.mu.Lock()
		d, hit := m.m[key]
		m.mu.Unlock()
		if hit {
			return d.files, d.rec, nil
		}
		files, rec, err := p.Files(s)
		if err == nil {
			m.mu.Lock()
			m.m[key] = drawn{files, rec, nil}
			m.mu.Unlock()
		}
		return files, rec, err
	}
}

// TestKindsStaleNamesChange changes one value of one series of each new
// kind (a percentile of a spectrum run, an access-log time, a bucket
// count, a benchstat spread, a per-request duration counted in a CDF
// whose drawing does not move: its record does) and expects figures
// --check to name the figure drawn from it and the change, and no other
// figure (the duration is drawn by the time series too).
func TestKindsStaleNamesChange(t *testing.T) {
	for _, tc := range []struct {
		file, old, new, figure, want string
	}{
		{"wrk-jetty/wrk.txt", "99%  162.80ms", "99%  170.00ms", "latency-spectrum", "evidence wrk-jetty/w.latency.p99 changed from 162.80ms to 170.00ms"},
		{"kubefrog/log.txt", `[2024-06-02T13:35:27.054Z]`, `[2024-06-02T13:35:27.100Z]`, "access-log-series", "evidence kubefrog/a.r2.start_time changed from 13:35:27.054 to 13:35:27.100"},
		{"kubefrog/log.txt", `0 387 16 -`, `0 387 12 -`, "latency-cdf", "evidence kubefrog/a.r2.duration changed from 16 to 12"},
		{"vegeta-hist/hist.txt", "[4ms,   6ms]   2117", "[4ms,   6ms]   2118", "latency-histogram", "evidence vegeta-hist/h.hist._4ms_6ms.count changed from 2117 to 2118"},
		{"xds-bench/benchstat.txt", "825µs ±11%", "825µs ±12%", "benchmark-compare", "evidence xds-bench/bs.endpointgeneration_1_100.time_op.old_var changed from 11% to 12%"},
		{"docker-lab/stats.txt", "1.032GiB / 7.667GiB", "1.033GiB / 7.667GiB", "container-resources", "evidence docker-lab/d.s2.api_server.mem_usage changed from 1.032GiB to 1.033GiB"},
		{"k8s-top/top.txt", "212m ", "213m ", "pod-cpu", "evidence k8s-top/k.s2.kube_apiserver_ub18.cpu_cores changed from 212m to 213m"},
		{"k8s-top/top.txt", "2023-03-03T13:38:30+09:00", "2023-03-03T13:38:31+09:00", "pod-cpu", "evidence k8s-top/k.s2.time changed from 2023-03-03T13:38:30+09:00 to 2023-03-03T13:38:31+09:00"},
		// one bucket count moves the derived spectrum run and the histogram drawn from the same buckets
		{"echo-prom/stats-prometheus.txt", `le="5"} 906`, `le="5"} 907`, "histogram-spectrum latency-histogram", `changed from 906 to 907`},
	} {
		t.Run(tc.figure, func(t *testing.T) {
			dir := copyKinds(t)
			f := filepath.Join(dir, "evidence", filepath.FromSlash(tc.file))
			b, _ := os.ReadFile(f)
			b2 := bytes.Replace(b, []byte(tc.old), []byte(tc.new), 1)
			if bytes.Equal(b, b2) {
				t.Fatalf("%q not in %s", tc.old, tc.file)
			}
			if err := os.WriteFile(f, b2, 0o644); err != nil {
				t.Fatal(err)
			}
			p := loadProject(t, dir)
			p.Draw = kindsDrawn.draw(p)
			ds := p.Check()
			mine := map[string]diag.List{}
			figs := strings.Fields(tc.figure)
			for _, d := range ds {
				f := strings.TrimSuffix(strings.TrimPrefix(d.Pos.File, "figures/"), ".toml")
				if slices.Contains(figs, f) {
					mine[f] = append(mine[f], d)
				} else if tc.figure != "latency-cdf" {
					t.Errorf("%s is stale too: %s", d.Pos.File, d)
				}
			}
			for _, f := range figs {
				if len(mine[f]) != 1 || !strings.Contains(mine[f][0].Message, tc.want) {
					t.Fatalf("got %v; want %s stale: %s", ds, f, tc.want)
				}
			}
		})
	}
}

// TestUndrawableKeepsItsFiles: a figure the changed evidence no longer
// lets draw (a duration outside its bounds) is one finding naming why;
// its committed files are still its own, not files of no spec.
func TestUndrawableKeepsItsFiles(t *testing.T) {
	dir := copyKinds(t)
	f := filepath.Join(dir, "evidence", "kubefrog", "log.txt")
	b, _ := os.ReadFile(f)
	if err := os.WriteFile(f, bytes.Replace(b, []byte(`0 387 16 -`), []byte(`0 387 21 -`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var cdf []string
	p := loadProject(t, dir)
	p.Draw = kindsDrawn.draw(p) // the figures the change does not move
	for _, d := range p.Check() {
		if strings.Contains(d.Message, "belongs to no figure spec") {
			t.Errorf("orphan: %s", d)
		}
		if d.Pos.File == "figures/latency-cdf.toml" {
			cdf = append(cdf, d.Message)
		}
	}
	if len(cdf) != 1 || !strings.Contains(cdf[0], "cannot be drawn") || !strings.Contains(cdf[0], "outside the bounds 0 to 20 ms") {
		t.Errorf("latency-cdf: %q; want one finding saying why it cannot be drawn", cdf)
	}
}
