package lsp

import (
	"bytes"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// text is a document's content with the byte offset of each line's
// first byte, for converting between evdoc's positions (1-based line,
// 1-based byte column, byte offset) and LSP's (0-based line, UTF-16 code
// units into the line; LSP 3.16 knows no other encoding).
type text struct {
	src   []byte
	lines []int
	bom   int // 3 when src starts with a UTF-8 byte order mark
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		t.bom = 3
	}
	return t
}

// lineBounds returns the byte offsets of the first byte of 0-based line
// n (after a byte order mark on line 0) and just past its last byte
// before "\r\n" or "\n"; false when the text has no such line.
func (t *text) lineBounds(n int) (int, int, bool) {
	if n < 0 || n >= len(t.lines) {
		return 0, 0, false
	}
	start := t.lines[n]
	if n == 0 {
		start = min(t.bom, len(t.src))
	}
	end := len(t.src)
	if n+1 < len(t.lines) {
		end = t.lines[n+1] - 1
	}
	if end > start && t.src[end-1] == '\r' {
		end--
	}
	return start, max(end, start), true
}

// utf16Len counts the UTF-16 code units of b: two for a character
// outside the Basic Multilingual Plane, one for any other character and
// for each byte that is not UTF-8 (an editor shows it as U+FFFD).
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

// position converts the byte offset off into an LSP position.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := 0
	lo, hi := 0, len(t.lines)
	for lo < hi { // the last line starting at or before off
		m := (lo + hi) / 2
		if t.lines[m] <= off {
			line, lo = m, m+1
		} else {
			hi = m
		}
	}
	start, end, _ := t.lineBounds(line)
	off = max(start, min(off, end))
	// An offset inside a character is the start of that character: only
	// characters wholly before off count (decoded on the whole line, so
	// that a cut character is not read as bytes that are not UTF-8).
	n, at := 0, start
	for at < off {
		r, size := utf8.DecodeRune(t.src[at:end])
		if at+size > off {
			break
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		at += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(n)}
}

// at converts an evdoc position in this text into an LSP position: its
// line and byte column (the column, not the offset, so that a position
// computed on another copy of the same line still lands on its
// character). A position with no line is the start of the file; a
// column past the line's end is its end.
func (t *text) at(p diag.Position) protocol.Position {
	if !p.IsValid() {
		return protocol.Position{}
	}
	start, end, ok := t.lineBounds(p.Line - 1)
	if !ok {
		return t.position(len(t.src))
	}
	off := max(start, min(start+max(p.Column, 1)-1, end))
	return protocol.Position{Line: uint32(p.Line - 1), Character: uint32(utf16Len(t.src[start:off]))}
}

// span converts the range [pos, end) of a diagnostic into an LSP range;
// an End with no line is an empty range at pos.
func (t *text) span(pos, end diag.Position) protocol.Range {
	r := protocol.Range{Start: t.at(pos)}
	r.End = r.Start
	if end.IsValid() && end.Compare(pos) >= 0 {
		r.End = t.at(end)
	}
	return r
}

// offset converts an LSP position into a byte offset of the text: a
// line past the end is the end of the text, a character past the end of
// its line the end of that line, and a character inside a surrogate
// pair the start of that character.
func (t *text) offset(p protocol.Position) int {
	start, end, ok := t.lineBounds(int(p.Line))
	if !ok {
		return len(t.src)
	}
	units := int(p.Character)
	off := start
	for off < end {
		r, size := utf8.DecodeRune(t.src[off:end])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units < w {
			break
		}
		units -= w
		off += size
	}
	return off
}

// diagPos converts a byte offset into an evdoc position (1-based line,
// byte column), as diag.LineIndex does.
func (t *text) diagPos(file string, off int) diag.Position {
	return diag.NewLineIndex(file, t.src).Pos(off)
}
