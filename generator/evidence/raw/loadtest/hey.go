package loadtest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The hey reader ("hey", ReadHey) and the summary text of ghz, which
// follows hey's layout (read by ReadGhz). The conventions of every
// lab-format reader are in raw's readings.go.

// The lines of hey's (and ghz's) summary.
var (
	heySection = regexp.MustCompile(`^(Summary|Response time histogram|Latency distribution|Details \(average, fastest, slowest\)|Status code distribution|Error distribution):\s*$`)
	heyField   = regexp.MustCompile(`^\s+([A-Za-z][A-Za-z/ +-]*?):\s+(\S+(?: (?:secs|ms|s|µs|μs|us|ns|bytes))?)\s*$`)
	heyDetail  = regexp.MustCompile(`^\s+([A-Za-z][A-Za-z/ +-]*?):\s+(\S+ (?:secs|ms|s|µs|μs|us|ns)), (\S+ (?:secs|ms|s|µs|μs|us|ns)), (\S+ (?:secs|ms|s|µs|μs|us|ns))\s*$`)
	heyHist    = regexp.MustCompile(`^\s+(\d+(?:\.\d+)?) \[(\d+)\]\s*\|`)
	heyPct     = regexp.MustCompile(`^\s+(\d+(?:\.\d+)?) ?% in (\S+(?: (?:secs|ms|s|µs|μs|us|ns))?)\s*$`)
	heyStatus  = regexp.MustCompile(`^\s+\[([^\]]+)\]\s+(\d+) responses\s*$`)
	heyError   = regexp.MustCompile(`^\s+\[(\d+)\]\s+\S`)
)

// heyUnits are the unit words hey and ghz write after a space.
var heyUnits = map[string]raw.ToolUnit{
	"secs": {Unit: "s"}, "s": {Unit: "s"}, "ms": {Unit: "ms"}, "µs": {Unit: "us"}, "us": {Unit: "us"}, "ns": {Unit: "ns"},
	"bytes": {Unit: "B"},
}

// ReadHey reads hey's summary; format "hey". Sections and keys:
//
//	Summary:
//	  Total:        0.0200 secs               total (s, as written)
//	  Slowest: / Fastest: / Average:          slowest, fastest, average
//	  Requests/sec: 10022.9023                requests_sec (/s)
//	  Total data:   122400 bytes              total_data (B)
//	  Size/request: 612 bytes                 size_request (B)
//	Response time histogram:
//	  0.002 [81]    |■■■■                     bucket2.mark (s), bucket2.count
//	                                          (buckets numbered from 1)
//	Latency distribution:
//	  99% in 0.0123 secs                      latency.p99
//	Details (average, fastest, slowest):
//	  resp wait:    0.0032 secs, 0.0004 secs, 0.0107 secs
//	                                          details.resp_wait.average, .fastest, .slowest
//	Status code distribution:
//	  [200] 200 responses                     status.200
//	Error distribution:
//	  [27]  Get "http://x": dial tcp …        error1 (the count of the first error;
//	                                          the message is not read: a number in it
//	                                          is a warning)
//
// A second summary in the same file numbers its keys (#2). Any other line
// with a number is a warning (rule evidence-number); a file without a
// summary line is an error.
func ReadHey(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceHey)
	if errs != nil {
		return nil, errs
	}
	readSummaryText(r, src, "hey", "s")
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no hey summary lines; expected lines such as \"  Requests/sec: 10022.9023\" or \"  99%% in 0.0123 secs\"")
	}
	return r.Result()
}

// readSummaryText reads the summary layout hey and ghz share (see
// ReadHey); histogram marks, which carry no unit word, are in markUnit.
func readSummaryText(r *raw.Recorder, src []byte, format, markUnit string) {
	section, bucket, errNo := "", 0, 0
	for start, text := range raw.OutputLines(src) {
		spaced := func(key string, m []int, g int) {
			r.AddSpaced(key, start+m[2*g], text[m[2*g]:m[2*g+1]], heyUnits)
		}
		num := func(key string, m []int, g int, u string) {
			n := r.Out.Len()
			r.AddNum(key, start+m[2*g], text[m[2*g]:m[2*g+1]], "")
			if a := r.Added(n); a != nil {
				a.Number.Unit = u
			}
		}
		if m := heySection.FindStringSubmatch(text); m != nil {
			section = m[1]
			if section == "Summary" {
				bucket, errNo = 0, 0
			}
			continue
		}
		switch {
		case section == "Response time histogram":
			if m := heyHist.FindStringSubmatchIndex(text); m != nil {
				bucket++
				n := "bucket" + strconv.Itoa(bucket) + "."
				num(n+"mark", m, 1, markUnit)
				num(n+"count", m, 2, "")
			}
		case section == "Latency distribution":
			if m := heyPct.FindStringSubmatchIndex(text); m != nil {
				key := "latency." + raw.PctKey(text[m[2]:m[3]])
				spaced(key, m, 2)
			}
		case strings.HasPrefix(section, "Details"):
			if m := heyDetail.FindStringSubmatchIndex(text); m != nil {
				name := raw.KeySlug(text[m[2]:m[3]])
				for i, col := range []string{"average", "fastest", "slowest"} {
					spaced("details."+name+"."+col, m, i+2)
				}
			}
		case section == "Status code distribution":
			if m := heyStatus.FindStringSubmatchIndex(text); m != nil {
				code := text[m[2]:m[3]]
				num("status."+code, m, 2, "")
			}
		case section == "Error distribution":
			if m := heyError.FindStringSubmatchIndex(text); m != nil {
				errNo++
				num("error"+strconv.Itoa(errNo), m, 1, "")
			}
		case section == "Summary":
			if m := heyField.FindStringSubmatchIndex(text); m != nil {
				key := raw.KeySlug(text[m[2]:m[3]])
				u := ""
				if key == "requests_sec" {
					u = "/s"
				}
				tok := text[m[4]:m[5]]
				if strings.Contains(tok, " ") {
					spaced(key, m, 2)
				} else {
					num(key, m, 2, u)
				}
			}
		}
	}
}
