package raw

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// The Go benchmark reader ("go-bench", ReadGoBench): the output of go
// test -bench (with -benchmem). The conventions of every lab-format
// reader are in readings.go.

// The lines of go test -bench output.
var (
	goBenchLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+(\d+)((?:\s+\S+\s+\S+)+)\s*$`)
	goBenchOK   = regexp.MustCompile(`^ok\s+\S+\s+(\d+(?:\.\d+)?s)(?:\s|$)`)
	goBenchPair = regexp.MustCompile(`(\S+)\s+(\S+)`)
)

// goBenchUnits are the units of go test -bench metrics: ns/op in ns,
// B/op in B, MB/s (b.SetBytes: 10^6 bytes per second) in MB/s;
// allocs/op or a custom metric carry none.
var goBenchUnits = map[string]string{"ns/op": "ns", "B/op": "B", "MB/s": "MB/s"}

// ReadGoBench reads go test -bench output; format "go-bench". A result
// line
//
//	BenchmarkGatewayAPItoXDS/small-12   1   6602082 ns/op   3877448 B/op   34546 allocs/op
//
// gives NAME.n (the iterations), and each metric as NAME.<unit slugged>:
// GatewayAPItoXDS/small.ns_op (ns), .b_op (B), .allocs_op, .mb_s (MB/s), and a
// custom metric (b.ReportMetric) likewise, NAME being the benchmark's
// name without "Benchmark" and the GOMAXPROCS suffix (-12). Runs of one
// benchmark (-count) are numbered: GatewayAPItoXDS/small.ns_op#2, …. The
// package's "ok  pkg  273.101s" line gives elapsed (s). The goos,
// goarch, pkg and cpu lines name the machine and are not data; any other
// line with a number (a benchmark's log) is a warning (rule
// evidence-number).
func ReadGoBench(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := startRead(file, src, diag.EvidenceGoBench)
	if errs != nil {
		return nil, errs
	}
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		if m := goBenchLine.FindStringSubmatchIndex(text); m != nil {
			name := text[m[2]:m[3]]
			r.addNum(name+".n", ln.start+m[4], text[m[4]:m[5]], "")
			rest := text[m[6]:m[7]]
			for _, p := range goBenchPair.FindAllStringSubmatchIndex(rest, -1) {
				unit := rest[p[4]:p[5]]
				n := len(r.out)
				r.addNum(name+"."+keySlug(unit), ln.start+m[6]+p[2], rest[p[2]:p[3]], "")
				if a := r.added(n); a != nil {
					a.Number.Unit = goBenchUnits[unit]
				}
			}
			continue
		}
		if m := goBenchOK.FindStringSubmatchIndex(text); m != nil {
			r.addTool("elapsed", ln.start+m[2], text[m[2]:m[3]], timeSuffixes, "")
		}
	}
	if len(r.out) == 0 && !r.errs.HasErrors() {
		r.errorf(textStart(src), "no benchmark results; expected lines such as \"BenchmarkX-8   1000   1234 ns/op   512 B/op   8 allocs/op\"")
	}
	return r.result()
}

// The benchstat reader ("benchstat", ReadBenchstat).

// The lines of benchstat's tables: the header of the old format (before
// 2023: "name  old time/op  new time/op  delta"), a header line of the
// new one ("│ old.txt │ new.txt │"), and a row's statistics.
var (
	bsOldHeader = regexp.MustCompile(`^name\s+(.+?)\s*$`)
	bsP         = regexp.MustCompile(`^\(?p=(\d+(?:\.\d+)?)$`)
	bsN         = regexp.MustCompile(`^n=(\d+)(?:\+(\d+))?\)?$`)
	bsDelta     = regexp.MustCompile(`^[+-]\d+(?:\.\d+)?%$`)
)

// bsUnits are the units of benchstat's old format values (825µs, 1.23kB,
// 4.5k allocs) and bsPrefixes the SI and binary prefixes of the new
// format, which writes the unit in the header (1.718µ under sec/op).
var (
	bsUnits = map[string]toolUnit{
		"ns": {unit: "ns"}, "µs": {unit: "us"}, "us": {unit: "us"}, "ms": {unit: "ms"}, "s": {unit: "s"},
		"B": {unit: "B"}, "kB": {unit: "KB"}, "MB": {unit: "MB"}, "GB": {unit: "GB"}, "k": {shift: 3}, "M": {shift: 6}, "G": {shift: 9},
		"B/s": {unit: "B/s"}, "kB/s": {unit: "KB/s"}, "MB/s": {unit: "MB/s"}, "GB/s": {unit: "GB/s"},
	}
	bsSecPrefixes   = map[string]toolUnit{"": {unit: "s"}, "n": {unit: "ns"}, "µ": {unit: "us"}, "m": {unit: "ms"}}
	bsBytePrefixes  = map[string]toolUnit{"": {unit: "B"}, "Ki": {unit: "KiB"}, "Mi": {unit: "MiB"}, "Gi": {unit: "GiB"}, "Ti": {unit: "TiB"}}
	bsRatePrefixes  = map[string]toolUnit{"": {unit: "B/s"}, "Ki": {unit: "KiB/s"}, "Mi": {unit: "MiB/s"}, "Gi": {unit: "GiB/s"}, "Ti": {unit: "TiB/s"}}
	bsCountPrefixes = map[string]toolUnit{"": {}, "k": {shift: 3}, "M": {shift: 6}, "G": {shift: 9}, "m": {shift: -3}, "µ": {shift: -6}, "n": {shift: -9}}
)

// ReadBenchstat reads benchstat's tables; format "benchstat". The old
// format (before 2023):
//
//	name                  old time/op    new time/op    delta
//	EndpointGeneration/1/100-8   825µs ±11%     451µs ± 5%  -45.31%  (p=0.100 n=3+3)
//
// gives EndpointGeneration/1/100.time_op.old (825 us), .old_var (11 %),
// .new, .new_var, .delta (-45.31 %, a signed change), .p (0.1), .n_old,
// .n_new (a single n=10 is .n); "~" (no significant change) gives no
// delta. A single-column table ("name  time/op") gives .time_op.value and
// .value_var. The new format:
//
//	                      │   old.txt   │             new.txt              │
//	                      │   sec/op    │   sec/op     vs base             │
//	Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
//
// gives Encode/format=json.sec_op.old (1.718 us: the prefix under sec/op,
// B/op (Ki, Mi: binary) or a count), .old_var, .new, .new_var, .delta, .p,
// .n, each column named by its file without the extension; geomean rows
// give geomean.sec_op.old and so on. Names drop the GOMAXPROCS suffix
// (-8). goos, goarch, pkg and cpu lines are not data; any other line with
// a number is a warning (rule evidence-number).
func ReadBenchstat(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := startRead(file, src, diag.EvidenceBenchstat)
	if errs != nil {
		return nil, errs
	}
	var cols []string // column names: old, new (or value)
	metric, unit := "", ""
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || goBenchConfig.MatchString(text) {
			continue
		}
		if strings.Contains(text, "│") {
			cells := strings.Split(strings.Trim(trimmed, "│ "), "│")
			if strings.Contains(text, "/op") || strings.Contains(text, "/s") || strings.Contains(text, "vs base") {
				metric = keySlug(strings.Fields(cells[0])[0])
				unit = strings.Fields(cells[0])[0]
			} else {
				cols = cols[:0]
				for _, c := range cells {
					name := strings.TrimSpace(c)
					if i := strings.LastIndexByte(name, '.'); i > 0 {
						name = name[:i]
					}
					cols = append(cols, keySlug(name))
				}
			}
			continue
		}
		if m := bsOldHeader.FindStringSubmatch(text); m != nil {
			hdr := strings.Fields(m[1])
			cols, unit = cols[:0], ""
			switch {
			case len(hdr) >= 4 && hdr[0] == "old" && hdr[2] == "new":
				metric, cols = keySlug(hdr[1]), append(cols, "old", "new")
			case len(hdr) == 1:
				metric, cols = keySlug(hdr[0]), append(cols, "value")
			}
			continue
		}
		if len(cols) == 0 {
			continue
		}
		fs := fields(text)
		if len(fs) < 2 {
			continue
		}
		name := text[fs[0][0]:fs[0][1]]
		if i := strings.LastIndexByte(name, '-'); i > 0 && strings.Trim(name[i+1:], "0123456789") == "" {
			name = name[:i]
		}
		if name == "[Geo" {
			name = "geomean"
			fs = fs[1:]
		}
		key := name + "." + metric + "."
		col := 0
		for i := 1; i < len(fs); i++ {
			tok, at := text[fs[i][0]:fs[i][1]], ln.start+fs[i][0]
			switch {
			case tok == "±" && i+1 < len(fs):
				i++
				r.addTool(key+cols[max(col-1, 0)]+"_var", ln.start+fs[i][0], text[fs[i][0]:fs[i][1]], percentUnit, "")
			case strings.HasPrefix(tok, "±"):
				r.addTool(key+cols[max(col-1, 0)]+"_var", at+len("±"), tok[len("±"):], percentUnit, "")
			case bsDelta.MatchString(tok):
				r.addTool(key+"delta", at, tok, percentUnit, "")
				r.out[len(r.out)-1].Number.Signed = true
			case bsP.MatchString(tok):
				m := bsP.FindStringSubmatchIndex(tok)
				r.addNum(key+"p", at+m[2], tok[m[2]:m[3]], "")
			case bsN.MatchString(tok):
				m := bsN.FindStringSubmatchIndex(tok)
				if m[4] < 0 {
					r.addNum(key+"n", at+m[2], tok[m[2]:m[3]], "")
				} else {
					r.addNum(key+"n_old", at+m[2], tok[m[2]:m[3]], "")
					r.addNum(key+"n_new", at+m[4], tok[m[4]:m[5]], "")
				}
			case col < len(cols):
				units := bsUnits
				if unit != "" {
					units = bsPrefixed(unit)
				}
				if r.addTool(key+cols[col], at, tok, units, "") {
					col++
				}
			}
		}
	}
	if len(r.out) == 0 && !r.errs.HasErrors() {
		r.errorf(textStart(src), "no benchstat rows; expected a table such as \"name  old time/op  new time/op  delta\" and rows under it")
	}
	return r.result()
}

// percentUnit reads a percentage (11%).
var percentUnit = map[string]toolUnit{"%": {unit: "%"}}

// bsPrefixed returns the prefixes of the new format's values under a
// header unit (sec/op, B/op, B/s, or a count such as allocs/op).
func bsPrefixed(unit string) map[string]toolUnit {
	switch {
	case unit == "B/s":
		return bsRatePrefixes
	case strings.HasPrefix(unit, "sec/"):
		return bsSecPrefixes
	case strings.HasPrefix(unit, "B/"):
		return bsBytePrefixes
	}
	return bsCountPrefixes
}

// goBenchConfig is a machine line of go test -bench and benchstat output
// (goos, goarch, pkg, cpu): names, not data.
var goBenchConfig = regexp.MustCompile(`^(?:goos|goarch|pkg|cpu):\s`)
