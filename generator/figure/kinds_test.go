package figure

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
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
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestKindsGolden is the golden-image test of the spectrum, timeseries,
// distribution and compare kinds: testdata/kinds holds real tool output
// (wrk, hey, vegeta, k6, an Istio access log, benchstat, hyperfine; see
// each set's source) and one spec per kind; every figure validates
// (texts, glyphs, caption claims) and draws to exactly the files under
// testdata/kinds/golden: the Korean PNGs and the records byte for byte,
// the SVGs and the Japanese PNGs by their SHA-256 in golden/hashed.sha256
// (the SVGs carry every glyph's path and the PNGs of both languages
// would be most of the repository's size; the Korean PNG shows the same
// drawing, the record each language's alt text). -update rewrites them;
// look at the images.
func TestKindsGolden(t *testing.T) {
	dir := copyKindsSource(t)
	p := loadProject(t, dir)
	p.OutDir = "out"
	kinds := map[string]bool{}
	for _, s := range p.Specs {
		kinds[s.Kind] = true
		if ds := s.Validate(p.Store, langs, p.Fonts, check.DefaultOptions(), claim.MarkdownConfig{}); len(ds) > 0 {
			t.Errorf("%s:\n%v", s.Name, ds)
		}
	}
	for _, k := range []string{KindSpectrum, KindSeries, KindDistribution, KindCompare} {
		if !kinds[k] {
			t.Errorf("no %s figure in testdata/kinds", k)
		}
	}
	if t.Failed() {
		return
	}
	if _, err := p.Write(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "kinds", "golden")
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
			t.Errorf("golden/%s is no longer drawn (go test ./generator/figure -update)", e.Name())
		}
	}
	for name, b := range files {
		want, err := os.ReadFile(filepath.Join(golden, name))
		if err != nil {
			t.Errorf("golden/%s: %v (go test ./generator/figure -update)", name, err)
			continue
		}
		if !bytes.Equal(b, want) {
			t.Errorf("golden/%s differs from what the spec draws now (go test ./generator/figure -update; look at the images)", name)
		}
	}
}

// TestKindsAltText: the data part of each new kind's alt text gives the
// values drawn, from the evidence.
func TestKindsAltText(t *testing.T) {
	p := loadProject(t, filepath.Join("testdata", "kinds"))
	want := map[string][]string{
		"latency-spectrum":  {"wrk (Jetty) p50 1.11 ms, p75 12.13 ms, p90 57.23 ms, p99 162.8 ms", "hey p50 2.4 ms", "k6 (express) p90 18.91 ms, p95 19.54 ms"},
		"access-log-series": {"duration 0 s 0 ms, +629 s 16 ms, +629 s 0 ms", "404 +629 s"},
		"latency-histogram": {"vegeta 0–2 ms 6007, 2–4 ms 5505, 4–6 ms 2117, 6–+Inf ms 4771", "hey 0–0 ms 1, 0–2 ms 81", "Envoy upstream_rq_time 0–0.5 ms 653 … 3600000–+Inf ms 0"},
		"benchmark-compare": {"1/100: 변경 전 825 µs ±11%, 변경 후 451 µs ±5% (-45.31%)"},
		"hyperfine-compare": {"java: 평균 ± σ 319.5 ms ±11.2", "java: 평균 (min–max) 319.5 ms 296.0–337.5"},
		// derived percentiles are written ≈ and named as interpolated, measured ones as they are
		"histogram-spectrum":  {"hey (측정) p50 2.4 ms", "p50 ≈0.351 ms, p75 ≈1.54 ms, p90 ≈3.71 ms, p95 ≈4.43 ms, p99 ≈6.05 ms (버킷에서 선형 보간한 추정값)"},
		"container-resources": {"api-server 0 s 12.37 %, +12 s 87.04 %", "+12 s 1056.768 MiB", "부하 시작 +12 s"},
		"pod-cpu":             {"kube-apiserver-ub18 0 s 74 mcore, +30 s 212 mcore"},
	}
	for _, s := range p.Specs {
		alt, err := s.AltText(p.Store, "ko")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want[s.Name] {
			if !strings.Contains(alt, w) {
				t.Errorf("%s: alt text %q lacks %q", s.Name, alt, w)
			}
		}
	}
}

