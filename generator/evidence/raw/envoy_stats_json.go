package raw

import "github.com/evdoc-lab/evdoc/generator/diag"

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
func ReadEnvoyStatsJSON(file string, src []byte, _ ReadOptions) (*Readings, diag.List) {
	r, root, errs := parseEnvoyJSON(file, src)
	if errs != nil {
		return nil, errs
	}
	switch {
	case root.kind == jsonArray:
		r.statsJSONList(root)
	case root.get("stats") != nil:
		if s := root.get("stats"); r.jsonIs(s, jsonArray, "\"stats\"") {
			r.statsJSONList(s)
		}
	case root.get("histograms") != nil:
		var q []string
		r.statsJSONElem(root, &q)
	default:
		r.errorf(root.start, "document is %s without \"stats\"; expected Envoy /stats?format=json output {\"stats\": [...]}", root.kind)
	}
	r.attachUnits(envoyUnit)
	return r.result()
}

// statsJSONList reads the elements of a "stats" array in order, passing
// each the supported_percentiles of the last histogram_buckets=combined
// header before it.
func (r *rawRead) statsJSONList(list *jsonNode) {
	var combined []string // supported_percentiles of histogram_buckets=combined
	for _, e := range list.elems {
		r.statsJSONElem(e, &combined)
	}
}

// statsJSONElem reads one "stats" element: a counter or gauge, a
// {"histograms": …} element, or a {"supported_percentiles": …} header,
// which it stores in *combined for the elements after it.
func (r *rawRead) statsJSONElem(e *jsonNode, combined *[]string) {
	if e.kind != jsonObject {
		r.errorf(e.start, "stats entry is %s; expected {\"name\": …, \"value\": …} or {\"histograms\": …}", e.kind)
		return
	}
	if h := e.get("histograms"); h != nil {
		switch h.kind {
		case jsonObject:
			r.histogramsObject(h)
		case jsonArray:
			r.histogramsArray(h, *combined)
		default:
			r.errorf(h.start, "\"histograms\" is %s; expected an object or an array", h.kind)
		}
		return
	}
	if sp := e.get("supported_percentiles"); sp != nil && e.get("name") == nil {
		if q, ok := r.jsonLabels(sp, "\"supported_percentiles\""); ok {
			*combined = q
		}
		return
	}
	name, ok := r.jsonName(e, "stats entry")
	if !ok {
		return
	}
	if v := e.get("value"); v != nil {
		r.jsonValue(name, v, true)
	}
}

// histogramsObject reads {"supported_quantiles", "computed_quantiles"}
// (default) or {"supported_percentiles", "details"} (detailed).
func (r *rawRead) histogramsObject(h *jsonNode) {
	cq, details := h.get("computed_quantiles"), h.get("details")
	switch {
	case cq != nil:
		labels, ok := r.jsonLabels(h.get("supported_quantiles"), "\"supported_quantiles\"")
		if !ok {
			r.errorf(h.start, "\"computed_quantiles\" without a usable \"supported_quantiles\"; expected both")
			return
		}
		if !r.jsonIs(cq, jsonArray, "\"computed_quantiles\"") {
			return
		}
		for _, c := range cq.elems {
			if !r.jsonIs(c, jsonObject, "computed_quantiles entry") {
				continue
			}
			name, ok := r.jsonName(c, "computed_quantiles entry")
			if !ok {
				continue
			}
			r.quantilePairs(name, c.get("values"), "\"values\"", labels)
		}
	case details != nil:
		labels, ok := r.jsonLabels(h.get("supported_percentiles"), "\"supported_percentiles\"")
		if !ok {
			r.errorf(h.start, "\"details\" without a usable \"supported_percentiles\"; expected both")
			return
		}
		if !r.jsonIs(details, jsonArray, "\"details\"") {
			return
		}
		for _, d := range details.elems {
			if !r.jsonIs(d, jsonObject, "details entry") {
				continue
			}
			name, ok := r.jsonName(d, "details entry")
			if !ok {
				continue
			}
			r.quantilePairs(name, d.get("percentiles"), "\"percentiles\"", labels)
			r.detailBuckets(name, "totals", d.get("totals"))
			r.detailBuckets(name, "intervals", d.get("intervals"))
		}
	default:
		r.errorf(h.start, "\"histograms\" object has neither \"computed_quantiles\" nor \"details\"; expected Envoy histogram output")
	}
}

