package raw

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Readers of Envoy admin output. Four formats are read:
//
//	envoy-stats          /stats                   ReadEnvoyStats
//	envoy-stats-json     /stats?format=json       ReadEnvoyStatsJSON
//	envoy-clusters       /clusters                ReadEnvoyClusters
//	envoy-clusters-json  /clusters?format=json    ReadEnvoyClustersJSON
//
// Every reading's Raw is the exact bytes at its Pos (for a JSON string such
// as "12" that is the text between the quotes), its Number spans the whole
// of Raw (Start 0, End len(Raw)) and carries no unit, and its value is the
// exact decimal written in the file: Envoy's own numbers are never passed
// through float64.
//
// Histograms. Envoy reports each histogram quantile (and each bucket) twice:
// over the last stats flush interval ("interval") and since the histogram
// was created ("cumulative"). The text form writes them as P50(a,b) with a
// the interval and b the cumulative value; JSON as {"interval": a,
// "cumulative": b}. Both readers name them the same way:
//
//	<histogram>.p<q>             the interval value of quantile q (p0 … p100)
//	<histogram>.p<q>.cumulative  the cumulative value of quantile q
//	<histogram>.b<u>             the interval count of the bucket with upper bound u
//	<histogram>.b<u>.cumulative  the cumulative count of that bucket
//	<histogram>.totals.<l>,<w>   histogram_buckets=detailed: the cumulative
//	<histogram>.intervals.<l>,<w>  / interval count of the bucket [l, l+w)
//
// q, u, l and w are the labels as Envoy wrote them, normalised as exact
// decimals ("P25.0" and 25 both give p25, "B3.6e+06" gives b3600000). An
// interval value is nan (text) or null (JSON) when no sample fell in the
// last interval, which is common in a snapshot; such a value gives no
// reading, so a lab that means the latency over the whole run should name
// the ".cumulative" key. Whether a ".b<u>" bucket counts the samples up to u
// (histogram_buckets=cumulative) or only those in (previous bound, u]
// (histogram_buckets=disjoint) depends on the query the lab ran; the file
// does not say.

// envoyRule is the diagnostic rule of every Envoy reader error.
const envoyRule = "evidence-envoy"

// envoyMaxErrors bounds the diagnostics one file yields; a file with more
// problems than that is almost always not the format it was declared as.
const envoyMaxErrors = 10

// envoyCapNote is the last diagnostic of a file with more than
// envoyMaxErrors errors.
const envoyCapNote = "more errors follow and are not shown; expected the file to be in the declared Envoy format"

// parseEnvoyNumber converts raw, which must match numberRe (the syntax
// Envoy writes: integers, and doubles from fmt and its JSON streamer), into
// an exact decimal. Leading zeros of an exponent are ignored; compare
// lfDecimal. The error says what was expected.
func parseEnvoyNumber(raw string) (decimal.Decimal, error) {
	if !numberRe.MatchString(raw) {
		return decimal.Decimal{}, fmt.Errorf("%q is not a number; expected digits with an optional sign, fraction and exponent", raw)
	}
	if i := strings.IndexAny(raw, "eE"); i >= 0 {
		e := strings.TrimLeft(strings.TrimLeft(raw[i+1:], "+-"), "0")
		if n, err := strconv.Atoi(e); e != "" && (err != nil || n > maxExponent) {
			return decimal.Decimal{}, fmt.Errorf("number %q has an exponent beyond ±%d; expected a value Envoy can write (uint64 or float64)", raw, maxExponent)
		}
	}
	v, err := decimal.NewFromString(raw)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("number %q: %v; expected a decimal number", raw, err)
	}
	return v, nil
}

// envoyNonFinite reports whether s is how fmt writes a NaN or an infinity.
func envoyNonFinite(s string) bool {
	switch s {
	case "nan", "-nan", "inf", "-inf", "+inf":
		return true
	}
	return false
}

