package figure

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// A Prometheus histogram as a spectrum run or a distribution: its
// cumulative _bucket{le="…"} samples, read by the prometheus reader
// without select. A series names the histogram by its set, its [[read]]
// and its bucket series without le:
//
//	buckets = 'echo-prom/p.envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name="echo-service"}'
//
// Every value of that read whose key is the metric with exactly these
// labels and an le is one bucket; their bounds are the le values as the
// tool wrote them, in the unit of the histogram's _sum (the metric
// name's unit suffix, Envoy's ms, or the manifest's units).
//
// A spectrum run's percentiles are derived, never measured: they are
// interpolated linearly inside the bucket the rank falls in, as
// Prometheus' histogram_quantile does (the first bucket starts at 0; a
// rank in the +Inf bucket has no upper bound and is an error). The run
// is drawn dashed, its marks and the alt text say ≈ and name the
// interpolation.

// promSelector is the bucket series a buckets reference names.
var promSelector = regexp.MustCompile(`^([^/]+)/([^.{]+)\.([a-zA-Z_:][a-zA-Z0-9_:]*_bucket)(\{.*\})?$`)

// promBucket is one cumulative bucket.
type promBucket struct {
	le    float64
	leTxt string // the bound as the tool wrote it ("+Inf" for the last)
	leDec decimal.Decimal
	n     float64 // requests at or below le
}

// promHistogram is a resolved histogram: its buckets by ascending le
// and the unit of its bounds.
type promHistogram struct {
	buckets []promBucket
	unit    string
}

// parsePromLabels reads a label set as the prometheus reader writes
// keys ({a="x",le="5"}, values unescaped), into a map; ok is false when
// it is not one.
func parsePromLabels(s string) (map[string]string, bool) {
	out := map[string]string{}
	if s == "" {
		return out, true
	}
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, false
	}
	s = s[1 : len(s)-1]
	for s != "" {
		name, rest, ok := strings.Cut(s, `="`)
		if !ok || name == "" || strings.ContainsAny(name, `",{}= `) {
			return nil, false
		}
		// the value ends at the quote before ",next=" or the end
		end := -1
		for i := 0; i < len(rest); i++ {
			if rest[i] != '"' {
				continue
			}
			if i == len(rest)-1 {
				end = i
				break
			}
			if rest[i+1] == ',' && strings.Contains(rest[i+2:], `="`) {
				n, _, _ := strings.Cut(rest[i+2:], `="`)
				if n != "" && !strings.ContainsAny(n, `",{}= `) {
					end = i
					break
				}
			}
		}
		if end < 0 {
			return nil, false
		}
		if _, dup := out[name]; dup {
			return nil, false
		}
		out[name] = rest[:end]
		s = strings.TrimPrefix(rest[end+1:], ",")
	}
	return out, true
}

func sameLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// histogram resolves a buckets reference (see above), recording every
// bucket as an input; errors go to r.missing at at.
func (r *resolver) histogram(ref string, at func() diag.Position) (promHistogram, bool) {
	var h promHistogram
	fail := func(format string, args ...any) (promHistogram, bool) {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: "+format, append([]any{r.s.Name}, args...)...))
		return promHistogram{}, false
	}
	m := promSelector.FindStringSubmatch(ref)
	if m == nil {
		return fail("buckets %q: expected SET/READ.metric_bucket{labels without le}, the histogram's bucket series as the prometheus reader keys it", ref)
	}
	setID, read, metric := m[1], m[2], m[3]
	want, ok := parsePromLabels(m[4])
	if !ok {
		return fail("buckets %q: labels %s: expected {name=\"value\",…}", ref, m[4])
	}
	if _, ok := want["le"]; ok {
		return fail("buckets %q names le; expected the labels of the series without le (every bucket is read)", ref)
	}
	var set *evidence.Set
	for _, s := range r.st.Sets {
		if s.Manifest.ID == setID {
			set = s
		}
	}
	if set == nil {
		if r.st.Broken[setID] {
			return fail("evidence set %q did not load (see its errors), so the buckets of %q cannot be drawn", setID, ref)
		}
		return fail("buckets %q: no evidence set %q", ref, setID)
	}
	format := ""
	for _, rd := range set.Manifest.Reads {
		if rd.Name == read {
			format = rd.Format
			if rd.Select != nil {
				return fail("buckets %q: [[read]] %q of %s has select, which keeps only some readings; a histogram needs every bucket (quantiles interpolated in fewer buckets differ): expected a [[read]] without select", ref, read, setID)
			}
		}
	}
	if format != "prometheus" {
		return fail("buckets %q: set %s has no [[read]] named %q of format prometheus", ref, setID, read)
	}
	base := strings.TrimSuffix(metric, "_bucket")
	var sum *evidence.Value
	var seen = map[string]bool{}
	var vals []*evidence.Value
	for _, v := range set.Sorted() {
		if v.Derived || !strings.HasPrefix(v.Name, read+".") {
			continue
		}
		name, labels, _ := strings.Cut(v.Key, "{")
		if labels != "" {
			labels = "{" + labels
		}
		got, ok := parsePromLabels(labels)
		if !ok {
			continue
		}
		switch name {
		case base + "_sum":
			if sameLabels(got, want) {
				sum = v
			}
		case metric:
			le, has := got["le"]
			delete(got, "le")
			if !has || !sameLabels(got, want) {
				continue
			}
			if seen[le] {
				return fail("buckets %q: two buckets le=%q; expected one series", ref, le)
			}
			seen[le] = true
			vals = append(vals, v)
			b := promBucket{leTxt: le}
			switch le {
			case "+Inf", "Inf":
				b.le = math.Inf(1)
			default:
				f, err := strconv.ParseFloat(le, 64)
				d, derr := decimal.NewFromString(le)
				if err != nil || derr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
					return fail("buckets %q: le=%q of %s is not a number; expected a bucket bound", ref, le, v.Ref)
				}
				b.le, b.leDec = f, d
			}
			h.buckets = append(h.buckets, b)
		}
	}
	if len(h.buckets) == 0 {
		return fail("buckets %q names no bucket of %s/%s; expected values keyed %s{…,le=\"…\"} with exactly these labels", ref, setID, read, metric)
	}
	sort.SliceStable(vals, func(i, j int) bool { return leOf(vals[i]) < leOf(vals[j]) })
	sort.SliceStable(h.buckets, func(i, j int) bool { return h.buckets[i].le < h.buckets[j].le })
	for k, v := range vals {
		n, _ := r.get(v.Ref, at)
		h.buckets[k].n = n
		if k > 0 && n < h.buckets[k-1].n {
			return fail("buckets %q: le=%q counts %s, fewer than le=%q before it (%s); expected cumulative counts", ref, h.buckets[k].leTxt, v.Raw, h.buckets[k-1].leTxt, formatNum(h.buckets[k-1].n))
		}
	}
	if last := h.buckets[len(h.buckets)-1]; !math.IsInf(last.le, 1) {
		return fail("buckets %q has no le=\"+Inf\" bucket; expected every bucket, the last counting every request", ref)
	}
	if len(h.buckets) < 2 {
		return fail("buckets %q has only the +Inf bucket; expected bounds", ref)
	}
	switch {
	case sum == nil:
		return fail("buckets %q: no %s_sum with these labels in %s/%s, whose unit the bounds have; expected the histogram read whole", ref, base, setID, read)
	case sum.Unit == "":
		return fail("buckets %q: the bounds have no unit (%s has none); expected a metric name with a unit suffix (_seconds) or a unit for %s declared with the manifest's units", ref, sum.Ref, sum.Key)
	}
	h.unit = sum.Unit
	return h, true
}

// leOf is the bound of a bucket value's key, for sorting.
func leOf(v *evidence.Value) float64 {
	_, labels, _ := strings.Cut(v.Key, "{")
	got, _ := parsePromLabels("{" + labels)
	if got["le"] == "+Inf" || got["le"] == "Inf" {
		return math.Inf(1)
	}
	f, _ := strconv.ParseFloat(got["le"], 64)
	return f
}

