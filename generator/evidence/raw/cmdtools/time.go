package cmdtools

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// The time reader ("time", ReadTime): the shell's time keyword and GNU
// /usr/bin/time. The conventions of every lab-format reader are in
// readings.go.

// The lines of time's output.
var (
	timeBash    = regexp.MustCompile(`^(real|user|sys)\s+(\d+m\d+(?:\.\d+)?s)\s*$`)
	timePosix   = regexp.MustCompile(`^(real|user|sys)\s+(\d+(?:\.\d+)?)\s*$`)
	timeZsh     = regexp.MustCompile(`\s(\d+(?:\.\d+)?s) user (\d+(?:\.\d+)?s) system (\d+(?:\.\d+)?%) cpu (\d+(?:\.\d+)?) total\s*$`)
	timeVerbose = regexp.MustCompile(`^\s+([A-Z][^:]*?)(?: \(([^)]*)\))*: (\S+)\s*$`)
	timeGNU     = regexp.MustCompile(`^(\d+(?:\.\d+)?)user (\d+(?:\.\d+)?)system ((?:\d+:)?\d+:\d+(?:\.\d+)?)elapsed (\d+)%CPU \((\d+)avgtext\+(\d+)avgdata (\d+)maxresident\)k\s*$`)
	timeGNU2    = regexp.MustCompile(`^(\d+)inputs\+(\d+)outputs \((\d+)major\+(\d+)minor\)pagefaults (\d+)swaps\s*$`)
	timeParens  = regexp.MustCompile(`\s*\([^)]*\)`)
	timeClock   = regexp.MustCompile(`^(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$`)
)

// ReadTime reads the output of time; format "time":
//
//	real	0m1.234s      real, user, sys (s: bash's 0m1.234s is 1.234 s;
//	user	0m0.567s      POSIX time -p's "real 1.23" likewise)
//	./x  0.01s user 0.00s system 81% cpu 0.012 total   (zsh) user, system (s), cpu (%), total (s)
//
// GNU /usr/bin/time -v gives each "Label (unit): value" line by its
// label slugged without its parenthesised parts: user_time,
// system_time, elapsed_time (s, from h:mm:ss or m:ss),
// percent_of_cpu_this_job_got (%), maximum_resident_set_size (KiB:
// GNU time's kbytes are 1024 bytes), page_size (B), exit_status and
// the counts. GNU time's default two lines give user, system, elapsed
// (s), cpu (%), avgtext, avgdata, maxresident (KiB), inputs, outputs,
// major, minor, swaps. "Command being timed" names the command and is
// not data; any other line with a number is a warning (rule
// evidence-number).
func ReadTime(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceTime)
	if errs != nil {
		return nil, errs
	}
	secs := map[string]raw.ToolUnit{"s": {Unit: "s"}, "%": {Unit: "%"}}
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		g := func(key string, m []int, i int, u string) {
			r.AddTool(key, ln.Start+m[2*i], text[m[2*i]:m[2*i+1]], secs, u)
		}
		switch m := raw.MatchAny(text, timeBash, timePosix, timeZsh, timeGNU, timeGNU2, timeVerbose); m.Re {
		case timeBash:
			name, tok := text[m.M[2]:m.M[3]], text[m.M[4]:m.M[5]]
			mins, s, _ := strings.Cut(strings.TrimSuffix(tok, "s"), "m")
			mv, _ := raw.ParseDecimal(mins)
			sv, _ := raw.ParseDecimal(s)
			r.Add(name, ln.Start+m.M[4], tok, mv.Mul(decimal.NewFromInt(60)).Add(sv), "s")
		case timePosix:
			g(text[m.M[2]:m.M[3]], m.M, 2, "s")
		case timeZsh:
			for i, k := range []string{"user", "system", "cpu", "total"} {
				g(k, m.M, i+1, "s")
			}
		case timeGNU:
			g("user", m.M, 1, "s")
			g("system", m.M, 2, "s")
			addTimeClock(r, "elapsed", ln.Start+m.M[6], text[m.M[6]:m.M[7]])
			g("cpu", m.M, 4, "%")
			for i, k := range []string{"avgtext", "avgdata", "maxresident"} {
				g(k, m.M, i+5, "KiB")
			}
		case timeGNU2:
			for i, k := range []string{"inputs", "outputs", "major", "minor", "swaps"} {
				g(k, m.M, i+1, "")
			}
		case timeVerbose:
			label := text[m.M[2]:m.M[3]]
			if label == "Command being timed" {
				continue
			}
			key := raw.KeySlug(timeParens.ReplaceAllString(label, ""))
			paren := strings.ToLower(text[:m.M[6]])
			val := text[m.M[6]:m.M[7]]
			switch {
			case strings.Contains(paren, "h:mm:ss"):
				addTimeClock(r, key, ln.Start+m.M[6], val)
			case strings.Contains(paren, "(seconds)"):
				g(key, m.M, 3, "s")
			case strings.Contains(paren, "(kbytes)"):
				g(key, m.M, 3, "KiB")
			case strings.Contains(paren, "(bytes)"):
				g(key, m.M, 3, "B")
			default:
				g(key, m.M, 3, "")
			}
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no time output; expected lines such as \"real\t0m1.234s\" or GNU time -v's \"Elapsed (wall clock) time (h:mm:ss or m:ss): 0:01.00\"")
	}
	return r.Result()
}

// addTimeClock reads GNU time's h:mm:ss or m:ss.cc at off, in seconds.
func addTimeClock(r *raw.Recorder, key string, off int, tok string) {
	m := timeClock.FindStringSubmatch(tok)
	if m == nil {
		return
	}
	h, _ := raw.ParseDecimal("0" + m[1])
	mins, _ := raw.ParseDecimal(m[2])
	s, _ := raw.ParseDecimal(m[3])
	hs, _ := unit.Convert(h, "h", "s")
	ms, _ := unit.Convert(mins, "min", "s")
	r.Add(key, off, tok, hs.Add(ms).Add(s), "s")
}
