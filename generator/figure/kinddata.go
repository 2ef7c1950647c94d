package figure

import (
	"math"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// runData is one spectrum run: latencies (in the spec's unit) at
// percentiles (in percent), in the order read.
type runData struct {
	id   string
	p, v []float64
	txt  []string // each latency as labels write it (exact)
	// derived: the latencies are interpolated in a histogram's buckets
	// (buckets.go), not measured; txt writes them rounded
	derived bool
}

// lineData is one timeseries line: x in seconds since the figure's
// first time, y in the figure's y unit.
type lineData struct {
	id     string
	xs, ys []float64
	txt    []string // each y as labels write it (exact)
}

// histData is one distribution: buckets [lo, hi] (hi +Inf for an open
// last bucket) with their counts, bounds in the spec's unit.
type histData struct {
	id         string
	lo, hi, n  []float64
	loTxt      []string // the bounds as labels write them (exact)
	hiTxt      []string
	fromBounds bool // binned from per-request values by the spec's bounds
	// slots: a Prometheus histogram's buckets (buckets.go), drawn one
	// equal slot each, labelled with the tool's bounds: its bounds grow
	// by orders of magnitude (0.5 ms … 3600000 ms)
	slots bool
}

// eventData is a timeseries event: seconds since the first time.
type eventData struct{ t float64 }

// kindMore is what the spectrum, timeseries, distribution and compare
// kinds add to a panel's data.
type kindMore struct {
	runs  []runData
	lines []lineData
	hists []histData
}

// compareMore is what a compare bar adds: its error bar (absolute, in the
// figure's unit) and the spread as the evidence writes it.
type compareMore struct {
	lo, hi    float64
	hasErr    bool
	spreadRaw string
	txt       string // the value as labels write it (exact)
}

// inUnit returns v, the value of ev, in unit to (a unit name of package
// unit; "" leaves it as it is). A value whose unit does not convert to
// to is an error at at: a figure never draws a number on an axis of
// another unit. Zero is zero in every unit (vegeta writes a bucket's
// lower bound 0 without one).
func (r *resolver) inUnit(v float64, ev *evidence.Value, to string, at func() diag.Position) float64 {
	if ev == nil || math.IsNaN(v) {
		return v
	}
	if v == 0 {
		return 0
	}
	if to == "" {
		if ev.Unit == "" || ev.Unit == "count" {
			return v
		}
		// the axis has no unit (its first value had none): a value with
		// one would be drawn as a number of another scale
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData,
			"figure %q: evidence %q (%s) is in %s, but the panel's first value has no unit; expected values of one unit (declare it with the manifest's units, or set the spec's unit)", r.s.Name, ev.Ref, ev.Raw, ev.Unit))
		return math.NaN()
	}
	f, ok := unit.Factor(ev.Unit, to)
	if !ok {
		u := ev.Unit
		if u == "" {
			u = "no unit"
		}
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData,
			"figure %q: evidence %q (%s) is in %s, which does not convert to %s; expected a value in a unit of %s (declare the unit with the manifest's units)", r.s.Name, ev.Ref, ev.Raw, u, to, unit.Describe(to)))
		return math.NaN()
	}
	return v * f.InexactFloat64()
}

// exact returns the value of ev in unit to as an exact decimal, the
// way labels write it (0.0123 s is 12.3 ms, 319.5 ms stays 319.5): a
// label never rounds a number a page may quote at its full precision.
// It is formatNum(v) when ev is nil or its unit does not convert.
func exact(v float64, ev *evidence.Value, to string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "" // not drawn: the value's finding says why
	}
	if ev == nil {
		return formatNum(v)
	}
	if to == "" || ev.Unit == to {
		return ev.Value.String()
	}
	if ev.Value.IsZero() {
		return "0"
	}
	f, ok := unit.Factor(ev.Unit, to)
	if !ok {
		return formatNum(v)
	}
	return ev.Value.Mul(f).String()
}

// exists reports whether ref names a value of the store, drawable or not.
func (r *resolver) exists(ref string) bool {
	if _, ok := r.st.Lookup(ref); ok {
		return true
	}
	if _, nn := r.st.NonNumeric(ref); nn {
		return true
	}
	_, un := r.st.Unavailable(ref)
	return un
}

// subst is one substitution of a series' templates.
type subst struct {
	i   int
	key string
}

func (x subst) fill(tmpl string) string {
	return strings.NewReplacer("{i}", strconv.Itoa(x.i), "{key}", x.key).Replace(tmpl)
}

