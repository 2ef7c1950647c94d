package raw

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// Readers of fortio output: its result JSON ("fortio-json",
// ReadFortioJSON) and its console text ("fortio-text", ReadFortioText).
// The conventions of every lab-format reader are in readings.go.

// KeySlug lower-cases s and replaces each run of characters outside
// [a-z0-9] with one "_", trimming "_" at both ends.
func KeySlug(s string) string {
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
