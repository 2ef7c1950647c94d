package envoy

import (
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"
)

// ReadEnvoyStatsJSON reads the JSON output of Envoy's admin
// /stats?format=json endpoint ("envoy-stats-json"):
//
//	{"stats": [
//	  {"name": "cluster_manager.cluster_added", "value": 2},
//	  {"name": "server.version_text", "value": "1.30.1"},   text readout: skipped
//	  {"name": "benchmark.http_2xx", "value": "53"},        numeric string (Nighthawk)
//	  {"histograms": {"supported_quantiles": [0, 25, …],
//	                  "computed_quantiles": [{"name": "…", "values": [{"interval": null, "cumulative": 1.5}, …]}]}}
//	]}
//
// Also read are the root forms "[…]" (the stats array alone, as jq '.stats'
// prints it) and {"histograms": …} (one element of it), and the histogram
// shapes of histogram_buckets=detailed ({"supported_percentiles", "details":
// [{"name", "percentiles", "totals", "intervals"}]}), =cumulative and
// =disjoint ([{"name", "buckets": [{"upper_bound", "interval",
// "cumulative"}]}]) and =combined (a {"supported_percentiles"} element and
// [{"name", "percentiles": [cumulative…], "totals": [[l, w, n]…]}]).
// Counters and gauges are keyed by name, histograms as described at the top
// of this file. Positions are byte-exact: each reading points at its value
// token (inside the quotes for a string). A syntax error rejects the file
// with one diagnostic at the offending byte ("invalid JSON: … expected …");
// a well-formed document of another shape gives positioned errors.
func ReadEnvoyStatsJSON(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, root, errs := parseEnvoyJSON(file, src)
	if errs != nil {
		return nil, errs
	}
	switch {
	case root.Kind == jsontree.Array:
		statsJSONList(r, root)
	case root.Get("stats") != nil:
		if s := root.Get("stats"); jsonIs(r, s, jsontree.Array, "\"stats\"") {
			statsJSONList(r, s)
		}
	case root.Get("histograms") != nil:
		var q []string
		statsJSONElem(r, root, &q)
	default:
		r.Errorf(root.Start, "document is %s without \"stats\"; expected Envoy /stats?format=json output {\"stats\": [...]}", root.Kind)
	}
	r.AttachUnits(envoyUnit)
	return r.Result()
}

// statsJSONList reads the elements of a "stats" array in order, passing
// each the supported_percentiles of the last histogram_buckets=combined
// header before it.
func statsJSONList(r *raw.Recorder, list *jsontree.Node) {
	var combined []string // supported_percentiles of histogram_buckets=combined
	for _, e := range list.Elems {
		statsJSONElem(r, e, &combined)
	}
}

// statsJSONElem reads one "stats" element: a counter or gauge, a
// {"histograms": …} element, or a {"supported_percentiles": …} header,
// which it stores in *combined for the elements after it.
func statsJSONElem(r *raw.Recorder, e *jsontree.Node, combined *[]string) {
	if e.Kind != jsontree.Object {
		r.Errorf(e.Start, "stats entry is %s; expected {\"name\": …, \"value\": …} or {\"histograms\": …}", e.Kind)
		return
	}
	if h := e.Get("histograms"); h != nil {
		switch h.Kind {
		case jsontree.Object:
			histogramsObject(r, h)
		case jsontree.Array:
			histogramsArray(r, h, *combined)
		default:
			r.Errorf(h.Start, "\"histograms\" is %s; expected an object or an array", h.Kind)
		}
		return
	}
	if sp := e.Get("supported_percentiles"); sp != nil && e.Get("name") == nil {
		if q, ok := jsonLabels(r, sp, "\"supported_percentiles\""); ok {
			*combined = q
		}
		return
	}
	name, ok := jsonName(r, e, "stats entry")
	if !ok {
		return
	}
	if v := e.Get("value"); v != nil {
		jsonValue(r, name, v, true)
	}
}

// histogramsObject reads {"supported_quantiles", "computed_quantiles"}
// (default) or {"supported_percentiles", "details"} (detailed).
func histogramsObject(r *raw.Recorder, h *jsontree.Node) {
	cq, details := h.Get("computed_quantiles"), h.Get("details")
	switch {
	case cq != nil:
		labels, ok := jsonLabels(r, h.Get("supported_quantiles"), "\"supported_quantiles\"")
		if !ok {
			r.Errorf(h.Start, "\"computed_quantiles\" without a usable \"supported_quantiles\"; expected both")
			return
		}
		if !jsonIs(r, cq, jsontree.Array, "\"computed_quantiles\"") {
			return
		}
		for _, c := range cq.Elems {
			if !jsonIs(r, c, jsontree.Object, "computed_quantiles entry") {
				continue
			}
			name, ok := jsonName(r, c, "computed_quantiles entry")
			if !ok {
				continue
			}
			quantilePairs(r, name, c.Get("values"), "\"values\"", labels)
		}
	case details != nil:
		labels, ok := jsonLabels(r, h.Get("supported_percentiles"), "\"supported_percentiles\"")
		if !ok {
			r.Errorf(h.Start, "\"details\" without a usable \"supported_percentiles\"; expected both")
			return
		}
		if !jsonIs(r, details, jsontree.Array, "\"details\"") {
			return
		}
		for _, d := range details.Elems {
			if !jsonIs(r, d, jsontree.Object, "details entry") {
				continue
			}
			name, ok := jsonName(r, d, "details entry")
			if !ok {
				continue
			}
			quantilePairs(r, name, d.Get("percentiles"), "\"percentiles\"", labels)
			detailBuckets(r, name, "totals", d.Get("totals"))
			detailBuckets(r, name, "intervals", d.Get("intervals"))
		}
	default:
		r.Errorf(h.Start, "\"histograms\" object has neither \"computed_quantiles\" nor \"details\"; expected Envoy histogram output")
	}
}

