package labreport

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Cell is one table cell: its text with surrounding blanks trimmed and the
// position of the text's first byte (of the cell's pipe when it is empty).
type Cell struct {
	Text string
	Pos  diag.Position
}

// Table is a GFM pipe table found in a Markdown report, with the nearest
// ATX heading above it ("" when there is none). Rows excludes the header and
// delimiter rows; a row has as many cells as its line wrote.
type Table struct {
	Heading    string
	HeadingPos diag.Position
	Pos        diag.Position // first byte of the header row
	Header     []Cell
	Rows       [][]Cell
}

var (
	atxHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	delimiterRow = regexp.MustCompile(`^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$`)
	fenceOpen    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// ReadTables returns the GFM pipe tables of a Markdown report, in order.
// file names src in positions. Tables inside fenced code blocks are ignored.
// A header whose delimiter row has a different number of cells is reported
// as an error at the delimiter row, as is text that is not clean UTF-8 (see
// CheckRawText).
func ReadTables(file string, src []byte) ([]Table, diag.List) {
	ix := diag.NewLineIndex(file, src)
	if errs := raw.CheckRawText(ix, src); errs != nil {
		return nil, errs
	}
	var (
		tables  []Table
		errs    diag.List
		heading string
		hpos    diag.Position
		fence   string
	)
	lines := raw.SplitLines(src)
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		text := string(src[ln.Start:ln.End])
		if fence != "" {
			if strings.HasPrefix(strings.TrimLeft(text, " "), fence) {
				fence = ""
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(text); m != nil {
			fence = m[1]
			continue
		}
		if m := atxHeading.FindStringSubmatchIndex(text); m != nil {
			heading = ""
			hpos = ix.Pos(ln.Start)
			if m[4] >= 0 {
				heading = text[m[4]:m[5]]
				hpos = ix.Pos(ln.Start + m[4])
			}
			continue
		}
		if !strings.Contains(text, "|") || i+1 >= len(lines) {
			continue
		}
		next := lines[i+1]
		ntext := string(src[next.Start:next.End])
		if !delimiterRow.MatchString(ntext) || !strings.Contains(ntext, "-") {
			continue
		}
		header := splitRow(ix, src, ln)
		delim := splitRow(ix, src, next)
		if len(header) != len(delim) {
			errs = append(errs, diag.Errorf(ix.Pos(next.Start), diag.EvidenceTable,
				"table delimiter row has %d cells but its header row has %d; expected one delimiter per header cell", len(delim), len(header)))
			i++
			continue
		}
		t := Table{Heading: heading, HeadingPos: hpos, Pos: ix.Pos(ln.Start), Header: header}
		i += 2
		for ; i < len(lines); i++ {
			r := lines[i]
			rtext := string(src[r.Start:r.End])
			if strings.TrimSpace(rtext) == "" || !strings.Contains(rtext, "|") {
				break
			}
			row := splitRow(ix, src, r)
			if len(row) != len(header) {
				errs = append(errs, diag.Errorf(ix.Pos(r.Start), diag.EvidenceTable,
					"table row has %d cells but its header row has %d; expected one cell per column (an empty cell is written | |)", len(row), len(header)))
			}
			t.Rows = append(t.Rows, row)
		}
		i--
		tables = append(tables, t)
	}
	return tables, errs
}

// splitRow splits a table row on pipes that are not escaped with a
// backslash, dropping the optional leading and trailing pipe.
func splitRow(ix *diag.LineIndex, src []byte, ln raw.LineSpan) []Cell {
	var bounds []int // offsets of separating pipes
	for j := ln.Start; j < ln.End; j++ {
		if src[j] == '\\' {
			j++
			continue
		}
		if src[j] == '|' {
			bounds = append(bounds, j)
		}
	}
	// Cells lie between consecutive boundaries; line edges are boundaries
	// unless the row starts or ends with a pipe.
	lineText := string(src[ln.Start:ln.End])
	trimmedLeft := strings.TrimLeft(lineText, " \t")
	trimmedRight := strings.TrimRight(lineText, " \t")
	edges := []int{}
	if !strings.HasPrefix(trimmedLeft, "|") {
		edges = append(edges, ln.Start-1)
	}
	edges = append(edges, bounds...)
	if !strings.HasSuffix(trimmedRight, "|") || strings.HasSuffix(trimmedRight, "\\|") {
		edges = append(edges, ln.End)
	}
	var cells []Cell
	for k := 0; k+1 < len(edges); k++ {
		a, b := edges[k]+1, edges[k+1]
		raw := string(src[a:b])
		lead := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
		text := strings.TrimSpace(raw)
		pos := ix.Pos(a + lead)
		if text == "" {
			pos = ix.Pos(edges[k] + 1)
		}
		cells = append(cells, Cell{Text: text, Pos: pos})
	}
	return cells
}

// CellNumber reads the number a table cell holds (ParseCell) as a reading
// keyed key at the number's own position (Raw is the number's text). A
// cell that is not a number gives false and, when it still looks numeric
// (Unreadable), a warning to report: a cell never vanishes silently. The
// reading's commas are not resolved yet (ResolveCommas, with the mark
// TableCommas sees in the file).
func CellNumber(key string, c Cell) (raw.Reading, *diag.Diagnostic, bool) {
	n, ok := raw.ParseCell(c.Text)
	if !ok {
		end := c.Pos
		end.Column += len(c.Text)
		end.Offset += len(c.Text)
		if why := raw.Unreadable(c.Text); why != "" {
			return raw.Reading{}, &diag.Diagnostic{Pos: c.Pos, End: end, Severity: diag.Warning, Rule: diag.EvidenceNumber,
				Message: fmt.Sprintf("cell %q looks numeric but is not read (%s); expected one number such as 40.5, 1,234.5 or 12ms", c.Text, why)}, false
		}
		if fs := raw.NumericFields(c.Text); len(fs) > 0 {
			// Prose or several numbers in one cell ("566 / 665 p/s",
			// "istio-proxy: 0.249, nginx: 0.061"): none is read.
			var quoted []string
			for _, f := range fs {
				quoted = append(quoted, fmt.Sprintf("%q", c.Text[f[0]:f[1]]))
			}
			what := "number " + quoted[0] + " is"
			if len(fs) > 1 {
				what = fmt.Sprintf("%d numbers (%s) are", len(fs), strings.Join(quoted, ", "))
			}
			return raw.Reading{}, &diag.Diagnostic{Pos: c.Pos, End: end, Severity: diag.Warning, Rule: diag.EvidenceNumber,
				Message: fmt.Sprintf("cell %q is not one number: %s not read; expected one number per cell (a column per number)", c.Text, what)}, false
		}
		return raw.Reading{}, nil, false
	}
	pos := c.Pos
	pos.Column += n.Start
	pos.Offset += n.Start
	tok := c.Text[n.Start:n.End]
	n.Start, n.End = 0, len(tok)
	return raw.Reading{Key: key, Number: n, Raw: tok, Pos: pos}, nil, true
}

// SpreadSuffix ends the key of the spread a table cell writes after ±
// ("319.5 ± 11.2" under "Mean [ms]": mean, and mean_pm for 11.2). It
// names what the cell prints, a number after ±, whatever statistic the
// tool meant by it (hyperfine's standard deviation, a confidence
// interval's half-width).
const SpreadSuffix = "_pm"

// CellReadings reads a table cell as CellNumber does, and a cell written
// "A ± B" (also "A +/- B"), as hyperfine, criterion and benchstat print a
// mean and its spread, as two readings: A keyed key and B keyed
// key+SpreadSuffix, each at its own position, B's SpreadOf naming key. A
// unit written once applies to both ("319.5 ± 11.2 ms"); a percentage
// after a number in another unit (or none) is a relative spread ("825 ±
// 11%": SpreadRelative); "44% ± 2%" is 44 % ± 2 points. colUnit is the
// unit the column header states ("Mean [ms]": HeaderUnit), given to a
// number that writes none.
func CellReadings(key string, c Cell, colUnit string) ([]raw.Reading, *diag.Diagnostic, bool) {
	at, pm := plusMinus(c.Text)
	if at <= 0 {
		r, warn, ok := CellNumber(key, c)
		if ok && r.Number.Unit == "" {
			r.Number.Unit = colUnit
		}
		if !ok {
			return nil, warn, false
		}
		return []raw.Reading{r}, nil, true
	}
	left := Cell{Text: c.Text[:at], Pos: c.Pos}
	rpos := c.Pos
	rpos.Column += at + len(pm)
	rpos.Offset += at + len(pm)
	right := Cell{Text: c.Text[at+len(pm):], Pos: rpos}
	a, _, okA := CellNumber(key, left)
	b, _, okB := CellNumber(key+SpreadSuffix, right)
	if !okA || !okB || b.Number.Signed || b.Number.Value.IsNegative() || strings.TrimSpace(left.Text) == "" {
		end := c.Pos
		end.Column += len(c.Text)
		end.Offset += len(c.Text)
		return nil, &diag.Diagnostic{Pos: c.Pos, End: end, Severity: diag.Warning, Rule: diag.EvidenceNumber,
			Message: fmt.Sprintf("cell %q is not read: expected a mean and its spread written A %s B, each one number such as 319.5 or 11.2ms", c.Text, pm)}, false
	}
	b.SpreadOf = key
	switch au, bu := a.Number.Unit, b.Number.Unit; {
	case bu == "%" && au != "%":
		b.SpreadRelative = true
		if au == "" {
			a.Number.Unit = colUnit
		}
	case au == "" && bu == "":
		a.Number.Unit, b.Number.Unit = colUnit, colUnit
	case au == "":
		a.Number.Unit = bu
	case bu == "":
		b.Number.Unit = au
	}
	return []raw.Reading{a, b}, nil, true
}

// plusMinus returns the byte offset of the ± (or +/-) that separates a
// mean from its spread in text, and the sign as written; -1 when there is
// none.
func plusMinus(text string) (int, string) {
	for _, pm := range []string{"±", "+/-"} {
		if i := strings.Index(text, pm); i >= 0 {
			return i, pm
		}
	}
	return -1, ""
}

// headerUnit is a unit in brackets at the end of a column header, as
// hyperfine's --export-markdown writes it ("Mean [ms]", "Min [s]").
var headerUnit = regexp.MustCompile(`\[\s*([^\[\]]+?)\s*\]\s*$`)

// HeaderUnit returns the unit a column header states in brackets at its
// end ("Mean [ms]" gives ms, "Min [µs]" us): a unit the cell grammar
// reads (ParseCell), as its canonical name; "" when the header states
// none or brackets something else ("Build [debug]").
func HeaderUnit(header string) string {
	m := headerUnit.FindStringSubmatch(header)
	if m == nil {
		return ""
	}
	n, ok := raw.ParseCell("0 " + m[1])
	if !ok || n.Unit == "" {
		return ""
	}
	return n.Unit
}

// TableCommas returns the decimal mark the numbers of tables show (see
// CommaSeen).
func TableCommas(tables []Table) raw.Decimal {
	var seen raw.CommaSeen
	for _, t := range tables {
		for _, row := range t.Rows {
			for _, c := range row {
				text := c.Text
				if at, pm := plusMinus(text); at > 0 {
					if n, ok := raw.ParseCell(text[at+len(pm):]); ok {
						seen.Add(n)
					}
					text = text[:at]
				}
				if n, ok := raw.ParseCell(text); ok {
					seen.Add(n)
				}
			}
		}
	}
	return seen.Mark()
}

// ReadTablesAsReadings names every numeric cell of a report's tables
// "t<N>.<row label>.<column label>" (N is the 1-based table number); a
// cell "A ± B" (hyperfine's "319.5 ± 11.2") gives that key for the mean
// and "<key>_pm" for its spread, and a unit in brackets ending a header
// ("Mean [ms]") applies to its column's cells.
func ReadTablesAsReadings(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	tables, errs := ReadTables(file, src)
	var out []raw.Reading
	for i, t := range tables {
		for _, row := range t.Rows {
			if len(row) == 0 {
				continue
			}
			for j := 1; j < len(row) && j < len(t.Header); j++ {
				rs, warn, _ := CellReadings(fmt.Sprintf("t%d.%s.%s", i+1, row[0].Text, t.Header[j].Text), row[j], HeaderUnit(t.Header[j].Text))
				if warn != nil {
					errs = append(errs, *warn)
				}
				out = append(out, rs...)
			}
		}
	}
	out, rerrs := raw.ResolveCommas(out, opt.Decimal, TableCommas(tables))
	errs = append(errs, rerrs...)
	errs.Sort()
	return raw.ListOf(file, src, out), errs
}
