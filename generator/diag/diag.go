// Package diag defines the positions and diagnostics every evdoc stage
// reports, modelled on go/token positions and golang.org/x/tools/go/analysis
// diagnostics.
//
// Lines and columns are 1-based. Columns count bytes, as go/token does: a
// column N points at the Nth byte of the line, so on a line of Korean or
// Japanese text one character spans three columns.
package diag

import (
	"bytes"
	"cmp"
	"fmt"
	"sort"
	"strings"
)

// Position is a place in a file: the slash-separated path as given to the
// reader (relative to the repository root where evdoc computed it), the
// 1-based line, the 1-based byte column and the 0-based byte offset.
// The zero Position is invalid and prints as "-".
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Offset int    `json:"offset"`
}

// IsValid reports whether p names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String formats p as "file:line:col", "file:line", "file" or "-".
func (p Position) String() string {
	switch {
	case p.File == "" && !p.IsValid():
		return "-"
	case !p.IsValid():
		return p.File
	case p.Column == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Compare orders positions by file name, then line, then column: it
// returns -1 when p comes before q, +1 when after, 0 when they name the
// same place.
func (p Position) Compare(q Position) int {
	switch {
	case p.File != q.File:
		return strings.Compare(p.File, q.File)
	case p.Line != q.Line:
		return cmp.Compare(p.Line, q.Line)
	}
	return cmp.Compare(p.Column, q.Column)
}

// LineIndex maps byte offsets of one file to lines and columns.
// Build one with NewLineIndex; it is immutable and safe for concurrent use.
type LineIndex struct {
	file  string
	size  int
	lines []int // byte offset of the first byte of each line
	bom   int   // 3 when src starts with a UTF-8 byte order mark, else 0
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// NewLineIndex indexes src, the full content of file. A line ends after
// "\n"; a "\r" before it belongs to the line. A UTF-8 byte order mark
// at the start of src takes no column, as an editor shows the file: the
// first character after it is at 1:1 (its offset stays 3).
func NewLineIndex(file string, src []byte) *LineIndex {
	lines := make([]int, 1, 1+bytes.Count(src, []byte{'\n'})) // no copies while it grows
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		lines = append(lines, i)
	}
	x := &LineIndex{file: file, size: len(src), lines: lines}
	if bytes.HasPrefix(src, []byte(utf8BOM)) {
		x.bom = len(utf8BOM)
	}
	return x
}

// File returns the file name the index was built for.
func (x *LineIndex) File() string { return x.file }

// Pos converts a byte offset (0 ≤ off ≤ len(src)) into a Position. An
// offset outside that range is clamped into it, so the result always lies
// inside the file.
func (x *LineIndex) Pos(off int) Position {
	if off < 0 {
		off = 0
	}
	if off > x.size {
		off = x.size
	}
	// the last line starting at or before off: sort.Search's bisection,
	// written out (no call a step; Pos runs several times a claim)
	lo, hi := 0, len(x.lines)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.lines[m] > off {
			hi = m
		} else {
			lo = m + 1
		}
	}
	i := lo - 1
	col := off - x.lines[i] + 1
	if i == 0 {
		col = max(off-x.bom, 0) + 1 // the byte order mark takes no column
	}
	return Position{File: x.file, Line: i + 1, Column: col, Offset: off}
}

// Span converts the byte range [start, end) into the positions of its
// first byte and of the byte just past it, as a Diagnostic's Pos and End.
// Both are clamped into the file, and end is raised to start when it lies
// before it.
func (x *LineIndex) Span(start, end int) (Position, Position) {
	p := x.Pos(start)
	end = min(max(end, p.Offset), x.size)
	if i := p.Line - 1; i+1 >= len(x.lines) || end < x.lines[i+1] {
		// on start's line (most spans): Pos(end) without a second search
		col := end - x.lines[i] + 1
		if i == 0 {
			col = max(end-x.bom, 0) + 1
		}
		return p, Position{File: x.file, Line: p.Line, Column: col, Offset: end}
	}
	return p, x.Pos(end)
}

// LineEnd returns the position just past the last byte of the line that
// holds off, before its "\n" (a "\r" before the "\n" stays inside the
// line): the End of a finding about the rest of a line.
func (x *LineIndex) LineEnd(off int) Position {
	p := x.Pos(off)
	end := x.size
	if p.Line < len(x.lines) {
		end = x.lines[p.Line] - 1
	}
	return x.Pos(max(end, p.Offset))
}

// LineCol converts a 1-based line and byte column (as a parser reports
// them) into a Position whose offset agrees, clamped into the file.
// Columns of line 1 count from after a byte order mark, as Pos's do.
func (x *LineIndex) LineCol(line, col int) Position {
	start := x.LineStart(line)
	if start < 0 {
		if line < 1 {
			return x.Pos(0)
		}
		return x.Pos(x.size)
	}
	if line == 1 {
		start += x.bom
	}
	end := x.size
	if line < len(x.lines) {
		end = x.lines[line] - 1
	}
	return x.Pos(min(start+max(col, 1)-1, end))
}

// LineColSpan converts a 1-based line and byte column and a length in
// bytes (as a parser reports an error or a token) into a Diagnostic's Pos
// and End. A length of 0 or less means "to the end of the line".
func (x *LineIndex) LineColSpan(line, col, n int) (Position, Position) {
	p := x.LineCol(line, col)
	if n <= 0 {
		return p, x.LineEnd(p.Offset)
	}
	return x.Span(p.Offset, p.Offset+n)
}

// LineStart returns the byte offset of the first byte of 1-based line n,
// or -1 if the file has no such line.
func (x *LineIndex) LineStart(n int) int {
	if n < 1 || n > len(x.lines) {
		return -1
	}
	return x.lines[n-1]
}

// Severity grades a Diagnostic.
type Severity string

// Severities, in SARIF's vocabulary.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// Related is a secondary position attached to a Diagnostic, such as the
// evidence cell a claim was compared with.
type Related struct {
	Pos     Position `json:"pos"`
	Message string   `json:"message"`
}

// TextEdit replaces the bytes [Pos.Offset, End) of Pos.File with NewText.
type TextEdit struct {
	Pos     Position `json:"pos"`
	End     int      `json:"end"`
	NewText string   `json:"new_text"`
}

// SuggestedFix is a change that resolves a Diagnostic, as in
// golang.org/x/tools/go/analysis: a message and non-overlapping edits.
type SuggestedFix struct {
	Message string     `json:"message"`
	Edits   []TextEdit `json:"edits"`
}

// Diagnostic is one finding: where, how bad, what, and which rule found it.
// Rule is one of the catalogue's RuleID constants (see rules.go). Fixes,
// when present, resolve it mechanically (evdoc fix applies them).
type Diagnostic struct {
	Pos Position `json:"pos"`
	// End is the position just past the range the finding is about (a
	// claim's literal, one number of it, a reference, a manifest key or
	// string, a raw line), as go/analysis's Diagnostic.End. Every
	// Diagnostic with a line has one, in the same file and not before Pos
	// (RangeError; an empty range when nothing more is known); it is the
	// zero Position only when Pos names no line (a finding about a whole
	// file or directory).
	End      Position       `json:"end,omitzero"`
	Severity Severity       `json:"severity"`
	Message  string         `json:"message"`
	Rule     RuleID         `json:"rule"`
	Related  []Related      `json:"related,omitempty"`
	Fixes    []SuggestedFix `json:"fixes,omitempty"`
}

// String formats d as "file:line:col: severity: message [rule]".
func (d Diagnostic) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s", d.Pos, d.Severity, d.Message)
	if d.Rule != "" {
		fmt.Fprintf(&b, " [%s]", d.Rule)
	}
	return b.String()
}

