package raw

import (
	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bom", "\xef\xbb\xbf| a |", "f:1:1: error: file starts with a UTF-8 byte order mark"},
		{"invalid utf8", "ok\n\xff", "f:2:1: error: invalid UTF-8 byte 0xff"},
		{"crlf", "a\r\nb", "f:1:2: error: CRLF line ending"},
	}
	for _, tt := range tests {
		_, errs := ReadTables("f", []byte(tt.src))
		if len(errs) != 1 || !strings.HasPrefix(errs[0].String(), tt.want) {
			t.Errorf("%s: got %v, want prefix %q", tt.name, errs, tt.want)
		}
		_, errs = ReadTranscript("f", []byte(tt.src), ReadOptions{})
		if len(errs) != 1 || !strings.HasPrefix(errs[0].String(), tt.want) {
			t.Errorf("%s (transcript): got %v, want prefix %q", tt.name, errs, tt.want)
		}
	}
}
