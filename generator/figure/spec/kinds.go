package spec

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Series is one run or line of a spectrum, timeseries or distribution
// panel. Its references are templates: {p} is replaced by each of
// Percentiles, {key} by each of Keys, and {i} by 1, 2, … for as long as
// the series' first template names a value (rows a reader numbers:
// CSV's r1, r2, …, wrk2's spectrum1, …, an access log's r1, …).
type Series struct {
	// ID names the series: its colour and its [legend.ID] label.
	ID string `toml:"id"`
	// Ref (spectrum) is a template with {p}: "SET/w.latency.{p}".
	// (distribution) is a per-request value: "SET/h.r{i}.response_time".
	Ref string `toml:"ref"`
	// Percentiles (spectrum) are the names substituted for {p}: p50,
	// p99, p99_9 (the 99.9th).
	Percentiles []string `toml:"percentiles"`
	// Rows (spectrum) is a template with {i} of rows holding .value and
	// .percentile (a fraction, 0.99 is p99): wrk2's "SET/w.spectrum{i}".
	Rows string `toml:"rows"`
	// X (timeseries) is each point's time: a time unit (s, ms, …; a
	// snapshot's sN.time is seconds since the Unix epoch) or a time of
	// day (an access log's start_time), one clock for the figure.
	X string `toml:"x"`
	// Y (timeseries) is each point's value.
	Y string `toml:"y"`
	// Count (distribution) is a bucket's count, as the tool prints it.
	Count string `toml:"count"`
	// Low (distribution) is a bucket's lower bound; without it a bucket
	// starts where the one before it ends (the first where it ends).
	Low string `toml:"low"`
	// High (distribution) is a bucket's upper bound; the last bucket is
	// open (+Inf) when its High names no value (vegeta's +Inf) or there
	// is no High.
	High string `toml:"high"`
	// Keys are the names substituted for {key}.
	Keys []string `toml:"keys"`
	// Buckets (spectrum, distribution) names a Prometheus histogram's
	// bucket series without le (buckets.go): its cumulative buckets are a
	// distribution with the tool's bounds, and a spectrum run of the
	// percentiles derived from them (interpolated, drawn as derived).
	Buckets string `toml:"buckets"`
}

// Event is a moment a timeseries marks with a vertical line.
type Event struct {
	// Ref is the event's time, in the unit of the series' x values.
	Ref string `toml:"ref"`
	// Label names it at the line's top.
	Label Text `toml:"label"`
}

