package figure

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
)

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

// TestRowsLimit: a template of {i} stops at MaxPoints rows; a source
// with more is an error, not MaxPoints+1 lookups and a bigger drawing.
func TestRowsLimit(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "evidence", "c"), 0o755)
	os.WriteFile(filepath.Join(dir, "evidence", "c", "evidence.toml"), []byte("id = \"c\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\norigin = \"raw\"\nsource = \"s\"\nreport = \"r\"\n[[read]]\nfile = \"r.csv\"\nformat = \"csv\"\nname = \"r\"\nunits = { \"*.t\" = \"s\", \"*.v\" = \"ms\" }\n"), 0o644)
	var csv strings.Builder
	csv.WriteString("t,v\n")
	for i := 0; i <= spec.MaxPoints; i++ {
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

// TestHeightMeasuredAtRender: a figure whose panels pass the lower bound
// ParseSpec checks but whose title, broken into lines, makes it taller
// than MaxHeight is refused by Render before anything is drawn.
func TestHeightMeasuredAtRender(t *testing.T) {
	p := loadProject(t, repoRoot)
	long := strings.Repeat("가나다라 ", 400)
	var b strings.Builder
	fmt.Fprintf(&b, "kind = \"rate\"\ncolumns = 1\ntitle = { ko = %q, ja = \"t\" }\ncaption = { ko = \"c\", ja = \"c\" }\nalt = { ko = \"a\", ja = \"a\" }\n", long)
	for i := 0; i < spec.MaxPanels; i++ {
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
