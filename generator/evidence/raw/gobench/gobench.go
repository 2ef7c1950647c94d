package gobench

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
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
// name without "Benchmark" and the GOMAXPROCS suffix (-12). A line
// whose metrics are not value-unit pairs (a value missing, so that each
// later value would meet the next metric's unit) is a warning and not
// read. Runs of one benchmark (-count) are numbered: GatewayAPItoXDS/small.ns_op#2, …. The
// package's "ok  pkg  273.101s" line gives elapsed (s). The goos,
// goarch, pkg and cpu lines name the machine and are not data; go test's
// test results ("--- PASS: TestX (0.00s)", "--- FAIL", "--- SKIP", "===
// RUN" and the like, which go test -bench prints for the tests it runs
// besides the benchmarks) are test durations, not benchmark values, and
// are not read; any other line with a number (a benchmark's log) is a
// warning (rule evidence-number).
func ReadGoBench(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceGoBench)
	if errs != nil {
		return nil, errs
	}
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		if m := goBenchLine.FindStringSubmatchIndex(text); m != nil {
			name := text[m[2]:m[3]]
			rest := text[m[6]:m[7]]
			pairs := goBenchPair.FindAllStringSubmatchIndex(rest, -1)
			if at, ok := goBenchPairsAligned(rest, pairs); !ok {
				r.Warnf(ln.Start+m[6]+at, "go test -bench metrics of %s are not \"value unit\" pairs from here (%q); expected each value followed by its unit (12 ns/op  64 B/op)", name, strings.TrimSpace(rest[at:]))
				continue
			}
			r.AddNum(name+".n", ln.Start+m[4], text[m[4]:m[5]], "")
			for _, p := range pairs {
				unit := rest[p[4]:p[5]]
				n := r.Out.Len()
				r.AddNum(name+"."+raw.KeySlug(unit), ln.Start+m[6]+p[2], rest[p[2]:p[3]], "")
				if a := r.Added(n); a != nil {
					a.Number.Unit = goBenchUnits[unit]
				}
			}
			continue
		}
		if m := goBenchOK.FindStringSubmatchIndex(text); m != nil {
			r.AddTool("elapsed", ln.Start+m[2], text[m[2]:m[3]], raw.TimeSuffixes, "")
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no benchmark results; expected lines such as \"BenchmarkX-8   1000   1234 ns/op   512 B/op   8 allocs/op\"")
	}
	return r.Result()
}