// kindStructure checks the structure of a spectrum, timeseries,
// distribution or compare panel i, at byte offset off of the spec.
func (s *Spec) kindStructure(i int, p Panel, off int, errf func(diag.Position, string, ...any)) {
	at := s.Find("[[panel]]", off)
	pi := strconv.Itoa(i)
	if len(p.Series) > MaxSeries {
		errf(at, "%s panel %d has %d series; at most %d (limit MaxSeries) are drawn in one panel", s.Kind, i+1, len(p.Series), MaxSeries)
	}
	if s.Kind != KindCompare && len(p.Series) == 0 {
		errf(at, "%s panel %d has no [[panel.series]]: empty series", s.Kind, i+1)
	}
	for si, se := range p.Series {
		sp := []string{"panel", pi, "series", strconv.Itoa(si)}
		sat := s.nthHeader("[[panel.series]]", off, si)
		if se.ID == "" {
			errf(sat, "%s panel %d, series %d has no id; expected id = \"…\" with a [legend.ID] label", s.Kind, i+1, si+1)
		} else if _, ok := s.Legend[se.ID]; !ok {
			errf(s.QuotedPos(se.ID, off, append(sp, "id")...), "series %q has no [legend.%s] label", se.ID, se.ID)
		}
		keyErr := func(key, tmpl, want string) {
			errf(s.QuotedPos(tmpl, off, append(sp, key)...), "%s series %q: %s %q %s", s.Kind, se.ID, key, tmpl, want)
		}
		for k, ref := range map[string]string{"ref": se.Ref, "rows": se.Rows, "x": se.X, "y": se.Y, "count": se.Count, "low": se.Low, "high": se.High} {
			if strings.Contains(ref, "{key}") && len(se.Keys) == 0 {
				keyErr(k, ref, "names {key} but the series has no keys")
			}
		}
		switch s.Kind {
		case KindSpectrum:
			switch {
			case se.Buckets != "" && (se.Ref != "" || se.Rows != ""):
				keyErr("buckets", se.Buckets, "and ref or rows are two runs; expected one of them")
			case se.Buckets != "" && len(se.Percentiles) == 0:
				keyErr("buckets", se.Buckets, "has no percentiles to derive: expected percentiles = [\"p50\", \"p99\", …]")
			case se.Buckets != "":
			case (se.Ref == "") == (se.Rows == ""):
				errf(sat, "spectrum series %q needs either ref (with {p} and percentiles), rows (with {i}) or buckets (a Prometheus histogram): one of them", se.ID)
			case se.Ref != "" && !strings.Contains(se.Ref, "{p}"):
				keyErr("ref", se.Ref, "must contain {p}, replaced by each of percentiles")
			case se.Ref != "" && len(se.Percentiles) == 0:
				keyErr("ref", se.Ref, "has no percentiles: empty series")
			case se.Rows != "" && !strings.Contains(se.Rows, "{i}"):
				keyErr("rows", se.Rows, "must contain {i}, the row number")
			}
			for k, q := range se.Percentiles {
				if _, ok := PercentileOf(q); !ok {
					errf(s.QuotedPos(q, off, append(sp, "percentiles", strconv.Itoa(k))...), "percentile %q: expected pNN or pNN_N (p50, p99_9)", q)
				}
			}
		case KindSeries:
			if se.Buckets != "" {
				keyErr("buckets", se.Buckets, "applies to spectrum and distribution series, not to a timeseries")
			}
			if se.X == "" || se.Y == "" {
				errf(sat, "timeseries series %q needs x and y (templates with {i} or {key})", se.ID)
			}
			for _, k := range []struct{ n, v string }{{"x", se.X}, {"y", se.Y}} {
				if k.v != "" && !strings.Contains(k.v, "{i}") && !strings.Contains(k.v, "{key}") {
					keyErr(k.n, k.v, "must contain {i} or {key}: one reference per point")
				}
			}
		case KindDistribution:
			switch {
			case se.Buckets != "" && (se.Ref != "" || se.Count != ""):
				keyErr("buckets", se.Buckets, "and ref or count are two distributions; expected one of them")
			case se.Buckets != "":
			case (se.Ref == "") == (se.Count == ""):
				errf(sat, "distribution series %q needs either ref (one value per request, with {i}) or count (buckets, with high or low): one of them", se.ID)
			case se.Ref != "" && len(s.Bounds) < 2:
				errf(s.KeyPos("kind"), "distribution series %q of per-request values needs bounds = [b0, b1, …] (at least two, in %s)", se.ID, s.Unit)
			case se.Count != "" && se.High == "" && se.Low == "":
				keyErr("count", se.Count, "needs the buckets' bounds: high (or low) as the tool prints them")
			}
		}
	}
	if s.Kind == KindSpectrum && i == 0 {
		for k, m := range s.Mark {
			if q, ok := PercentileOf(m); !ok || !InSpectrum(q) {
				errf(s.QuotedPos(m, 0, "mark", strconv.Itoa(k)), "mark %q: expected a percentile from p50 to p99_999 (p99, p99_9), on the spectrum's axis", m)
			}
		}
	}
	switch s.Kind {
	case KindSpectrum, KindDistribution:
		if _, ok := TimeUnits[s.Unit]; !ok {
			errf(s.KeyPos("unit"), "unit %q: expected one of s, ms, µs, ns", s.Unit)
		}
	}
	if s.Kind == KindDistribution {
		if s.Mode != "" && s.Mode != "histogram" && s.Mode != "cdf" {
			errf(s.KeyPos("mode"), "mode %q: expected histogram or cdf", s.Mode)
		}
		for k := 1; k < len(s.Bounds); k++ {
			if !(s.Bounds[k] > s.Bounds[k-1]) {
				errf(s.KeyPos("bounds"), "bounds must ascend: %v is not above %v", s.Bounds[k], s.Bounds[k-1])
				break
			}
		}
	}
	if s.Kind == KindCompare {
		if len(p.Groups) == 0 {
			errf(at, "compare panel %d has no [[panel.group]]: empty series", i+1)
		}
		if len(p.Groups) > MaxSeries {
			errf(at, "compare panel %d has %d groups; at most %d (limit MaxSeries)", i+1, len(p.Groups), MaxSeries)
		}
		nbar := 0
		for gi, g := range p.Groups {
			if len(g.Bars) == 0 {
				errf(s.nthHeader("[[panel.group]]", off, gi), "compare panel %d, group %d has no [[panel.group.bar]]: empty series", i+1, gi+1)
			}
			for bi, b := range g.Bars {
				at := s.nthHeader("[[panel.group.bar]]", off, nbar)
				nbar++
				bar := []string{"panel", pi, "group", strconv.Itoa(gi), "bar", strconv.Itoa(bi)}
				if b.Series == "" {
					errf(at, "compare panel %d, group %d: a bar has no series id", i+1, gi+1)
				} else if _, ok := s.Legend[b.Series]; !ok {
					errf(s.QuotedPos(b.Series, off, append(bar, "series")...), "series %q has no [legend.%s] label", b.Series, b.Series)
				}
				if b.Ref == "" {
					errf(at, "compare panel %d, group %d: bar %q has no ref", i+1, gi+1, b.Series)
				}
				if len(b.Segments) > 0 || b.Total != "" {
					errf(at, "compare panel %d, group %d: bar %q: segments and total belong to bars figures", i+1, gi+1, b.Series)
				}
				if b.Spread != "" && (b.Min != "" || b.Max != "") {
					errf(s.QuotedPos(b.Spread, off, append(bar, "spread")...), "bar %q: spread and min/max are two error bars; expected one of them", b.Series)
				}
				if (b.Min == "") != (b.Max == "") {
					errf(at, "compare panel %d, group %d: bar %q needs both min and max", i+1, gi+1, b.Series)
				}
				if b.SpreadKind != "" && b.SpreadKind != "relative" && b.SpreadKind != "absolute" {
					errf(s.QuotedPos(b.SpreadKind, off, append(bar, "spread_kind")...), "spread_kind %q: expected relative or absolute", b.SpreadKind)
				}
			}
		}
	}
}

