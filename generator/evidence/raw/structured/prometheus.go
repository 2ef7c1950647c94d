package structured

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// The Prometheus text exposition format reader ("prometheus",
// ReadPrometheus). The conventions of every lab-format reader are in
// raw's readings.go.

// promName is a metric name; promValue a sample value as Prometheus
// writes it (a Go float, or NaN and ±Inf, which give no reading);
// promTimestamp the optional millisecond timestamp after it.
var (
	promName      = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*`)
	promLabelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]*`)
	promValue     = regexp.MustCompile(`^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$`)
	promTimestamp = regexp.MustCompile(`^-?\d+$`)
)

// ReadPrometheus reads the Prometheus text exposition format (version
// 0.0.4), as Envoy serves it at /stats/prometheus and Istio's
// components at /metrics; format "prometheus":
//
//	# HELP envoy_cluster_upstream_rq_total Total requests
//	# TYPE envoy_cluster_upstream_rq_total counter
//	envoy_cluster_upstream_rq_total{envoy_cluster_name="outbound|80||x"} 42
//	envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name="x",le="0.5"} 3 1700000000000
//
// Each sample is a reading keyed by its metric name and, when it has
// labels, the labels as written with their values unescaped:
// envoy_cluster_upstream_rq_total{envoy_cluster_name="outbound|80||x"}.
// Histogram and summary series (_bucket, _sum, _count, quantile="0.99")
// are samples like any other. NaN and ±Inf values give no reading; the
// optional timestamp is not a reading. A repeated key is numbered (#2).
// A sample carries the unit its metric name's suffix defines (_seconds
// s, _bytes B, _ms ms, …; see promUnit), the unit Envoy records its time
// histograms in (ms) for envoy_*rq_time, and none otherwise.
// A label name may hold "-" (import-paths, count-errors): ghz -O
// prometheus writes such names, which Prometheus's own parser rejects;
// labels name a series and are not values, so they are read as written
// and the sample's value is read as any other. Comments and blank lines
// are skipped; any other line that is not a
// sample is an error at the offending byte, and a file without samples
// is an error.
func ReadPrometheus(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidencePrometheus)
	if errs != nil {
		return nil, errs
	}
	samples := 0
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		lead := len(text) - len(trimmed)
		if promSample(r, ln.Start+lead, trimmed) {
			samples++
		}
	}
	if samples == 0 && len(r.Errs) == 0 {
		r.Errorf(raw.TextStart(src), "no Prometheus samples; expected lines \"metric_name{label=\\\"value\\\"} 42\"")
	}
	r.AttachUnits(promUnit)
	return r.Result()
}

// promSample reads one sample line starting at byte offset base. It
// reports whether the line was a sample.
func promSample(r *raw.Recorder, base int, line string) bool {
	name := promName.FindString(line)
	if name == "" {
		r.Errorf(base, "%q is not a metric name; expected a sample \"metric_name{labels} value\" or a # comment", raw.FirstField(line))
		return false
	}
	key := name
	i := len(name)
	if i < len(line) && line[i] == '{' {
		labels, end, ok := promLabels(r, base+i, line[i:])
		if !ok {
			return false
		}
		key += labels
		i += end
	}
	rest := line[i:]
	fields := strings.Fields(rest)
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' || len(fields) == 0 || len(fields) > 2 {
		r.Errorf(base+i, "after %s: expected a space, the value and an optional timestamp", name)
		return false
	}
	voff := base + i + strings.Index(rest, fields[0])
	if !promValue.MatchString(fields[0]) {
		r.Errorf(voff, "value %q of %s is not a number; expected a float, NaN or ±Inf", fields[0], key)
		return false
	}
	if len(fields) == 2 && !promTimestamp.MatchString(fields[1]) {
		r.Errorf(voff+len(fields[0]), "timestamp %q of %s: expected integer milliseconds", fields[1], key)
		return false
	}
	norm := strings.TrimPrefix(fields[0], "+")
	if strings.HasSuffix(norm, "Inf") || norm == "NaN" {
		return true
	}
	sign := ""
	if strings.HasPrefix(norm, "-") {
		sign, norm = "-", norm[1:]
	}
	if strings.HasPrefix(norm, ".") {
		norm = "0" + norm // Go floats may omit the integer part: .5
	}
	norm = strings.Replace(strings.TrimSuffix(norm, "."), ".e", "e", 1) // or the fraction: 5. and 5.e3
	norm = strings.Replace(norm, ".E", "E", 1)
	v, ok := raw.ParseDecimal(sign + norm)
	if !ok {
		r.Errorf(voff, "value %s of %s is out of range; expected an exponent within ±%d", fields[0], key, raw.MaxExponent)
		return true
	}
	r.Add(key, voff, fields[0], v, "")
	return true
}

