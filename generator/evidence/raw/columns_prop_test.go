package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// The property every reader of rows × columns holds: a reading's
// (row, column) is the one its value was printed in. Tables are generated
// with a distinct value in each cell ("<row>.<column>": 3.2 is row 3,
// column 2), random cells blanked and random row names dropped, written in
// each format's layout and read back. A value never moves to another
// column or row: every reading that names a cell holds that cell's value,
// every printed value of a named row is read under its own key, and a row
// whose name is missing gives no reading named after another row and a
// diagnostic on its line (or the name the format defines for it).

// propTable is a generated table: row names ("" for a dropped name),
// column names, and cells ("" for a blank one).
type propTable struct {
	rows  []string
	cols  []string
	cells [][]string
}

// withCols returns t with n columns (cut, or filled with values).
func (t propTable) withCols(n int) propTable {
	out := propTable{rows: t.rows}
	for c := 0; c < n; c++ {
		out.cols = append(out.cols, fmt.Sprintf("col%c", 'a'+c))
	}
	for r, cells := range t.cells {
		var row []string
		for c := 0; c < n; c++ {
			if c < len(cells) {
				row = append(row, cells[c])
			} else {
				row = append(row, fmt.Sprintf("%d.%d", r+1, c+1))
			}
		}
		out.cells = append(out.cells, row)
	}
	return out
}

// genTable makes a table of 1–4 rows and 1–4 columns; blank is the chance
// of a blank cell, noName of a dropped row name.
func genTable(rng *rand.Rand, blank, noName float64) propTable {
	t := propTable{}
	nc := 1 + rng.Intn(4)
	for c := 0; c < nc; c++ {
		t.cols = append(t.cols, fmt.Sprintf("col%c", 'a'+c))
	}
	nr := 1 + rng.Intn(4)
	for r := 0; r < nr; r++ {
		name := fmt.Sprintf("Row%d", r+1)
		if rng.Float64() < noName {
			name = ""
		}
		t.rows = append(t.rows, name)
		var cells []string
		for c := 0; c < nc; c++ {
			v := fmt.Sprintf("%d.%d", r+1, c+1)
			if rng.Float64() < blank {
				v = ""
			}
			cells = append(cells, v)
		}
		if strings.Join(cells, "") == "" {
			cells[rng.Intn(nc)] = fmt.Sprintf("%d.%d", r+1, 1) // a row of blanks is a blank line, which ends a table
			for c := range cells {
				if cells[c] != "" {
					cells[c] = fmt.Sprintf("%d.%d", r+1, c+1)
				}
			}
		}
		t.cells = append(t.cells, cells)
	}
	return t
}

// propFormat writes a table in one format and names its cells.
type propFormat struct {
	name string
	// write renders t; lines[r] is the 1-based line of row r.
	write func(t propTable) (src string, lines []int)
	// key is the reading key of the value of row name at column c; "" when
	// the format gives the row no name of its own (a diagnostic is due).
	key func(t propTable, r, c int) string
	// delta, when set, is the key of the comparison printed with the
	// value of row r at column c ("" for none); it writes the cell's value.
	delta func(t propTable, r, c int) string
	// valueKey reports whether a reading key names a cell's value (not a
	// variation, delta or count the format reads besides).
	valueKey func(key string) bool
	opts     raw.ReadOptions
	// cols, when not 0, is the number of columns the layout has.
	cols int
}

// padRight and padLeft pad s with spaces to n characters.
func padRight(s string, n int) string { return s + strings.Repeat(" ", max(n-len([]rune(s)), 0)) }
func padLeft(s string, n int) string  { return strings.Repeat(" ", max(n-len([]rune(s)), 0)) + s }

func nameWidth(t propTable) int {
	w := 6
	for _, r := range t.rows {
		w = max(w, len(r)+3)
	}
	return w
}

