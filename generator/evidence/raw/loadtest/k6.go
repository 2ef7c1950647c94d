package loadtest

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The k6 reader ("k6", ReadK6): the end-of-test summary text and the
// --summary-export (or handleSummary) JSON. The conventions of every
// lab-format reader are in raw's readings.go.

// The lines of k6's summary text.
var (
	k6Metric    = regexp.MustCompile(`^\s*(?:[✓✗]\s+)?([A-Za-z_][\w]*(?:\{[^}]*\})?|\{[^}]*\})\.{2,}:\s+(.*?)\s*$`)
	k6Threshold = regexp.MustCompile(`^\s*[✓✗] '([^']*)' (\S+)=(\S+)\s*$`)
	k6Check     = regexp.MustCompile(`^\s*[✓✗] (\S.*?)\s*$`)
	k6CheckRate = regexp.MustCompile(`^\s*↳\s+(\d+(?:\.\d+)?%) — ✓ (\d+) / ✗ (\d+)\s*$`)
	k6Running   = regexp.MustCompile(`^running \((\S+)\), (\d+)/(\d+) VUs, (\d+) complete and (\d+) interrupted iterations\s*$`)
	k6Name      = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*$`)
	k6Log       = regexp.MustCompile(`^(?:(?:ERRO|WARN|INFO|DEBU)\[\d+\] |time="[^"]*" level=)`)
	k6Scenarios = regexp.MustCompile(`^\s*scenarios: \((\d+(?:\.\d+)?%)\) (\d+) scenarios?, (\d+) max VUs, (\S+) max duration \(incl\. graceful stop\):\s*$`)
	k6Executor  = regexp.MustCompile(`^\s*\* ([\w-]+): (\d+) looping VUs for (\S+) \(gracefulStop: (\S+)\)\s*$`)
	k6Progress  = regexp.MustCompile(`^([\w-]+) [✓✗] \[=*\] (\d+) VUs\s+(\S+)\s*$`)
	k6Stat      = regexp.MustCompile(`^([a-z]+|p\([\d.]+\))=(\S+)$`)
	k6Limit     = regexp.MustCompile(`^(\S+?)\s*(?:<=|>=|<|>|==|!=|===)\s*(-?\d+(?:\.\d+)?)$`)
)

// k6Units are the suffixes of k6's values: its durations and percent.
var k6Units = map[string]raw.ToolUnit{
	"ns": {Unit: "ns"}, "µs": {Unit: "us"}, "us": {Unit: "us"}, "ms": {Unit: "ms"}, "s": {Unit: "s"},
	"m": {Unit: "min"}, "h": {Unit: "h"}, "%": {Unit: "%"}, "/s": {Unit: "/s"}, "kB": {Unit: "KB"}, "MB": {Unit: "MB"},
	"B": {Unit: "B"}, "GB": {Unit: "GB"}, "B/s": {Unit: "B/s"}, "kB/s": {Unit: "KB/s"}, "MB/s": {Unit: "MB/s"}, "GB/s": {Unit: "GB/s"},
}

// k6Sizes are the data units k6 writes after a space (SI: kB is 1000 B).
var k6Sizes = map[string]string{"B": "B", "kB": "KB", "MB": "MB", "GB": "GB"}