// copyKindsSource copies testdata/kinds's evidence and figure specs to a
// temporary project.
func copyKindsSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"evidence", "figures"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join("testdata", "kinds", d))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyKinds copies testdata/kinds to a temporary project and draws its
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
// the tests that copy testdata/kinds and change one value draw only the
// figures that value changes (drawing every figure of the project twice
// a case made the package's tests the slowest under -race). Drawing is
// deterministic: TestKindsGolden draws every figure afresh.
type drawMemo struct {
	mu sync.Mutex
	m  map[[32]byte]drawn
}

var kindsDrawn = &drawMemo{m: map[[32]byte]drawn{}}

func (m *drawMemo) draw(p *Project) func(*Spec) ([]File, *Record, error) {
	return func(s *Spec) ([]File, *Record, error) {
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

// TestPercentilesAnyReader: the percentile ladder takes its latencies
// from any reader with a time unit (hey's seconds, wrk's and vegeta's
// milliseconds), converted to the spec's unit; a latency without a unit
// is an error, not read as seconds (the wrong guess would draw 3 ms as
// 3000 ms).
func TestPercentilesAnyReader(t *testing.T) {
	p := loadProject(t, filepath.Join("testdata", "kinds"))
	spec := func(prefix string) *Spec {
		src := "kind = \"percentiles\"\nunit = \"ms\"\n[[panel]]\nprefix = \"" + prefix + "\"\npercentiles = [\"p50\", \"p99\"]\n"
		s, ds := ParseSpec("figures/l.toml", []byte(src))
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		return s
	}
	for prefix, want := range map[string][]float64{
		"hey-200/h.latency":      {2.4, 12.3},
		"wrk-jetty/w.latency":    {1.11, 162.8},
		"ambient-l4/v.latencies": {2.587, 3.836},
	} {
		d, errs := spec(prefix).data(p.Store)
		if errs != nil {
			t.Fatalf("%s: %v", prefix, errs)
		}
		for k, v := range d.panels[0].lat {
			if math.Abs(v-want[k]) > 1e-9 {
				t.Errorf("%s: %v; want %v ms", prefix, d.panels[0].lat, want)
			}
		}
	}
	// A store whose p50 has no unit.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "evidence", "j"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "evidence", "j", "evidence.toml"), []byte("id = \"j\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\norigin = \"raw\"\nsource = \"s\"\nreport = \"r\"\n[[read]]\nfile = \"r.json\"\nformat = \"json\"\nname = \"r\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "evidence", "j", "r.json"), []byte(`{"lat": {"p50": 3, "p99": 9}}`), 0o644)
	st, errs := evidence.Load(dir, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	_, ds := spec("j/r.lat").data(st)
	if len(ds) != 2 || !strings.Contains(ds[0].Message, "is in no unit, which does not convert to ms") {
		t.Errorf("got %v; want the unitless latencies refused", ds)
	}
}

// TestSeriesOneClock: a timeseries whose times are times of day (an
// access log's start_time) refuses an event in elapsed seconds.
func TestSeriesOneClock(t *testing.T) {
	p := loadProject(t, filepath.Join("testdata", "kinds"))
	var s *Spec
	for _, x := range p.Specs {
		if x.Name == "access-log-series" {
			s = x
		}
	}
	src := bytes.Replace(s.Src, []byte(`"kubefrog/a.r3.start_time"`), []byte(`"wrk-jetty/w.duration"`), 1)
	m, ds := ParseSpec(s.File, src)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	_, ds = m.data(p.Store)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "is an elapsed time but the figure's first time is a time of day") ||
		ds[0].Pos.Offset != bytes.Index(src, []byte(`"wrk-jetty/w.duration"`))+1 {
		t.Errorf("got %v; want one finding at the event's ref", ds)
	}
}

// TestLimits: a spec over a limit of limits.go is a figure-spec error
// naming the limit, found before anything is drawn (the reliability
// probe 50-figure-huge-spec drew 4,000 rate groups as a 5.7 GB PNG).
func TestLimits(t *testing.T) {
	rate := func(panels, groups int) string {
		var b strings.Builder
		b.WriteString("kind = \"rate\"\ncolumns = 1\n")
		for i := 0; i < panels; i++ {
			fmt.Fprintf(&b, "[[panel]]\ntitle = { ko = \"p%d\", ja = \"p%d\" }\n", i, i)
			for g := 0; g < groups; g++ {
				fmt.Fprintf(&b, "  [[panel.group]]\n  label = { ko = \"g\", ja = \"g\" }\n  ref = \"lab/r.a.rate\"\n")
			}
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, src, want string
	}{
		{"panels", rate(2000, 1), "limit MaxPanels"},
		{"groups", rate(1, 2000), "limit MaxSeries"},
		{"height", rate(MaxPanels, MaxSeries), "limit MaxHeight"},
		{"points", "kind = \"spectrum\"\nunit = \"ms\"\n[[panel]]\n  [[panel.series]]\n  id = \"a\"\n  ref = \"x/y.{p}\"\n  percentiles = [" + strings.Repeat(`"p50", `, MaxPoints) + "\"p50\"]\n", "limit MaxPoints"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ds := ParseSpec("figures/big.toml", []byte(tc.src))
			if s != nil || len(ds) == 0 || ds[0].Rule != diag.FigureSpec || !strings.Contains(ds[0].Message, tc.want) {
				t.Fatalf("got %v; want a figure-spec error naming %s", ds, tc.want)
			}
		})
	}
	// Within the limits: the reference figures and these parse.
	if _, ds := ParseSpec("figures/ok.toml", []byte(rate(MaxPanels, 2))); ds.HasErrors() {
		t.Errorf("%d panels of 2 groups: %v", MaxPanels, ds)
	}
}

// TestRowsLimit: a template of {i} stops at MaxPoints rows; a source
// with more is an error, not MaxPoints+1 lookups and a bigger drawing.
func TestRowsLimit(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "evidence", "c"), 0o755)
	os.WriteFile(filepath.Join(dir, "evidence", "c", "evidence.toml"), []byte("id = \"c\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\norigin = \"raw\"\nsource = \"s\"\nreport = \"r\"\n[[read]]\nfile = \"r.csv\"\nformat = \"csv\"\nname = \"r\"\nunits = { \"*.t\" = \"s\", \"*.v\" = \"ms\" }\n"), 0o644)
	var csv strings.Builder
	csv.WriteString("t,v\n")
	for i := 0; i <= MaxPoints; i++ {
		fmt.Fprintf(&csv, "%d,%d\n", i, i%7)
	}
	os.WriteFile(filepath.Join(dir, "evidence", "c", "r.csv"), []byte(csv.String()), 0o644)
	st, errs := evidence.Load(dir, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	s, ds := ParseSpec("figures/s.toml", []byte("kind = \"timeseries\"\nlegend.a = { ko = \"a\", ja = \"a\" }\n[[panel]]\n  [[panel.series]]\n  id = \"a\"\n  x = \"c/r.r{i}.t\"\n  y = \"c/r.r{i}.v\"\n"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if _, ds := s.data(st); len(ds) != 1 || !strings.Contains(ds[0].Message, "limit MaxPoints") {
		t.Errorf("got %v; want one error naming MaxPoints", ds)
	}
}

// TestSpectrumRunOffAxis: a run none of whose percentiles is on the
// spectrum's axis (hey's p10 and p25) is an error, not an empty chart.
func TestSpectrumRunOffAxis(t *testing.T) {
	p := loadProject(t, filepath.Join("testdata", "kinds"))
	src := "kind = \"spectrum\"\nunit = \"ms\"\nlegend.h = { ko = \"h\", ja = \"h\" }\n[[panel]]\n  [[panel.series]]\n  id = \"h\"\n  ref = \"hey-200/h.latency.{p}\"\n  percentiles = [\"p10\", \"p25\"]\n"
	s, ds := ParseSpec("figures/s.toml", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if _, ds := s.data(p.Store); len(ds) != 1 || !strings.Contains(ds[0].Message, "no percentile from p50 to p99.999") || ds[0].Pos.Line != 7 {
		t.Errorf("got %v; want one error at the run's ref", ds)
	}
}

// wrk2Spectrum is a short wrk2 run with its detailed percentile spectrum
// (a fixture in wrk2's layout, numbers made up).
const wrk2Spectrum = `Running 30s test @ http://127.0.0.1:80/
  2 threads and 100 connections
  Latency Distribution (HdrHistogram - Recorded Latency)
 50.000%    1.20ms
 99.000%    4.10ms

  Detailed Percentile spectrum:
       Value   Percentile   TotalCount 1/(1-Percentile)

       0.500     0.000000            1         1.00
       1.200     0.500000          500         2.00
       2.300     0.900000          900        10.00
       4.100     0.990000          990       100.00
       6.000     0.999000          999      1000.00
       7.500     1.000000         1000          inf
#[Mean    =        1.400, StdDeviation   =        0.800]
#[Max     =        7.500, Total count    =         1000]
#[Buckets =           27, SubBuckets     =         2048]
----------------------------------------------------------
  1000 requests in 30.00s, 1.00MB read
Requests/sec:     33.33
Transfer/sec:     34.13KB
`

// TestSpectrumRows draws a wrk2 spectrum from its rows: each row's
// fraction is its percentile (0.990000 is p99), the rows at 0 and 1
// (1/(1−p) = inf) are off the axis, and the values are milliseconds.
func TestSpectrumRows(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "evidence", "w2"), 0o755)
	os.WriteFile(filepath.Join(dir, "evidence", "w2", "evidence.toml"), []byte("id = \"w2\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\norigin = \"raw\"\nsource = \"s\"\nreport = \"r\"\n[[read]]\nfile = \"wrk2.txt\"\nformat = \"wrk\"\nname = \"w\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "evidence", "w2", "wrk2.txt"), []byte(wrk2Spectrum), 0o644)
	st, errs := evidence.Load(dir, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	src := "kind = \"spectrum\"\nunit = \"µs\"\nmark = [\"p99_9\"]\nalt = { ko = \"a\", ja = \"a\" }\ntitle = { ko = \"t\", ja = \"t\" }\ncaption = { ko = \"c\", ja = \"c\" }\nlegend.w = { ko = \"wrk2\", ja = \"wrk2\" }\n[[panel]]\n  [[panel.series]]\n  id = \"w\"\n  rows = \"w2/w.spectrum{i}\"\n"
	s, ds := ParseSpec("figures/s.toml", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	alt, err := s.AltText(st, "ko")
	if err != nil {
		t.Fatal(err)
	}
	if want := "wrk2 p50 1200 µs, p90 2300 µs, p99 4100 µs, p99.9 6000 µs."; !strings.HasSuffix(alt, want) {
		t.Errorf("alt text %q; want it to end %q", alt, want)
	}
	if out, err := s.Render(st, "ko", repoFonts(t)["ko"]); err != nil || len(out.PNG) == 0 {
		t.Errorf("Render: %v", err)
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
	for _, d := range loadProject(t, dir).Check() {
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

// TestHeightMeasuredAtRender: a figure whose panels pass the lower bound
// ParseSpec checks but whose title, broken into lines, makes it taller
// than MaxHeight is refused by Render before anything is drawn.
func TestHeightMeasuredAtRender(t *testing.T) {
	p := loadProject(t, repoRoot)
	long := strings.Repeat("가나다라 ", 400)
	var b strings.Builder
	fmt.Fprintf(&b, "kind = \"rate\"\ncolumns = 1\ntitle = { ko = %q, ja = \"t\" }\ncaption = { ko = \"c\", ja = \"c\" }\nalt = { ko = \"a\", ja = \"a\" }\n", long)
	for i := 0; i < MaxPanels; i++ {
		fmt.Fprintf(&b, "[[panel]]\ntitle = { ko = \"p\", ja = \"p\" }\n")
		for g := 0; g < 10; g++ {
			b.WriteString("  [[panel.group]]\n  label = { ko = \"g\", ja = \"g\" }\n  ref = \"dns-passthrough-tcp/d3.a.fail_rate\"\n")
		}
	}
	s, ds := ParseSpec("figures/tall.toml", []byte(b.String()))
	if ds.HasErrors() {
		t.Fatalf("refused by the lower bound: %v", ds)
	}
	if _, err := s.Render(p.Store, "ko", p.Fonts["ko"]); err == nil || !strings.Contains(err.Error(), "limit MaxHeight") {
		t.Errorf("Render: %v; want the MaxHeight limit", err)
	}
	if _, err := s.RenderNarrow(p.Store, "ja", p.Fonts["ja"]); err != nil {
		t.Errorf("ja (a one-line title) is within the limit: %v", err)
	}
}
