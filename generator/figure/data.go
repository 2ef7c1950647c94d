package figure

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
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
	if s.Kind == spec.KindTimeline {
		for i, t := range s.Times {
			v, _ := r.get(t, s.ValuePos(t, 0, "times", strconv.Itoa(i)))
			d.times = append(d.times, v)
		}
		if s.Flip != "" {
			d.flip, _ = r.get(s.Flip, s.ValuePos(s.Flip, 0, "flip"))
		}
	}
	for i, p := range s.Panels {
		off := s.PanelOffset(i)
		var pd panelData
		switch s.Kind {
		case spec.KindTimeline:
			for _, c := range s.Counters {
				row := make([]float64, len(s.Snapshots))
				var base float64
				for j, sn := range s.Snapshots {
					ref := strings.NewReplacer("{counter}", c, "{snapshot}", sn).Replace(p.Ref)
					v, _ := r.get(ref, s.ValuePos(ref, off))
					if j == 0 {
						base = v
					}
					row[j] = v - base
				}
				pd.deltas = append(pd.deltas, row)
			}
		case spec.KindBars:
			for gi, g := range p.Groups {
				var gd groupData
				for bi, b := range g.Bars {
					bd := barData{series: b.Series}
					bar := []string{"panel", strconv.Itoa(i), "group", strconv.Itoa(gi), "bar", strconv.Itoa(bi)}
					if b.Ref != "" {
						bd.total, _ = r.get(b.Ref, s.ValuePos(b.Ref, off, append(bar, "ref")...))
					}
					for si, sg := range b.Segments {
						v, _ := r.get(sg.Ref, s.ValuePos(sg.Ref, off, append(bar, "segment", strconv.Itoa(si), "ref")...))
						bd.segs = append(bd.segs, segData{series: sg.Series, v: v})
						if len(b.Segments) > 0 {
							bd.total += v
						}
					}
					if b.Total != "" && len(b.Segments) > 0 {
						total := s.ValuePos(b.Total, off, append(bar, "total")...)
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
		case spec.KindRate:
			for gi, g := range p.Groups {
				at := s.ValuePos(g.Ref, off, "panel", strconv.Itoa(i), "group", strconv.Itoa(gi), "ref")
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
		case spec.KindPercentiles:
			for _, q := range p.Percentiles {
				at := s.ValuePos(p.Prefix+"."+q, off)
				v, ev := r.get(p.Prefix+"."+q, at)
				pd.lat = append(pd.lat, r.inUnit(v, ev, spec.TimeUnits[s.Unit], at))
			}
		case spec.KindSpectrum, spec.KindSeries, spec.KindDistribution, spec.KindCompare:
			s.kindData(r, d, i, p, off, &pd)
		}
		d.panels = append(d.panels, pd)
	}
	if s.Kind == spec.KindSeries {
		s.eventData(r, d)
	}
	if len(r.missing) > 0 {
		r.missing.Sort()
		return nil, s.Spanned(r.missing)
	}
	d.inputs = r.inputs
	return d, nil
}

// Input is one evidence value a figure drew, with what it read: a figure
// is stale when any input's value, raw text or position changed.
type Input struct {
	Ref   string `json:"ref"`
	Value string `json:"value"`
	Raw   string `json:"raw"`
	// Pos is where the value is now; it is not recorded, so moving a
	// value within its file does not make a figure stale.
	Pos diag.Position `json:"-"`
}

// resolver looks references up in a store, collecting inputs and the
// references it could not resolve with their spec positions.
type resolver struct {
	s       *Spec
	st      *evidence.Store
	inputs  []Input
	seen    map[string]bool
	missing diag.List
	// broken are the evidence sets that did not load already reported.
	broken map[string]bool
	// points counts the values drawn (MaxPoints); over is set past it.
	points int
	over   bool
}

// get returns the value of ref; a finding about it is at the position
// at returns (where the spec writes ref).
func (r *resolver) get(ref string, at func() diag.Position) (float64, *evidence.Value) {
	v, ok := r.st.Lookup(ref)
	if cell, nn := r.st.NonNumeric(ref); !ok && nn {
		what := fmt.Sprintf("%q", cell.Text)
		if cell.Text == "" {
			what = "an empty table cell"
		}
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: evidence %q is %s at %s, not a number", r.s.Name, ref, what, cell.Pos))
		return math.NaN(), nil
	}
	if why, un := r.st.Unavailable(ref); !ok && un {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: derived value %q could not be computed (value unavailable: see %s)", r.s.Name, ref, why))
		return math.NaN(), nil
	}
	if set, _, _ := strings.Cut(ref, "/"); !ok && r.st.Broken[set] {
		// The set's own errors say why; its values are all unknown, so
		// one finding per figure and set, not one per value.
		if !r.broken[set] {
			if r.broken == nil {
				r.broken = map[string]bool{}
			}
			r.broken[set] = true
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: evidence set %q did not load (see its errors), so %q and its other values cannot be drawn", r.s.Name, set, ref))
		}
		return math.NaN(), nil
	}
	if !ok {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q names unknown evidence value %q", r.s.Name, ref))
		return math.NaN(), nil
	}
	if !r.seen[ref] {
		r.seen[ref] = true
		r.inputs = append(r.inputs, Input{Ref: ref, Value: v.Value.String(), Raw: v.Raw, Pos: v.Pos})
	}
	f := v.Value.InexactFloat64()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "evidence value %q is %v; a chart needs a finite number", ref, f))
	}
	return f, v
}

// Inputs returns every evidence value the spec reads, in first-use order,
// or the errors of references that do not resolve.
func (s *Spec) Inputs(st *evidence.Store) ([]Input, diag.List) {
	d, errs := s.data(st)
	if errs != nil {
		return nil, errs
	}
	return d.inputs, nil
}

// String describes an input for a staleness message.
func (in Input) String() string { return fmt.Sprintf("%s = %s (%s)", in.Ref, in.Raw, in.Pos) }
