package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Value is one value as `evdoc values` lists it: Ref is the reference a
// page writes after "ev:" (SET/NAME), empty when no evidence set names
// the reading; Key is the reading's key as its reader gives it (the
// manifest's select and units keys), empty for a derived value; then the
// exact decimal value and unit, the 1-based line and byte column it was
// read at, the raw text, and the raw format when a raw file was read
// directly.
type Value struct {
	Ref    string `json:"ref"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	Unit   string `json:"unit"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Raw    string `json:"raw"`
	Format string `json:"format,omitempty"`
	// SpreadOf names the value (a set's reference, or a raw file's key)
	// this one is the spread of, printed after its ±; text shows it after
	// the raw text: "11.2 (± of nanopub/h.java.mean)".
	SpreadOf string `json:"spread_of,omitempty"`
}

// ValueFormats lists the formats NewValueWriter accepts.
var ValueFormats = []string{"text", "json"}

// ValueWriter writes a listing of values as they come, so a large raw
// file read in windows is never held whole: "text" is a table
// (REFERENCE, KEY, VALUE, UNIT, POSITION, RAW; "-" for an empty
// reference or key) whose columns are aligned per block of rows and
// whose header is written with the first row (a listing of no value
// writes nothing), "json" one object per line (Value's fields). Call
// Close after the last value.
type ValueWriter struct {
	format string
	enc    *json.Encoder
	tw     *tabwriter.Writer
	n      int
	err    error
}

// valueBlock is how many text rows are aligned together before they are
// written out.
const valueBlock = 4096

// NewValueWriter returns a ValueWriter writing format to w, or an error
// naming the accepted formats.
func NewValueWriter(w io.Writer, format string) (*ValueWriter, error) {
	vw := &ValueWriter{format: format}
	switch format {
	case "json":
		vw.enc = json.NewEncoder(w)
		vw.enc.SetEscapeHTML(false)
	case "text":
		vw.tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	default:
		return nil, fmt.Errorf("unknown format %q; expected one of %s", format, strings.Join(ValueFormats, ", "))
	}
	return vw, nil
}

// Write writes one value. After a failed write it does nothing and Close
// returns the error.
func (vw *ValueWriter) Write(v Value) {
	if vw.err != nil {
		return
	}
	vw.n++
	if vw.enc != nil {
		vw.err = vw.enc.Encode(v)
		return
	}
	if vw.n == 1 {
		if _, vw.err = fmt.Fprintln(vw.tw, "REFERENCE\tKEY\tVALUE\tUNIT\tPOSITION\tRAW"); vw.err != nil {
			return
		}
	}
	raw := v.Raw
	if v.SpreadOf != "" {
		raw += " (± of " + v.SpreadOf + ")"
	}
	_, vw.err = fmt.Fprintf(vw.tw, "%s\t%s\t%s\t%s\t%s:%d:%d\t%s\n", dash(v.Ref), dash(v.Key), v.Value, v.Unit, v.File, v.Line, v.Column, raw)
	if vw.err == nil && vw.n%valueBlock == 0 {
		vw.err = vw.tw.Flush()
	}
}

// dash shows an empty column as "-".
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Count returns how many values were written.
func (vw *ValueWriter) Count() int { return vw.n }

// Close writes out what is buffered and returns the first write error.
func (vw *ValueWriter) Close() error {
	if vw.err == nil && vw.tw != nil {
		vw.err = vw.tw.Flush()
	}
	return vw.err
}

// WriteNoValues writes the note `evdoc values` prints, to its log, when
// it found no value.
func WriteNoValues(log io.Writer) error {
	_, err := fmt.Fprintln(log, "evdoc: no numeric values found")
	return err
}