// envoyLabel normalises a quantile or bucket label ("25", "25.0", "99.5",
// "3.6e+06") to its canonical decimal text.
func envoyLabel(raw string) (string, error) {
	v, err := parseEnvoyNumber(raw)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// newEnvoyRead checks src (see CheckText) and prepares an Envoy reading.
func newEnvoyRead(file string, src []byte) (*rawRead, diag.List) {
	return newRawRead(file, src, envoyRule, envoyMaxErrors, envoyCapNote)
}

// number adds the reading key = raw, raw being the bytes of src at off. A
// raw that is not a number Envoy writes is an error; a repeated key is kept
// as it is.
func (r *rawRead) number(key, raw string, off int) {
	v, err := parseEnvoyNumber(raw)
	if err != nil {
		r.errorf(off, "%s: %v", key, err)
		return
	}
	r.push(key, off, raw, v, "")
}

// isBlankLine reports whether s holds only spaces and tabs.
func isBlankLine(s string) bool { return strings.Trim(s, " \t") == "" }

// ---------------------------------------------------------------------
// /stats (text)

// ReadEnvoyStats reads the text output of Envoy's admin /stats endpoint
// ("envoy-stats"), one stat per line:
//
//	cluster.outbound|443||graph.facebook.com.upstream_rq_retry: 0
//	http.ingress_http.downstream_rq_time: P0(nan,1.0) P25(nan,1.075) … P100(nan,17.0)
//	http.admin.downstream_rq_time: No recorded values
//	http.admin.rq_time: B0.5(0,0) B1(0,1) …           histogram_buckets=cumulative|disjoint
//	control_plane.identifier: "text readout"
//	http.admin.downstream_rq_time:                     histogram_buckets=detailed record
//	  totals=1,0.25:25, 2,0.25:9
//	  intervals=1,0.25:2, 2,0.25:3
//	  summary=P0(1,1) P25(1.0625,1.034) …
//
// A line is split at its last ": "; everything before it is the stat name,
// which may hold "|", ":", "." and "-" but no white space. A counter or
// gauge gives one reading keyed by the stat name. Histograms give the keys
// described at the top of this file; nan values, "No recorded values" and
// quoted text readouts give none. Trailing spaces and tabs are ignored and
// lines of only spaces and tabs are skipped; any other line is an error
// positioned at the offending byte (at most envoyMaxErrors are reported).
// Readings found before and after a bad line are still returned.
func ReadEnvoyStats(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := newEnvoyRead(file, src)
	if errs != nil {
		return nil, errs
	}
	var (
		hist     string // name of the open histogram_buckets=detailed record
		histOff  int    // offset of its header line
		histBody int    // indented lines read so far
	)
	closeHist := func() {
		if hist != "" && histBody == 0 {
			r.errorf(histOff, "histogram %q has no indented totals=, intervals= or summary= lines; expected \"name: value\" or a histogram_buckets=detailed record", hist)
		}
		hist = ""
	}
	for _, ln := range splitLines(src) {
		line := strings.TrimRight(string(src[ln.start:ln.end]), " \t")
		if isBlankLine(line) {
			closeHist()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			indent := len(line) - len(strings.TrimLeft(line, " \t"))
			if hist == "" {
				r.errorf(ln.start+indent, "indented line outside a histogram_buckets=detailed record; expected \"name: value\" at the start of the line")
				continue
			}
			histBody++
			r.statsDetail(hist, line[indent:], ln.start+indent)
			continue
		}
		closeHist()
		// A text readout: name: "text" (the text may hold ": ").
		if i := strings.Index(line, `: "`); i > 0 && len(line) >= i+4 && strings.HasSuffix(line, `"`) && !strings.ContainsAny(line[:i], " \t") {
			continue
		}
		i := strings.LastIndex(line, ": ")
		if i < 0 {
			if name, ok := strings.CutSuffix(line, ":"); ok && name != "" && !strings.ContainsAny(name, " \t") {
				hist, histOff, histBody = name, ln.start, 0
				continue
			}
			r.errorf(ln.start, "line is not a stat; expected \"name: value\" (a counter, gauge or histogram as written by Envoy's /stats)")
			continue
		}
		name, val, voff := line[:i], line[i+2:], ln.start+i+2
		if name == "" {
			r.errorf(ln.start, "empty stat name; expected \"name: value\"")
			continue
		}
		if j := strings.IndexAny(name, " \t"); j >= 0 {
			r.errorf(ln.start+j, "stat name %q contains white space; expected \"name: value\" with a name of no spaces", name)
			continue
		}
		switch {
		case val == "No recorded values":
		case numberRe.MatchString(val):
			r.number(name, val, voff)
		case envoyNonFinite(val):
		case len(val) > 1 && (val[0] == 'P' || val[0] == 'B') && strings.Contains(val, "("):
			r.statsSummary(name, val, voff)
		default:
			r.errorf(voff, "stat %s: value %q is not a number; expected a number, a histogram summary \"P0(interval,cumulative) …\" or \"B0.5(interval,cumulative) …\", or \"No recorded values\"", name, val)
		}
	}
	closeHist()
	return r.result()
}

// statsSummary reads "P0(a,b) P25(a,b) …" or "B0.5(a,b) …" at off.
func (r *rawRead) statsSummary(name, val string, off int) {
	for start := 0; start <= len(val); {
		end := strings.IndexByte(val[start:], ' ')
		if end < 0 {
			end = len(val)
		} else {
			end += start
		}
		item := val[start:end]
		if item == "" {
			r.errorf(off+start, "histogram %s: empty item; expected items such as P50(interval,cumulative) separated by one space", name)
			return
		}
		if !r.statsItem(name, item, off+start) {
			return
		}
		start = end + 1
	}
}

// statsItem reads one "P50(a,b)" or "B0.5(a,b)" item at off; it reports
// false after an error.
func (r *rawRead) statsItem(name, item string, off int) bool {
	open := strings.IndexByte(item, '(')
	comma := strings.IndexByte(item, ',')
	if (item[0] != 'P' && item[0] != 'B') || open < 2 || comma < open || !strings.HasSuffix(item, ")") {
		r.errorf(off, "histogram %s: item %q; expected P<quantile>(interval,cumulative) or B<bound>(interval,cumulative)", name, item)
		return false
	}
	label, err := envoyLabel(item[1:open])
	if err != nil {
		r.errorf(off+1, "histogram %s: label of %q: %v", name, item, err)
		return false
	}
	key := name + "." + strings.ToLower(item[:1]) + label
	a, b := item[open+1:comma], item[comma+1:len(item)-1]
	for _, v := range []struct {
		key, raw string
		off      int
	}{{key, a, off + open + 1}, {key + ".cumulative", b, off + comma + 1}} {
		if envoyNonFinite(v.raw) {
			continue
		}
		if !numberRe.MatchString(v.raw) {
			r.errorf(v.off, "histogram %s: value %q in %q; expected a number or nan", name, v.raw, item)
			return false
		}
		r.number(v.key, v.raw, v.off)
	}
	return true
}

// statsDetail reads one indented line of a histogram_buckets=detailed
// record: "totals=l,w:n, …", "intervals=l,w:n, …" or "summary=P0(a,b) …".
func (r *rawRead) statsDetail(name, line string, off int) {
	field, val, ok := strings.Cut(line, "=")
	voff := off + len(field) + 1
	switch {
	case !ok:
		r.errorf(off, "histogram %s: indented line; expected totals=, intervals= or summary=", name)
	case field == "summary":
		if val != "" && val != "No recorded values" {
			r.statsSummary(name, val, voff)
		}
	case field == "totals" || field == "intervals":
		if val == "" {
			return
		}
		for start := 0; start <= len(val); {
			end := strings.Index(val[start:], ", ")
			if end < 0 {
				end = len(val)
			} else {
				end += start
			}
			item := val[start:end]
			colon := strings.LastIndexByte(item, ':')
			comma := strings.IndexByte(item, ',')
			if comma <= 0 || colon <= comma+1 {
				r.errorf(voff+start, "histogram %s: %s bucket %q; expected lower_bound,width:count", name, field, item)
				return
			}
			lower, err1 := envoyLabel(item[:comma])
			width, err2 := envoyLabel(item[comma+1 : colon])
			if err1 != nil || err2 != nil {
				r.errorf(voff+start, "histogram %s: %s bucket %q; expected numeric lower_bound,width:count", name, field, item)
				return
			}
			r.number(name+"."+field+"."+lower+","+width, item[colon+1:], voff+start+colon+1)
			start = end + 2
		}
	default:
		r.errorf(off, "histogram %s: unknown field %q; expected totals=, intervals= or summary=", name, field)
	}
}

// ---------------------------------------------------------------------
// /clusters (text)

// envoyClusterTextFields are the /clusters host and cluster fields that hold
// text, never a number, even when the text looks like one (a zone "1").
var envoyClusterTextFields = map[string]bool{
	"hostname": true, "health_flags": true, "region": true, "zone": true, "sub_zone": true,
	"canary": true, "added_via_api": true, "observability_name": true, "eds_service_name": true,
}

// ReadEnvoyClusters reads the text output of Envoy's admin /clusters
// endpoint ("envoy-clusters"), one "::"-separated field per line:
//
//	backend::172.28.0.4:8080::cx_active::2            host stat
//	backend::[::1]:8080::rq_total::17                 IPv6 host
//	backend::default_priority::max_connections::1024  cluster setting
//	backend::outlier::success_rate_average::-1        cluster outlier info
//	backend::172.28.0.4:8080::health_flags::/failed_active_hc   (text: skipped)
//	backend::added_via_api::true                       (text: skipped)
//
// The line is split on "::" outside square brackets (so an IPv6 host
// "[::1]:80" stays whole); the last field is the value and the key is the
// line before the last "::", exactly as written
// ("backend::172.28.0.4:8080::cx_active"). A numeric value gives one
// reading; the text fields hostname, health_flags, region, zone, sub_zone,
// canary, added_via_api, observability_name and eds_service_name, empty
// values, nan and other non-numeric values give none. Blank lines are
// skipped. A line with fewer than three fields, an empty or indented
// cluster name, or a field name with white space is an error at its first
// byte.
func ReadEnvoyClusters(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := newEnvoyRead(file, src)
	if errs != nil {
		return nil, errs
	}
	for _, ln := range splitLines(src) {
		line := strings.TrimRight(string(src[ln.start:ln.end]), " \t")
		if isBlankLine(line) {
			continue
		}
		seps := clusterSeparators(line)
		if len(seps) < 2 {
			r.errorf(ln.start, "line is not a /clusters entry; expected \"cluster::host:port::stat::value\" or \"cluster::field::value\"")
			continue
		}
		if seps[0] == 0 || line[0] == ' ' || line[0] == '\t' {
			r.errorf(ln.start, "missing or indented cluster name; expected \"cluster::host:port::stat::value\" at the start of the line")
			continue
		}
		last := seps[len(seps)-1]
		field := line[seps[len(seps)-2]+2 : last]
		if field == "" || strings.ContainsAny(field, " \t") {
			r.errorf(ln.start+seps[len(seps)-2]+2, "field name %q; expected a stat or field name without spaces before the last \"::\"", field)
			continue
		}
		val := line[last+2:]
		if envoyClusterTextFields[field] || !numberRe.MatchString(val) {
			continue
		}
		r.number(line[:last], val, ln.start+last+2)
	}
	return r.result()
}

// clusterSeparators returns the offsets of the "::" separators of a
// /clusters line that lie outside square brackets.
func clusterSeparators(line string) []int {
	var seps []int
	depth := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 && i+1 < len(line) && line[i+1] == ':' {
				seps = append(seps, i)
				i++
			}
		}
	}
	return seps
}