func propFormats() []propFormat {
	allCols := func(string) bool { return true }
	return []propFormat{
		{
			name: "benchstat", // the new format: columns between │
			write: func(t propTable) (string, []int) {
				w := nameWidth(t)
				var b strings.Builder
				widths := make([]int, len(t.cols))
				for c := range t.cols {
					widths[c] = 34 // "1.1 ± 1%  +1.1% (p=0.000 n=10)" fits
				}
				b.WriteString(strings.Repeat(" ", w) + "│")
				for c, name := range t.cols {
					b.WriteString(padRight("  "+name+".txt", widths[c]) + "│")
				}
				b.WriteString("\n" + strings.Repeat(" ", w) + "│")
				for c := range t.cols {
					h := "  allocs/op"
					if c > 0 {
						h += "   vs base"
					}
					b.WriteString(padRight(h, widths[c]) + "│")
				}
				b.WriteString("\n")
				var lines []int
				for r, name := range t.rows {
					lines = append(lines, 3+r)
					if name != "" {
						name += "-8"
					}
					b.WriteString(padRight(name, w) + " ")
					for c, v := range t.cells[r] {
						cell := ""
						if v != "" {
							cell = v + " ± 1%"
							if c > 0 {
								cell += "  +" + v + "% (p=0.000 n=10)"
							}
						}
						b.WriteString(padRight(" "+cell, widths[c]) + " ")
					}
					b.WriteString("\n")
				}
				return b.String(), lines
			},
			key: func(t propTable, r, c int) string {
				if t.rows[r] == "" {
					return ""
				}
				return t.rows[r] + ".allocs_op." + t.cols[c]
			},
			delta: func(t propTable, r, c int) string {
				switch {
				case t.rows[r] == "" || c == 0:
					return ""
				case len(t.cols) == 2:
					return t.rows[r] + ".allocs_op.delta"
				}
				return t.rows[r] + ".allocs_op." + t.cols[c] + "_delta"
			},
			valueKey: func(k string) bool {
				return !strings.Contains(k, "_var") && !strings.HasSuffix(k, "_p") && !strings.HasSuffix(k, "_n") && !strings.HasSuffix(k, ".p") && !strings.HasSuffix(k, ".n")
			},
		},
		{
			name: "benchstat-old", // the old format: right-aligned cells under header words
			write: func(t propTable) (string, []int) {
				w := nameWidth(t)
				var b strings.Builder
				b.WriteString(padRight("name", w) + padRight("old allocs/op", 16) + padRight("new allocs/op", 16) + "delta\n")
				var lines []int
				for r, name := range t.rows {
					lines = append(lines, 2+r)
					if name != "" {
						name += "-8"
					}
					old, nw := "", ""
					if v := t.cells[r][0]; v != "" {
						old = v + " ± 1%"
					}
					if len(t.cells[r]) > 1 && t.cells[r][1] != "" {
						nw = t.cells[r][1] + " ± 2%"
					}
					b.WriteString(padRight(name, w) + padLeft(old, 13) + "   " + padLeft(nw, 13) + "   ")
					if old != "" && nw != "" {
						b.WriteString("+" + t.cells[r][0] + "%  (p=0.000 n=10+10)")
					}
					b.WriteString("\n")
				}
				return b.String(), lines
			},
			key: func(t propTable, r, c int) string {
				if t.rows[r] == "" || c > 1 {
					return ""
				}
				return t.rows[r] + ".allocs_op." + []string{"old", "new"}[c]
			},
			valueKey: func(k string) bool { return strings.HasSuffix(k, ".old") || strings.HasSuffix(k, ".new") },
			cols:     2,
		},
		{
			name: "markdown-tables",
			write: func(t propTable) (string, []int) {
				var b strings.Builder
				b.WriteString("| name | " + strings.Join(t.cols, " | ") + " |\n|---|" + strings.Repeat("---|", len(t.cols)) + "\n")
				var lines []int
				for r, name := range t.rows {
					lines = append(lines, 3+r)
					b.WriteString("| " + name + " | " + strings.Join(t.cells[r], " | ") + " |\n")
				}
				return b.String(), lines
			},
			key: func(t propTable, r, c int) string {
				if t.rows[r] == "" {
					return ""
				}
				return "t1." + t.rows[r] + "." + t.cols[c]
			},
			valueKey: allCols,
		},
		{
			name: "csv",
			write: func(t propTable) (string, []int) {
				var b strings.Builder
				b.WriteString("name," + strings.Join(t.cols, ",") + "\n")
				var lines []int
				for r, name := range t.rows {
					lines = append(lines, 2+r)
					b.WriteString(name + "," + strings.Join(t.cells[r], ",") + "\n")
				}
				return b.String(), lines
			},
			key: func(t propTable, r, c int) string {
				name := t.rows[r]
				if name == "" {
					name = fmt.Sprintf("r%d", r+1) // the row number names a row without a key (ReadCSV)
				}
				return name + "." + t.cols[c]
			},
			valueKey: allCols,
			opts:     raw.ReadOptions{Key: "name"},
		},
		{
			name: "istioctl-table",
			write: func(t propTable) (string, []int) {
				w := nameWidth(t) + 2
				var b strings.Builder
				b.WriteString(padRight("NAME", w))
				for _, c := range t.cols {
					b.WriteString(padRight(strings.ToUpper(c), 10))
				}
				b.WriteString("\n")
				var lines []int
				for r, name := range t.rows {
					lines = append(lines, 2+r)
					b.WriteString(padRight(name, w))
					for _, v := range t.cells[r] {
						b.WriteString(padRight(v, 10))
					}
					b.WriteString("\n")
				}
				return b.String(), lines
			},
			key: func(t propTable, r, c int) string {
				name := t.rows[r]
				if name == "" {
					name = fmt.Sprintf("r%d", r+1) // the row number names a row with an empty first cell (ReadIstioctlTable)
				}
				return name + "." + strings.ToUpper(t.cols[c])
			},
			valueKey: func(k string) bool { return !strings.HasSuffix(k, ".rows") },
		},
		{
			name: "kubectl",
			write: func(t propTable) (string, []int) {
				w := nameWidth(t)
				var b strings.Builder
				b.WriteString(padRight("NAME", w))
				for _, c := range t.cols {
					b.WriteString(padRight(strings.ToUpper(c)+"(cores)", 16))
				}
				b.WriteString("\n")
				var lines []int
				for r, name := range t.rows {
					lines = append(lines, 2+r)
					b.WriteString(padRight(name, w))
					for _, v := range t.cells[r] {
						b.WriteString(padRight(v, 16))
					}
					b.WriteString("\n")
				}
				return b.String(), lines
			},
			key: func(t propTable, r, c int) string {
				if t.rows[r] == "" {
					return ""
				}
				return t.rows[r] + "." + t.cols[c] + "_cores"
			},
			valueKey: allCols,
		},
	}
}

