package raw

import (
	"bytes"
	"io"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// lineFormats are the formats whose readings depend on their own line
// (and the indented lines under it) only, so a file can be read in
// windows of whole records.
var lineFormats = map[string]bool{"envoy-stats": true}

// EnvoyMaxErrors bounds the diagnostics one Envoy file yields (and a windowed read of one); a file with more
// problems than that is almost always not the format it was declared as.
const EnvoyMaxErrors = 10

// DefaultWindow is the window size ReadWindowed reads at a time: 4 MiB.
const DefaultWindow = 4 << 20

// ReadWindowed reads src with read, the reader of format, keeping only the
// readings keep accepts (all when keep is nil), and calls emit for each
// kept reading in file order. For a line-oriented format (envoy-stats) it
// reads src in windows of about window bytes, each ending before a line
// that starts a new record, so memory grows with the readings kept, not
// with the file: a 200 MB /stats dump with one selected stat costs one
// window's readings. Positions are those of the whole file. Other formats
// are read whole. It returns the reader's diagnostics (for windows, at
// most EnvoyMaxErrors of them).
func ReadWindowed(read ListReader, format, file string, src []byte, opt ReadOptions, window int, keep func(Reading) bool, emit func(Reading)) diag.List {
	if !lineFormats[format] || len(src) <= window || window <= 0 {
		rs, errs := read(file, src, opt)
		for i := range rs.Len() {
			if r := rs.At(i); keep == nil || keep(r) {
				emit(r)
			}
		}
		return errs
	}
	var errs diag.List
	line := 0 // lines before the window
	for start := 0; start < len(src); {
		end := windowEnd(src, start, window)
		errs = readWindow(AsReader(read), file, src[start:end], opt, line, start, keep, emit, errs)
		line += bytes.Count(src[start:end], []byte{'\n'})
		start = end
	}
	return errs
}

// ReadKept is ReadList returning the kept readings as a slice.
func ReadKept(read ListReader, format, file string, src []byte, opt ReadOptions, window int, keep func(Reading) bool) ([]Reading, diag.List) {
	l, errs := ReadList(read, format, file, src, opt, window, keep)
	return l.All(), errs
}

// ReadList is ReadWindowed returning the kept readings as Readings: a
// file read whole gives the reader's own list (every reading kept), or a
// new one holding only the kept readings, so a file's readings are never
// held twice and the unkept ones are garbage as soon as it returns.
func ReadList(read ListReader, format, file string, src []byte, opt ReadOptions, window int, keep func(Reading) bool) (*Readings, diag.List) {
	if lineFormats[format] && len(src) > window && window > 0 {
		out := newReadings(diag.NewLineIndex(file, src), src)
		errs := ReadWindowed(read, format, file, src, opt, window, keep, out.Add)
		out.Flush()
		return out, errs
	}
	rs, errs := read(file, src, opt)
	if keep == nil || rs.Len() == 0 {
		return rs, errs
	}
	out := newReadings(rs.ix, src)
	for i := range rs.Len() {
		if r := rs.At(i); keep(r) {
			out.Add(r)
		}
	}
	out.Flush()
	return out, errs
}

// windowEnd returns the end of the window starting at start: just after
// the last newline before start+window that is followed by a line not
// indented (a new record), or the end of src.
func windowEnd(src []byte, start, window int) int {
	if start+window >= len(src) {
		return len(src)
	}
	for i := start + window; i > start; i-- {
		if src[i-1] == '\n' && src[i] != ' ' && src[i] != '\t' {
			return i
		}
	}
	// One record longer than the window: take it whole.
	for i := start + window; i < len(src); i++ {
		if src[i-1] == '\n' && src[i] != ' ' && src[i] != '\t' {
			return i
		}
	}
	return len(src)
}

// readWindow reads one window (win, which starts after lines lines and
// offset bytes of the file) with read, emits the readings keep accepts
// with their positions moved to the whole file, and returns errs with the
// window's diagnostics appended, moved likewise, up to EnvoyMaxErrors in
// all.
func readWindow(read Reader, file string, win []byte, opt ReadOptions, lines, offset int, keep func(Reading) bool, emit func(Reading), errs diag.List) diag.List {
	rs, werrs := read(file, win, opt)
	for _, r := range rs {
		if keep != nil && !keep(r) {
			continue
		}
		r.Pos = shift(r.Pos, lines, offset)
		for i, in := range r.Inputs {
			r.Inputs[i] = shift(in, lines, offset)
		}
		emit(r)
	}
	for _, d := range werrs {
		if len(errs) >= EnvoyMaxErrors {
			break
		}
		d.Pos = shift(d.Pos, lines, offset)
		if d.End.IsValid() {
			d.End = shift(d.End, lines, offset)
		}
		for i := range d.Related {
			d.Related[i].Pos = shift(d.Related[i].Pos, lines, offset)
		}
		errs = append(errs, d)
	}
	return errs
}

// shift moves a position read in a window to the whole file.
func shift(p diag.Position, lines, offset int) diag.Position {
	if p.Line > 0 {
		p.Line += lines
		p.Offset += offset
	}
	return p
}

// Windowed reports whether format is read in windows of whole records
// (ReadWindowed, ReadWindowedFrom): a line-oriented format.
func Windowed(format string) bool { return lineFormats[format] }

// ReadWindowedFrom is ReadWindowed reading from r instead of a whole
// file in memory: for a line-oriented format it holds one window (about
// window bytes, more only for a single longer record) at a time, so a
// 200 MB /stats dump costs a few windows of memory, not the file. The
// windows, readings, errors and positions are those ReadWindowed gives
// for r's whole content. Other formats are read whole. The error is r's
// (the diagnostics read before it are returned with it).
func ReadWindowedFrom(read ListReader, format, file string, r io.Reader, opt ReadOptions, window int, keep func(Reading) bool, emit func(Reading)) (diag.List, error) {
	if !lineFormats[format] || window <= 0 {
		src, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		return ReadWindowed(read, format, file, src, opt, window, keep, emit), nil
	}
	var errs diag.List
	buf := make([]byte, 0, 2*window+1)
	line, offset := 0, 0 // lines and bytes before buf
	eof := false
	for {
		// Fill buf past the window: its end depends on the byte after it.
		for !eof && len(buf) <= window {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return errs, err
			}
		}
		if len(buf) == 0 {
			return errs, nil
		}
		end, ok := streamWindowEnd(buf, window, eof)
		if !ok {
			// One record longer than the window: read on until it ends.
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return errs, err
			}
			continue
		}
		errs = readWindow(AsReader(read), file, buf[:end], opt, line, offset, keep, emit, errs)
		line += bytes.Count(buf[:end], []byte{'\n'})
		offset += end
		n := copy(buf, buf[end:])
		buf = buf[:n]
		if eof && n == 0 {
			return errs, nil
		}
	}
}

// streamWindowEnd is windowEnd for a window at the start of buf, which
// holds more than window bytes unless eof: false when the record
// crossing the window's end does not end within buf yet.
func streamWindowEnd(buf []byte, window int, eof bool) (int, bool) {
	if window >= len(buf) {
		return len(buf), true // eof: the rest is the last window
	}
	for i := window; i > 0; i-- {
		if buf[i-1] == '\n' && buf[i] != ' ' && buf[i] != '\t' {
			return i, true
		}
	}
	for i := window; i < len(buf); i++ {
		if buf[i-1] == '\n' && buf[i] != ' ' && buf[i] != '\t' {
			return i, true
		}
	}
	return len(buf), eof
}
