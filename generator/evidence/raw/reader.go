package raw

import (
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Reading is one number a raw-file reader found: its key in the format's
// own naming (an Envoy stat name such as
// "cluster.outbound|443||graph.facebook.com.upstream_rq_retry", a JSON
// path, a "row.column" pair), the number, the raw token text and its
// position (first byte of the token). Inputs is set for readings that
// aggregate others (a CSV count-where), listing every input position.
//
// SpreadOf is set on a reading that is the spread a tool printed after ±
// next to another reading of the same file ("319.5 ± 11.2" in a
// hyperfine table: 11.2 is the spread of 319.5; benchstat's "825µs ±11%";
// fortio's "avg A +/- S"): that reading's Key. SpreadRelative is set when
// the spread is a percentage of that value (benchstat's ±11%), not a
// quantity in its unit. Only a reader that sees the ± sets them: the
// relation is read from the format, never guessed from a key's name.
type Reading struct {
	Key    string
	Number Number
	Raw    string
	Pos    diag.Position
	Inputs []diag.Position

	SpreadOf       string
	SpreadRelative bool
}

// ReadOptions carries the format-specific options of a [[read]] manifest
// entry. Fields a format does not use are ignored.
type ReadOptions struct {
	// Key names the CSV column whose value identifies a row (default: the
	// 1-based data row number, "r1", "r2", …).
	Key string
	// CountWhere maps a reading name to an expr-lang predicate over a CSV
	// row's columns; the reading counts the rows where it holds.
	CountWhere map[string]string
	// Decimal is the decimal mark the manifest declares for the file
	// (DecimalUndeclared: the file's own numbers decide, see
	// Number.Resolve). Readers of formats that never write a comma in a
	// number ignore it.
	Decimal Decimal
	// Patterns are the regular expressions of the pattern format, tried
	// in order on each line; Section, when set, is the pattern of a
	// section header line (see package structured's ReadPattern).
	Patterns []string
	Section  string
	// Skip, for the pattern format, is the pattern of lines that are not
	// data (a table's column header whose numbers are names).
	Skip string
	// Paths lists JSON paths ("a.b[0].c") to read from a generic JSON file;
	// empty means every number in the document.
	Paths []string
	// Keep, when set, names the reading keys the caller keeps (a [[read]]
	// with select): a reader that can (csv, envoy-access-log) keeps no reading for another
	// key, so a large file costs memory for what is kept, not for every
	// number in it. Readers may still return other readings.
	Keep func(key string) bool

	// drop, set by the sweep (Account) with Keep, takes the readings
	// a reader leaves out for Keep, so that their tokens count as read
	// (Recorder.dropUnkept). A reader without it returns every reading.
	drop *dropped
}

// Reader reads one raw file. file names src in positions. A reader must
// not panic on any input, and every position it reports lies inside src.
type Reader func(file string, src []byte, opt ReadOptions) ([]Reading, diag.List)

// ListReader is a Reader giving its readings as Readings, the form
// every reader builds (see Readings): ReadList holds a file's readings
// so, a Reader (AsReader) returns them as a slice.
type ListReader func(file string, src []byte, opt ReadOptions) (*Readings, diag.List)

// AsReader returns read as a Reader: its readings as a slice.
func AsReader(read ListReader) Reader {
	return func(file string, src []byte, opt ReadOptions) ([]Reading, diag.List) {
		l, errs := read(file, src, opt)
		return l.All(), errs
	}
}
