package raw

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
	{"vegeta", regexp.MustCompile(`(?m)^(?:Requests\s+\[total, rate|Latencies\s+\[(?:min, )?mean, 50)`)},
	{"wrk", regexp.MustCompile(`(?m)^(?:Running \S+ test @ |\s+Thread Stats\s+Avg\s+Stdev\s+Max|Requests/sec:\s+\d[\d.]*\r?\nTransfer/sec:)`)},
	{"k6", regexp.MustCompile(`(?m)^\s*(?:[✓✗] )?(?:http_reqs|iterations|vus|checks(?:_total)?|data_received|http_req_duration)\.{3,}: `)},
	{"hey", regexp.MustCompile(`(?m)^Summary:\r?\n\s+Total:\s+\S+ secs\r?$`)},
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
