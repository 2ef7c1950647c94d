package structured

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// The CSV reader ("csv", ReadCSV), with its count_where aggregates. The
// conventions of every lab-format reader are in raw's readings.go.

// ReadCSV reads an RFC 4180 CSV file whose first record is a header row;
// format "csv". Each cell that holds a number (ParseCell: "42", "51.7%",
// "60s", "1,234") is a reading "<row key>.<column>", where the row key is
// the value of the opt.Key column (whose own cells are not readings) or
// "r<N>" for the N-th data record (1-based), also used when the key cell
// is empty; a column with an empty header is named "c<N>". Other cells
// are not readings. Raw is the number within the cell (without quotes).
// A [[read]] with select (opt.Keep) keeps only the selected cells and
// counts: rows are read one at a time, so a large file costs memory for
// what is selected, not for every number in it.
// A column whose name defines a unit (latency_ms, duration_seconds,
// size_bytes, "latency (ms)"; see csvColumnUnit) gives its cells that
// unit; a cell that writes another unit is an error.
//
// opt.CountWhere maps a reading name to an expr-lang predicate over a
// row's columns, each column bound by its header name (use
// $env["name with spaces"] for names that are not identifiers) to a
// float64 when its cell is a number and to the cell string otherwise. The
// predicate is compiled once; the reading's Number is the exact count of
// rows where it is true, Raw the predicate text, Pos the first byte of the
// header row and Inputs the position of the first cell of every matching
// row. A predicate that does not compile, names a column the header lacks
// or fails on a row is an error. A predicate has at most 1,000 syntax
// nodes and builds at most 1,000 elements on a row (the elements of
// ranges, arrays and maps, the bytes of repeat()); `let` and reduce() are
// refused (PredicateMaxNodes, PredicateBudget): count(1..900000, # > 0)
// is an error at the first row, so a row costs bounded time.
//
// Errors: an empty file, a record whose field count differs from the
// header's (at its line), malformed quoting (at the csv package's
// line:col), and an opt.Key column the header lacks.
func ReadCSV(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceCSV)
	if errs != nil {
		return nil, errs
	}
	cr := csv.NewReader(bytes.NewReader(src[raw.TextStart(src):]))
	cr.ReuseRecord = false
	cr.FieldsPerRecord = 0
	header, err := cr.Read()
	if err == io.EOF {
		r.Errorf(0, "empty CSV file; expected a header row")
		return r.Result()
	}
	if err != nil {
		csvError(r, err)
		return r.Result()
	}
	if len(header) == 0 {
		r.Errorf(0, "empty header row; expected column names")
		return r.Result()
	}
	hl, hc := cr.FieldPos(0)
	headerOff := lineCol(r, hl, hc)
	cols := make([]string, len(header))
	env := types.Map{}
	for i, h := range header {
		cols[i] = h
		if strings.TrimSpace(h) == "" {
			cols[i] = fmt.Sprintf("c%d", i+1)
		}
		env[h] = types.Any
	}
	keyCol := -1
	if opt.Key != "" {
		for i, h := range header {
			if h == opt.Key {
				keyCol = i
				break
			}
		}
		if keyCol < 0 {
			r.Errorf(headerOff, "key column %q is not in the header; expected one of %s", opt.Key, strings.Join(quoteAll(header), ", "))
			return r.Result()
		}
	}
	type counter struct {
		name, pred string
		prog       *vm.Program
		count      int64
		inputs     []diag.Position
		failed     bool
	}
	var counters []*counter
	names := make([]string, 0, len(opt.CountWhere))
	for name := range opt.CountWhere {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		pred := opt.CountWhere[name]
		prog, err := compilePredicate(pred, expr.Env(env), expr.AsBool())
		if err != nil {
			r.Errorf(headerOff, "count_where %q: cannot compile %s: %s; expected an expr-lang predicate over the columns %s", name, quoteCut(pred, quoteLen), firstLine(err.Error()), strings.Join(quoteAll(header), ", "))
			continue
		}
		counters = append(counters, &counter{name: name, pred: pred, prog: prog})
	}
	var (
		cells   []raw.Reading // numeric cells, whose commas are resolved at the end
		seen    raw.CommaSeen
		machine vm.VM
	)
	colUnit := make([]string, len(header))
	for i, h := range header {
		colUnit[i] = csvColumnUnit(h)
	}
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
				r.Errorf(lineCol(r, pe.StartLine, 1), "record has %d fields; expected %d like the header at line %d", len(rec), len(header), hl)
				continue
			}
			csvError(r, err)
			break
		}
		if len(rec) != len(header) {
			continue
		}
		rowKey := fmt.Sprintf("r%d", row)
		if keyCol >= 0 && strings.TrimSpace(rec[keyCol]) != "" {
			rowKey = strings.TrimSpace(rec[keyCol])
		}
		vals := make(map[string]any, len(rec))
		for j, cell := range rec {
			n, ok := raw.ParseCell(cell)
			if !ok {
				if _, dup := vals[header[j]]; !dup {
					vals[header[j]] = cell
				}
				if why := raw.Unreadable(cell); why != "" && j != keyCol {
					line, col := cr.FieldPos(j)
					r.Warnf(lineCol(r, line, col), "cell %q looks numeric but is not read (%s); expected one number such as 40.5, \"1,234.5\" or 12ms", cell, why)
				}
				continue
			}
			if _, dup := vals[header[j]]; !dup {
				vals[header[j]] = n.Value.InexactFloat64()
			}
			if j == keyCol {
				continue
			}
			line, col := cr.FieldPos(j)
			off := lineCol(r, line, col)
			if off < len(src) && src[off] == '"' {
				off++
			}
			tok := cell[n.Start:n.End]
			if o := off + n.Start; o+len(tok) <= len(src) && string(src[o:o+len(tok)]) == tok {
				if u := colUnit[j]; u != "" && n.Unit != "" && n.Unit != u {
					r.Errorf(o, "cell %q writes %s but column %q is in %s; expected a number without a unit or in %s", cell, n.Unit, header[j], u, u)
					continue
				}
				if n.Unit == "" && colUnit[j] != "" {
					n.Unit, n.UnitFromName = colUnit[j], true
				}
				seen.Add(n)
				key := rowKey + "." + cols[j]
				if opt.Keep != nil && !opt.Keep(key) && !strings.Contains(tok, ",") {
					continue // not kept; a comma still goes through ResolveCommas for its findings
				}
				n.Start, n.End = 0, len(tok)
				cells = append(cells, raw.Reading{Key: key, Number: n, Raw: tok, Pos: r.Index.Pos(o)})
			}
		}
		if len(counters) > 0 {
			line, col := cr.FieldPos(0)
			first := r.Index.Pos(lineCol(r, line, col))
			for _, c := range counters {
				if c.failed {
					continue
				}
				ok, err := runPredicate(&machine, c.prog, vals)
				if err != nil {
					c.failed = true
					r.Errorf(first.Offset, "count_where %q: %s fails on this row: %s; expected a predicate that holds or fails on every row", c.name, quoteCut(c.pred, quoteLen), firstLine(err.Error()))
					continue
				}
				if ok {
					c.count++
					c.inputs = append(c.inputs, first)
				}
			}
		}
	}
	resolved, rerrs := raw.ResolveCommas(cells, opt.Decimal, seen.Mark())
	r.Errs = append(r.Errs, rerrs...)
	for _, c := range resolved {
		if opt.Keep != nil && !opt.Keep(c.Key) {
			continue
		}
		n := r.Out.Len()
		r.Add(c.Key, c.Pos.Offset, c.Raw, c.Number.Value, c.Number.Unit)
		if r.Out.Len() > n {
			r.Out.Ref(n).Number.UnitFromName = c.Number.UnitFromName
		}
	}
	for _, c := range counters {
		if c.failed || opt.Keep != nil && !opt.Keep(c.name) {
			continue
		}
		r.Out.Add(raw.Reading{Key: c.name, Number: raw.Number{Value: decimal.NewFromInt(c.count), End: len(c.pred)},
			Raw: c.pred, Pos: r.Index.Pos(headerOff), Inputs: c.inputs})
	}
	return r.Result()
}