// quantilePairs reads an array of {"interval", "cumulative"} objects, one
// per label.
func (r *rawRead) quantilePairs(name string, vals *jsonNode, what string, labels []string) {
	if vals == nil {
		return
	}
	if !r.jsonIs(vals, jsonArray, name+" "+what) {
		return
	}
	for i, v := range vals.elems {
		if i >= len(labels) {
			r.errorf(v.start, "histogram %s: more values than the %d supported quantiles; expected one value per quantile", name, len(labels))
			return
		}
		if !r.jsonIs(v, jsonObject, "histogram "+name+" value") {
			continue
		}
		key := name + ".p" + labels[i]
		if x := v.get("interval"); x != nil {
			r.jsonValue(key, x, false)
		}
		if x := v.get("cumulative"); x != nil {
			r.jsonValue(key+".cumulative", x, false)
		}
	}
}

// detailBuckets reads detailed "totals"/"intervals" buckets, verbose
// ({"lower_bound", "width", "count"}) or terse ([lower_bound, width, count]).
func (r *rawRead) detailBuckets(name, field string, list *jsonNode) {
	if list == nil || !r.jsonIs(list, jsonArray, "histogram "+name+" \""+field+"\"") {
		return
	}
	for _, b := range list.elems {
		var lb, w, c *jsonNode
		switch {
		case b.kind == jsonObject:
			lb, w, c = b.get("lower_bound"), b.get("width"), b.get("count")
		case b.kind == jsonArray && len(b.elems) == 3:
			lb, w, c = b.elems[0], b.elems[1], b.elems[2]
		}
		if lb == nil || w == nil || c == nil || lb.kind != jsonNumber || w.kind != jsonNumber {
			r.errorf(b.start, "histogram %s: %s bucket; expected {\"lower_bound\": n, \"width\": n, \"count\": n} or [lower_bound, width, count]", name, field)
			continue
		}
		l, err1 := envoyLabel(string(r.src[lb.start:lb.end]))
		wd, err2 := envoyLabel(string(r.src[w.start:w.end]))
		if err1 != nil || err2 != nil {
			r.errorf(b.start, "histogram %s: %s bucket bounds out of range; expected numbers Envoy writes", name, field)
			continue
		}
		r.jsonValue(name+"."+field+"."+l+","+wd, c, false)
	}
}

// histogramsArray reads histogram_buckets=cumulative/disjoint entries
// ({"name", "buckets"}) and =combined entries ({"name", "percentiles",
// "totals", "intervals"}).
func (r *rawRead) histogramsArray(h *jsonNode, combined []string) {
	for _, e := range h.elems {
		if !r.jsonIs(e, jsonObject, "histograms entry") {
			continue
		}
		name, ok := r.jsonName(e, "histograms entry")
		if !ok {
			continue
		}
		if buckets := e.get("buckets"); buckets != nil {
			if !r.jsonIs(buckets, jsonArray, "histogram "+name+" \"buckets\"") {
				continue
			}
			for _, b := range buckets.elems {
				ub := b.get("upper_bound")
				if ub == nil || ub.kind != jsonNumber {
					r.errorf(b.start, "histogram %s: bucket; expected {\"upper_bound\": n, \"interval\": n, \"cumulative\": n}", name)
					continue
				}
				label, err := envoyLabel(string(r.src[ub.start:ub.end]))
				if err != nil {
					r.errorf(ub.start, "histogram %s: upper_bound: %v", name, err)
					continue
				}
				key := name + ".b" + label
				if x := b.get("interval"); x != nil {
					r.jsonValue(key, x, false)
				}
				if x := b.get("cumulative"); x != nil {
					r.jsonValue(key+".cumulative", x, false)
				}
			}
			continue
		}
		if p := e.get("percentiles"); p != nil {
			if combined == nil {
				r.errorf(p.start, "histogram %s: \"percentiles\" without a preceding {\"supported_percentiles\": [...]} entry; expected histogram_buckets=combined output", name)
			} else if r.jsonIs(p, jsonArray, "histogram "+name+" \"percentiles\"") {
				for i, v := range p.elems {
					if i >= len(combined) {
						r.errorf(v.start, "histogram %s: more values than the %d supported percentiles; expected one value per percentile", name, len(combined))
						break
					}
					r.jsonValue(name+".p"+combined[i]+".cumulative", v, false)
				}
			}
			r.detailBuckets(name, "totals", e.get("totals"))
			r.detailBuckets(name, "intervals", e.get("intervals"))
			continue
		}
		r.errorf(e.start, "histogram %s has neither \"buckets\" nor \"percentiles\"; expected Envoy histogram output", name)
	}
}
