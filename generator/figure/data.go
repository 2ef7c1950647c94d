package figure

import (
	"math"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// figData is a spec's resolved numbers.
type figData struct {
	inputs []Input
	times  []float64 // timeline: seconds per snapshot
	flip   float64   // timeline: seconds; NaN without a flip
	panels []panelData
	// timeseries: the clock of the times ("s" elapsed, "tod" time of
	// day), the first time (seconds) and the events since it
	clock  string
	origin float64
	events []eventData
}

type panelData struct {
	// timeline: per counter, the value at each snapshot minus the first
	deltas [][]float64
	// bars, rate
	groups []groupData
	// percentiles: latency per percentile, in the spec's unit
	lat []float64
	kindMore
	// timeseries, compare: the unit values are drawn in, set (ySet) by
	// the panel's first value or the spec's unit
	yUnit string
	ySet  bool
}

type groupData struct {
	bars    []barData
	rate    float64 // rate: percent
	rateRaw string
	delta   string // compare: the delta as the evidence writes it
}

type barData struct {
	series string
	total  float64
	segs   []segData
	more   compareMore
}

type segData struct {
	series string
	v      float64
}

// data resolves every reference of the spec in st. Unknown references,
// non-finite values, and stacked bars whose segments do not add up to
// their total are errors at the spec.
func (s *Spec) data(st *evidence.Store) (*figData, diag.List) {
	r := &resolver{s: s, st: st, seen: map[string]bool{}}
	d := &figData{flip: math.NaN()}
	if s.Kind == KindTimeline {
		for i, t := range s.Times {
			v, _ := r.get(t, s.valuePos(t, 0, "times", strconv.Itoa(i)))
			d.times = append(d.times, v)
		}
		if s.Flip != "" {
			d.flip, _ = r.get(s.Flip, s.valuePos(s.Flip, 0, "flip"))
		}
	}
	for i, p := range s.Panels {
		off := s.panelOffset(i)
		var pd panelData
		switch s.Kind {
		case KindTimeline:
			for _, c := range s.Counters {
				row := make([]float64, len(s.Snapshots))
				var base float64
				for j, sn := range s.Snapshots {
					ref := strings.NewReplacer("{counter}", c, "{snapshot}", sn).Replace(p.Ref)
					v, _ := r.get(ref, s.valuePos(ref, off))
					if j == 0 {
						base = v
					}
					row[j] = v - base
				}
				pd.deltas = append(pd.deltas, row)
			}
		case KindBars:
			for gi, g := range p.Groups {
				var gd groupData
				for bi, b := range g.Bars {
					bd := barData{series: b.Series}
					bar := []string{"panel", strconv.Itoa(i), "group", strconv.Itoa(gi), "bar", strconv.Itoa(bi)}
					if b.Ref != "" {
						bd.total, _ = r.get(b.Ref, s.valuePos(b.Ref, off, append(bar, "ref")...))
					}
					for si, sg := range b.Segments {
						v, _ := r.get(sg.Ref, s.valuePos(sg.Ref, off, append(bar, "segment", strconv.Itoa(si), "ref")...))
						bd.segs = append(bd.segs, segData{series: sg.Series, v: v})
						if len(b.Segments) > 0 {
							bd.total += v
						}
					}
					if b.Total != "" && len(b.Segments) > 0 {
						total := s.valuePos(b.Total, off, append(bar, "total")...)
						t, tv := r.get(b.Total, total)
						if tv != nil && !math.IsNaN(bd.total) && math.Abs(t-bd.total) > 1e-9*math.Max(1, math.Abs(t)) {
							r.missing = append(r.missing, diag.Errorf(total(), diag.FigureData,
								"bar %q: segments add up to %g but total %s is %s", b.Series, bd.total, b.Total, tv.Raw))
						}
					}
					gd.bars = append(gd.bars, bd)
				}
				pd.groups = append(pd.groups, gd)
			}
		case KindRate:
			for gi, g := range p.Groups {
				at := s.valuePos(g.Ref, off, "panel", strconv.Itoa(i), "group", strconv.Itoa(gi), "ref")
				v, ev := r.get(g.Ref, at)
				gd := groupData{rate: v}
				if ev != nil {
					gd.rateRaw = ev.Raw
					if v <= 0 {
						r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData,
							"rate %s is %s; a rate chart's log scale needs a positive rate", g.Ref, ev.Raw))
					}
				}
				pd.groups = append(pd.groups, gd)
			}
		case KindPercentiles:
			for _, q := range p.Percentiles {
				at := s.valuePos(p.Prefix+"."+q, off)
				v, ev := r.get(p.Prefix+"."+q, at)
				pd.lat = append(pd.lat, r.inUnit(v, ev, timeUnits[s.Unit], at))
			}
		case KindSpectrum, KindSeries, KindDistribution, KindCompare:
			s.kindData(r, d, i, p, off, &pd)
		}
		d.panels = append(d.panels, pd)
	}
	if s.Kind == KindSeries {
		s.eventData(r, d)
	}
	if len(r.missing) > 0 {
		r.missing.Sort()
		return nil, s.spanned(r.missing)
	}
	d.inputs = r.inputs
	return d, nil
}