// goBenchPairsAligned reports whether every pair of rest is a number and
// a unit that is not one, and, when not, the byte offset in rest of the
// first pair that is not: a value missing before its unit pairs every
// later value with the next metric's unit, so the line is not read.
func goBenchPairsAligned(rest string, pairs [][]int) (int, bool) {
	for _, p := range pairs {
		_, vok := raw.ParseDecimal(rest[p[2]:p[3]])
		_, uok := raw.ParseDecimal(rest[p[4]:p[5]])
		if !vok || uok {
			return p[2], false
		}
	}
	return 0, true
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
	bsUnits = map[string]raw.ToolUnit{
		"ns": {Unit: "ns"}, "µs": {Unit: "us"}, "us": {Unit: "us"}, "ms": {Unit: "ms"}, "s": {Unit: "s"},
		"B": {Unit: "B"}, "kB": {Unit: "KB"}, "MB": {Unit: "MB"}, "GB": {Unit: "GB"}, "k": {Shift: 3}, "M": {Shift: 6}, "G": {Shift: 9},
		"B/s": {Unit: "B/s"}, "kB/s": {Unit: "KB/s"}, "MB/s": {Unit: "MB/s"}, "GB/s": {Unit: "GB/s"},
	}
	bsSecPrefixes   = map[string]raw.ToolUnit{"": {Unit: "s"}, "n": {Unit: "ns"}, "µ": {Unit: "us"}, "m": {Unit: "ms"}}
	bsBytePrefixes  = map[string]raw.ToolUnit{"": {Unit: "B"}, "Ki": {Unit: "KiB"}, "Mi": {Unit: "MiB"}, "Gi": {Unit: "GiB"}, "Ti": {Unit: "TiB"}}
	bsRatePrefixes  = map[string]raw.ToolUnit{"": {Unit: "B/s"}, "Ki": {Unit: "KiB/s"}, "Mi": {Unit: "MiB/s"}, "Gi": {Unit: "GiB/s"}, "Ti": {Unit: "TiB/s"}}
	bsCountPrefixes = map[string]raw.ToolUnit{"": {}, "k": {Shift: 3}, "M": {Shift: 6}, "G": {Shift: 9}, "m": {Shift: -3}, "µ": {Shift: -6}, "n": {Shift: -9}}
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
// delta. Each _var is the relative spread of the value before it: a
// claim [825µs ±11%] on .old checks both numbers. A single-column table ("name  time/op") gives .time_op.value and
// .value_var. The new format:
//
//	                      │   old.txt   │             new.txt              │
//	                      │   sec/op    │   sec/op     vs base             │
//	Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
//
// gives Encode/format=json.sec_op.old (1.718 us: the prefix under sec/op,
// B/op (Ki, Mi: binary) or a count), .old_var, .new, .new_var, .delta, .p,
// .n, each column named by its file without the extension; geomean rows
// give geomean.sec_op.old and so on. A table of more than one compared
// column (benchstat -col) names each column's comparison after it:
// .redigo_delta, .redigo_p, .redigo_n. Names drop the GOMAXPROCS suffix
// (-8).
//
// Every value belongs to the column it is printed in: a row is read by
// position, each token in the column whose header spans it (the old
// format's header words, the new format's │ separators, counted in
// characters), never by counting tokens from the left, so an empty cell
// leaves its column without a value and moves nothing. A row whose name
// column is empty takes its name from the ".fullname:" (or ".name:")
// line benchstat prints above the tables when the name is not a row
// (benchstat -table .fullname): ".fullname: Get/1_B-10" names the rows
// under it Get/1_B. A row without a name and no such line, a second
// unnamed row under one, a second value in one column, and a row with a
// tab (whose columns cannot be placed) are errors.
//
// goos, goarch, pkg and cpu lines, the table headings ("KEY: VALUE"
// lines whose key starts with "." or "/"), the footnotes ("¹ all samples
// are equal", "² summaries must be >0 to compute geomean") and the
// footnote marks after a cell, "~" and "?" (no delta) and "± ?" (no
// variation) are not data; any other line with a number is a warning
// (rule evidence-number).
func ReadBenchstat(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceBenchstat)
	if errs != nil {
		return nil, errs
	}
	var (
		tbl      *bsTable // the table whose rows follow
		heading  string   // the row name a ".fullname:" line gives
		inHead   bool     // the previous line was a heading line
		inHeader bool     // the previous line was a │ header line
		unnamed  int      // rows of tbl named by heading
	)
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		trimmed := strings.TrimSpace(text)
		if trimmed == "" {
			tbl, inHead, inHeader = nil, false, false // a blank line ends a table
			continue
		}
		if goBenchConfig.MatchString(text) || bsFootnote.MatchString(text) {
			inHead, inHeader = false, false
			continue
		}
		if m := bsHeading.FindStringSubmatch(text); m != nil {
			if !inHead {
				heading = ""
			}
			if m[1] == ".fullname" || m[1] == ".name" {
				heading = dropProcs(m[2])
			}
			inHead, inHeader, tbl = true, false, nil
			continue
		}
		inHead = false
		if strings.Contains(text, "│") {
			bars := bsBars(text)
			if !inHeader {
				tbl, unnamed = &bsTable{}, 0
				for i, b := range bars {
					name := ""
					if i+1 < len(bars) {
						name = strings.TrimSpace(runeSlice(text, b+1, bars[i+1]))
					}
					if j := strings.LastIndexByte(name, '.'); j > 0 {
						name = name[:j]
					}
					if i+1 < len(bars) {
						tbl.cols = append(tbl.cols, bsCol{name: raw.KeySlug(name), start: b + 1})
					}
				}
				tbl.end = bars[len(bars)-1]
			} else if tbl != nil && len(bars) > 1 {
				if f := strings.Fields(runeSlice(text, bars[0]+1, bars[1])); len(f) > 0 {
					tbl.metric, tbl.unit = raw.KeySlug(f[0]), f[0]
				}
				for i := range tbl.cols {
					if i+1 < len(bars) {
						tbl.cols[i].start = bars[i] + 1
					}
				}
				tbl.end = bars[len(bars)-1]
			}
			if tbl != nil && len(tbl.cols) > 0 {
				tbl.nameEnd = bars[0]
				tbl.compared = len(tbl.cols) - 1
			}
			inHeader = true
			continue
		}
		inHeader = false
		if m := bsOldHeader.FindStringSubmatchIndex(text); m != nil {
			tbl, unnamed = bsOldTable(text, m[2]), 0
			continue
		}
		if tbl == nil || len(tbl.cols) == 0 {
			continue
		}
		if i := strings.IndexByte(text, '\t'); i >= 0 {
			r.Errorf(ln.Start+i, "tab in a benchstat row: its columns cannot be placed under the header; expected the table benchstat printed, aligned with spaces")
			continue
		}
		if tbl.read(r, ln.Start, text, heading, &unnamed) {
			continue
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no benchstat rows; expected a table such as \"name  old time/op  new time/op  delta\" and rows under it")
	}
	return r.Result()
}