// kindKeys reports keys of the new kinds written in a figure of a kind
// they do not apply to: drawn by no kind, they would be ignored silently.
func (s *Spec) kindKeys(errf func(diag.Position, string, ...any)) {
	only := func(key, kind string, set bool) {
		if set && s.Kind != kind {
			errf(s.KeyPos(key), "%s applies to %s figures, not to a %s figure", key, kind, s.Kind)
		}
	}
	only("mark", KindSpectrum, len(s.Mark) > 0)
	only("event", KindSeries, len(s.Events) > 0)
	only("mode", KindDistribution, s.Mode != "")
	only("bounds", KindDistribution, len(s.Bounds) > 0)
	for i, p := range s.Panels {
		if len(p.Series) > 0 && s.Kind != KindSpectrum && s.Kind != KindSeries && s.Kind != KindDistribution {
			errf(s.nthHeader("[[panel.series]]", s.PanelOffset(i), 0), "[[panel.series]] applies to spectrum, timeseries and distribution figures, not to a %s figure", s.Kind)
		}
		if len(p.Groups) > 0 && (s.Kind == KindSpectrum || s.Kind == KindSeries || s.Kind == KindDistribution) {
			errf(s.nthHeader("[[panel.group]]", s.PanelOffset(i), 0), "[[panel.group]] applies to bars, rate and compare figures, not to a %s figure", s.Kind)
		}
		for _, g := range p.Groups {
			only("delta", KindCompare, g.Delta != "")
			for _, b := range g.Bars {
				only("spread", KindCompare, b.Spread != "")
				only("spread_kind", KindCompare, b.SpreadKind != "")
				only("min", KindCompare, b.Min != "")
				only("max", KindCompare, b.Max != "")
			}
		}
	}
}