// ---------------------------------------------------------------------
// JSON helpers of the two JSON readers (the parser is in jsonparse.go).

// parseEnvoyJSON checks and parses src, reporting a syntax error at the
// offending byte as "invalid JSON: …; expected …".
func parseEnvoyJSON(file string, src []byte) (*rawRead, *jsonNode, diag.List) {
	r, errs := newEnvoyRead(file, src)
	if errs != nil {
		return nil, nil, errs
	}
	root, serr := parseJSON(src, 0, len(src), rejectDupKeys)
	if serr != nil {
		return nil, nil, diag.List{diag.Errorf(r.ix.Pos(serr.off), envoyRule, "invalid JSON: %s", serr.msg)}
	}
	return r, root, nil
}

// jsonValue adds the reading key for a JSON value that Envoy writes as a
// number or, for uint64 and Nighthawk-style output, a numeric string. null
// and nan/inf strings give no reading; a non-numeric string gives none when
// text is true (a text readout) and is an error otherwise.
func (r *rawRead) jsonValue(key string, n *jsonNode, text bool) {
	switch n.kind {
	case jsonNull:
	case jsonNumber:
		r.number(key, string(r.src[n.start:n.end]), n.start)
	case jsonString:
		inner := string(r.src[n.start+1 : n.end-1])
		switch {
		case numberRe.MatchString(inner):
			r.number(key, inner, n.start+1)
		case envoyNonFinite(n.str) || text:
		default:
			r.errorf(n.start, "%s: value %q is not a number; expected a number or a numeric string", key, n.str)
		}
	default:
		r.errorf(n.start, "%s: value is %s; expected a number, a numeric string or null", key, n.kind)
	}
}

