package raw

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// fortioDuration is a Go duration string as fortio writes
// RequestedDuration ("5s", "100ms", "1m0s").
var fortioDuration = regexp.MustCompile(`^(?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns))+$`)

// fortioHistograms are the top-level fortio result members holding a
// histogram object.
var fortioHistograms = map[string]bool{"DurationHistogram": true, "ErrorsDurationHistogram": true, "Sizes": true, "HeaderSizes": true}

// fortioStats are the summary members of a fortio histogram object.
var fortioStats = map[string]bool{"Count": true, "Min": true, "Max": true, "Sum": true, "Avg": true, "StdDev": true}

// ReadFortioJSON reads a fortio result JSON file (fortio load -json, the
// web UI's saved result, or Nighthawk's fortio-compatible output); format
// "fortio-json". Readings, keyed by the JSON member names:
//
//	NumThreads, ActualQPS, RequestedQPS, …   every top-level number or numeric string
//	                                         ("RequestedQPS": "30" and 30 alike;
//	                                         ActualDuration is in nanoseconds)
//	DurationHistogram.Count|Min|Max|Sum|Avg|StdDev   seconds (Count is a count)
//	DurationHistogram.p50, .p99_9, …         Percentiles[].Value by Percentile
//	                                         ("." written "_"), seconds
//	Sizes.*, HeaderSizes.*, ErrorsDurationHistogram.*   the same, bytes or seconds
//	RetCodes.<code>                          count per code as the JSON key writes it:
//	                                         "200", "503", gRPC "1" (SERVING), and
//	                                         "-1" for socket errors (RetCodes.-1)
//
//	DurationHistogram.data.<N>.start|end|percent|count   the N-th (1-based) Data
//	                                         bucket: bounds in seconds (bytes for sizes),
//	                                         cumulative percent, count
//	RequestedDuration                        a Go duration string ("5s", "100ms"), in s
//
// Counts Nighthawk writes as strings ("Count": "53") are read as numbers;
// Raw is then the text between the quotes and Pos its first digit. Errors: invalid
// JSON (at the line:col of the first syntax error), a document that is not
// an object with RetCodes or DurationHistogram, and a RetCodes entry that
// is not a count.
func ReadFortioJSON(file string, src []byte, _ ReadOptions) (*Readings, diag.List) {
	r, errs := startRead(file, src, diag.EvidenceFortioJSON)
	if errs != nil {
		return nil, errs
	}
	root, errs := r.parseWholeJSON()
	if errs != nil {
		return nil, errs
	}
	if root.kind != jsonObject || (root.get("RetCodes") == nil && root.get("DurationHistogram") == nil) {
		r.errorf(root.start, "JSON %s is not a fortio result; expected an object with RetCodes and DurationHistogram (fortio load -json)", root.kind.noun())
		return r.result()
	}
	for _, m := range root.members {
		k, v := m.key, m.val
		switch {
		case k == "RetCodes":
			if v.kind != jsonObject {
				r.errorf(v.start, "RetCodes is a %s; expected an object of counts per code", v.kind.noun())
				continue
			}
			for _, c := range v.members {
				if !r.addJSONNumber("RetCodes."+c.key, c.val) {
					r.errorf(c.val.start, "RetCodes %q is a %s; expected a count", c.key, c.val.kind.noun())
				}
			}
		case fortioHistograms[k] && v.kind == jsonObject:
			for _, h := range v.members {
				switch s, hv := h.key, h.val; {
				case fortioStats[s]:
					r.addJSONNumber(k+"."+s, hv)
				case s == "Data" && hv.kind == jsonArray:
					for i, e := range hv.elems {
						for _, f := range []string{"Start", "End", "Percent", "Count"} {
							if v := e.get(f); v != nil && !r.addJSONNumber(fmt.Sprintf("%s.data.%d.%s", k, i+1, strings.ToLower(f)), v) {
								r.errorf(v.start, "%s.Data[%d].%s is a %s; expected a number", k, i, f, v.kind.noun())
							}
						}
					}
				case s == "Percentiles" && hv.kind == jsonArray:
					for _, e := range hv.elems {
						if p, ok := r.jsonDecimal(e.get("Percentile")); ok {
							r.addJSONNumber(k+"."+percentileKey(p), e.get("Value"))
						}
					}
				}
			}
		case v.kind == jsonString && fortioDuration.MatchString(v.str):
			// RequestedDuration "5s", "100ms": a Go duration, read in s.
			if d, err := time.ParseDuration(strings.ReplaceAll(v.str, "µs", "us")); err == nil && v.end-v.start == len(v.str)+2 {
				r.add(k, v.start+1, v.str, decimal.New(int64(d), -9), "s")
			}
		default:
			r.addJSONNumber(k, v)
		}
	}
	r.attachUnits(fortioJSONUnit)
	return r.result()
}