// ReadK6 reads k6's end-of-test summary; format "k6". Text (the legacy
// summary of k6 before 1.0 and the compact and full summaries since):
//
//	http_req_duration..............: avg=17.47ms min=10.93ms med=17.31ms max=65.33ms p(90)=18.91ms p(95)=19.54ms
//	                               http_req_duration.avg, .min, .med, .max, .p90, .p95 (p(99.9) is .p99_9)
//	  { expected_response:true }...: avg=…   http_req_duration{expected_response:true}.avg, …
//	http_reqs......................: 45765  4568.791991/s     http_reqs.count, http_reqs.rate (/s)
//	data_received..................: 157 MB 16 MB/s           data_received.count (MB), data_received.rate (MB/s)
//	http_req_failed................: 0.00%  ✓ 0  ✗ 45765     http_req_failed.rate (%), .passes, .fails
//	checks_succeeded...............: 100.00% 90 out of 90     checks_succeeded.rate (%), .count, .total
//	vus............................: 80     min=80  max=80    vus.value, vus.min, vus.max
//	http_req_duration                                        (under THRESHOLDS)
//	✓ 'p(95)<1500' p(95)=148.21ms                            thresholds.http_req_duration.p95 and
//	                                                         thresholds.http_req_duration.p95_limit (1500, in
//	                                                         ms when the value is a time, a ratio when
//	                                                         it is a percent: 'rate<0.01' is 1 %)
//	  ↳  95% — ✓ 95 / ✗ 5                                    checks.<check name>.rate (%), .passes, .fails
//	running (10.0s), 00/80 VUs, 45765 complete and 0 interrupted iterations
//	                                                         running.duration, .vus, .vus_max, .complete, .interrupted
//	scenarios: (100.00%) 1 scenario, 80 max VUs, 40s max duration (incl. graceful stop):
//	                                                         scenarios.percent, .count, .max_vus, .max_duration
//	* default: 80 looping VUs for 10s (gracefulStop: 30s)    scenario.default.vus, .duration, .graceful_stop
//	default ✓ [======] 80 VUs  10s                           progress.default.vus, .duration
//
// Values keep the unit k6 writes (17.47ms is 17.47 ms; 1m0s, a Go
// duration, is 60 s); a custom trend's values carry none. A ✓ or ✗
// before a metric (a threshold's verdict in k6 before 1.0) is read
// through. Check lines (✓ status is 200) and section lines (█ TOTAL
// RESULTS, HTTP) name things and log lines (ERRO[0031] …) are not data:
// neither is read; any other line with a number is a warning (rule
// evidence-number).
//
// JSON: --summary-export writes metrics.<name>.<stat>, handleSummary's
// data metrics.<name>.values.<stat>; both are read as <name>.<stat>
// (http_req_duration.p95, http_reqs.rate), every other number by its
// path (root_group.checks[0].passes, state.testRunDurationMs). Units:
// the built-in time trends (http_req_*, iteration_duration,
// group_duration, or a metric whose "contains" is "time") are in ms,
// data counts (data_received.count, or "contains": "data") in B and
// their rates in B/s, other counters' rates per second, and a rate
// metric's rate (checks.rate, http_req_failed.rate) a ratio (unit
// ratio: 1 is all, what the text summary prints as 100.00%). A
// threshold's verdict is a boolean and not read.
//
// A rate metric's .passes and .fails are k6's own names, as its JSON
// summary spells them: .passes counts the samples that were true, .fails
// those that were false. For http_req_failed, whose sample is true when
// a request failed, .passes is therefore the number of failed requests
// and .fails the number that did not fail (✓ 0 ✗ 45765 above: no
// request failed); quote it as such.
func ReadK6(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceK6)
	if errs != nil {
		return nil, errs
	}
	if raw.LooksJSON(src) {
		root, errs := r.ParseWholeJSON()
		if errs != nil {
			return nil, errs
		}
		kind := map[string]string{}
		if ms := root.Get("metrics"); ms != nil {
			for _, m := range ms.Members {
				if c := m.Val.Get("contains"); c != nil && c.Kind == jsontree.String {
					kind[m.Key] = c.Str
				}
				if m.Val.Get("count") != nil || m.Val.Get("values").Get("count") != nil {
					kind[m.Key+".counter"] = "yes"
				}
			}
		}
		r.ReadJSONTree(root, k6JSONKey)
		r.AttachUnits(func(key string) string { return k6JSONUnit(key, kind) })
		if r.Out.Len() == 0 {
			r.Errorf(raw.TextStart(src), "no numbers in the k6 summary; expected --summary-export JSON such as {\"metrics\": {\"http_reqs\": {\"count\": 100, \"rate\": 9.9}}}")
		}
		return r.Result()
	}
	metric, threshold := "", ""
	for start, text := range raw.OutputLines(src) {
		trimmed := strings.TrimSpace(text)
		if trimmed == "" {
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, "█"):
			threshold = ""
			if strings.Contains(trimmed, "THRESHOLDS") {
				threshold = "-"
			}
			continue
		case k6Metric.MatchString(text):
			m := k6Metric.FindStringSubmatchIndex(text)
			name := text[m[2]:m[3]]
			if strings.HasPrefix(name, "{") {
				name = metric + "{" + strings.TrimSpace(strings.Trim(name, "{}")) + "}"
			} else {
				metric = name
			}
			k6Values(r, name, start+m[4], text[m[4]:m[5]])
		case threshold != "" && k6Name.MatchString(text):
			threshold = strings.TrimSpace(text)
			continue
		case threshold != "" && k6Threshold.MatchString(text):
			m := k6Threshold.FindStringSubmatchIndex(text)
			stat := k6StatKey(text[m[4]:m[5]])
			key := "thresholds." + threshold + "." + stat
			r.AddTool(key, start+m[6], text[m[6]:m[7]], k6Units, "")
			if lm := k6Limit.FindStringSubmatchIndex(text[m[2]:m[3]]); lm != nil {
				u := ""
				if n := r.Out.Len(); n > 0 && r.Out.At(n-1).Key == key {
					switch vu := r.Out.At(n - 1).Number.Unit; {
					case isTimeUnit(vu):
						u = "ms"
					case vu == "%":
						u = "ratio" // 'rate<0.01' limits a rate printed as 0.00%: a ratio
					case vu == "/s":
						u = "/s"
					}
				}
				n := r.Out.Len()
				r.AddNum(key+"_limit", start+m[2]+lm[4], text[m[2]+lm[4]:m[2]+lm[5]], "")
				if a := r.Added(n); a != nil {
					a.Number.Unit = u
				}
			}
		case k6CheckRate.MatchString(text):
			k6Groups(r, start, text, k6CheckRate.FindStringSubmatchIndex(text), "checks."+raw.KeySlug(metric)+".", "rate", "passes", "fails")
		case k6Check.MatchString(text):
			metric = k6Check.FindStringSubmatch(text)[1] // the check a ↳ line under it counts
			continue
		case k6Running.MatchString(text):
			k6Groups(r, start, text, k6Running.FindStringSubmatchIndex(text), "running.", "duration", "vus", "vus_max", "complete", "interrupted")
		case k6Name.MatchString(text) || k6Log.MatchString(text):
			continue // a category heading (HTTP, EXECUTION, CUSTOM); a log line
		case k6Scenarios.MatchString(text):
			k6Groups(r, start, text, k6Scenarios.FindStringSubmatchIndex(text), "scenarios.", "percent", "count", "max_vus", "max_duration")
		case k6Executor.MatchString(text):
			m := k6Executor.FindStringSubmatchIndex(text)
			k6Groups(r, start, text, m[2:], "scenario."+text[m[2]:m[3]]+".", "vus", "duration", "graceful_stop")
		case k6Progress.MatchString(text):
			m := k6Progress.FindStringSubmatchIndex(text)
			k6Groups(r, start, text, m[2:], "progress."+text[m[2]:m[3]]+".", "vus", "duration")
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no k6 summary lines; expected lines such as \"http_reqs......: 45765  4568.791991/s\"")
	}
	return r.Result()
}