// jsonName returns the "name" string of object n, reporting an error (and
// false) when it is missing or not a string. what names the object.
func (r *rawRead) jsonName(n *jsonNode, what string) (string, bool) {
	name := n.get("name")
	switch {
	case name == nil:
		r.errorf(n.start, "%s has no \"name\"; expected {\"name\": \"…\", …}", what)
	case name.kind != jsonString:
		r.errorf(name.start, "%s \"name\" is %s; expected a string", what, name.kind)
	case name.str == "":
		r.errorf(name.start, "%s \"name\" is empty; expected a stat name", what)
	default:
		return name.str, true
	}
	return "", false
}

// jsonIs checks that n is of kind k, reporting an error otherwise.
func (r *rawRead) jsonIs(n *jsonNode, k jsonKind, what string) bool {
	if n.kind != k {
		r.errorf(n.start, "%s is %s; expected %s", what, n.kind, k)
		return false
	}
	return true
}

// jsonLabels reads a supported_quantiles / supported_percentiles array.
func (r *rawRead) jsonLabels(n *jsonNode, what string) ([]string, bool) {
	if n == nil {
		return nil, false
	}
	if !r.jsonIs(n, jsonArray, what) {
		return nil, false
	}
	labels := make([]string, 0, len(n.elems))
	for _, e := range n.elems {
		var raw string
		switch e.kind {
		case jsonNumber:
			raw = string(r.src[e.start:e.end])
		case jsonString:
			raw = e.str
		default:
			r.errorf(e.start, "%s entry is %s; expected a number", what, e.kind)
			return nil, false
		}
		l, err := envoyLabel(raw)
		if err != nil {
			r.errorf(e.start, "%s entry: %v", what, err)
			return nil, false
		}
		labels = append(labels, l)
	}
	return labels, true
}

