package envoy

import (
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

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
// described in envoy.go; nan values, "No recorded values" and
// quoted text readouts give none. Trailing spaces and tabs are ignored and
// lines of only spaces and tabs are skipped; any other line is an error
// positioned at the offending byte (at most EnvoyMaxErrors are reported).
// Readings found before and after a bad line are still returned.
func ReadEnvoyStats(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
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
			r.Errorf(histOff, "histogram %q has no indented totals=, intervals= or summary= lines; expected \"name: value\" or a histogram_buckets=detailed record", hist)
		}
		hist = ""
	}
	for _, ln := range raw.SplitLines(src) {
		line := strings.TrimRight(string(src[ln.Start:ln.End]), " \t")
		if isBlankLine(line) {
			closeHist()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			indent := len(line) - len(strings.TrimLeft(line, " \t"))
			if hist == "" {
				r.Errorf(ln.Start+indent, "indented line outside a histogram_buckets=detailed record; expected \"name: value\" at the start of the line")
				continue
			}
			histBody++
			statsDetail(r, hist, line[indent:], ln.Start+indent)
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
				hist, histOff, histBody = name, ln.Start, 0
				continue
			}
			r.Errorf(ln.Start, "line is not a stat; expected \"name: value\" (a counter, gauge or histogram as written by Envoy's /stats)")
			continue
		}
		name, val, voff := line[:i], line[i+2:], ln.Start+i+2
		if name == "" {
			r.Errorf(ln.Start, "empty stat name; expected \"name: value\"")
			continue
		}
		if j := strings.IndexAny(name, " \t"); j >= 0 {
			r.Errorf(ln.Start+j, "stat name %q contains white space; expected \"name: value\" with a name of no spaces", name)
			continue
		}
		switch {
		case val == "No recorded values":
		case raw.IsMachineNumber(val):
			number(r, name, val, voff)
		case envoyNonFinite(val):
			// No value a claim can quote, but never dropped unsaid: a
			// claim on it would only meet "unknown evidence reference".
			r.Warnf(voff, "stat %s is %s (not a finite number): no value is read for it", name, val)
		case len(val) > 1 && (val[0] == 'P' || val[0] == 'B') && strings.Contains(val, "("):
			statsSummary(r, name, val, voff)
		default:
			r.Errorf(voff, "stat %s: value %q is not a number; expected a number, a histogram summary \"P0(interval,cumulative) …\" or \"B0.5(interval,cumulative) …\", or \"No recorded values\"", name, val)
		}
	}
	closeHist()
	r.AttachUnits(envoyUnit)
	return r.Result()
}

// statsSummary reads "P0(a,b) P25(a,b) …" or "B0.5(a,b) …" at off.
func statsSummary(r *raw.Recorder, name, val string, off int) {
	for start := 0; start <= len(val); {
		end := strings.IndexByte(val[start:], ' ')
		if end < 0 {
			end = len(val)
		} else {
			end += start
		}
		item := val[start:end]
		if item == "" {
			r.Errorf(off+start, "histogram %s: empty item; expected items such as P50(interval,cumulative) separated by one space", name)
			return
		}
		if !statsItem(r, name, item, off+start) {
			return
		}
		start = end + 1
	}
}

// statsItem reads one "P50(a,b)" or "B0.5(a,b)" item at off; it reports
// false after an error.
func statsItem(r *raw.Recorder, name, item string, off int) bool {
	open := strings.IndexByte(item, '(')
	comma := strings.IndexByte(item, ',')
	if (item[0] != 'P' && item[0] != 'B') || open < 2 || comma < open || !strings.HasSuffix(item, ")") {
		r.Errorf(off, "histogram %s: item %q; expected P<quantile>(interval,cumulative) or B<bound>(interval,cumulative)", name, item)
		return false
	}
	label, err := envoyLabel(item[1:open])
	if err != nil {
		r.Errorf(off+1, "histogram %s: label of %q: %v", name, item, err)
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
		if !raw.IsMachineNumber(v.raw) {
			r.Errorf(v.off, "histogram %s: value %q in %q; expected a number or nan", name, v.raw, item)
			return false
		}
		number(r, v.key, v.raw, v.off)
	}
	return true
}

// statsDetail reads one indented line of a histogram_buckets=detailed
// record: "totals=l,w:n, …", "intervals=l,w:n, …" or "summary=P0(a,b) …".
func statsDetail(r *raw.Recorder, name, line string, off int) {
	field, val, ok := strings.Cut(line, "=")
	voff := off + len(field) + 1
	switch {
	case !ok:
		r.Errorf(off, "histogram %s: indented line; expected totals=, intervals= or summary=", name)
	case field == "summary":
		if val != "" && val != "No recorded values" {
			statsSummary(r, name, val, voff)
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
				r.Errorf(voff+start, "histogram %s: %s bucket %q; expected lower_bound,width:count", name, field, item)
				return
			}
			lower, err1 := envoyLabel(item[:comma])
			width, err2 := envoyLabel(item[comma+1 : colon])
			if err1 != nil || err2 != nil {
				r.Errorf(voff+start, "histogram %s: %s bucket %q; expected numeric lower_bound,width:count", name, field, item)
				return
			}
			number(r, name+"."+field+"."+lower+","+width, item[colon+1:], voff+start+colon+1)
			start = end + 2
		}
	default:
		r.Errorf(off, "histogram %s: unknown field %q; expected totals=, intervals= or summary=", name, field)
	}
}