// rows returns the substitutions of a series whose first template is
// first: each of its keys for {key}; 1, 2, … while first names a value
// for {i} (at most MaxPoints: one more is an error at at); else one.
func (r *resolver) rows(first string, keys []string, at func() diag.Position) []subst {
	switch {
	case strings.Contains(first, "{key}"):
		out := make([]subst, len(keys))
		for k, key := range keys {
			out[k] = subst{key: key}
		}
		return out
	case strings.Contains(first, "{i}"):
		var out []subst
		for i := 1; ; i++ {
			x := subst{i: i}
			if !r.exists(x.fill(first)) {
				if i == 1 {
					r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %q names no value for {i} = 1; expected rows numbered from 1", r.s.Name, first))
				}
				return out
			}
			if i > spec.MaxPoints {
				r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %q names more than %d rows; at most %d (limit MaxPoints) are drawn", r.s.Name, first, spec.MaxPoints, spec.MaxPoints))
				return nil
			}
			out = append(out, x)
		}
	}
	return []subst{{}}
}

// count adds n drawn values to the figure's total, an error past MaxPoints.
func (r *resolver) count(n int, at func() diag.Position) bool {
	r.points += n
	if r.points > spec.MaxPoints {
		if !r.over {
			r.over = true
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q draws more than %d values; at most %d (limit MaxPoints)", r.s.Name, spec.MaxPoints, spec.MaxPoints))
		}
		return false
	}
	return true
}

// kindData resolves panel i of a spectrum, timeseries, distribution or
// compare figure into pd.
func (s *Spec) kindData(r *resolver, d *figData, i int, p spec.Panel, off int, pd *panelData) {
	pi := strconv.Itoa(i)
	for si, se := range p.Series {
		sp := []string{"panel", pi, "series", strconv.Itoa(si)}
		tmplAt := func(key, tmpl string) func() diag.Position {
			return func() diag.Position { return s.QuotedPos(tmpl, off, append(sp, key)...) }
		}
		switch s.Kind {
		case spec.KindSpectrum:
			run := runData{id: se.ID}
			if se.Buckets != "" {
				s.derivedRun(r, &run, se, tmplAt("buckets", se.Buckets))
			} else if se.Ref != "" {
				for _, q := range se.Percentiles {
					ref := strings.ReplaceAll(se.Ref, "{p}", q)
					at := tmplAt("ref", se.Ref)
					v, ev := r.get(ref, at)
					pc, _ := spec.PercentileOf(q)
					run.p = append(run.p, pc)
					run.v = append(run.v, r.inUnit(v, ev, spec.TimeUnits[s.Unit], at))
					run.txt = append(run.txt, exact(v, ev, spec.TimeUnits[s.Unit]))
				}
			} else {
				at := tmplAt("rows", se.Rows)
				rows := r.rows(se.Rows+".value", nil, at)
				if !r.count(len(rows), at) {
					return
				}
				for _, x := range rows {
					row := x.fill(se.Rows)
					v, ev := r.get(row+".value", at)
					q, qv := r.get(row+".percentile", at)
					if qv != nil {
						switch {
						case qv.Unit == "%":
						case qv.Unit == "" && q >= 0 && q <= 1:
							q *= 100 // HdrHistogram's fraction: 0.990000 is p99
						default:
							r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s.percentile is %s (%s); expected a fraction from 0 to 1 or a percent", s.Name, row, qv.Raw, unitName(qv.Unit)))
							q = math.NaN()
						}
					}
					run.p = append(run.p, q)
					run.v = append(run.v, r.inUnit(v, ev, spec.TimeUnits[s.Unit], at))
					run.txt = append(run.txt, exact(v, ev, spec.TimeUnits[s.Unit]))
				}
			}
			drawn := false
			for _, q := range run.p {
				drawn = drawn || spec.InSpectrum(q)
			}
			if !drawn && len(run.p) > 0 {
				key, tmpl := "ref", se.Ref
				if se.Rows != "" {
					key, tmpl = "rows", se.Rows
				} else if se.Buckets != "" {
					key, tmpl = "buckets", se.Buckets
				}
				r.missing = append(r.missing, diag.Errorf(tmplAt(key, tmpl)(), diag.FigureData, "figure %q: run %q has no percentile from p50 to p99.999, the spectrum's axis; expected one at least", s.Name, se.ID))
			}
			pd.runs = append(pd.runs, run)
		case spec.KindSeries:
			at := tmplAt("x", se.X)
			rows := r.rows(se.X, se.Keys, at)
			if !r.count(len(rows), at) {
				return
			}
			line := lineData{id: se.ID}
			for _, x := range rows {
				xv, xev := r.get(x.fill(se.X), at)
				yat := tmplAt("y", se.Y)
				yv, yev := r.get(x.fill(se.Y), yat)
				line.xs = append(line.xs, r.timeOf(d, xv, xev, at))
				if !pd.ySet && yev != nil {
					pd.yUnit, pd.ySet = yev.Unit, true
					if s.Unit != "" {
						pd.yUnit = unitOf(s.Unit)
					}
				}
				line.ys = append(line.ys, r.inUnit(yv, yev, pd.yUnit, yat))
				line.txt = append(line.txt, exact(yv, yev, pd.yUnit))
				if k := len(line.xs); k > 1 && line.xs[k-1] < line.xs[k-2] {
					r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s is earlier than the point before it; a time series' times must not go back (a time of day past midnight cannot be ordered)", s.Name, x.fill(se.X)))
				}
			}
			pd.lines = append(pd.lines, line)
		case spec.KindDistribution:
			pd.hists = append(pd.hists, s.distData(r, se, tmplAt))
		}
	}
	if s.Kind == spec.KindCompare {
		s.compareData(r, d, i, p, off, pd)
	}
}

