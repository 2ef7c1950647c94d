package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Value is one named value as `evdoc values` lists it: its name (a full
// reference SET/NAME, or a raw file's reading key), the exact decimal
// value and unit, the 1-based line and byte column it was read at, the
// raw text, and the raw format when a raw file was read directly.
type Value struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Unit   string `json:"unit"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Raw    string `json:"raw"`
	Format string `json:"format,omitempty"`
}

// ValueFormats lists the formats NewValueWriter accepts.
var ValueFormats = []string{"text", "json"}

// ValueWriter writes a listing of values as they come, so a large raw
// file read in windows is never held whole: "text" is a table (NAME,
// VALUE, UNIT, POSITION, RAW) whose columns are aligned per block of
// rows, "json" one object per line (Value's fields). Call Close after the
// last value.
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
		_, vw.err = fmt.Fprintln(vw.tw, "NAME\tVALUE\tUNIT\tPOSITION\tRAW")
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
	_, vw.err = fmt.Fprintf(vw.tw, "%s\t%s\t%s\t%s:%d:%d\t%s\n", v.Name, v.Value, v.Unit, v.File, v.Line, v.Column, v.Raw)
	if vw.err == nil && vw.n%valueBlock == 0 {
		vw.err = vw.tw.Flush()
	}
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
