package raw

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Readers of fortio output: its result JSON ("fortio-json",
// ReadFortioJSON) and its console text ("fortio-text", ReadFortioText).
// The conventions of every lab-format reader are in readings.go.

// lfSlug lower-cases s and replaces each run of characters outside
// [a-z0-9] with one "_", trimming "_" at both ends.
func lfSlug(s string) string {
	var b strings.Builder
	under := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.Trim(b.String(), "_")
}

// lfPercentile names a percentile "p<value>" with "." written "_":
// 50 -> "p50", 99.9 -> "p99_9".
func lfPercentile(v decimal.Decimal) string {
	return "p" + strings.ReplaceAll(v.String(), ".", "_")
}

// lfFortioHistograms are the top-level fortio result members holding a
// histogram object.
var lfFortioHistograms = map[string]bool{"DurationHistogram": true, "ErrorsDurationHistogram": true, "Sizes": true, "HeaderSizes": true}

// lfFortioStats are the summary members of a fortio histogram object.
var lfFortioStats = map[string]bool{"Count": true, "Min": true, "Max": true, "Sum": true, "Avg": true, "StdDev": true}

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
// Counts Nighthawk writes as strings ("Count": "53") are read as numbers;
// Raw is then the text between the quotes and Pos its first digit. The
// Data buckets are not read (use format "json" for those). Errors: invalid
// JSON (at the line:col of the first syntax error), a document that is not
// an object with RetCodes or DurationHistogram, and a RetCodes entry that
// is not a count.
func ReadFortioJSON(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "fortio-json")
	if errs != nil {
		return nil, errs
	}
	root, errs := lfParseJSON(r.ix, src, 0, len(src), r.rule)
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
		case lfFortioHistograms[k] && v.kind == jsonObject:
			for _, h := range v.members {
				switch s, hv := h.key, h.val; {
				case lfFortioStats[s]:
					r.addJSONNumber(k+"."+s, hv)
				case s == "Percentiles" && hv.kind == jsonArray:
					for _, e := range hv.elems {
						if p, ok := r.jsonDecimal(e.get("Percentile")); ok {
							r.addJSONNumber(k+"."+lfPercentile(p), e.get("Value"))
						}
					}
				}
			}
		default:
			r.addJSONNumber(k, v)
		}
	}
	return r.result()
}

// The fortio console lines ReadFortioText reads, in the order of its doc
// comment.
var (
	ftCode    = regexp.MustCompile(`^Code\s+(-?\d+)\s*:\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)(\s*%)\))?\s*$`)
	ftProto   = regexp.MustCompile(`^(tcp|udp)\s+(\S[^:]*?)\s*:\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)(\s*%)\))?\s*$`)
	ftSockets = regexp.MustCompile(`^Sockets used:\s*(\d+)`)
	ftAllDone = regexp.MustCompile(`^All done (\d+) calls(?: \(plus (\d+) warmup\))?\s+(\S+)( ms)? avg, (\S+) qps`)
	ftEnded   = regexp.MustCompile(`^Ended after \S+ : (\d+) calls\. qps=(\S+)`)
	ftStart   = regexp.MustCompile(`^Starting at .*? with (\d+) thread\(s\)`)
	ftStats   = regexp.MustCompile(`^(\S.*?)\s*:\s*count (\S+) avg (\S+) \+/- (\S+) min (\S+) max (\S+) sum (\S+)\s*$`)
	ftTarget  = regexp.MustCompile(`^# target (\d+(?:\.\d+)?)% (\S+)\s*$`)
	ftBytes   = regexp.MustCompile(`^Total Bytes sent: (\d+), received: (\d+)`)
)