// timeOf returns a timeseries x value in seconds, the figure's clock
// (time of day or elapsed time) set by its first: every x and event
// must be on the same clock.
func (r *resolver) timeOf(d *figData, v float64, ev *evidence.Value, at func() diag.Position) float64 {
	if ev == nil || math.IsNaN(v) {
		return math.NaN()
	}
	clock := "s"
	if ev.Unit == "tod" {
		clock = "tod"
	} else if _, ok := unit.Factor(ev.Unit, "s"); !ok {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s (%s) is in %s; a time series' time needs a time unit or a time of day (declare one with the manifest's units)", r.s.Name, ev.Ref, ev.Raw, unitName(ev.Unit)))
		return math.NaN()
	}
	if d.clock == "" {
		d.clock = clock
	}
	if d.clock != clock {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s (%s) is %s but the figure's first time is %s; expected one clock for every time", r.s.Name, ev.Ref, ev.Raw, clockName(clock), clockName(d.clock)))
		return math.NaN()
	}
	if clock == "tod" {
		return v
	}
	f, _ := unit.Factor(ev.Unit, "s")
	return v * f.InexactFloat64()
}

func clockName(c string) string {
	if c == "tod" {
		return "a time of day"
	}
	return "an elapsed time"
}

func unitName(u string) string {
	if u == "" {
		return "no unit"
	}
	return u
}

// unitOf returns the unit name of a display unit (µs is us).
func unitOf(display string) string {
	if u, ok := spec.TimeUnits[display]; ok {
		return u
	}
	return display
}

// eventData resolves a timeseries' events and moves every time to
// seconds since the figure's first.
func (s *Spec) eventData(r *resolver, d *figData) {
	origin := math.Inf(1)
	for _, pd := range d.panels {
		for _, l := range pd.lines {
			if len(l.xs) > 0 && l.xs[0] < origin {
				origin = l.xs[0]
			}
		}
	}
	if math.IsInf(origin, 1) {
		origin = 0
	}
	d.origin = origin
	for i, e := range s.Events {
		at := s.ValuePos(e.Ref, 0, "event", strconv.Itoa(i), "ref")
		v, ev := r.get(e.Ref, at)
		d.events = append(d.events, eventData{t: r.timeOf(d, v, ev, at) - origin})
	}
	for pi := range d.panels {
		for li := range d.panels[pi].lines {
			for k := range d.panels[pi].lines[li].xs {
				d.panels[pi].lines[li].xs[k] -= origin
			}
		}
	}
}

