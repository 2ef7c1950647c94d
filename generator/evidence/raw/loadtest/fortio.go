package loadtest

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// Readers of fortio output: its result JSON ("fortio-json",
// ReadFortioJSON) and its console text ("fortio-text", ReadFortioText).
// The conventions of every lab-format reader are in raw's readings.go.

// percentileKey names a percentile "p<value>" with "." written "_":
// 50 -> "p50", 99.9 -> "p99_9".
func percentileKey(v decimal.Decimal) string {
	return "p" + strings.ReplaceAll(v.String(), ".", "_")
}

// The fortio console lines ReadFortioText reads, in the order of its doc
// comment.
var (
	ftCode    = regexp.MustCompile(`^Code\s+(-?\d+)\s*:\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)(\s*%)\))?\s*$`)
	ftProto   = regexp.MustCompile(`^(tcp|udp)\s+(\S[^:]*?)\s*:\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)(\s*%)\))?\s*$`)
	ftSockets = regexp.MustCompile(`^Sockets used:\s*(\d+)(?: \(for perfect [^,]*, would be (\d+)\))?`)
	ftAllDone = regexp.MustCompile(`^All done (\d+) calls(?: \(plus (\d+) warmup\))?\s+(\S+)( ms)? avg, (\S+) qps`)
	ftEnded   = regexp.MustCompile(`^Ended after (\S+) : (\d+) calls\. qps=(\S+)`)
	ftStart   = regexp.MustCompile(`^Starting at (?:max|(-?[\d.]+)) qps with (\d+) thread\(s\)(?: \[gomax (\d+)\])?(?: for (?:exactly (\d+) calls \((\d+) per thread \+ (\d+)\)|(\S+) : (\d+) calls each \(total (\d+)(?: \+ (\d+))?\)))?`)
	ftRunning = regexp.MustCompile(`^Fortio \S+ running at (-?[\d.]+) queries per second, (\d+)->(\d+) procs(?:, for (?:(\d+) calls|([0-9.hmsuµn]+)))?`)
	ftThread  = regexp.MustCompile(`\b(T\d+) ended after (\S+) : (\d+) calls\. qps=(\S+)`)
	ftBucket  = regexp.MustCompile(`^(?:>=?\s*(-?[\d.e+-]+)\s*)?(?:<=?\s*(-?[\d.e+-]+)\s*)?,\s*(-?[\d.e+-]+)\s*,\s*([\d.]+)\s*,\s*(\d+)\s*$`)
	ftBehind  = regexp.MustCompile(`^WARNING ([\d.]+)(%) of sleep were falling behind`)
	ftLog     = regexp.MustCompile(`^(?:\d{2}:\d{2}:\d{2} [IWEFV] |\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} )`)
	ftStats   = regexp.MustCompile(`^(\S.*?)\s*:\s*count (\S+) avg (\S+) \+/- (\S+) min (\S+) max (\S+) sum (\S+)\s*$`)
	ftTarget  = regexp.MustCompile(`^# target (\d+(?:\.\d+)?)% (\S+)\s*$`)
	ftBytes   = regexp.MustCompile(`^Total Bytes sent: (\d+), received: (\d+)`)
)

// IsFortioLog reports whether a line of fortio's console output is one of
// its log lines ("20:33:46 I logger.go:97> …"), which are not data.
func IsFortioLog(text string) bool { return ftLog.MatchString(text) }

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