// ---------------------------------------------------------------------
// /stats?format=json

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
func ReadEnvoyStatsJSON(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
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

// ---------------------------------------------------------------------
// /clusters?format=json

// ReadEnvoyClustersJSON reads the JSON output of Envoy's admin
// /clusters?format=json endpoint ("envoy-clusters-json"):
//
//	{"cluster_statuses": [{"name": "outbound|9080||reviews",
//	  "host_statuses": [{"address": {"socket_address": {"address": "172.17.0.24", "port_value": 9080}},
//	                     "stats": [{"name": "rq_total", "value": "12"}, {"name": "rq_error"}]}]}]}
//
// Field names are accepted in the proto form (host_statuses,
// socket_address, port_value) and the camelCase form older Envoys and
// istioctl print (hostStatuses, socketAddress, portValue); the root may
// also be the bare array of cluster statuses ("istioctl proxy-config
// endpoints -o json"). Each host stat gives a reading keyed
// "<cluster>::<host>::<stat>", where <host> is written as /clusters text
// writes it: "172.17.0.24:9080", "[::1]:80" for IPv6, the socket path for a
// pipe ("/sock/mixer.socket"), "envoy://<listener>/<endpoint id>" for an
// internal address. Envoy omits zero-valued fields, so a stat without
// "value" is unknown and gives no reading (not 0); a port_value that is
// absent is 0. uint64 values are JSON strings ("value": "12") and are read
// from the bytes between the quotes. Only host stats are read (not weights,
// success rates or circuit-breaker thresholds). Syntax errors are reported
// as by ReadEnvoyStatsJSON; a cluster, host or stat of the wrong shape is a
// positioned error.
func ReadEnvoyClustersJSON(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, root, errs := parseEnvoyJSON(file, src)
	if errs != nil {
		return nil, errs
	}
	var clusters *jsonNode
	switch {
	case root.kind == jsonArray:
		clusters = root
	case root.get("cluster_statuses", "clusterStatuses") != nil:
		clusters = root.get("cluster_statuses", "clusterStatuses")
		if !r.jsonIs(clusters, jsonArray, "\"cluster_statuses\"") {
			return r.result()
		}
	case root.kind == jsonObject && len(root.members) == 0:
		return r.result() // no clusters: Envoy prints {}
	default:
		r.errorf(root.start, "document is %s without \"cluster_statuses\"; expected Envoy /clusters?format=json output", root.kind)
		return r.result()
	}
	for _, c := range clusters.elems {
		if !r.jsonIs(c, jsonObject, "cluster status") {
			continue
		}
		cname, ok := r.jsonName(c, "cluster status")
		if !ok {
			continue
		}
		hosts := c.get("host_statuses", "hostStatuses")
		if hosts == nil || !r.jsonIs(hosts, jsonArray, "cluster "+cname+" \"host_statuses\"") {
			continue
		}
		for _, h := range hosts.elems {
			if !r.jsonIs(h, jsonObject, "cluster "+cname+" host status") {
				continue
			}
			host, ok := r.hostAddress(cname, h)
			if !ok {
				continue
			}
			stats := h.get("stats")
			if stats == nil || !r.jsonIs(stats, jsonArray, "host "+host+" \"stats\"") {
				continue
			}
			for _, s := range stats.elems {
				if !r.jsonIs(s, jsonObject, "host "+host+" stat") {
					continue
				}
				sname, ok := r.jsonName(s, "host "+host+" stat")
				if !ok {
					continue
				}
				if v := s.get("value"); v != nil {
					r.jsonValue(cname+"::"+host+"::"+sname, v, false)
				}
			}
		}
	}
	return r.result()
}

// hostAddress renders a host status's address as /clusters text does.
func (r *rawRead) hostAddress(cluster string, h *jsonNode) (string, bool) {
	addr := h.get("address")
	if addr == nil || addr.kind != jsonObject {
		at := h.start
		if addr != nil {
			at = addr.start
		}
		r.errorf(at, "cluster %s: host status without an \"address\" object; expected {\"address\": {\"socket_address\": …}}", cluster)
		return "", false
	}
	str := func(n *jsonNode, field string) (string, bool) {
		v := n.get(field)
		if v == nil || v.kind != jsonString || v.str == "" {
			r.errorf(n.start, "cluster %s: address without a %q string; expected Envoy address output", cluster, field)
			return "", false
		}
		return v.str, true
	}
	if sa := addr.get("socket_address", "socketAddress"); sa != nil {
		ip, ok := str(sa, "address")
		if !ok {
			return "", false
		}
		port := "0"
		if p := sa.get("port_value", "portValue"); p != nil {
			raw := ""
			switch p.kind {
			case jsonNumber:
				raw = string(r.src[p.start:p.end])
			case jsonString:
				raw = p.str
			}
			if _, err := strconv.ParseUint(raw, 10, 32); err != nil {
				r.errorf(p.start, "cluster %s: port_value is %s; expected a port number", cluster, p.kind)
				return "", false
			}
			port = raw
		}
		if strings.Contains(ip, ":") {
			ip = "[" + ip + "]"
		}
		return ip + ":" + port, true
	}
	if pipe := addr.get("pipe"); pipe != nil {
		return str(pipe, "path")
	}
	if ia := addr.get("envoy_internal_address", "envoyInternalAddress"); ia != nil {
		name, ok := str(ia, "server_listener_name")
		if !ok {
			return "", false
		}
		id := ""
		if v := ia.get("endpoint_id", "endpointId"); v != nil && v.kind == jsonString {
			id = v.str
		}
		return "envoy://" + name + "/" + id, true
	}
	r.errorf(addr.start, "cluster %s: address has no socket_address, pipe or envoy_internal_address; expected Envoy address output", cluster)
	return "", false
}