// k6Groups reads the submatches m[2:] of a line (at byte offset base)
// as prefix+names[i].
func k6Groups(r *raw.Recorder, base int, text string, m []int, prefix string, names ...string) {
	for i, name := range names {
		a, b := m[2*i+2], m[2*i+3]
		if a >= 0 {
			r.AddTool(prefix+name, base+a, text[a:b], k6Units, "")
		}
	}
}

// k6Values reads the values of one summary metric line (vals, at byte
// offset off) under name; see ReadK6.
func k6Values(r *raw.Recorder, name string, off int, vals string) {
	fs := raw.Fields(vals)
	tok := func(i int) string {
		if i < len(fs) {
			return vals[fs[i][0]:fs[i][1]]
		}
		return ""
	}
	hasRate := strings.Contains(vals, "/s")
	bare, mark := 0, ""
	for i := 0; i < len(fs); i++ {
		t, at := tok(i), off+fs[i][0]
		if t == "✓" || t == "✗" {
			mark = map[string]string{"✓": "passes", "✗": "fails"}[t]
			continue
		}
		if m := k6Stat.FindStringSubmatch(t); m != nil {
			r.AddTool(name+"."+k6StatKey(m[1]), at+len(m[1])+1, m[2], k6Units, "")
			continue
		}
		if mark != "" {
			r.AddNum(name+"."+mark, at, t, "")
			mark = ""
			continue
		}
		if tok(i+1) == "out" && tok(i+2) == "of" && i+3 < len(fs) { // 90 out of 90
			r.AddNum(name+".count", at, t, "")
			r.AddNum(name+".total", off+fs[i+3][0], tok(i+3), "")
			i += 3
			continue
		}
		if u, ok := k6Sizes[strings.TrimSuffix(tok(i+1), "/s")]; ok { // 157 MB, 16 MB/s
			key := name + ".count"
			if strings.HasSuffix(tok(i+1), "/s") {
				key, u = name+".rate", u+"/s"
			}
			if v, ok := raw.ParseDecimal(t); ok {
				r.Add(key, at, vals[fs[i][0]:fs[i+1][1]], v, u)
			}
			i++
			continue
		}
		if nx := tok(i + 1); nx != "" && !raw.IsDigitAt(nx, 0) && nx != "✓" && nx != "✗" && !k6Stat.MatchString(nx) {
			// 157 MB5: a unit k6 does not write, glued to garbage or cut; the
			// number alone would be a count without its unit
			r.Warnf(at, "value %q of %s is followed by %q, which is no unit k6 writes; expected a size (kB, MB, GB) or the next value", t, name, nx)
			i++
			continue
		}
		key := name + ".value"
		switch {
		case strings.HasSuffix(t, "/s") || strings.HasSuffix(t, "%"):
			key = name + ".rate"
		case hasRate && bare == 0:
			key = name + ".count"
		}
		bare++
		r.AddTool(key, at, t, k6Units, "")
	}
}