// runPredicate runs a compiled predicate on machine (one per read,
// reused row after row: a new machine per row costs kilobytes), turning
// a panic into an error.
func runPredicate(machine *vm.VM, prog *vm.Program, env map[string]any) (ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			ok, err = false, fmt.Errorf("%v", p)
			if strings.Contains(err.Error(), "memory budget exceeded") {
				err = budgetError()
			}
		}
	}()
	machine.MemoryBudget = PredicateBudget
	out, err := machine.Run(prog, env)
	if err != nil {
		if strings.Contains(err.Error(), "memory budget exceeded") {
			return false, budgetError()
		}
		return false, err
	}
	b, isBool := out.(bool)
	if !isBool {
		return false, fmt.Errorf("result %v is not a boolean", out)
	}
	return b, nil
}

// csvError reports an encoding/csv error at its line and column.
func csvError(r *raw.Recorder, err error) {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		r.Errorf(lineCol(r, pe.Line, pe.Column), "%v; expected RFC 4180 CSV (quote fields holding commas or quotes, double quotes inside them)", pe.Err)
		return
	}
	r.Errorf(0, "%v; expected RFC 4180 CSV", err)
}

// lineCol converts a 1-based line and byte column into an offset inside
// that line (clamped to its end).
func lineCol(r *raw.Recorder, line, col int) int {
	s := r.Index.LineStart(line)
	if s < 0 {
		return len(r.Src)
	}
	if line == 1 {
		s += raw.TextStart(r.Src) // encoding/csv counts columns after the BOM
	}
	end := len(r.Src)
	if i := bytes.IndexByte(r.Src[s:], '\n'); i >= 0 {
		end = s + i
		if end > s && r.Src[end-1] == '\r' {
			end--
		}
	}
	off := s + col - 1
	if col < 1 {
		off = s
	}
	if off > end {
		off = end
	}
	return off
}