// quantilePairs reads an array of {"interval", "cumulative"} objects, one
// per label.
func quantilePairs(r *raw.Recorder, name string, vals *jsontree.Node, what string, labels []string) {
	if vals == nil {
		return
	}
	if !jsonIs(r, vals, jsontree.Array, name+" "+what) {
		return
	}
	for i, v := range vals.Elems {
		if i >= len(labels) {
			r.Errorf(v.Start, "histogram %s: more values than the %d supported quantiles; expected one value per quantile", name, len(labels))
			return
		}
		if !jsonIs(r, v, jsontree.Object, "histogram "+name+" value") {
			continue
		}
		key := name + ".p" + labels[i]
		if x := v.Get("interval"); x != nil {
			jsonValue(r, key, x, false)
		}
		if x := v.Get("cumulative"); x != nil {
			jsonValue(r, key+".cumulative", x, false)
		}
	}
}

// detailBuckets reads detailed "totals"/"intervals" buckets, verbose
// ({"lower_bound", "width", "count"}) or terse ([lower_bound, width, count]).
func detailBuckets(r *raw.Recorder, name, field string, list *jsontree.Node) {
	if list == nil || !jsonIs(r, list, jsontree.Array, "histogram "+name+" \""+field+"\"") {
		return
	}
	for _, b := range list.Elems {
		var lb, w, c *jsontree.Node
		switch {
		case b.Kind == jsontree.Object:
			lb, w, c = b.Get("lower_bound"), b.Get("width"), b.Get("count")
		case b.Kind == jsontree.Array && len(b.Elems) == 3:
			lb, w, c = b.Elems[0], b.Elems[1], b.Elems[2]
		}
		if lb == nil || w == nil || c == nil || lb.Kind != jsontree.Number || w.Kind != jsontree.Number {
			r.Errorf(b.Start, "histogram %s: %s bucket; expected {\"lower_bound\": n, \"width\": n, \"count\": n} or [lower_bound, width, count]", name, field)
			continue
		}
		l, err1 := envoyLabel(string(r.Src[lb.Start:lb.End]))
		wd, err2 := envoyLabel(string(r.Src[w.Start:w.End]))
		if err1 != nil || err2 != nil {
			r.Errorf(b.Start, "histogram %s: %s bucket bounds out of range; expected numbers Envoy writes", name, field)
			continue
		}
		jsonValue(r, name+"."+field+"."+l+","+wd, c, false)
	}
}

// histogramsArray reads histogram_buckets=cumulative/disjoint entries
// ({"name", "buckets"}) and =combined entries ({"name", "percentiles",
// "totals", "intervals"}).
func histogramsArray(r *raw.Recorder, h *jsontree.Node, combined []string) {
	for _, e := range h.Elems {
		if !jsonIs(r, e, jsontree.Object, "histograms entry") {
			continue
		}
		name, ok := jsonName(r, e, "histograms entry")
		if !ok {
			continue
		}
		if buckets := e.Get("buckets"); buckets != nil {
			if !jsonIs(r, buckets, jsontree.Array, "histogram "+name+" \"buckets\"") {
				continue
			}
			for _, b := range buckets.Elems {
				ub := b.Get("upper_bound")
				if ub == nil || ub.Kind != jsontree.Number {
					r.Errorf(b.Start, "histogram %s: bucket; expected {\"upper_bound\": n, \"interval\": n, \"cumulative\": n}", name)
					continue
				}
				label, err := envoyLabel(string(r.Src[ub.Start:ub.End]))
				if err != nil {
					r.Errorf(ub.Start, "histogram %s: upper_bound: %v", name, err)
					continue
				}
				key := name + ".b" + label
				if x := b.Get("interval"); x != nil {
					jsonValue(r, key, x, false)
				}
				if x := b.Get("cumulative"); x != nil {
					jsonValue(r, key+".cumulative", x, false)
				}
			}
			continue
		}
		if p := e.Get("percentiles"); p != nil {
			if combined == nil {
				r.Errorf(p.Start, "histogram %s: \"percentiles\" without a preceding {\"supported_percentiles\": [...]} entry; expected histogram_buckets=combined output", name)
			} else if jsonIs(r, p, jsontree.Array, "histogram "+name+" \"percentiles\"") {
				for i, v := range p.Elems {
					if i >= len(combined) {
						r.Errorf(v.Start, "histogram %s: more values than the %d supported percentiles; expected one value per percentile", name, len(combined))
						break
					}
					jsonValue(r, name+".p"+combined[i]+".cumulative", v, false)
				}
			}
			detailBuckets(r, name, "totals", e.Get("totals"))
			detailBuckets(r, name, "intervals", e.Get("intervals"))
			continue
		}
		r.Errorf(e.Start, "histogram %s has neither \"buckets\" nor \"percentiles\"; expected Envoy histogram output", name)
	}
}
