package loadtest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// The wrk and wrk2 reader ("wrk", ReadWrk). The conventions of every
// lab-format reader are in raw's readings.go.

// The lines of wrk's and wrk2's output, in the order ReadWrk's doc
// comment lists them.
var (
	wrkRunning  = regexp.MustCompile(`^Running (\S+) test @ `)
	wrkThreads  = regexp.MustCompile(`^\s*(\d+) threads and (\d+) connections\s*$`)
	wrkCalib    = regexp.MustCompile(`^\s*Thread calibration: mean lat\.: (\S+(?: usec)?), rate sampling interval: (\S+(?: msec)?)\s*$`)
	wrkStatsHdr = regexp.MustCompile(`^\s*Thread Stats\s+Avg\s+Stdev\s+Max\s+\+/- Stdev\s*$`)
	wrkStats    = regexp.MustCompile(`^\s*(Latency|Req/Sec)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+%)\s*$`)
	wrkDistHdr  = regexp.MustCompile(`^\s*Latency Distribution(.*)$`)
	wrkPct      = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)%\s+(\S+)\s*$`)
	wrkSpecHdr  = regexp.MustCompile(`^\s*Detailed Percentile spectrum:\s*$`)
	wrkSpecCols = regexp.MustCompile(`^\s*Value\s+Percentile\s+TotalCount\s+1/\(1-Percentile\)\s*$`)
	wrkSpecRow  = regexp.MustCompile(`^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$`)
	wrkSpecSum  = regexp.MustCompile(`^#\[(\w[\w ]*?)\s*=\s*(\S+),\s*(\w[\w ]*?)\s*=\s*(\S+)\]\s*$`)
	wrkTotal    = regexp.MustCompile(`^\s*(\d+) requests in (\S+), (\S+) read\s*$`)
	wrkSocket   = regexp.MustCompile(`^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)\s*$`)
	wrkNon2xx   = regexp.MustCompile(`^\s*Non-2xx or 3xx responses: (\d+)\s*$`)
	wrkPerSec   = regexp.MustCompile(`^(Requests/sec|Transfer/sec):\s+(\S+)\s*$`)
	wrkRule     = regexp.MustCompile(`^-+\s*$`)
)

// wrkUnits are the suffixes wrk writes: times (us, ms, s, m, h),
// binary sizes (wrk's KB is 1024 B: read as KiB, MB as MiB) and
// metric multipliers of counts (8.74k).
var wrkUnits = map[string]raw.ToolUnit{
	"us": {Unit: "us"}, "ms": {Unit: "ms"}, "s": {Unit: "s"}, "m": {Unit: "min"}, "h": {Unit: "h"},
	"B": {Unit: "B"}, "KB": {Unit: "KiB"}, "MB": {Unit: "MiB"}, "GB": {Unit: "GiB"}, "TB": {Unit: "TiB"},
	"k": {Shift: 3}, "M": {Shift: 6}, "G": {Shift: 9}, "%": {Unit: "%"},
	"usec": {Unit: "us"}, "msec": {Unit: "ms"},
}

