package raw

import (
	"bytes"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// bom is the UTF-8 encoding of U+FEFF, the byte order mark Windows tools
// and Excel write at the start of a UTF-8 file.
const bom = "\xef\xbb\xbf"

// CheckText rejects text evdoc will not guess about: a UTF-8 byte order
// mark, invalid UTF-8 and CRLF line endings. It returns nil for clean
// text. Manifests are held to it; raw files are read by CheckRawText's
// looser rule.
func CheckText(ix *diag.LineIndex, src []byte) diag.List {
	if bytes.HasPrefix(src, []byte(bom)) {
		return diag.List{diag.Errorf(ix.Pos(0), diag.EvidenceEncoding, "file starts with a UTF-8 byte order mark; expected UTF-8 without BOM")}
	}
	if errs := checkUTF8(ix, src); errs != nil {
		return errs
	}
	if i := bytes.Index(src, []byte("\r\n")); i >= 0 {
		return diag.List{diag.Errorf(ix.Pos(i), diag.EvidenceEncoding, "CRLF line ending; expected LF line endings")}
	}
	if i := bytes.IndexByte(src, '\r'); i >= 0 {
		return diag.List{diag.Errorf(ix.Pos(i), diag.EvidenceEncoding, "carriage return inside a line; expected LF line endings and no other control characters")}
	}
	return nil
}

// CheckRawText checks a raw file: it must be UTF-8, and a carriage return
// may only end a line (CRLF). A leading byte order mark and CRLF line
// endings, as files saved on Windows or by Excel have, are read (see
// TextStart and SplitLines); offsets still count the file's own bytes, and
// columns of line 1 start after the mark (diag.NewLineIndex).
func CheckRawText(ix *diag.LineIndex, src []byte) diag.List {
	if errs := checkUTF8(ix, src); errs != nil {
		return errs
	}
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return diag.List{diag.Errorf(ix.Pos(i), diag.EvidenceEncoding, "carriage return inside a line; expected LF or CRLF line endings and no other control characters")}
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return nil
}

// checkUTF8 reports the first byte that is not UTF-8.
func checkUTF8(ix *diag.LineIndex, src []byte) diag.List {
	for off := 0; off < len(src); {
		r, n := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && n == 1 {
			return diag.List{diag.Errorf(ix.Pos(off), diag.EvidenceEncoding, "invalid UTF-8 byte 0x%02x; expected UTF-8 text", src[off])}
		}
		off += n
	}
	return nil
}

// TextStart is the offset of a raw file's text: 3 after a byte order mark,
// else 0.
func TextStart(src []byte) int {
	if bytes.HasPrefix(src, []byte(bom)) {
		return len(bom)
	}
	return 0
}

// HasDigitRune reports whether s holds an ASCII or full-width digit.
func HasDigitRune(s string) bool {
	for _, r := range s {
		if r >= '0' && r <= '9' || r >= '０' && r <= '９' {
			return true
		}
	}
	return false
}

// LineSpan is one line of a file: [start, end) excludes the line ending
// (LF or CRLF) and, on the first line, a byte order mark.
type LineSpan struct{ Start, End int }

// SplitLines splits src into lines (see LineSpan).
func SplitLines(src []byte) []LineSpan {
	out := make([]LineSpan, 0, bytes.Count(src, []byte{'\n'})+1)
	start := TextStart(src)
	for i := start; i < len(src); i++ {
		if src[i] == '\n' {
			end := i
			if end > start && src[end-1] == '\r' {
				end--
			}
			out = append(out, LineSpan{start, end})
			start = i + 1
		}
	}
	if start < len(src) {
		out = append(out, LineSpan{start, len(src)})
	}
	return out
}
