package cmdtools

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The reader of istioctl's (and kubectl's) aligned tables
// ("istioctl-table", ReadIstioctlTable). The conventions of every
// lab-format reader are in raw's readings.go.

// istioHeaderWord is one word of a table header: an upper-case column name.
var istioHeaderWord = regexp.MustCompile(`^[A-Z][A-Z0-9_/%().#-]*$`)

// IsIstioHeader reports whether text is a table header: upper-case words at
// the start of the line, at least two of them, separated by runs of
// spaces at least one of which is two or more wide.
func IsIstioHeader(text string) bool {
	if text == "" || text[0] == ' ' || text[0] == '\t' || !strings.Contains(strings.TrimSpace(text), "  ") {
		return false
	}
	f := strings.Fields(text)
	if len(f) < 2 {
		return false
	}
	for _, w := range f {
		if !istioHeaderWord.MatchString(w) {
			return false
		}
	}
	return true
}

// istioLine is a line as runes with the byte offset of each rune (and of the
// line end) relative to the file.
type istioLine struct {
	runes []rune
	offs  []int
}

// splitIstioLine decodes the line ln of src into an istioLine.
func splitIstioLine(src []byte, ln raw.LineSpan) istioLine {
	var l istioLine
	for i := ln.Start; i < ln.End; {
		c, n := utf8.DecodeRune(src[i:ln.End])
		l.runes = append(l.runes, c)
		l.offs = append(l.offs, i)
		i += n
	}
	l.offs = append(l.offs, ln.End)
	return l
}

// space reports whether rune i is a space; outside the line counts as one.
func (l istioLine) space(i int) bool { return i < 0 || i >= len(l.runes) || l.runes[i] == ' ' }

// cell returns the trimmed text of runes [a, b) and its byte offset.
func (l istioLine) cell(a, b int) (string, int) {
	if b > len(l.runes) {
		b = len(l.runes)
	}
	for a < b && l.space(a) {
		a++
	}
	for b > a && l.space(b-1) {
		b--
	}
	if a >= b {
		return "", l.offs[min(a, len(l.runes))]
	}
	return string(l.runes[a:b]), l.offs[a]
}

// istioColumn is a table column: its header name and the rune column where
// that name starts.
type istioColumn struct {
	name  string
	start int // rune column
}

// ReadIstioctlTable reads the whitespace-aligned tables of istioctl
// proxy-config and proxy-status (and kubectl-style tables); format
// "istioctl-table". A table starts at a header line of upper-case column
// names ("SERVICE FQDN   PORT   SUBSET   DIRECTION   TYPE") and runs to the
// next blank line. Column names may hold single spaces; a name after a
// single space still starts its own column when the rows below have text
// there ("ADDRESSES PORT"). Cells are cut at the header's column
// positions, or, for a row that does not line up, at runs of two or more
// spaces when that yields one cell per column.
//
// Each numeric cell (ParseCell) outside the first column is a reading
// "<first column value>.<COLUMN>", e.g.
// "istiod.istio-system.svc.cluster.local.PORT" = 15010 or
// "listener/main_internal.PORT"; rows sharing a first value are numbered
// (#2, …) and a row with an empty first cell is keyed "r<N>". IP:port
// cells, names, versions ("1.1.2") and "-" are not numbers. Each table
// also yields "t<N>.rows" (N 1-based in the file): the number of rows,
// with Raw the first column's name, Pos the header line and Inputs the
// first byte of each row.
//
// Errors: no header line in the file, and a row with numbers that lines
// up with neither the header positions nor its column count.
func ReadIstioctlTable(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceIstioctlTable)
	if errs != nil {
		return nil, errs
	}
	lines := raw.SplitLines(src)
	tables := 0
	for i := 0; i < len(lines); i++ {
		if !IsIstioHeader(string(src[lines[i].Start:lines[i].End])) {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(string(src[lines[j].Start:lines[j].End])) != "" {
			j++
		}
		tables++
		istioTable(r, tables, splitIstioLine(src, lines[i]), lines[i].Start, lines[i+1:j])
		i = j
	}
	if tables == 0 {
		r.Errorf(0, "no table header; expected a line of upper-case column names separated by two or more spaces, such as \"NAME   STATUS   PORT\"")
	}
	return r.Result()
}

