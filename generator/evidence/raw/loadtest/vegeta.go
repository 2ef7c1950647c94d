package loadtest

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The vegeta reader ("vegeta", ReadVegeta): `vegeta report` text and
// `vegeta report -type=json`. The conventions of every lab-format reader
// are in readings.go.

// vegetaLine is a report line: a label, the bracketed names of its
// values and the values ("Latencies [min, mean, 50, 99, max] 2.048ms, …").
var vegetaLine = regexp.MustCompile(`^(\S[^\[]*?)\s+\[([^\]]*)\]\s+(.*?)\s*$`)

// vegetaHist is a bucket line of `vegeta report -type=hist[…]`: the
// bucket's bounds, its count, its percentage and a bar of #.
var vegetaHist = regexp.MustCompile(`^\[(\S+),\s+(\S+)\]\s+(\S+)\s+(\S+%)(?:\s+#*)?\s*$`)

// vegetaUnits are the suffixes of vegeta's values: Go durations and the
// success ratio's percent.
var vegetaUnits = map[string]raw.ToolUnit{
	"ns": {Unit: "ns"}, "us": {Unit: "us"}, "µs": {Unit: "us"}, "μs": {Unit: "us"}, "ms": {Unit: "ms"},
	"s": {Unit: "s"}, "m": {Unit: "min"}, "h": {Unit: "h"}, "%": {Unit: "%"},
}

// ReadVegeta reads a vegeta report; format "vegeta". The text report
// (`vegeta report`, the default -type=text):
//
//	Requests      [total, rate, throughput]         1200, 120.00, 118.96
//	Duration      [total, attack, wait]             10.0876s, 9.9917s, 95.9ms
//	Latencies     [min, mean, 50, 90, 95, 99, max]  2.048ms, 2.66ms, …, 63.722ms
//	Bytes In      [total, mean]                     982949897, 2730.42
//	Success       [ratio]                           100.00%
//	Status Codes  [code:count]                      0:6  200:1194
//	Error Set:
//	Get "http://x": dial tcp 10.0.0.1:80: connect: connection refused
//
// gives the keys label.name, both slugged, a numeric name being a
// percentile: requests.total, requests.rate (/s), duration.wait,
// latencies.p99, latencies.max, bytes_in.total (B), success.ratio (%),
// status_codes.200. Durations keep the unit vegeta writes (2.66ms is
// 2.66 ms); a Go duration of several components (10m0s) is read in
// seconds. A second report in the same file numbers its keys (#2).
// Error Set lines are messages, not read: a number in one is a warning.
//
// The JSON report (`vegeta report -type=json`) gives every number by its
// path, as the json format does, with percentiles renamed (latencies.50th
// is latencies.p50): latencies.* and duration and wait in ns, rate and
// throughput per second, bytes_in.* and bytes_out.* in B, success a
// ratio (unit ratio: 1 is all, as the text report's 100.00%), buckets.<bound in ns> and status_codes.<code> counts;
// the timestamps earliest, latest and end (the first and last request
// and the last response) give their time of day (unit tod, as written:
// "2024-03-01T14:03:22.123456789Z" is 14:03:22.123456789).
//
// The histogram report (`vegeta report -type='hist[0,500us,1ms,2ms]'`):
//
//	Bucket           #     %       Histogram
//	[0s,     500µs]  0     0.00%
//	[500µs,  1ms]    1     10.00%  #######
//	[2ms,    +Inf]   6     60.00%  #############################################
//
// gives hist.<low>_<high>.count, .percent (%) and the bounds .low and
// .high (in the unit written; +Inf is no value) per bucket, named as
// vegeta writes them with µs as us and +Inf as inf: hist.0s_500us.count,
// hist.500us_1ms.high (1 ms), hist.2ms_inf.percent.
//
// Any other line with a number is a warning (rule evidence-number); a
// file without a report line is an error.
func ReadVegeta(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceVegeta)
	if errs != nil {
		return nil, errs
	}
	if raw.LooksJSON(src) {
		root, errs := r.ParseWholeJSON()
		if errs != nil {
			return nil, errs
		}
		r.ReadJSONTree(root, vegetaJSONKey)
		for _, m := range root.Members {
			if (m.Key == "earliest" || m.Key == "latest" || m.Key == "end") && m.Val.Kind == jsontree.String {
				r.AddClock(m.Key, m.Val.Start+1, string(r.Src[m.Val.Start+1:m.Val.End-1]))
			}
		}
		if r.Out.Len() == 0 {
			r.Errorf(raw.TextStart(src), "no numbers in the JSON report; expected vegeta report -type=json output such as {\"latencies\": {\"99th\": 3530000}, \"requests\": 100}")
		}
		r.AttachUnits(vegetaJSONUnit)
		return r.Result()
	}
	for start, text := range raw.OutputLines(src) {
		if m := vegetaHist.FindStringSubmatchIndex(text); m != nil {
			key := "hist." + vegetaBound(text[m[2]:m[3]]) + "_" + vegetaBound(text[m[4]:m[5]])
			for i, bound := range []string{".low", ".high"} {
				a, b := m[2+2*i], m[3+2*i]
				if text[a:b] != "+Inf" {
					r.AddTool(key+bound, start+a, text[a:b], vegetaUnits, "")
				}
			}
			r.AddNum(key+".count", start+m[6], text[m[6]:m[7]], "")
			r.AddTool(key+".percent", start+m[8], text[m[8]:m[9]], vegetaUnits, "")
			continue
		}
		m := vegetaLine.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		label := raw.KeySlug(text[m[2]:m[3]])
		names := strings.Split(text[m[4]:m[5]], ",")
		vals := text[m[6]:m[7]]
		if label == "status_codes" {
			vegetaCodes(r, start+m[6], vals)
			continue
		}
		i := 0
		for _, f := range splitComma(vals) {
			if i >= len(names) {
				break
			}
			name := strings.TrimSpace(names[i])
			i++
			if name != "" && name[0] >= '0' && name[0] <= '9' {
				name = raw.PctKey(name)
			}
			key := label + "." + raw.KeySlug(name)
			r.AddTool(key, start+m[6]+f[0], vals[f[0]:f[1]], vegetaUnits, vegetaUnit(label, name))
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no vegeta report lines; expected lines such as \"Latencies [min, mean, 50, 90, 95, 99, max] 2.048ms, …\", a -type=hist bucket line \"[0s, 500µs]  0  0.00%%\" or a -type=json report")
	}
	return r.Result()
}