// nthHeader returns the position of the n-th (from 0) table header
// header at or after byte off, or that of off's [[panel]] when there
// are fewer (a table written inline).
func (s *Spec) nthHeader(header string, off, n int) diag.Position {
	at := off
	for k := 0; k <= n; k++ {
		j := bytes.Index(s.Src[at:], []byte(header))
		if j < 0 {
			return s.Find("[[panel]]", off)
		}
		if k == n {
			return s.Index().Pos(at + j)
		}
		at += j + len(header)
	}
	return s.Find("[[panel]]", off)
}

// PercentileOf reads a percentile name: p50 is 50, p99_9 is 99.9.
func PercentileOf(q string) (float64, bool) {
	if !percentileRe.MatchString(q) {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.Replace(q[1:], "_", ".", 1), 64)
	return v, err == nil && v > 0 && v < 100
}

// pointCount returns the number of values the spec names without
// templates of {i} (those are counted as they are read), for the
// MaxPoints limit.
func (s *Spec) pointCount() int {
	n := len(s.Times) + len(s.Events)
	for _, p := range s.Panels {
		n += len(s.Counters)*len(s.Snapshots) + len(p.Percentiles)
		for _, g := range p.Groups {
			n++
			for _, b := range g.Bars {
				n += 1 + len(b.Segments)
			}
		}
		for _, se := range p.Series {
			n += len(se.Percentiles) + len(se.Keys)
		}
	}
	return n
}

// limits reports a spec over a limit of limits.go, at its kind.
func (s *Spec) limits(errf func(diag.Position, string, ...any)) bool {
	over := false
	if len(s.Panels) > MaxPanels {
		errf(s.KeyPos("kind"), "figure %q has %d panels; at most %d (limit MaxPanels) are drawn", s.Name, len(s.Panels), MaxPanels)
		over = true
	}
	if len(s.Counters) > MaxSeries {
		errf(s.KeyPos("counters"), "figure %q has %d counters; at most %d (limit MaxSeries)", s.Name, len(s.Counters), MaxSeries)
		over = true
	}
	for i, p := range s.Panels {
		if len(p.Groups) > MaxSeries && s.Kind != KindCompare {
			errf(s.Find("[[panel]]", s.PanelOffset(i)), "%s panel %d has %d groups; at most %d (limit MaxSeries)", s.Kind, i+1, len(p.Groups), MaxSeries)
			over = true
		}
	}
	if n := s.pointCount(); n > MaxPoints {
		errf(s.KeyPos("kind"), "figure %q names %d values; at most %d (limit MaxPoints) are drawn", s.Name, n, MaxPoints)
		over = true
	}
	if !over && len(s.Panels) > 0 {
		// A lower bound of the height of the wide and narrow drawings
		// (a legend entry is at least Swatch+21 pt wide, a title one
		// line), so that only a figure surely too tall is refused here;
		// render measures the exact height before drawing.
		n := len(s.SeriesOrder())
		for _, l := range []Layout{{Width: Width}, {Width: NarrowWidth, Cols: 1}} {
			perLine := max(int((l.Width-2*Margin)/(Swatch+21)), 1)
			if h := s.Height((n+perLine-1)/perLine, 1, l); h > MaxHeight {
				errf(s.KeyPos("kind"), "figure %q would be drawn %.0f px tall; at most %d (limit MaxHeight): fewer panels, more columns or fewer groups", s.Name, float64(h), MaxHeight)
				over = true
				break
			}
		}
	}
	return over
}

// TimeUnits maps a display unit of latencies to its unit name.
var TimeUnits = map[string]string{"s": "s", "ms": "ms", "µs": "us", "ns": "ns"}

// The spectrum's x axis: 1/(1−p) on a log scale, from the median to the
// 99.999th percentile, as HdrHistogram plots it.
const (
	SpectrumMin = 50.0
	SpectrumMax = 99.999
)

// InSpectrum reports whether percentile p is drawn.
func InSpectrum(p float64) bool { return p >= SpectrumMin-1e-9 && p <= SpectrumMax+1e-9 }