// istioTable reads table n (1-based) of a file: its header line head at
// byte offset headOff and its rows, the lines spans. It finds the
// columns, reads each row's numeric cells and adds "t<n>.rows".
func istioTable(r *raw.Recorder, n int, head istioLine, headOff int, spans []raw.LineSpan) {
	rows := make([]istioLine, len(spans))
	for i, s := range spans {
		rows[i] = splitIstioLine(r.Src, s)
	}
	// Header words.
	type word struct{ a, b int }
	var words []word
	for i := 0; i < len(head.runes); {
		if head.space(i) {
			i++
			continue
		}
		a := i
		for i < len(head.runes) && !head.space(i) {
			i++
		}
		words = append(words, word{a, i})
	}
	var cols []istioColumn
	for k, w := range words {
		boundary := k == 0 || w.a-words[k-1].b >= 2
		if !boundary {
			// A single space: a new column only if no row has text
			// across it and some row has text starting under it.
			across, under := false, false
			for _, row := range rows {
				if !row.space(w.a - 1) {
					across = true
				}
				if !row.space(w.a) {
					under = true
				}
			}
			boundary = !across && under
		}
		if boundary {
			cols = append(cols, istioColumn{name: string(head.runes[w.a:w.b]), start: w.a})
		} else {
			c := &cols[len(cols)-1]
			c.name = string(head.runes[c.start:w.b])
		}
	}
	var inputs []diag.Position
	for ri, row := range rows {
		_, firstOff := row.cell(0, len(row.runes))
		inputs = append(inputs, r.Index.Pos(firstOff))
		cells, ok := istioCells(r, row, cols, headOff)
		if !ok {
			continue
		}
		key := cells[0].text
		if key == "" {
			key = fmt.Sprintf("r%d", ri+1)
		}
		for k := 1; k < len(cols); k++ {
			num, ok := raw.ParseCell(cells[k].text)
			if !ok {
				if why := raw.Unreadable(cells[k].text); why != "" && !IstioNonNumber(cells[k].text) {
					r.Warnf(cells[k].off, "cell %q looks numeric but is not read (%s); expected one number", cells[k].text, why)
				}
				continue
			}
			tok := cells[k].text[num.Start:num.End]
			num, warning, err := num.Resolve(tok, raw.DecimalUndeclared, raw.DecimalUndeclared)
			switch {
			case err != "":
				r.Errs = append(r.Errs, diag.Errorf(r.Index.Pos(cells[k].off+num.Start), diag.EvidenceDecimal, "%s", err))
				continue
			case warning != "":
				r.Warnf(cells[k].off+num.Start, "%s", warning)
			}
			r.Add(key+"."+cols[k].name, cells[k].off+num.Start, tok, num.Value, num.Unit)
		}
	}
	r.Out.Add(raw.Reading{Key: fmt.Sprintf("t%d.rows", n), Number: raw.Number{Value: decimal.NewFromInt(int64(len(rows))), End: len(cols[0].name)},
		Raw: cols[0].name, Pos: r.Index.Pos(headOff), Inputs: inputs})
}

// istioCell is a trimmed table cell and the byte offset of its first byte.
type istioCell struct {
	text string
	off  int
}

// istioCells cuts a row into one cell per column: at the header's column
// positions when no text runs across them, else at runs of two or more
// spaces when that gives one cell per column. A row that fits neither is
// skipped, and reported when it holds a number.
func istioCells(r *raw.Recorder, row istioLine, cols []istioColumn, headOff int) ([]istioCell, bool) {
	cells := make([]istioCell, len(cols))
	aligned := true
	for k, c := range cols {
		end := len(row.runes)
		if k+1 < len(cols) {
			end = cols[k+1].start
			if !row.space(end-1) && !row.space(end) {
				aligned = false
				break
			}
		}
		t, off := row.cell(c.start, end)
		if k+1 < len(cols) && strings.Contains(t, "  ") {
			aligned = false
			break
		}
		cells[k] = istioCell{t, off}
	}
	if aligned {
		return cells, true
	}
	var parts []istioCell
	for i := 0; i < len(row.runes); {
		if row.space(i) {
			i++
			continue
		}
		a := i
		for i < len(row.runes) && !(row.space(i) && row.space(i+1)) {
			i++
		}
		t, off := row.cell(a, i)
		parts = append(parts, istioCell{t, off})
	}
	if len(parts) == len(cols) {
		return parts, true
	}
	for _, p := range parts {
		for _, f := range strings.Fields(p.text) {
			if _, ok := raw.ParseCell(f); ok {
				r.Errorf(p.off, "row has %d cells that do not line up with the %d columns of the header at %s; expected cells aligned under the header", len(parts), len(cols), r.Index.Pos(headOff))
				return nil, false
			}
		}
	}
	return nil, false
}

// IstioNonNumber matches kubectl-style cells that start with digits but
// are not quantities to read: ages (5d2h, 3m12s), ready counts (1/1) and
// resource quantities (100m, 128Mi).
var IstioNonNumber = regexp.MustCompile(`^\d+(?:/\d+|[0-9smhdy]*[smhdy]|Ki|Mi|Gi|Ti|k|M|G)$`).MatchString
