package loadtest

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

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
func ReadFortioJSON(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceFortioJSON)
	if errs != nil {
		return nil, errs
	}
	root, errs := r.ParseWholeJSON()
	if errs != nil {
		return nil, errs
	}
	if root.Kind != jsontree.Object || (root.Get("RetCodes") == nil && root.Get("DurationHistogram") == nil) {
		r.Errorf(root.Start, "JSON %s is not a fortio result; expected an object with RetCodes and DurationHistogram (fortio load -json)", root.Kind.Noun())
		return r.Result()
	}
	for _, m := range root.Members {
		k, v := m.Key, m.Val
		switch {
		case k == "RetCodes":
			if v.Kind != jsontree.Object {
				r.Errorf(v.Start, "RetCodes is a %s; expected an object of counts per code", v.Kind.Noun())
				continue
			}
			for _, c := range v.Members {
				if !r.AddJSONNumber("RetCodes."+c.Key, c.Val) {
					r.Errorf(c.Val.Start, "RetCodes %q is a %s; expected a count", c.Key, c.Val.Kind.Noun())
				}
			}
		case fortioHistograms[k] && v.Kind == jsontree.Object:
			for _, h := range v.Members {
				switch s, hv := h.Key, h.Val; {
				case fortioStats[s]:
					r.AddJSONNumber(k+"."+s, hv)
				case s == "Data" && hv.Kind == jsontree.Array:
					for i, e := range hv.Elems {
						for _, f := range []string{"Start", "End", "Percent", "Count"} {
							if v := e.Get(f); v != nil && !r.AddJSONNumber(fmt.Sprintf("%s.data.%d.%s", k, i+1, strings.ToLower(f)), v) {
								r.Errorf(v.Start, "%s.Data[%d].%s is a %s; expected a number", k, i, f, v.Kind.Noun())
							}
						}
					}
				case s == "Percentiles" && hv.Kind == jsontree.Array:
					for _, e := range hv.Elems {
						if p, ok := jsonDecimal(r, e.Get("Percentile")); ok {
							r.AddJSONNumber(k+"."+percentileKey(p), e.Get("Value"))
						}
					}
				}
			}
		case v.Kind == jsontree.String && fortioDuration.MatchString(v.Str):
			// RequestedDuration "5s", "100ms": a Go duration, read in s.
			if d, err := time.ParseDuration(strings.ReplaceAll(v.Str, "µs", "us")); err == nil && v.End-v.Start == len(v.Str)+2 {
				r.Add(k, v.Start+1, v.Str, decimal.New(int64(d), -9), "s")
			}
		default:
			r.AddJSONNumber(k, v)
		}
	}
	r.AttachUnits(fortioJSONUnit)
	return r.Result()
}

// jsonDecimal returns the value of a number or numeric-string node.
func jsonDecimal(r *raw.Recorder, n *jsontree.Node) (decimal.Decimal, bool) {
	if n == nil {
		return decimal.Decimal{}, false
	}
	switch n.Kind {
	case jsontree.Number:
		return raw.ParseDecimal(string(r.Src[n.Start:n.End]))
	case jsontree.String:
		if n.End-n.Start >= 3 {
			return raw.ParseDecimal(string(r.Src[n.Start+1 : n.End-1]))
		}
	}
	return decimal.Decimal{}, false
}