// TestTableColumnsNeverShift is the property above, over 400 tables per
// format.
func TestTableColumnsNeverShift(t *testing.T) {
	for _, f := range propFormats() {
		t.Run(f.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(31))
			format := f.name
			if format == "benchstat-old" {
				format = "benchstat"
			}
			read, err := formats.ReaderFor(format)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 400; i++ {
				tbl := genTable(rng, 0.3, 0.15)
				if f.cols > 0 {
					tbl = tbl.withCols(f.cols)
				}
				src, lines := f.write(tbl)
				rs, errs := read("t.txt", []byte(src), f.opts)
				if msg := checkColumns(f, tbl, lines, rs, errs); msg != "" {
					t.Fatalf("%s\n%s\nreadings:\n%s\ndiagnostics:\n%v", msg, src, dumpReadings(rs), errs)
				}
			}
		})
	}
}

// checkColumns returns what breaks the property for one table, or "".
// A reading of a row without a name must have a key with an empty part
// (t1..cola): the evidence layer reports such a key at the reading
// ("has a key with an empty part") and names no value by it.
func checkColumns(f propFormat, tbl propTable, lines []int, rs []raw.Reading, errs diag.List) string {
	want := map[string]string{} // key → the value printed under it
	for r := range tbl.rows {
		for c, v := range tbl.cells[r] {
			if v == "" {
				continue
			}
			if k := f.key(tbl, r, c); k != "" {
				want[k] = v
			}
			if f.delta != nil {
				if k := f.delta(tbl, r, c); k != "" {
					want[k] = v
				}
			}
		}
	}
	rowOf := map[int]int{}
	for r, ln := range lines {
		rowOf[ln] = r
	}
	got := map[string]bool{}
	for _, rd := range rs {
		if !f.valueKey(rd.Key) {
			continue
		}
		r, onRow := rowOf[rd.Pos.Line]
		if !onRow {
			return fmt.Sprintf("reading %s = %s at %d:%d is on no row", rd.Key, rd.Number.Value, rd.Pos.Line, rd.Pos.Column)
		}
		if tbl.rows[r] == "" && f.key(tbl, r, 0) == "" {
			if !emptyPart(raw.BaseKey(rd.Key)) {
				return fmt.Sprintf("reading %s = %s of row %d, which has no name, is named as if it had one", rd.Key, rd.Number.Value, r+1)
			}
			for c, col := range tbl.cols {
				if strings.Contains(rd.Key, "."+col) && !rd.Number.Value.Equal(decimal.RequireFromString(tbl.cells[r][c])) {
					return fmt.Sprintf("reading %s = %s, but %q was printed in that cell: a value moved", rd.Key, rd.Number.Value, tbl.cells[r][c])
				}
			}
			continue
		}
		v, ok := want[rd.Key]
		if !ok {
			return fmt.Sprintf("reading %s = %s at %d:%d names no printed cell", rd.Key, rd.Number.Value, rd.Pos.Line, rd.Pos.Column)
		}
		if !rd.Number.Value.Equal(decimal.RequireFromString(v)) {
			return fmt.Sprintf("reading %s = %s, but %s was printed in that cell: a value moved", rd.Key, rd.Number.Value, v)
		}
		got[rd.Key] = true
	}
	if errs.HasErrors() {
		return "" // the file does not load: every value is unavailable, and said so
	}
	rowDiag := func(line int) bool {
		for _, d := range errs {
			if d.Pos.Line == line {
				return true
			}
		}
		return false
	}
	for k, v := range want {
		if got[k] {
			continue
		}
		for r := range tbl.rows {
			for c := range tbl.cells[r] {
				if f.key(tbl, r, c) == k && !rowDiag(lines[r]) {
					return fmt.Sprintf("value %s of %s (line %d) is not read and not reported", v, k, lines[r])
				}
			}
		}
	}
	for r, name := range tbl.rows {
		if name == "" && f.key(tbl, r, 0) == "" && !rowDiag(lines[r]) && !emptyPartOnLine(rs, lines[r]) {
			for _, v := range tbl.cells[r] {
				if v != "" {
					return fmt.Sprintf("row %d has no name and its value %s (line %d) is neither read under a name of its own nor reported", r+1, v, lines[r])
				}
			}
		}
	}
	return ""
}

// emptyPart reports whether a key has an empty part ("t1..cola").
func emptyPart(key string) bool {
	for _, p := range strings.Split(key, ".") {
		if p == "" {
			return true
		}
	}
	return false
}

// emptyPartOnLine reports whether a reading on line has a key with an
// empty part (the evidence layer reports it).
func emptyPartOnLine(rs []raw.Reading, line int) bool {
	for _, r := range rs {
		if r.Pos.Line == line && emptyPart(raw.BaseKey(r.Key)) {
			return true
		}
	}
	return false
}

func dumpReadings(rs []raw.Reading) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%d:%d %s = %s %q\n", r.Pos.Line, r.Pos.Column, r.Key, r.Number.Value, r.Raw)
	}
	return b.String()
}
