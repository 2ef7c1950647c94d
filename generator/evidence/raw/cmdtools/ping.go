package cmdtools

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The ping reader ("ping", ReadPing) and the mtr reader ("mtr",
// ReadMtr). The conventions of every lab-format reader are in
// readings.go.

// The lines of ping's output: iputils (Linux), BSD and macOS, BusyBox
// and Windows.
var (
	pingHeader   = regexp.MustCompile(`^PING \S+ \([^)]*\)(?::)? (\d+)(?:\((\d+)\))? (?:data )?bytes`)
	pingReply    = regexp.MustCompile(`^(\d+) bytes from [^:]+: (?:icmp_)?seq=(\d+) ttl=(\d+) time=(\S+(?: [a-zµμ]\S*)?)`)
	pingStats    = regexp.MustCompile(`^(\d+) packets transmitted, (\d+) (?:packets )?received(?:, \+(\d+) duplicates)?(?:, \+(\d+) errors)?, (\d+(?:\.\d+)?%) packet loss(?:, time (\S+))?`)
	pingRTT      = regexp.MustCompile(`^(?:rtt|round-trip) ([a-z/]+) = ([\d./]+) ms\s*$`)
	pingWinReply = regexp.MustCompile(`^Reply from [^:]+: bytes=(\d+) time[=<](\d+ms) TTL=(\d+)\s*$`)
	pingWinStats = regexp.MustCompile(`^\s*Packets: Sent = (\d+), Received = (\d+), Lost = (\d+) \((\d+%) loss\)`)
	pingWinRTT   = regexp.MustCompile(`^\s*Minimum = (\d+ms), Maximum = (\d+ms), Average = (\d+ms)\s*$`)
)

// pingUnits are the time units ping writes (time=134 ms, time 2079ms).
var pingUnits = map[string]raw.ToolUnit{"ms": {Unit: "ms"}, "s": {Unit: "s"}, "%": {Unit: "%"}}

// ReadPing reads ping's output; format "ping". Lines and keys:
//
//	PING 192.168.0.4 (192.168.0.4) 56(84) bytes of data.   payload (B), packet_size (B)
//	64 bytes from 192.168.0.4: icmp_seq=1 ttl=64 time=134 ms
//	                                          icmp_seq1.bytes (B), icmp_seq1.ttl, icmp_seq1.time (134 ms)
//	3 packets transmitted, 3 received, +1 duplicates, +2 errors, 0% packet loss, time 2079ms
//	                                          transmitted, received, duplicates, errors,
//	                                          packet_loss (%), time (ms)
//	rtt min/avg/max/mdev = 103.614/119.311/134.686/12.690 ms
//	                                          rtt.min, rtt.avg, rtt.max, rtt.mdev (ms; BSD's
//	                                          round-trip …/stddev gives rtt.stddev)
//
// Windows' ping gives reply.bytes, reply.time, reply.ttl per reply
// (#2, …), sent, received, lost, packet_loss and rtt.minimum, .maximum,
// .average. The unit is read where ping writes it, after a space too
// (time=134 ms). A second run in one file numbers its keys (#2). Any
// other line with a number (Destination Host Unreachable, a timeout)
// is a warning (rule evidence-number).
func ReadPing(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidencePing)
	if errs != nil {
		return nil, errs
	}
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		g := func(key string, m []int, i int, unitOf string) {
			if m[2*i] >= 0 {
				pingValue(r, key, ln.Start+m[2*i], text[m[2*i]:m[2*i+1]], unitOf)
			}
		}
		switch m := raw.MatchAny(text, pingHeader, pingReply, pingStats, pingRTT, pingWinReply, pingWinStats, pingWinRTT); m.Re {
		case pingHeader:
			g("payload", m.M, 1, "B")
			g("packet_size", m.M, 2, "B")
		case pingReply:
			seq := "icmp_seq" + text[m.M[4]:m.M[5]] + "."
			g(seq+"bytes", m.M, 1, "B")
			g(seq+"ttl", m.M, 3, "")
			g(seq+"time", m.M, 4, "ms")
		case pingStats:
			for i, k := range []string{"transmitted", "received", "duplicates", "errors", "packet_loss", "time"} {
				g(k, m.M, i+1, "")
			}
		case pingRTT:
			names := strings.Split(text[m.M[2]:m.M[3]], "/")
			vals := text[m.M[4]:m.M[5]]
			off := ln.Start + m.M[4]
			for i, v := range strings.Split(vals, "/") {
				if i < len(names) {
					pingValue(r, "rtt."+names[i], off, v, "ms")
				}
				off += len(v) + 1
			}
		case pingWinReply:
			g("reply.bytes", m.M, 1, "B")
			g("reply.time", m.M, 2, "")
			g("reply.ttl", m.M, 3, "")
		case pingWinStats:
			for i, k := range []string{"sent", "received", "lost", "packet_loss"} {
				g(k, m.M, i+1, "")
			}
		case pingWinRTT:
			for i, k := range []string{"minimum", "maximum", "average"} {
				g("rtt."+k, m.M, i+1, "")
			}
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no ping lines; expected lines such as \"64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.5 ms\" or \"rtt min/avg/max/mdev = …\"")
	}
	return r.Result()
}