// quoteAll quotes each of ss as a Go string literal.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// csvColumnSuffixes are the unit suffixes of CSV column names
// (latency_ms, duration_seconds, size_bytes) and the unit each names.
var csvColumnSuffixes = []struct{ suffix, unit string }{
	{"_seconds", "s"}, {"_secs", "s"}, {"_sec", "s"}, {"_s", "s"},
	{"_milliseconds", "ms"}, {"_ms", "ms"}, {"_microseconds", "us"}, {"_us", "us"}, {"_nanoseconds", "ns"}, {"_ns", "ns"},
	{"_bytes", "B"}, {"_percent", "%"}, {"_pct", "%"}, {"_qps", "/s"}, {"_rps", "/s"},
}

// csvColumnUnitWords are the units a CSV header writes in parentheses or
// brackets after the column name ("latency (ms)", "size [bytes]").
var csvColumnUnitWords = map[string]string{
	"s": "s", "sec": "s", "seconds": "s", "ms": "ms", "us": "us", "µs": "us", "ns": "ns",
	"b": "B", "bytes": "B", "%": "%", "/s": "/s", "qps": "/s", "rps": "/s", "req/s": "/s",
}

// csvColumnBracket is a column name ending in a parenthesised or
// bracketed unit.
var csvColumnBracket = regexp.MustCompile(`[(\[]\s*([^()\[\]]+?)\s*[)\]]\s*$`)

// csvColumnUnit returns the unit a CSV column name defines: a suffix
// (csvColumnSuffixes, case-insensitive) or a unit in parentheses or
// brackets at its end (csvColumnUnitWords); "" when it defines none.
func csvColumnUnit(name string) string {
	lower := strings.ToLower(strings.TrimSpace(name))
	if m := csvColumnBracket.FindStringSubmatch(lower); m != nil {
		return csvColumnUnitWords[m[1]]
	}
	for _, s := range csvColumnSuffixes {
		if strings.HasSuffix(lower, s.suffix) && len(lower) > len(s.suffix) {
			return s.unit
		}
	}
	return ""
}
