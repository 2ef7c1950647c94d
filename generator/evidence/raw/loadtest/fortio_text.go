package loadtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// ReadFortioText reads fortio's console output (fortio load without
// -json); format "fortio-text". Lines read, with their keys:
//
//	Code 200 : 18 (90.0 %)            code.200 = 18, code.200.pct = 90.0 (Raw "90.0 %", unit %)
//	Code 200 : 300000                 code.200 (2017 format, no percentage); "Code -1" is code.-1
//	tcp OK : 100000 (100.0 %)         tcp.ok, tcp.ok.pct (udp likewise; other statuses slugged)
//	Sockets used: 3 (for perfect keepalive, would be 2)   sockets_used, sockets_ideal
//	All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps
//	                                  calls, warmup, avg_ms (Raw "7.917 ms", unit ms), qps
//	Ended after 1.2s : 100000 calls. qps=1.0301e+05
//	                                  ended.duration (a Go duration, read in s: 1.2),
//	                                  ended.calls, ended.qps (e-notation read exactly: 103010)
//	Fortio 1.3.1 running at 8 queries per second, 8->8 procs, for 5s: URL
//	                                  running.qps, gomaxprocs.before, gomaxprocs,
//	                                  running.duration (s) or running.calls
//	Starting at 8 qps with 4 thread(s) [gomax 8] for 5s : 10 calls each (total 40)
//	                                  start.qps, threads, gomax, start.duration (s),
//	                                  calls_per_thread, start.calls (and for "exactly 20
//	                                  calls (10 per thread + 0)": start.calls_remainder)
//	… T002 ended after 5.05s : 10 calls. qps=1.97   (a log line) t002.ended.duration, .calls, .qps
//	>= 0.06 < 0.07 , 0.065 , 92.50, 18  a histogram bucket: <label>.bucket.<N>.start,
//	                                  .end, .mid (s or B), .percent (cumulative %), .count,
//	                                  N counting from 1 in each histogram
//	WARNING 8.58% of sleep were falling behind   sleep_falling_behind.pct
//	Total Bytes sent: 2400, received: 2400   bytes_sent, bytes_received
//	<Label> : count N avg A +/- S min X max Y sum Z
//	                                  <label>.count|avg|stddev|min|max|sum, <label> being
//	                                  the label slugged without a leading "Aggregated " or
//	                                  "Response ": function_time, sleep_time, header_sizes,
//	                                  body_total_sizes, …; stddev is the spread
//	                                  of avg (a claim [A ± S] on avg checks both)
//	# target 50% 0.00625              target.p50 (seconds; 99.9% is p99_9) after the
//	                                  function-time histogram; after another histogram
//	                                  <label>.target.p50 (sleep_time.target.p50)
//
// Other log lines (a clock time and level, or a date, first), "#"
// comments and "$ " commands are skipped; any other line holding a
// number is a warning at the number (rule evidence-number), never
// skipped silently. A file with none of these lines is an error, as is text that is
// not clean UTF-8.
func ReadFortioText(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceFortioText)
	if errs != nil {
		return nil, errs
	}
	hist := ""
	buckets := map[string]int{}
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		at := func(m []int, g int) (int, string) { return ln.Start + m[2*g], text[m[2*g]:m[2*g+1]] }
		num := func(key string, m []int, g int) {
			if m[2*g] >= 0 {
				off, raw := at(m, g)
				r.AddNum(key, off, raw, "")
			}
		}
		pct := func(key string, m []int, g int) {
			if m[2*g] >= 0 {
				off := ln.Start + m[2*g]
				r.AddNum(key, off, text[m[2*g]:m[2*g+3]], "%")
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
			key := proto + "." + raw.KeySlug(status)
			num(key, m, 3)
			pct(key+".pct", m, 4)
			continue
		}
		if m := ftSockets.FindStringSubmatchIndex(text); m != nil {
			num("sockets_used", m, 1)
			num("sockets_ideal", m, 2)
			continue
		}
		dur := func(key string, m []int, g int) {
			if m[2*g] < 0 {
				return
			}
			off, d := at(m, g)
			if v, err := time.ParseDuration(strings.ReplaceAll(d, "µs", "us")); err == nil && v >= 0 {
				r.Add(key, off, d, decimal.New(int64(v), -9), "s")
			} else {
				r.Warnf(off, "fortio duration %q is not a Go duration (such as 1.2s or 59.8524ms); it is not read", d)
			}
		}
		if m := ftRunning.FindStringSubmatchIndex(text); m != nil {
			num("running.qps", m, 1)
			num("gomaxprocs.before", m, 2)
			num("gomaxprocs", m, 3)
			num("running.calls", m, 4)
			dur("running.duration", m, 5)
			continue
		}
		if m := ftThread.FindStringSubmatchIndex(text); m != nil {
			_, th := at(m, 1)
			th = strings.ToLower(th)
			dur(th+".ended.duration", m, 2)
			num(th+".ended.calls", m, 3)
			num(th+".ended.qps", m, 4)
			continue
		}
		if m := ftBucket.FindStringSubmatchIndex(text); m != nil {
			h := hist
			if h == "" {
				h = "histogram"
			}
			buckets[h]++
			key := fmt.Sprintf("%s.bucket.%d.", h, buckets[h])
			num(key+"start", m, 1)
			num(key+"end", m, 2)
			num(key+"mid", m, 3)
			num(key+"percent", m, 4)
			num(key+"count", m, 5)
			continue
		}
		if m := ftBehind.FindStringSubmatchIndex(text); m != nil {
			pct("sleep_falling_behind.pct", m, 1)
			continue
		}
		if m := ftAllDone.FindStringSubmatchIndex(text); m != nil {
			num("calls", m, 1)
			num("warmup", m, 2)
			if m[8] >= 0 {
				r.AddNum("avg_ms", ln.Start+m[6], text[m[6]:m[9]], "ms")
			} else {
				num("avg_ms", m, 3)
			}
			num("qps", m, 5)
			continue
		}
		if m := ftEnded.FindStringSubmatchIndex(text); m != nil {
			off, d := at(m, 1)
			if dur, err := time.ParseDuration(strings.ReplaceAll(d, "µs", "us")); err == nil && dur >= 0 {
				r.Add("ended.duration", off, d, decimal.New(int64(dur), -9), "s")
			} else {
				r.Warnf(off, "fortio run duration %q is not a Go duration (such as 1.2s or 59.8524ms); it is not read", d)
			}
			num("ended.calls", m, 2)
			num("ended.qps", m, 3)
			continue
		}
		if m := ftStart.FindStringSubmatchIndex(text); m != nil {
			num("start.qps", m, 1)
			num("threads", m, 2)
			num("gomax", m, 3)
			num("start.calls", m, 4)
			num("calls_per_thread", m, 5)
			num("start.calls_remainder", m, 6)
			dur("start.duration", m, 7)
			num("calls_per_thread", m, 8)
			num("start.calls", m, 9)
			num("start.calls_remainder", m, 10)
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
			hist = raw.KeySlug(label)
			if hist == "" {
				hist = "stats"
			}
			for g, stat := range []string{"count", "avg", "stddev", "min", "max", "sum"} {
				num(hist+"."+stat, m, g+2)
				if n := r.Out.Len(); stat == "stddev" && n > 1 && r.Out.At(n-1).Pos.Offset == ln.Start+m[2*(g+2)] && r.Out.At(n-2).Pos.Offset == ln.Start+m[2*(g+1)] {
					// "avg A +/- S": S is the spread of A
					of := r.Out.At(n - 2).Key
					r.Out.Ref(n - 1).SpreadOf = of
				}
			}
			continue
		}
		if m := ftTarget.FindStringSubmatchIndex(text); m != nil {
			_, p := at(m, 1)
			pv, ok := raw.ParseDecimal(p)
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
	if r.Out.Len() == 0 && len(r.Errs) == 0 {
		r.Errorf(0, "no fortio result lines; expected lines such as \"Code 200 : 18 (90.0 %%)\", \"All done 20 calls (plus 0 warmup) 7.9 ms avg, 2517.8 qps\" or \"# target 50%% 0.006\"")
	}
	r.AttachUnits(fortioTextUnit)
	return r.Result()
}