// ReadFortioText reads fortio's console output (fortio load without
// -json); format "fortio-text". Lines read, with their keys:
//
//	Code 200 : 18 (90.0 %)            code.200 = 18, code.200.pct = 90.0 (Raw "90.0 %", unit %)
//	Code 200 : 300000                 code.200 (2017 format, no percentage); "Code -1" is code.-1
//	tcp OK : 100000 (100.0 %)         tcp.ok, tcp.ok.pct (udp likewise; other statuses slugged)
//	Sockets used: 3 (for perfect …)   sockets_used
//	All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps
//	                                  calls, warmup, avg_ms (Raw "7.917 ms", unit ms), qps
//	Ended after 1.2s : 100000 calls. qps=1.0301e+05
//	                                  ended.calls, ended.qps (e-notation read exactly: 103010)
//	Starting at … with 4 thread(s) …  threads
//	Total Bytes sent: 2400, received: 2400   bytes_sent, bytes_received
//	<Label> : count N avg A +/- S min X max Y sum Z
//	                                  <label>.count|avg|stddev|min|max|sum, <label> being
//	                                  the label slugged without a leading "Aggregated " or
//	                                  "Response ": function_time, sleep_time, header_sizes,
//	                                  body_total_sizes, …
//	# target 50% 0.00625              target.p50 (seconds; 99.9% is p99_9) after the
//	                                  function-time histogram; after another histogram
//	                                  <label>.target.p50 (sleep_time.target.p50)
//
// Every other line (logs, histogram buckets, per-thread lines, prose) is
// skipped. A file with none of these lines is an error, as is text that is
// not clean UTF-8.
func ReadFortioText(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "fortio-text")
	if errs != nil {
		return nil, errs
	}
	hist := ""
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		at := func(m []int, g int) (int, string) { return ln.start + m[2*g], text[m[2*g]:m[2*g+1]] }
		num := func(key string, m []int, g int) {
			if m[2*g] >= 0 {
				off, raw := at(m, g)
				r.addNum(key, off, raw, "")
			}
		}
		pct := func(key string, m []int, g int) {
			if m[2*g] >= 0 {
				off := ln.start + m[2*g]
				r.addNum(key, off, text[m[2*g]:m[2*g+3]], "%")
			}
		}
		if m := ftCode.FindStringSubmatchIndex(text); m != nil {
			_, code := at(m, 1)
			num("code."+code, m, 2)
			pct("code."+code+".pct", m, 3)
			continue
		}
		if m := ftProto.FindStringSubmatchIndex(text); m != nil {
			_, proto := at(m, 1)
			_, status := at(m, 2)
			key := proto + "." + lfSlug(status)
			num(key, m, 3)
			pct(key+".pct", m, 4)
			continue
		}
		if m := ftSockets.FindStringSubmatchIndex(text); m != nil {
			num("sockets_used", m, 1)
			continue
		}
		if m := ftAllDone.FindStringSubmatchIndex(text); m != nil {
			num("calls", m, 1)
			num("warmup", m, 2)
			if m[8] >= 0 {
				r.addNum("avg_ms", ln.start+m[6], text[m[6]:m[9]], "ms")
			} else {
				num("avg_ms", m, 3)
			}
			num("qps", m, 5)
			continue
		}
		if m := ftEnded.FindStringSubmatchIndex(text); m != nil {
			num("ended.calls", m, 1)
			num("ended.qps", m, 2)
			continue
		}
		if m := ftStart.FindStringSubmatchIndex(text); m != nil {
			num("threads", m, 1)
			continue
		}
		if m := ftBytes.FindStringSubmatchIndex(text); m != nil {
			num("bytes_sent", m, 1)
			num("bytes_received", m, 2)
			continue
		}
		if m := ftStats.FindStringSubmatchIndex(text); m != nil {
			_, label := at(m, 1)
			label = strings.TrimPrefix(strings.TrimPrefix(label, "Aggregated "), "Response ")
			hist = lfSlug(label)
			if hist == "" {
				hist = "stats"
			}
			for g, stat := range []string{"count", "avg", "stddev", "min", "max", "sum"} {
				num(hist+"."+stat, m, g+2)
			}
			continue
		}
		if m := ftTarget.FindStringSubmatchIndex(text); m != nil {
			_, p := at(m, 1)
			pv, ok := lfDecimal(p)
			if !ok {
				continue
			}
			key := "target." + lfPercentile(pv)
			if hist != "" && hist != "function_time" {
				key = hist + "." + key
			}
			num(key, m, 2)
			continue
		}
	}
	if len(r.out) == 0 && len(r.errs) == 0 {
		r.errorf(0, "no fortio result lines; expected lines such as \"Code 200 : 18 (90.0 %%)\", \"All done 20 calls (plus 0 warmup) 7.9 ms avg, 2517.8 qps\" or \"# target 50%% 0.006\"")
	}
	return r.result()
}
