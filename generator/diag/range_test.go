package diag

import "testing"

func TestRanges(t *testing.T) {
	src := []byte("ab \"q\" x  \r\n한국\nlast")
	ix := NewLineIndex("f", src)
	p, e := ix.Span(3, 6)
	if p.String() != "f:1:4" || e.String() != "f:1:7" {
		t.Errorf("Span(3, 6) = %s, %s", p, e)
	}
	if _, e := ix.Span(5, 2); e.Offset != 5 {
		t.Errorf("Span(5, 2) ends at %d; want the start", e.Offset)
	}
	for _, tt := range []struct {
		off  int
		want string
	}{{0, "f:1:12"}, {12, "f:2:7"}, {19, "f:3:5"}} {
		if got := ix.LineEnd(tt.off).String(); got != tt.want {
			t.Errorf("LineEnd(%d) = %s, want %s", tt.off, got, tt.want)
		}
	}
	if p, e := ix.LineColSpan(2, 4, 3); p.String() != "f:2:4" || e.String() != "f:2:7" {
		t.Errorf("LineColSpan(2, 4, 3) = %s, %s", p, e)
	}
	if _, e := ix.LineColSpan(1, 1, 0); e.String() != "f:1:12" {
		t.Errorf("LineColSpan(1, 1, 0) ends at %s; want the line's end", e)
	}
	ds := List{
		{Pos: ix.Pos(3)},                    // a quoted string
		{Pos: ix.Pos(7)},                    // the rest of the line, blanks and \r trimmed
		{Pos: ix.Pos(0), End: ix.Pos(1)},    // kept
		{Pos: Position{File: "g", Line: 1}}, // unknown source: empty range
		{Pos: Position{File: "f"}},          // no line: left alone
	}
	ds.TokenEnds(func(f string) []byte {
		if f == "f" {
			return src
		}
		return nil
	})
	for i, want := range []string{"f:1:7", "f:1:9", "f:1:2", "g:1", "-"} {
		if got := ds[i].End.String(); got != want {
			t.Errorf("TokenEnds: diagnostic %d ends at %s, want %s", i, got, want)
		}
	}
}

func TestRangeError(t *testing.T) {
	ix := NewLineIndex("f", []byte("abc\ndef\n"))
	for _, tt := range []struct {
		d  Diagnostic
		ok bool
	}{
		{Diagnostic{Pos: ix.Pos(1), End: ix.Pos(3)}, true},
		{Diagnostic{Pos: ix.Pos(1), End: ix.Pos(1)}, true}, // empty range
		{Diagnostic{Pos: Position{File: "f"}}, true},       // about the whole file
		{Diagnostic{Pos: ix.Pos(1)}, false},                // no End
		{Diagnostic{Pos: ix.Pos(5), End: ix.Pos(2)}, false},
		{Diagnostic{Pos: ix.Pos(1), End: Position{File: "g", Line: 1, Column: 3, Offset: 2}}, false},
	} {
		if err := tt.d.RangeError(); (err == nil) != tt.ok {
			t.Errorf("RangeError(%s..%s) = %v", tt.d.Pos, tt.d.End, err)
		}
	}
}

func TestPositionCompare(t *testing.T) {
	ps := []Position{{File: "a", Line: 1, Column: 1}, {File: "a", Line: 1, Column: 2}, {File: "a", Line: 2, Column: 1}, {File: "b", Line: 1, Column: 1}}
	for i, p := range ps {
		for j, q := range ps {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := p.Compare(q); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", p, q, got, want)
			}
		}
	}
}

// TestSpanIsPos: Span, which reads an end on its start's line without a
// second search, returns Pos(start) and Pos(max(end, start)) for every
// pair of offsets, in and out of the file, with and without a byte
// order mark, a final newline or any newline.
func TestSpanIsPos(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "ab\n", "ab \"q\" x  \r\n한국\nlast", "\xef\xbb\xbfx\ny\n\n", "\xef\xbb\xbf", "\n\n\nz"} {
		ix := NewLineIndex("f", []byte(src))
		for start := -2; start <= len(src)+2; start++ {
			for end := -2; end <= len(src)+2; end++ {
				p, e := ix.Span(start, end)
				wp := ix.Pos(start)
				we := ix.Pos(max(end, wp.Offset))
				if p != wp || e != we {
					t.Fatalf("%q: Span(%d, %d) = %+v, %+v; want %+v, %+v", src, start, end, p, e, wp, we)
				}
			}
		}
	}
}