// pingValue records tok at off: a number with ping's unit written after
// it (134 ms, 2079ms, 0%), or unitOf when it writes none.
func pingValue(r *raw.Recorder, key string, off int, tok, unitOf string) {
	if strings.Contains(tok, " ") {
		r.AddSpaced(key, off, tok, pingUnits)
		return
	}
	r.AddTool(key, off, tok, pingUnits, unitOf)
}

// The lines of an mtr report (mtr -r, --report-wide).
var (
	mtrHeader = regexp.MustCompile(`^HOST: \S+\s+(Loss%.*?)\s*$`)
	mtrHop    = regexp.MustCompile(`^\s*(\d+)\.(?:\|--|\|-)?\s+\S+\s+(.+?)\s*$`)
)

// ReadMtr reads an mtr report; format "mtr":
//
//	HOST: web-01                 Loss%   Snt   Last   Avg  Best  Wrst StDev
//	  1.|-- 10.0.0.1              0.0%    10    0.4   0.5   0.3   0.9   0.2
//
// gives hop1.loss (%), hop1.snt, and hop1.last, .avg, .best, .wrst,
// .stdev in ms, each named by its header column (lower case; Loss% is
// loss). A hop that answers nothing (???) still has its row read. The
// Start: line (2024-05-02T10:11:12+0000) gives start, the time of day
// the run began (unit tod, in the time zone written); its date names the
// run and is not read. Any other line with a number is a warning (rule
// evidence-number).
func ReadMtr(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceMtr)
	if errs != nil {
		return nil, errs
	}
	var cols []string
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		if rest, ok := strings.CutPrefix(text, "Start: "); ok {
			r.AddClock("start", ln.Start+len("Start: "), rest)
			continue
		}
		if m := mtrHeader.FindStringSubmatch(text); m != nil {
			cols = cols[:0]
			for _, c := range strings.Fields(m[1]) {
				cols = append(cols, raw.KeySlug(strings.TrimSuffix(c, "%")))
			}
			continue
		}
		m := mtrHop.FindStringSubmatchIndex(text)
		if m == nil || len(cols) == 0 {
			continue
		}
		hop := "hop" + text[m[2]:m[3]] + "."
		vals := text[m[4]:m[5]]
		fs := raw.Fields(vals)
		if len(fs) != len(cols) {
			continue // the sweep warns about its numbers
		}
		for i, f := range fs {
			u := "ms"
			switch cols[i] {
			case "loss":
				u = "%"
			case "snt", "rcv", "drop":
				u = ""
			}
			tok := strings.TrimSuffix(vals[f[0]:f[1]], "%")
			n := r.Out.Len()
			r.AddNum(hop+cols[i], ln.Start+m[4]+f[0], tok, "")
			if a := r.Added(n); a != nil {
				a.Number.Unit = u
			}
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no mtr report rows; expected a \"HOST: … Loss%% Snt Last Avg Best Wrst StDev\" header and hop rows under it")
	}
	return r.Result()
}
