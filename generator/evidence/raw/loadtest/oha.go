package loadtest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The oha reader ("oha", ReadOha): oha's text summary. It follows hey's
// layout but differs where a reading would be wrong if read as hey's: a
// success rate in percent, sizes in binary units (38.28 MiB), a
// Size/sec rate, percentiles written "99.00% in", and, in recent
// versions, a time scale chosen per run ("ms", "sec", and "10 sec" or
// "10 min", a unit of ten seconds or minutes). The conventions of every
// lab-format reader are in raw's readings.go.

// ohaScale is a time scale oha writes after a value (older versions
// write "secs").
const ohaScale = `(?:10 sec|10 min|secs|sec|ms|us|µs|μs|ns|min|hr)`

// The lines of oha's summary.
var (
	ohaSection = regexp.MustCompile(`^(Summary|Response time histogram|Response time distribution|Details \(average, fastest, slowest\)|Status code distribution|Error distribution)(?: \((2xx only|4xx \+ 5xx only)\))?:\s*$`)
	ohaField   = regexp.MustCompile(`^\s+([A-Za-z][A-Za-z/ +-]*?):\s+(\S+(?: (?:` + ohaScale[3:len(ohaScale)-1] + `|B|KiB|MiB|GiB|TiB|PiB))?)\s*$`)
	ohaDetail  = regexp.MustCompile(`^\s+([A-Za-z][A-Za-z/ +-]*?):\s+(\S+ ` + ohaScale + `), (\S+ ` + ohaScale + `), (\S+ ` + ohaScale + `)\s*$`)
	ohaHist    = regexp.MustCompile(`^\s+(\d+(?:\.\d+)?)(?: (` + ohaScale + `))? \[(\d+)\]\s*\|`)
	ohaPct     = regexp.MustCompile(`^\s+(\d+(?:\.\d+)?)% in (\S+ ` + ohaScale + `)\s*$`)
	ohaPercent = regexp.MustCompile(`^\d+(?:\.\d+)?%$`)
)

// ohaUnits are the unit words oha writes after a space: its time scales
// ("10 sec" is a unit of ten seconds) and the binary byte units of its
// sizes; ohaRates are the same sizes per second (Size/sec).
var (
	ohaUnits = map[string]raw.ToolUnit{
		"ns": {Unit: "ns"}, "us": {Unit: "us"}, "µs": {Unit: "us"}, "ms": {Unit: "ms"},
		"sec": {Unit: "s"}, "secs": {Unit: "s"}, "10 sec": {Unit: "s", Shift: 1},
		"min": {Unit: "min"}, "10 min": {Unit: "min", Shift: 1}, "hr": {Unit: "h"},
		"B": {Unit: "B"}, "KiB": {Unit: "KiB"}, "MiB": {Unit: "MiB"}, "GiB": {Unit: "GiB"}, "TiB": {Unit: "TiB"},
	}
	ohaRates = map[string]raw.ToolUnit{
		"B": {Unit: "B/s"}, "KiB": {Unit: "KiB/s"}, "MiB": {Unit: "MiB/s"}, "GiB": {Unit: "GiB/s"}, "TiB": {Unit: "TiB/s"},
	}
)