// Spanning returns d with End set to end: the range [d.Pos, end) is what
// the finding is about.
func (d Diagnostic) Spanning(end Position) Diagnostic {
	d.End = end
	return d
}

// RangeError reports what is wrong with d's range: a Diagnostic with a
// line (Pos.IsValid) must have an End in the same file that does not lie
// before Pos, by offset and by line and column. It returns nil for a
// well-formed range and for a Diagnostic about a whole file (no line).
func (d Diagnostic) RangeError() error {
	switch {
	case !d.Pos.IsValid():
		return nil
	case !d.End.IsValid():
		return fmt.Errorf("%s: %s diagnostic has no End", d.Pos, d.Rule)
	case d.End.File != d.Pos.File:
		return fmt.Errorf("%s: %s diagnostic ends in another file (%s)", d.Pos, d.Rule, d.End)
	case d.End.Offset < d.Pos.Offset,
		d.End.Line < d.Pos.Line,
		d.End.Line == d.Pos.Line && d.End.Column < d.Pos.Column:
		return fmt.Errorf("%s: %s diagnostic ends before it starts (%s)", d.Pos, d.Rule, d.End)
	}
	return nil
}

// Errorf builds an error-severity Diagnostic.
func Errorf(pos Position, rule RuleID, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Severity: Error, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// List is a set of diagnostics that also serves as an error value: a stage
// that cannot produce its output returns its findings as a List.
type List []Diagnostic

// Error joins the diagnostics one per line.
func (l List) Error() string {
	var b bytes.Buffer
	for i, d := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// Sort orders l by position (Position.Compare) and message.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		if c := l[i].Pos.Compare(l[j].Pos); c != 0 {
			return c < 0
		}
		return l[i].Message < l[j].Message
	})
}

// HasErrors reports whether any diagnostic in l has Error severity.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns how many diagnostics in l have severity sev.
func (l List) Count(sev Severity) int {
	n := 0
	for _, d := range l {
		if d.Severity == sev {
			n++
		}
	}
	return n
}

// Err returns l as an error, or nil when l is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