// The lines benchstat prints besides its tables: a table heading
// (".fullname: Get/1_B-10", "/size: 1B": benchstat -table keys) and a
// footnote ("¹ all samples are equal").
var (
	bsHeading  = regexp.MustCompile(`^([./][^\s:]*):\s+(\S.*?)\s*$`)
	bsFootnote = regexp.MustCompile(`^\s*[¹²³⁴⁵⁶⁷⁸⁹⁰]+\s`)
	bsMarks    = regexp.MustCompile(`^[¹²³⁴⁵⁶⁷⁸⁹⁰]+$`)
)

// bsTable is the layout of one benchstat table: the character column
// where the row names end (nameEnd), its value columns, where the last
// one ends (end: a token beyond it is outside the table; -1 for none),
// the metric (sec_op) and the unit its header writes ("" in the old
// format, whose values carry their unit), and how many columns are
// compared with the first (compared; the old format's delta column is
// the table's one comparison).
type bsTable struct {
	nameEnd  int
	cols     []bsCol
	end      int
	metric   string
	unit     string
	compared int
	old      bool
}

// bsCol is one column: its key name and the character column where it
// starts (the old format's header word, the new format's │ plus one).
// The old format's delta column has the name "".
type bsCol struct {
	name  string
	start int
}

// bsOldTable is the layout of an old-format header ("name  old time/op
// new time/op  delta", "name  time/op"): each column starts where its
// header word does; at is where the text after "name" starts.
func bsOldTable(text string, at int) *bsTable {
	t := &bsTable{old: true, end: -1}
	hdr := raw.Fields(text[at:])
	word := func(i int) string { return text[at+hdr[i][0] : at+hdr[i][1]] }
	col := func(i int) int { return utf8.RuneCountInString(text[:at+hdr[i][0]]) }
	switch {
	case len(hdr) >= 4 && word(0) == "old" && word(2) == "new":
		t.metric = raw.KeySlug(word(1))
		t.cols = []bsCol{{name: "old", start: col(0)}, {name: "new", start: col(2)}}
		t.compared = 1
		if len(hdr) >= 5 && word(4) == "delta" {
			t.cols = append(t.cols, bsCol{start: col(4)})
		}
	case len(hdr) == 1:
		t.metric = raw.KeySlug(word(0))
		t.cols = []bsCol{{name: "value", start: col(0)}}
	}
	if len(t.cols) > 0 {
		t.nameEnd = t.cols[0].start
	}
	return t
}

// column returns the index of the column the character column c lies in,
// or -1 when c is in the name column or beyond the table.
func (t *bsTable) column(c int) int {
	if c < t.nameEnd || t.end >= 0 && c >= t.end {
		return -1
	}
	i := -1
	for j, col := range t.cols {
		if c >= col.start {
			i = j
		}
	}
	return i
}