// ReadOha reads oha's text summary; format "oha". Sections and keys:
//
//	Summary:
//	  Success rate: 100.00%                   success_rate (%, as printed)
//	  Total:        5.9440 secs               total (in the unit written)
//	  Slowest: / Fastest: / Average:          slowest, fastest, average
//	  Requests/sec: 3364.7592                 requests_sec (/s)
//	  Total data:   38.28 MiB                 total_data (KiB, MiB: binary)
//	  Size/request: 1.96 KiB                  size_request
//	  Size/sec:     6.44 MiB                  size_sec (MiB/s: a rate)
//	Response time histogram:
//	  0.002 [19800] |■■■■                     bucket2.mark, bucket2.count
//	                                          (buckets numbered from 1)
//	Response time distribution:
//	  99.00% in 0.0020 secs                   latency.p99 (99.90%: latency.p99_9)
//	Details (average, fastest, slowest):
//	  DNS+dialup: 0.0086 secs, 0.0039 secs, 0.0097 secs
//	                                          details.dns_dialup.average, .fastest, .slowest
//	Status code distribution:
//	  [200] 20000 responses                   status.200
//	Error distribution:
//	  [27] connection closed …                error1 (the count of the first error;
//	                                          the message is not read)
//
// A value's unit is the time scale written after it: "ms", "sec" or
// "secs" (s), "us", "ns", "min", "hr", and "10 sec" or "10 min", which
// are units of ten seconds or minutes ("1.2345 10 sec" is 12.345 s). A
// histogram mark without a scale (older versions) takes the scale of the
// summary's times; with none before it, the mark is an error. The
// sections oha -stats-success-breakdown adds read as the others with
// the keys histogram_2xx.bucketN, latency_2xx.pNN (and _4xx_5xx). A
// second summary in the same file numbers its keys (#2). Any other line
// with a number is a warning (rule evidence-number); a file without a
// summary line is an error.
func ReadOha(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceOha)
	if errs != nil {
		return nil, errs
	}
	section, part, scale := "", "", ""
	bucket, errNo := 0, 0
	for start, text := range raw.OutputLines(src) {
		spaced := func(key string, m []int, g int, units map[string]raw.ToolUnit) {
			r.AddSpaced(key, start+m[2*g], text[m[2*g]:m[2*g+1]], units)
		}
		num := func(key string, m []int, g int, u string) {
			n := r.Out.Len()
			r.AddNum(key, start+m[2*g], text[m[2*g]:m[2*g+1]], "")
			if a := r.Added(n); a != nil {
				a.Number.Unit = u
			}
		}
		if m := ohaSection.FindStringSubmatch(text); m != nil {
			section, part, bucket = m[1], "", 0
			switch m[2] {
			case "2xx only":
				part = "_2xx"
			case "4xx + 5xx only":
				part = "_4xx_5xx"
			}
			if section == "Summary" {
				errNo = 0
			}
			continue
		}
		switch section {
		case "Response time histogram":
			m := ohaHist.FindStringSubmatchIndex(text)
			if m == nil {
				continue
			}
			bucket++
			prefix := "bucket" + strconv.Itoa(bucket) + "."
			if part != "" {
				prefix = "histogram" + part + "." + prefix
			}
			switch {
			case m[4] >= 0:
				r.AddSpaced(prefix+"mark", start+m[2], text[m[2]:m[5]], ohaUnits)
			case scale != "":
				num(prefix+"mark", m, 1, ohaUnits[scale].Unit)
			default:
				r.Errorf(start+m[2], "oha histogram mark %q without a time unit and no summary time before it; expected the summary's \"Total: 1.2345 secs\" line above the histogram", text[m[2]:m[3]])
			}
			num(prefix+"count", m, 3, "")
		case "Response time distribution":
			if m := ohaPct.FindStringSubmatchIndex(text); m != nil {
				spaced("latency"+part+"."+raw.PctKey(text[m[2]:m[3]]), m, 2, ohaUnits)
			}
		case "Details (average, fastest, slowest)":
			if m := ohaDetail.FindStringSubmatchIndex(text); m != nil {
				name := raw.KeySlug(text[m[2]:m[3]])
				for i, col := range []string{"average", "fastest", "slowest"} {
					spaced("details."+name+"."+col, m, i+2, ohaUnits)
				}
			}
		case "Status code distribution":
			if m := heyStatus.FindStringSubmatchIndex(text); m != nil {
				num("status."+text[m[2]:m[3]], m, 2, "")
			}
		case "Error distribution":
			if m := heyError.FindStringSubmatchIndex(text); m != nil {
				errNo++
				num("error"+strconv.Itoa(errNo), m, 1, "")
			}
		case "Summary":
			m := ohaField.FindStringSubmatchIndex(text)
			if m == nil {
				continue
			}
			key, tok := raw.KeySlug(text[m[2]:m[3]]), text[m[4]:m[5]]
			switch {
			case ohaPercent.MatchString(tok):
				r.AddTool(key, start+m[4], tok, raw.PercentUnit, "")
			case key == "size_sec":
				spaced(key, m, 2, ohaRates)
			case strings.Contains(tok, " "):
				spaced(key, m, 2, ohaUnits)
				if _, word, _ := strings.Cut(tok, " "); ohaUnits[word].Unit != "" && ohaRates[word].Unit == "" {
					scale = word
				}
			case key == "requests_sec":
				num(key, m, 2, "/s")
			default:
				num(key, m, 2, "")
			}
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no oha summary lines; expected lines such as \"  Requests/sec:\t3364.7592\" or \"  99.00%% in 0.0020 secs\"")
	}
	return r.Result()
}
