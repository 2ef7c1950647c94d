package raw

import (
	"regexp"
	"strings"
)

// Units a format defines. A reader attaches the unit its format defines
// for a reading whose raw text writes none (Number.Unit); the names are
// the canonical names of package unit ("ns", "us", "ms", "s", "B", "/s").
// A manifest's units declaration that contradicts it is an error (see
// package evidence).

// AttachUnits sets unitOf(key) on every reading whose raw text wrote no
// unit; a repeated key's "#N" suffix is ignored.
func (r *Recorder) AttachUnits(unitOf func(key string) string) {
	r.Out.Flush()
	for i := range r.Out.Len() {
		if h := r.Out.head(i); h.unit == "" {
			if u := unitOf(BaseKey(h.key)); u != "" {
				r.Out.Ref(i).Number.Unit = u
				r.Out.Flush()
			}
		}
	}
}

// fortioJSONUnit: fortio's DurationHistogram and ErrorsDurationHistogram
// are in seconds, ActualDuration in nanoseconds (a Go time.Duration),
// Sizes and HeaderSizes in bytes, ActualQPS and RequestedQPS per second;
// a histogram's Count and RetCodes are plain counts.
func fortioJSONUnit(key string) string {
	hist, stat, _ := strings.Cut(key, ".")
	switch {
	case key == "ActualDuration":
		return "ns"
	case key == "ActualQPS" || key == "RequestedQPS":
		return "/s"
	case stat == "" || stat == "Count" || strings.HasSuffix(stat, ".count"):
		return ""
	case strings.HasSuffix(stat, ".percent"):
		return "%"
	case hist == "DurationHistogram" || hist == "ErrorsDurationHistogram":
		return "s"
	case hist == "Sizes" || hist == "HeaderSizes":
		return "B"
	}
	return ""
}

// fortioTextUnit: fortio's console output prints function and sleep
// times and their "# target" percentiles in seconds, sizes in bytes, qps
// per second.
func fortioTextUnit(key string) string {
	switch {
	case key == "qps" || key == "ended.qps":
		return "/s"
	case key == "bytes_sent" || key == "bytes_received":
		return "B"
	case strings.HasSuffix(key, ".percent") || strings.HasSuffix(key, ".pct"):
		return "%"
	case strings.HasSuffix(key, ".duration"):
		return "s"
	case strings.HasSuffix(key, ".qps"):
		return "/s"
	case strings.HasPrefix(key, "histogram.bucket.") && !strings.HasSuffix(key, ".count"):
		return "s"
	case strings.HasPrefix(key, "target.") || strings.Contains(key, "_time.") && !strings.HasSuffix(key, ".count"):
		return "s"
	case strings.Contains(key, "_sizes.") && !strings.HasSuffix(key, ".count"):
		return "B"
	}
	return ""
}

// curlTimeKey and curlTimeUSKey are curl -w's time variables: seconds
// (time_total: 0.534), or integer microseconds for the _us forms.
var (
	curlTimeKey   = regexp.MustCompile(`^time_[a-z]+$`)
	curlTimeUSKey = regexp.MustCompile(`^time_[a-z]+_us$`)
	curlSizeKey   = regexp.MustCompile(`^size_[a-z]+$`)
)

// CurlUnit: curl's time_* write-out variables are seconds, time_*_us
// microseconds, size_* bytes. Keys the user chose (TIME=%{time_total})
// carry no unit: the manifest declares it.
func CurlUnit(key string) string {
	switch {
	case curlTimeUSKey.MatchString(key):
		return "us"
	case curlTimeKey.MatchString(key):
		return "s"
	case curlSizeKey.MatchString(key):
		return "B"
	}
	return ""
}

// envoyTimeHistogram matches the quantile readings of an Envoy histogram
// in milliseconds: a stat whose name ends in _ms (upstream_cx_length_ms)
// or is a request time (downstream_rq_time, upstream_rq_time, rq_time),
// which Envoy records in milliseconds; every quantile, p99.5 and p99.9
// (p99_5 in JSON) as well as p50. Bucket counts are counts.
var envoyTimeHistogram = regexp.MustCompile(`(?:_ms|(?:^|[._])rq_time)\.p[0-9]+(?:[._][0-9]+)*(?:\.cumulative)?$`)

// EnvoyUnit attaches milliseconds to the quantiles of Envoy's time
// histograms (see envoyTimeHistogram).
func EnvoyUnit(key string) string {
	if envoyTimeHistogram.MatchString(key) {
		return "ms"
	}
	return ""
}

// DigUnit: dig's query time is in msec or usec, the message size in
// bytes, a record's TTL in seconds.
func DigUnit(key string) string {
	switch {
	case strings.HasPrefix(key, "query_time_ms"):
		return "ms"
	case strings.HasPrefix(key, "query_time_us"):
		return "us"
	case key == "msg_size":
		return "B"
	case strings.HasSuffix(key, ".ttl"), strings.Contains(key, ".SOA.") && !strings.HasSuffix(key, ".serial"):
		return "s"
	case key == "edns_udp_size":
		return "B"
	}
	return ""
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

// csvColumnSuffixes are the unit suffixes of CSV column names
// (latency_ms, duration_seconds, size_bytes) and the unit each names.
var csvColumnSuffixes = []struct{ suffix, unit string }{
	{"_seconds", "s"}, {"_secs", "s"}, {"_sec", "s"}, {"_s", "s"},
	{"_milliseconds", "ms"}, {"_ms", "ms"}, {"_microseconds", "us"}, {"_us", "us"}, {"_nanoseconds", "ns"}, {"_ns", "ns"},
	{"_bytes", "B"}, {"_percent", "%"}, {"_pct", "%"}, {"_qps", "/s"}, {"_rps", "/s"},
}

// csvColumnUnitWords are the units a CSV header writes in parentheses or
// brackets after the column name ("latency (ms)", "size [bytes]").
var csvColumnUnitWords = map[string]string{
	"s": "s", "sec": "s", "seconds": "s", "ms": "ms", "us": "us", "µs": "us", "ns": "ns",
	"b": "B", "bytes": "B", "%": "%", "/s": "/s", "qps": "/s", "rps": "/s", "req/s": "/s",
}

// csvColumnBracket is a column name ending in a parenthesised or
// bracketed unit.
var csvColumnBracket = regexp.MustCompile(`[(\[]\s*([^()\[\]]+?)\s*[)\]]\s*$`)

// csvColumnUnit returns the unit a CSV column name defines: a suffix
// (csvColumnSuffixes, case-insensitive) or a unit in parentheses or
// brackets at its end (csvColumnUnitWords); "" when it defines none.
func csvColumnUnit(name string) string {
	lower := strings.ToLower(strings.TrimSpace(name))
	if m := csvColumnBracket.FindStringSubmatch(lower); m != nil {
		return csvColumnUnitWords[m[1]]
	}
	for _, s := range csvColumnSuffixes {
		if strings.HasSuffix(lower, s.suffix) && len(lower) > len(s.suffix) {
			return s.unit
		}
	}
	return ""
}