// vegetaBound writes a histogram bucket's bound as a key segment: µs as
// us, +Inf as inf.
func vegetaBound(b string) string {
	if b == "+Inf" {
		return "inf"
	}
	if !strings.ContainsAny(b, "µμ") {
		return b // no replacer built for each bucket
	}
	return strings.NewReplacer("µs", "us", "μs", "us").Replace(b)
}

// vegetaCodes reads "200:360000  0:535" at off.
func vegetaCodes(r *raw.Recorder, off int, vals string) {
	for _, f := range raw.Fields(vals) {
		tok := vals[f[0]:f[1]]
		if code, count, ok := strings.Cut(tok, ":"); ok && code != "" {
			r.AddNum("status_codes."+code, off+f[0]+len(code)+1, count, "") // else the sweep warns
		}
	}
}

// vegetaUnit is the unit a text report's value has when it writes none:
// requests per second for rate and throughput, bytes for Bytes In/Out.
func vegetaUnit(label, name string) string {
	switch {
	case label == "requests" && (name == "rate" || name == "throughput"):
		return "/s"
	case label == "bytes_in" || label == "bytes_out":
		return "B"
	}
	return ""
}

// vegetaJSONKey renames vegeta's JSON percentiles (latencies.99th) to
// the text report's keys (latencies.p99).
func vegetaJSONKey(path string, _ *jsontree.Node) string {
	if rest, ok := strings.CutPrefix(path, "latencies."); ok && strings.HasSuffix(rest, "th") {
		return "latencies." + raw.PctKey(strings.TrimSuffix(rest, "th"))
	}
	return path
}

// vegetaJSONUnit: vegeta's JSON writes durations as Go time.Duration
// nanoseconds, and success as a ratio.
func vegetaJSONUnit(key string) string {
	switch {
	case strings.HasPrefix(key, "latencies.") || key == "duration" || key == "wait":
		return "ns"
	case key == "rate" || key == "throughput":
		return "/s"
	case strings.HasPrefix(key, "bytes_in.") || strings.HasPrefix(key, "bytes_out."):
		return "B"
	case key == "success":
		return "ratio"
	}
	return ""
}

// splitComma returns the byte ranges of the comma-separated items of s,
// spaces around each trimmed.
func splitComma(s string) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ',' {
			continue
		}
		a, b := start, i
		for a < b && (s[a] == ' ' || s[a] == '\t') {
			a++
		}
		for b > a && (s[b-1] == ' ' || s[b-1] == '\t') {
			b--
		}
		if a < b {
			out = append(out, [2]int{a, b})
		}
		start = i + 1
	}
	return out
}
