package diag

import "bytes"

// TokenEnds sets the End of every diagnostic of l that has a line but no
// End, from the content of its file as src returns it (nil: unknown), and
// returns l (changed in place). It serves readers of line-oriented text
// (evidence manifests, raw files) whose positions name a token: the range
// is the quoted string starting at Pos, quotes included, or else the rest
// of Pos's line without trailing blanks (a key's assignment, a cell, a
// raw line). A diagnostic of a file src does not know gets an empty range
// at Pos.
func (l List) TokenEnds(src func(file string) []byte) List {
	idx := map[string]*LineIndex{}
	for i, d := range l {
		if d.End.IsValid() || !d.Pos.IsValid() {
			continue
		}
		b := src(d.Pos.File)
		if b == nil {
			l[i].End = d.Pos
			continue
		}
		ix := idx[d.Pos.File]
		if ix == nil {
			ix = NewLineIndex(d.Pos.File, b)
			idx[d.Pos.File] = ix
		}
		off := ix.LineCol(d.Pos.Line, d.Pos.Column).Offset
		l[i].End = ix.Pos(tokenEnd(b, off, ix.LineEnd(off).Offset))
	}
	return l
}

// tokenEnd returns the end of the range a finding at off names, on a line
// ending at lineEnd: past the closing quote of a string starting at off,
// else the end of the line without trailing blanks (never before off).
func tokenEnd(src []byte, off, lineEnd int) int {
	if off < lineEnd && src[off] == '"' {
		for i := off + 1; i < lineEnd; i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
	}
	return off + len(bytes.TrimRight(src[off:lineEnd], " \t\r"))
}
