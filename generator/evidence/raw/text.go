package raw

import (
	"bytes"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// CheckText rejects raw files evdoc will not guess about: a UTF-8 byte order
// mark, invalid UTF-8 and CRLF line endings. It returns nil for clean text.
func CheckText(ix *diag.LineIndex, src []byte) diag.List {
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return diag.List{diag.Errorf(ix.Pos(0), diag.EvidenceEncoding, "file starts with a UTF-8 byte order mark; expected UTF-8 without BOM")}
	}
	for off := 0; off < len(src); {
		r, n := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && n == 1 {
			return diag.List{diag.Errorf(ix.Pos(off), diag.EvidenceEncoding, "invalid UTF-8 byte 0x%02x; expected UTF-8 text", src[off])}
		}
		off += n
	}
	if i := bytes.Index(src, []byte("\r\n")); i >= 0 {
		return diag.List{diag.Errorf(ix.Pos(i), diag.EvidenceEncoding, "CRLF line ending; expected LF line endings")}
	}
	if i := bytes.IndexByte(src, '\r'); i >= 0 {
		return diag.List{diag.Errorf(ix.Pos(i), diag.EvidenceEncoding, "carriage return inside a line; expected LF line endings and no other control characters")}
	}
	return nil
}