// distData resolves one distribution series.
func (s *Spec) distData(r *resolver, se spec.Series, tmplAt func(key, tmpl string) func() diag.Position) histData {
	h := histData{id: se.ID}
	to := spec.TimeUnits[s.Unit]
	if se.Buckets != "" {
		s.bucketHist(r, &h, se, tmplAt("buckets", se.Buckets))
		return h
	}
	if se.Ref != "" {
		at := tmplAt("ref", se.Ref)
		rows := r.rows(se.Ref, se.Keys, at)
		if !r.count(len(rows)+len(s.Bounds), at) {
			return h
		}
		h.fromBounds = true
		for k := 0; k+1 < len(s.Bounds); k++ {
			h.lo, h.hi, h.n = append(h.lo, s.Bounds[k]), append(h.hi, s.Bounds[k+1]), append(h.n, 0)
			h.loTxt, h.hiTxt = append(h.loTxt, formatNum(s.Bounds[k])), append(h.hiTxt, formatNum(s.Bounds[k+1]))
		}
		for _, x := range rows {
			v, ev := r.get(x.fill(se.Ref), at)
			v = r.inUnit(v, ev, to, at)
			if math.IsNaN(v) {
				continue
			}
			k := -1
			for b := range h.lo {
				last := b == len(h.lo)-1
				if v >= h.lo[b] && (v < h.hi[b] || last && v == h.hi[b]) {
					k = b
					break
				}
			}
			if k < 0 {
				r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s is %s, outside the bounds %s to %s %s; expected bounds covering every value", s.Name, x.fill(se.Ref), ev.Raw, formatNum(s.Bounds[0]), formatNum(s.Bounds[len(s.Bounds)-1]), s.Unit))
				continue
			}
			h.n[k]++
		}
		return h
	}
	at := tmplAt("count", se.Count)
	rows := r.rows(se.Count, se.Keys, at)
	if !r.count(len(rows), at) {
		return h
	}
	for k, x := range rows {
		n, nev := r.get(x.fill(se.Count), at)
		if nev != nil && nev.Unit != "" && nev.Unit != "count" {
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: bucket count %s is %s (%s); expected a number of requests", s.Name, nev.Ref, nev.Raw, nev.Unit))
		}
		var lo float64
		hi, loTxt, hiTxt := math.NaN(), "", ""
		if se.High != "" {
			hat := tmplAt("high", se.High)
			if ref := x.fill(se.High); k == len(rows)-1 && !r.exists(ref) {
				hi, hiTxt = math.Inf(1), "+Inf" // the open last bucket (+Inf is no value)
			} else {
				v, ev := r.get(ref, hat)
				hi, hiTxt = r.inUnit(v, ev, to, hat), exact(v, ev, to)
			}
		}
		if se.Low != "" {
			lat := tmplAt("low", se.Low)
			v, ev := r.get(x.fill(se.Low), lat)
			lo, loTxt = r.inUnit(v, ev, to, lat), exact(v, ev, to)
		} else if k > 0 {
			lo, loTxt = h.hi[k-1], h.hiTxt[k-1]
		} else {
			lo, loTxt = hi, hiTxt // the first bucket ends where it starts (hey's fastest)
		}
		if se.High == "" {
			hi, hiTxt = math.Inf(1), "+Inf"
			if k > 0 {
				h.hi[k-1], h.hiTxt[k-1] = lo, loTxt
			}
		}
		h.loTxt, h.hiTxt = append(h.loTxt, loTxt), append(h.hiTxt, hiTxt)
		if k > 0 && lo < h.hi[k-1] || hi < lo {
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: bucket %s [%s, %s] does not follow the bucket before it; expected ascending buckets", s.Name, x.fill(se.Count), formatNum(lo), formatNum(hi)))
		}
		if n < 0 {
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: bucket %s counts %g; expected a count", s.Name, x.fill(se.Count), n))
		}
		h.lo, h.hi, h.n = append(h.lo, lo), append(h.hi, hi), append(h.n, n)
	}
	if len(h.hi) > 0 && math.IsInf(h.hi[len(h.hi)-1], 1) && len(h.hi) < 2 {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: series %q has one open bucket; expected bounds", s.Name, se.ID))
	}
	return h
}