// ReadWrk reads the output of wrk and wrk2; format "wrk". Lines and keys:
//
//	Running 30s test @ http://127.0.0.1:8080/       duration (30 s)
//	  10 threads and 200 connections                threads, connections
//	  Thread calibration: mean lat.: 1.412ms, rate sampling interval: 10ms
//	                                                calibration.mean_lat, calibration.interval (wrk2; one
//	                                                per thread, #2, …; early wrk2 writes "9747 usec", "21 msec")
//	    Latency    16.08ms   34.40ms 501.10ms   88.69%
//	                                                latency.avg, latency.stdev, latency.max, latency.within_stdev (%)
//	    Req/Sec     8.74k     5.97k   43.64k    71.99%
//	                                                req_sec.avg (8740), req_sec.stdev, req_sec.max (all /s), req_sec.within_stdev (%)
//	  Latency Distribution                          (--latency; wrk2: "(HdrHistogram - Recorded Latency)")
//	     99%  162.80ms                              latency.p99 (wrk2's 99.900% is latency.p99_9;
//	                                                after "Uncorrected Latency": uncorrected_latency.p99)
//	  Detailed Percentile spectrum:                 (wrk2) one row per line, numbered from 1:
//	       0.921     0.000000            1         1.00
//	                                                spectrum1.value (ms), spectrum1.percentile,
//	                                                spectrum1.total_count, spectrum1.inverse ("inf" is not read)
//	#[Mean    =        6.602, StdDeviation   =        1.919]
//	                                                spectrum.mean (ms), spectrum.stddeviation (ms),
//	                                                likewise spectrum.max, spectrum.total_count, spectrum.buckets, spectrum.subbuckets
//	  2525852 requests in 30.08s, 387.82MB read     requests, elapsed (s), read (MiB)
//	  Socket errors: connect 0, read 233, write 0, timeout 0
//	                                                socket_errors.connect, .read, .write, .timeout
//	  Non-2xx or 3xx responses: 12                  non_2xx_3xx
//	Requests/sec:  83974.71                         requests_sec (/s)
//	Transfer/sec:     12.89MB                       transfer_sec (MiB/s)
//
// Times keep the unit wrk writes (us, ms, s; m is min); sizes are read
// in the binary units wrk computes them in (its KB, MB and GB are
// 1024-based: 12.89MB is 12.89 MiB, so a claim [12.89MB], read as SI, is
// told to write MiB); k, M and G multiply
// counts by 10^3, 10^6 and 10^9. The spectrum's Value column and its
// summary are in milliseconds, as wrk2 prints them. A second run in the
// same file numbers its keys (#2). Any other line with a number (a Lua
// script's own output) is a warning (rule evidence-number); a file
// without a wrk line is an error.
func ReadWrk(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceWrk)
	if errs != nil {
		return nil, errs
	}
	dist, spectrum, row := "", false, 0
	for start, text := range raw.OutputLines(src) {
		tool := func(key string, m []int, g int, unitOf string) {
			if m[2*g] < 0 {
				return
			}
			r.AddTool(key, start+m[2*g], text[m[2*g]:m[2*g+1]], wrkUnits, unitOf)
		}
		spaced := func(key string, m []int, g int) {
			r.AddSpaced(key, start+m[2*g], text[m[2*g]:m[2*g+1]], wrkUnits)
		}
		if strings.TrimSpace(text) == "" {
			dist = ""
			continue
		}
		switch m := raw.MatchAny(text, wrkRunning, wrkThreads, wrkCalib, wrkStatsHdr, wrkStats, wrkDistHdr, wrkSpecHdr, wrkSpecCols,
			wrkSpecSum, wrkTotal, wrkSocket, wrkNon2xx, wrkPerSec, wrkRule); {
		case m.Re == wrkRunning:
			dist, spectrum = "", false
			tool("duration", m.M, 1, "")
		case m.Re == wrkThreads:
			tool("threads", m.M, 1, "")
			tool("connections", m.M, 2, "")
		case m.Re == wrkCalib:
			spaced("calibration.mean_lat", m.M, 1)
			spaced("calibration.interval", m.M, 2)
		case m.Re == wrkStatsHdr || m.Re == wrkSpecCols || m.Re == wrkRule:
			continue
		case m.Re == wrkStats:
			name := raw.KeySlug(text[m.M[2]:m.M[3]])
			per := ""
			if name == "req_sec" {
				per = "/s" // Req/Sec: requests per second (of one thread)
			}
			for i, col := range []string{"avg", "stdev", "max", "within_stdev"} {
				tool(name+"."+col, m.M, i+2, per)
			}
		case m.Re == wrkDistHdr:
			dist = "latency"
			if strings.Contains(text[m.M[2]:m.M[3]], "Uncorrected") {
				dist = "uncorrected_latency"
			}
		case m.Re == wrkSpecHdr:
			dist, spectrum, row = "", true, 0
		case m.Re == wrkSpecSum:
			for _, g := range []int{1, 3} {
				name := raw.KeySlug(text[m.M[2*g]:m.M[2*g+1]])
				u := "ms"
				if name == "total_count" || name == "buckets" || name == "subbuckets" {
					u = ""
				}
				tool("spectrum."+name, m.M, g+1, u)
			}
		case m.Re == wrkTotal:
			spectrum = false
			tool("requests", m.M, 1, "")
			tool("elapsed", m.M, 2, "")
			tool("read", m.M, 3, "")
		case m.Re == wrkSocket:
			for i, col := range []string{"connect", "read", "write", "timeout"} {
				tool("socket_errors."+col, m.M, i+1, "")
			}
		case m.Re == wrkNon2xx:
			tool("non_2xx_3xx", m.M, 1, "")
		case m.Re == wrkPerSec:
			if text[m.M[2]:m.M[3]] == "Requests/sec" {
				tool("requests_sec", m.M, 2, "/s")
				break
			}
			n := r.Out.Len()
			tool("transfer_sec", m.M, 2, "")
			if a := r.Added(n); a != nil {
				a.Number.Unit, _ = unit.PerSecondOf(a.Number.Unit) // 12.89MB per second
			}
		default:
			if pm := wrkPct.FindStringSubmatchIndex(text); dist != "" && pm != nil {
				tool(dist+"."+raw.PctKey(text[pm[2]:pm[3]]), pm, 2, "")
				break
			}
			if sm := wrkSpecRow.FindStringSubmatchIndex(text); spectrum && sm != nil {
				row++
				n := "spectrum" + strconv.Itoa(row) + "."
				tool(n+"value", sm, 1, "ms")
				tool(n+"percentile", sm, 2, "")
				tool(n+"total_count", sm, 3, "")
				tool(n+"inverse", sm, 4, "")
			}
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no wrk output lines; expected lines such as \"Requests/sec:  83974.71\" or \"    Latency    16.08ms   34.40ms 501.10ms   88.69%%\"")
	}
	return r.Result()
}