// k6StatKey names a k6 statistic: p(99.9) is p99_9, others as written.
func k6StatKey(s string) string {
	if strings.HasPrefix(s, "p(") && strings.HasSuffix(s, ")") {
		return raw.PctKey(s[2 : len(s)-1])
	}
	return s
}

// k6JSONKey names a k6 JSON number: metrics.<name>[.values].<stat> is
// <name>.<stat> with p(95) as p95; thresholds are not read.
func k6JSONKey(path string, _ *jsontree.Node) string {
	rest, ok := strings.CutPrefix(path, "metrics.")
	if !ok {
		return path
	}
	name, stat, ok := strings.Cut(rest, ".")
	if !ok {
		return path
	}
	stat = strings.TrimPrefix(stat, "values.")
	if strings.HasPrefix(stat, "thresholds.") {
		return ""
	}
	return name + "." + k6StatKey(stat)
}

// k6TimeMetric matches k6's built-in time trends.
var k6TimeMetric = regexp.MustCompile(`^(?:http_req_\w+|iteration_duration|group_duration)(?:\{|$)`)

// k6JSONUnit: see ReadK6. kind maps a metric to its "contains" ("time",
// "data", "default") or, for a counter without one, "counter".
func k6JSONUnit(key string, kind map[string]string) string {
	if key == "state.testRunDurationMs" {
		return "ms"
	}
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return ""
	}
	name, stat := key[:i], key[i+1:]
	c := kind[name]
	if c == "" && k6TimeMetric.MatchString(name) {
		c = "time"
	}
	if c == "" && strings.HasPrefix(name, "data_") {
		c = "data"
	}
	switch {
	case stat == "rate" && kind[name+".counter"] != "" && c == "data":
		return "B/s"
	case stat == "rate" && kind[name+".counter"] != "":
		return "/s"
	case stat == "rate":
		return "ratio" // a rate metric (checks, http_req_failed): the share of true samples, 1 is all
	case stat == "passes" || stat == "fails":
		return ""
	case c == "time" && stat != "count":
		return "ms"
	case c == "data" && stat != "rate":
		return "B"
	}
	return ""
}

// isTimeUnit reports whether u is a time unit.
func isTimeUnit(u string) bool {
	_, ok := raw.TimeSuffixes[u]
	return ok || u == "min" || u == "us"
}
