package lsp

import (
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestPositions converts byte columns to UTF-16 and back on lines of
// Hangul, kana, an emoji (two UTF-16 units), CRLF and a byte order mark;
// the UTF-16 columns are counted by hand.
func TestPositions(t *testing.T) {
	src := "\xef\xbb\xbf가나 [1](ev:s/a)\r\n日本語😀[2](ev:s/b)\nx\xffy[3]\n"
	tx := newText([]byte(src))
	for _, tc := range []struct {
		name       string
		line, col  int // evdoc: 1-based line, byte column
		lspL, lspC uint32
	}{
		{"after the BOM, two Hangul syllables and a space", 1, 8, 0, 3},
		{"line end before CRLF", 1, 100, 0, 14},
		{"after three kanji and an emoji", 2, 14, 1, 5},
		{"an invalid byte counts as one", 3, 4, 2, 3},
		{"no line", 0, 0, 0, 0},
	} {
		got := tx.at(diag.Position{Line: tc.line, Column: tc.col})
		if got != (protocol.Position{Line: tc.lspL, Character: tc.lspC}) {
			t.Errorf("%s: %d:%d → %+v, want %d:%d", tc.name, tc.line, tc.col, got, tc.lspL, tc.lspC)
		}
	}
	for _, tc := range []struct {
		name string
		p    protocol.Position
		off  int
	}{
		{"the [ after the Hangul", protocol.Position{Line: 0, Character: 3}, 3 + 6 + 1},
		{"after the emoji", protocol.Position{Line: 1, Character: 5}, len("\xef\xbb\xbf가나 [1](ev:s/a)\r\n日本語😀")},
		{"inside the emoji's surrogate pair", protocol.Position{Line: 1, Character: 4}, len("\xef\xbb\xbf가나 [1](ev:s/a)\r\n日本語")},
		{"past the line's end", protocol.Position{Line: 0, Character: 99}, len("\xef\xbb\xbf가나 [1](ev:s/a)")},
		{"past the last line", protocol.Position{Line: 9, Character: 0}, len(src)},
	} {
		if got := tx.offset(tc.p); got != tc.off {
			t.Errorf("%s: %+v → offset %d, want %d", tc.name, tc.p, got, tc.off)
		}
		if back := tx.offset(tx.position(tc.off)); back != tc.off {
			t.Errorf("%s: offset %d → %+v → %d", tc.name, tc.off, tx.position(tc.off), back)
		}
	}
}

// FuzzPositions holds that no text and position make the conversions
// panic, that an LSP position always converts into the text, and that a
// byte offset converted to LSP and back lands at or before it (the start
// of its character, or the end of its line for a "\r" of "\r\n").
func FuzzPositions(f *testing.F) {
	f.Add("가나 [1](ev:s/a)\r\n日本語😀\n", uint32(1), uint32(4), 7)
	f.Add("\xef\xbb\xbf\xff\n\r\n", uint32(0), uint32(9), 2)
	f.Fuzz(func(t *testing.T, src string, line, char uint32, off int) {
		tx := newText([]byte(src))
		o := tx.offset(protocol.Position{Line: line, Character: char})
		if o < 0 || o > len(src) {
			t.Fatalf("offset %d outside the text of %d bytes", o, len(src))
		}
		off = max(0, min(off, len(src)))
		p := tx.position(off)
		if back := tx.offset(p); back > max(off, tx.bom) { // an offset inside the BOM is the first character
			t.Fatalf("offset %d → %+v → %d, past it", off, p, back)
		}
		_ = tx.at(diag.Position{Line: int(line % 1000), Column: off})
	})
}