// promLabels reads a label set "{a=\"x\",b=\"y\"}" at the start of s (at
// byte offset base) and returns it normalised (values unescaped, no
// spaces, a trailing comma dropped) and its length in s.
func promLabels(r *raw.Recorder, base int, s string) (string, int, bool) {
	var b strings.Builder
	b.WriteByte('{')
	i := 1
	first := true
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && s[i] == '}' {
			b.WriteByte('}')
			return b.String(), i + 1, true
		}
		ln := promLabelName.FindString(s[i:])
		if ln == "" {
			r.Errorf(base+i, "expected a label name or \"}\"")
			return "", 0, false
		}
		i += len(ln)
		if i >= len(s) || s[i] != '=' || i+1 >= len(s) || s[i+1] != '"' {
			r.Errorf(base+i, "after label %s: expected =\"value\"", ln)
			return "", 0, false
		}
		i += 2
		var v strings.Builder
		closed := false
		for i < len(s) {
			c := s[i]
			if c == '\\' && i+1 < len(s) {
				switch s[i+1] {
				case 'n':
					v.WriteByte('\n')
				default:
					v.WriteByte(s[i+1])
				}
				i += 2
				continue
			}
			i++
			if c == '"' {
				closed = true
				break
			}
			v.WriteByte(c)
		}
		if !closed {
			r.Errorf(base+i, "label %s: unterminated value; expected a closing \"", ln)
			return "", 0, false
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(ln + "=\"" + v.String() + "\"")
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
}

// promUnitSuffixes are the base-unit suffixes of Prometheus metric names
// (https://prometheus.io/docs/practices/naming/: "_seconds", "_bytes";
// exporters that do not follow the base-unit rule write "_milliseconds",
// "_ms" and the like) and the unit each names.
var promUnitSuffixes = []struct{ suffix, unit string }{
	{"_seconds", "s"}, {"_milliseconds", "ms"}, {"_ms", "ms"}, {"_microseconds", "us"}, {"_us", "us"},
	{"_nanoseconds", "ns"}, {"_ns", "ns"}, {"_bytes", "B"},
}

// promUnit attaches the unit a Prometheus metric name defines by its
// suffix (promUnitSuffixes; a counter's "_total" after it is read
// through) to its samples, a histogram's or summary's "_sum" and its
// quantiles; a histogram's "_bucket" and "_count" samples are counts. An
// Envoy time histogram (envoy_*rq_time, as Envoy's /stats/prometheus
// exports upstream_rq_time without a suffix) is in milliseconds, as Envoy
// records it.
func promUnit(key string) string {
	name, _, _ := strings.Cut(key, "{")
	if strings.HasSuffix(name, "_bucket") || strings.HasSuffix(name, "_count") {
		return ""
	}
	name = strings.TrimSuffix(name, "_sum")
	name = strings.TrimSuffix(name, "_total")
	for _, s := range promUnitSuffixes {
		if strings.HasSuffix(name, s.suffix) {
			return s.unit
		}
	}
	if strings.HasPrefix(name, "envoy_") && strings.HasSuffix(name, "rq_time") {
		return "ms"
	}
	return ""
}