// quantile is histogram_quantile(q, h) for q in percent, in h's unit:
// linear interpolation inside the bucket the rank q·count falls in, the
// first bucket starting at 0 (or at its bound when that is not
// positive). It reports false when the rank falls in the +Inf bucket
// (no upper bound) or the histogram counts nothing.
func (h promHistogram) quantile(q float64) (float64, bool) {
	total := h.buckets[len(h.buckets)-1].n
	if total == 0 {
		return math.NaN(), false
	}
	rank := q / 100 * total
	b := sort.Search(len(h.buckets), func(i int) bool { return h.buckets[i].n >= rank })
	if b >= len(h.buckets)-1 {
		return math.NaN(), false
	}
	start, end := 0.0, h.buckets[b].le
	below := 0.0
	if b > 0 {
		start, below = h.buckets[b-1].le, h.buckets[b-1].n
	} else if end <= 0 {
		return end, true
	}
	in := h.buckets[b].n - below
	if in == 0 {
		return end, true
	}
	return start + (end-start)*(rank-below)/in, true
}

// bound returns bucket k's bound converted to unit to, exact.
func (h promHistogram) bound(k int, to string) (float64, string) {
	b := h.buckets[k]
	if math.IsInf(b.le, 1) {
		return b.le, "+Inf"
	}
	if to == "" || to == h.unit || b.leDec.IsZero() {
		return b.le, b.leDec.String()
	}
	f, ok := unit.Factor(h.unit, to)
	if !ok {
		return math.NaN(), ""
	}
	d := b.leDec.Mul(f)
	return d.InexactFloat64(), d.String()
}

// derivedRun fills a spectrum run with the percentiles of se derived
// from its histogram, in the spec's unit.
func (s *Spec) derivedRun(r *resolver, run *runData, se spec.Series, at func() diag.Position) {
	run.derived = true
	h, ok := r.histogram(se.Buckets, at)
	if !ok {
		return
	}
	to := spec.TimeUnits[s.Unit]
	f, ok := unit.Factor(h.unit, to)
	if !ok {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: the buckets of %q are in %s, which does not convert to %s; expected a latency histogram", s.Name, se.Buckets, h.unit, s.Unit))
		return
	}
	for _, q := range se.Percentiles {
		pc, _ := spec.PercentileOf(q)
		v, ok := h.quantile(pc)
		if !ok {
			r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: %s of %q falls in the +Inf bucket (or no request is counted), which has no upper bound to interpolate to; expected percentiles below the last finite bucket (le=%q)", s.Name, q, se.Buckets, h.buckets[len(h.buckets)-2].leTxt))
			continue
		}
		v *= f.InexactFloat64()
		run.p = append(run.p, pc)
		run.v = append(run.v, v)
		run.txt = append(run.txt, "≈"+strconv.FormatFloat(v, 'g', 3, 64))
	}
}

// bucketHist fills a distribution with a histogram's buckets: counts
// between bounds (cumulative counts minus the bucket before), the first
// from 0, the last open (+Inf).
func (s *Spec) bucketHist(r *resolver, hd *histData, se spec.Series, at func() diag.Position) {
	h, ok := r.histogram(se.Buckets, at)
	if !ok {
		return
	}
	to := spec.TimeUnits[s.Unit]
	if _, ok := unit.Factor(h.unit, to); !ok {
		r.missing = append(r.missing, diag.Errorf(at(), diag.FigureData, "figure %q: the buckets of %q are in %s, which does not convert to %s; expected a latency histogram", s.Name, se.Buckets, h.unit, s.Unit))
		return
	}
	if !r.count(len(h.buckets), at) {
		return
	}
	hd.slots = true
	lo, loTxt := 0.0, "0"
	below := 0.0
	for k, b := range h.buckets {
		hi, hiTxt := h.bound(k, to)
		if k == 0 && b.le <= 0 {
			lo, loTxt = hi, hiTxt
		}
		hd.lo, hd.hi, hd.n = append(hd.lo, lo), append(hd.hi, hi), append(hd.n, b.n-below)
		hd.loTxt, hd.hiTxt = append(hd.loTxt, loTxt), append(hd.hiTxt, hiTxt)
		lo, loTxt, below = hi, hiTxt, b.n
	}
}