// compareData resolves a compare panel: each bar's value, its error bar
// and each group's delta.
func (s *Spec) compareData(r *resolver, d *figData, i int, p spec.Panel, off int, pd *panelData) {
	if !r.count(len(p.Groups)*2, func() diag.Position { return s.Find("[[panel]]", off) }) {
		return
	}
	for gi, g := range p.Groups {
		var gd groupData
		gp := []string{"panel", strconv.Itoa(i), "group", strconv.Itoa(gi)}
		for bi, b := range g.Bars {
			bar := append(append([]string{}, gp...), "bar", strconv.Itoa(bi))
			at := s.ValuePos(b.Ref, off, append(bar, "ref")...)
			v, ev := r.get(b.Ref, at)
			if !pd.ySet && ev != nil {
				pd.yUnit, pd.ySet = ev.Unit, true
				if s.Unit != "" {
					pd.yUnit = unitOf(s.Unit)
				}
			}
			txt := exact(v, ev, pd.yUnit)
			v = r.inUnit(v, ev, pd.yUnit, at)
			bd := barData{series: b.Series, total: v}
			switch {
			case b.Spread != "" || b.Min == "" && ev != nil && ev.Spread != nil:
				bd.more = r.spreadOf(s, b, v, ev, pd.yUnit, s.ValuePos(b.Spread, off, append(bar, "spread")...))
			case b.Min != "":
				lat := s.ValuePos(b.Min, off, append(bar, "min")...)
				hat := s.ValuePos(b.Max, off, append(bar, "max")...)
				lo, lev := r.get(b.Min, lat)
				hi, hev := r.get(b.Max, hat)
				lo, hi = r.inUnit(lo, lev, pd.yUnit, lat), r.inUnit(hi, hev, pd.yUnit, hat)
				if lo > v || hi < v {
					r.missing = append(r.missing, diag.Errorf(lat(), diag.FigureData, "figure %q: min %s and max %s do not enclose %s (%s); expected min ≤ value ≤ max", s.Name, formatNum(lo), formatNum(hi), b.Ref, formatNum(v)))
				}
				if lev != nil && hev != nil {
					bd.more = compareMore{lo: lo, hi: hi, hasErr: true, spreadRaw: lev.Raw + "–" + hev.Raw}
				}
			}
			bd.more.txt = txt
			if v < 0 {
				r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s is %s; a compare bar needs a value of zero or more", s.Name, b.Ref, formatNum(v)))
			}
			gd.bars = append(gd.bars, bd)
		}
		if g.Delta != "" {
			_, dev := r.get(g.Delta, s.ValuePos(g.Delta, off, append(gp, "delta")...))
			if dev != nil {
				gd.delta = dev.Raw
			}
		}
		pd.groups = append(pd.groups, gd)
	}
}

// spreadOf returns bar b's error bar from its spread: the spread the
// value's reader read next to it (benchstat's ±11% is relative,
// hyperfine's ± 11.2 absolute: the reader knows), or the value b.Spread
// names, relative when it is a percent of a value that is not, absolute
// (in the value's unit) when both are of one dimension; a percent spread
// of a percent value is either, and spread_kind must say which.
func (r *resolver) spreadOf(s *Spec, b spec.Bar, v float64, ev *evidence.Value, to string, at func() diag.Position) compareMore {
	if ev == nil {
		return compareMore{}
	}
	var (
		sv   float64
		su   string
		raw  string
		kind = b.SpreadKind
	)
	if b.Spread == "" || ev.Spread != nil && ev.Spread.Ref == b.Spread {
		sp := ev.Spread
		switch {
		case sp.Ref != "":
			r.get(sp.Ref, at) // recorded as an input
		case !r.seen[ev.Ref+" ±"]:
			// a spread with no name of its own: recorded with its value,
			// so that a changed spread makes the figure stale
			r.seen[ev.Ref+" ±"] = true
			r.inputs = append(r.inputs, Input{Ref: ev.Ref + " ±", Value: sp.Value.String(), Raw: sp.Raw, Pos: sp.Pos})
		}
		sv, su, raw = sp.Value.InexactFloat64(), sp.Unit, sp.Raw
		if kind == "" {
			kind = "absolute"
			if sp.Relative {
				kind = "relative"
			}
		}
	} else {
		var sev *evidence.Value
		sv, sev = r.get(b.Spread, at)
		if sev == nil {
			return compareMore{}
		}
		su, raw = sev.Unit, sev.Raw
		if kind == "" {
			switch {
			case su == "%" && ev.Unit == "%":
				r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: spread %s (%s) and value %s (%s) are both percents: the spread may be relative (a percent of the value) or absolute (percentage points); expected spread_kind = \"relative\" or \"absolute\"", s.Name, b.Spread, sev.Raw, b.Ref, ev.Raw))
				return compareMore{}
			case su == "%":
				kind = "relative"
			default:
				kind = "absolute"
			}
		}
	}
	var e float64
	switch kind {
	case "relative":
		if su != "%" && su != "" {
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: relative spread of %s is %s; expected a percent", s.Name, b.Ref, raw))
			return compareMore{}
		}
		e = math.Abs(v) * sv / 100
	default:
		e = sv
		if sv != 0 && to != "" {
			f, ok := unit.Factor(su, to)
			if !ok {
				r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: spread of %s is %s (%s), which does not convert to %s; expected an absolute spread in the value's unit", s.Name, b.Ref, raw, unitName(su), to))
				return compareMore{}
			}
			e = sv * f.InexactFloat64()
		}
	}
	if !strings.HasPrefix(raw, "±") {
		raw = "±" + strings.TrimSpace(raw)
	}
	return compareMore{lo: v - e, hi: v + e, hasErr: true, spreadRaw: raw}
}
