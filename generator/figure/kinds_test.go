package figure

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestKindsGolden is the golden-image test of the spectrum, timeseries,
// distribution and compare kinds: testdata/kinds holds real tool output
// (wrk, hey, vegeta, k6, an Istio access log, benchstat, hyperfine; see
// each set's source) and one spec per kind; every figure validates
// (texts, glyphs, caption claims) and draws to exactly the files under
// testdata/kinds/golden. -update rewrites them; look at the images.
func TestKindsGolden(t *testing.T) {
	p := loadProject(t, filepath.Join("testdata", "kinds"))
	p.OutDir = "golden"
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
	if txtartest.Updating() {
		if _, err := p.Write(); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, d := range p.Check() {
		t.Errorf("%s (go test ./generator/figure -update)", d)
	}
}

// TestKindsAltText: the data part of each new kind's alt text gives the
// values drawn, from the evidence.
func TestKindsAltText(t *testing.T) {
	p := loadProject(t, filepath.Join("testdata", "kinds"))
	want := map[string][]string{
		"latency-spectrum":  {"wrk (Jetty) p50 1.11 ms, p75 12.13 ms, p90 57.23 ms, p99 162.8 ms", "hey p50 2.4 ms", "k6 (express) p90 18.91 ms, p95 19.54 ms"},
		"access-log-series": {"duration 0 s 0 ms, +629 s 16 ms, +629 s 0 ms", "404 +629 s"},
		"latency-histogram": {"vegeta 0–2 ms 6007, 2–4 ms 5505, 4–6 ms 2117, 6–+Inf ms 4771", "hey 0–0 ms 1, 0–2 ms 81"},
		"benchmark-compare": {"1/100: 변경 전 825 µs ±11%, 변경 후 451 µs ±5% (-45.31%)"},
		"hyperfine-compare": {"java: 평균 ± σ 319.5 ms ±11.2", "java: 평균 (min–max) 319.5 ms 296.0–337.5"},
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