// read reads one row at byte offset off (see ReadBenchstat); heading is
// the name a ".fullname:" line gives and unnamed counts the rows that
// took it. It reports false when text is no row of the table.
func (t *bsTable) read(r *raw.Recorder, off int, text, heading string, unnamed *int) bool {
	fs := raw.Fields(text)
	var nameParts []string
	first := len(fs)
	for i, f := range fs {
		if utf8.RuneCountInString(text[:f[0]]) >= t.nameEnd {
			first = i
			break
		}
		nameParts = append(nameParts, text[f[0]:f[1]])
	}
	if first == len(fs) {
		return false // a name alone: no values
	}
	name := dropProcs(strings.Join(nameParts, " "))
	switch {
	case name == "[Geo mean]":
		name = "geomean"
	case name == "" && heading == "":
		r.Errorf(off+fs[first][0], "benchstat row without a name and no \".fullname:\" line above its table; expected the benchmark's name in the row or in a \".fullname: NAME\" heading")
		return true
	case name == "":
		if *unnamed++; *unnamed > 1 {
			r.Errorf(off+fs[first][0], "second benchstat row without a name under \".fullname: %s\"; expected one unnamed row per table, or each row named", heading)
			return true
		}
		name = heading
	}
	base := name + "." + t.metric + "."
	seen := make([]bool, len(t.cols))
	for i := first; i < len(fs); i++ {
		tok, at := text[fs[i][0]:fs[i][1]], off+fs[i][0]
		ci := t.column(utf8.RuneCountInString(text[:fs[i][0]]))
		if ci < 0 || bsMarks.MatchString(tok) || tok == "~" || tok == "?" {
			continue // outside the table (the sweep warns of a number), a footnote mark, no delta
		}
		col := t.cols[ci]
		cmp := base // where the comparison of col goes
		if t.compared > 1 {
			cmp = base + col.name + "_"
		}
		// spread adds the variation printed after ± in col: the relative
		// spread of the column's value, when that value was read.
		spread := func(off int, v string) {
			if r.AddTool(base+col.name+"_var", off, v, raw.PercentUnit, "") && seen[ci] {
				last := r.Out.Ref(r.Out.Len() - 1)
				last.SpreadOf, last.SpreadRelative = base+col.name, true
			}
		}
		switch {
		case tok == "±" && i+1 < len(fs):
			i++
			if v := text[fs[i][0]:fs[i][1]]; v != "?" {
				spread(off+fs[i][0], v)
			}
		case strings.HasPrefix(tok, "±"):
			spread(at+len("±"), tok[len("±"):])
		case bsDelta.MatchString(tok):
			r.AddTool(cmp+"delta", at, tok, raw.PercentUnit, "")
			r.Out.Ref(r.Out.Len() - 1).Number.Signed = true
		case bsP.MatchString(tok):
			m := bsP.FindStringSubmatchIndex(tok)
			r.AddNum(cmp+"p", at+m[2], tok[m[2]:m[3]], "")
		case bsN.MatchString(tok):
			m := bsN.FindStringSubmatchIndex(tok)
			if m[4] < 0 {
				r.AddNum(cmp+"n", at+m[2], tok[m[2]:m[3]], "")
			} else {
				r.AddNum(cmp+"n_old", at+m[2], tok[m[2]:m[3]], "")
				r.AddNum(cmp+"n_new", at+m[4], tok[m[4]:m[5]], "")
			}
		case col.name == "":
			// the old format's delta column holds no value; the sweep warns of a number
		default:
			units := bsUnits
			if t.unit != "" {
				units = bsPrefixed(t.unit)
			}
			if _, _, ok := raw.ToolNumber(tok, units); !ok {
				continue // the sweep warns of a number
			}
			if seen[ci] {
				r.Errorf(at, "second value %q in benchstat column %q of %s; expected one value per column (value ± variation, then the comparison)", tok, col.name, name)
				continue
			}
			seen[ci] = true
			r.AddTool(base+col.name, at, tok, units, "")
		}
	}
	return true
}

// dropProcs drops a benchmark name's GOMAXPROCS suffix (-8).
func dropProcs(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 && i < len(name)-1 && strings.Trim(name[i+1:], "0123456789") == "" {
		return name[:i]
	}
	return name
}

// bsBars returns the character columns of the │ separators of a line.
func bsBars(text string) []int {
	var out []int
	c := 0
	for _, ch := range text {
		if ch == '│' {
			out = append(out, c)
		}
		c++
	}
	return out
}

// runeSlice returns the characters [a, b) of text.
func runeSlice(text string, a, b int) string {
	c, start := 0, len(text)
	for i := range text {
		if c == a {
			start = i
		}
		if c == b {
			return text[min(start, i):i]
		}
		c++
	}
	return text[min(start, len(text)):]
}

// bsPrefixed returns the prefixes of the new format's values under a
// header unit (sec/op, B/op, B/s, or a count such as allocs/op).
func bsPrefixed(unit string) map[string]raw.ToolUnit {
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
