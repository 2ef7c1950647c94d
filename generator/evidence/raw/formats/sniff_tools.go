package formats

import (
	"bytes"
	"regexp"
)

// The shapes Sniff looks for in the output of load testers and system
// tools, each a line only that tool prints, in the order they are tried.
var sniffTools = []struct {
	format string
	re     *regexp.Regexp
}{
	{"vegeta", regexp.MustCompile(`(?m)^(?:Requests\s+\[total, rate|Latencies\s+\[(?:min, )?mean, 50|Bucket\s+#\s+%\s+Histogram\r?$)`)},
	{"wrk", regexp.MustCompile(`(?m)^(?:Running \S+ test @ |\s+Thread Stats\s+Avg\s+Stdev\s+Max|Requests/sec:\s+\d[\d.]*\r?\nTransfer/sec:)`)},
	{"k6", regexp.MustCompile(`(?m)^\s*(?:[✓✗] )?(?:http_reqs|iterations|vus|checks(?:_total)?|data_received|http_req_duration)\.{3,}: `)},
	{"ghz", regexp.MustCompile(`(?m)^(?:Summary:\r?\n\s+Count:\s+\d+\r?$|ghz_(?:run|detail),)`)},
	{"oha", regexp.MustCompile(`(?m)^(?:Summary:\r?\n\s+Success rate:\s+\d|Response time distribution:\r?$)`)},
	{"hey", regexp.MustCompile(`(?m)^Summary:\r?\n\s+Total:\s+\S+ secs\r?$`)},
	{"go-bench", regexp.MustCompile(`(?m)^Benchmark\S+\s+\d+\s+\d[\d.]*\s+ns/op`)},
	{"benchstat", regexp.MustCompile(`(?m)^(?:name\s+(?:old \S+/op\s+new \S+/op|\S+/op\s*\r?$)|\s+│\s+\S+/op\s+│)`)},
	{"time", regexp.MustCompile(`(?m)^(?:real\s+\d+m\d+(?:\.\d+)?s\r?$|\s+Command being timed: |\d+(?:\.\d+)?user \d+(?:\.\d+)?system )`)},
	{"kubectl", regexp.MustCompile(`(?m)^(?:NAMESPACE\s+)?(?:POD\s+)?NAME\s+(?:CPU\(cores\)|READY\s+STATUS\s+RESTARTS|REFERENCE\s+TARGETS)`)},
	{"docker-stats", regexp.MustCompile(`(?m)^(?:\x1b\[[0-9;]*[HJ])*(?:CONTAINER(?: ID)?|NAME)\s{2,}(?:NAME\s{2,})?CPU %(?:\s|$)|^\{"BlockIO":"`)},
	{"envoy-access-log", regexp.MustCompile(`(?m)^(?:\[\d{4}-\d\d-\d\dT[^\]\n]*\] "(?:[A-Z]+ |- - -)|\{.*"response_code":)`)},
	{"ping", regexp.MustCompile(`(?m)^(?:PING \S+ \(|\d+ packets transmitted, |Pinging \S+ )`)},
	{"mtr", regexp.MustCompile(`(?m)^HOST: \S+\s+Loss%`)},
}

// sniffTool returns the tool whose output text src is, or "".
func sniffTool(src []byte) string {
	for _, s := range sniffTools {
		if s.re.Match(src) {
			return s.format
		}
	}
	return ""
}

// sniffToolJSON returns the tool whose JSON report src is, or "".
func sniffToolJSON(src []byte) string {
	keys := topLevelKeys(src)
	switch {
	case keys["latencies"] && keys["bytes_in"] && keys["status_codes"]:
		return "vegeta"
	case keys["metrics"] && (keys["root_group"] || keys["state"]):
		return "k6"
	case keys["latencyDistribution"] || keys["rps"] && keys["statusCodeDistribution"]:
		return "ghz"
	case bytes.Contains(src, []byte(`"metrics.k8s.io/`)):
		return "kubectl"
	}
	return ""
}

// hasTranscriptSection reports whether src has a transcript's "[ID]
// title" section line that is not an access log's "[timestamp]".
func hasTranscriptSection(src []byte) bool {
	for _, m := range sniffSection.FindAll(src, -1) {
		if !bytes.HasPrefix(m, []byte("[")) || !accessLogTime.Match(m) {
			return true
		}
	}
	return false
}

// accessLogTime is the bracketed start time of an Envoy access log line.
var accessLogTime = regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?\]`)
