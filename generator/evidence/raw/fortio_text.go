package raw

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
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
//	                                  ended.duration (a Go duration, read in s: 1.2),
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
	r, errs := startRead(file, src, diag.EvidenceFortioText)
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
			key := proto + "." + keySlug(status)
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
			off, d := at(m, 1)
			if dur, err := time.ParseDuration(strings.ReplaceAll(d, "µs", "us")); err == nil && dur >= 0 {
				r.add("ended.duration", off, d, decimal.New(int64(dur), -9), "s")
			} else {
				r.warnf(off, "fortio run duration %q is not a Go duration (such as 1.2s or 59.8524ms); it is not read", d)
			}
			num("ended.calls", m, 2)
			num("ended.qps", m, 3)
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
			hist = keySlug(label)
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
			pv, ok := parseDecimal(p)
			if !ok {
				continue
			}
			key := "target." + percentileKey(pv)
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
	r.attachUnits(fortioTextUnit)
	return r.result()
}
