package spec

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/evdoc-lab/evdoc/internal/tomlpos"
)

// textSpan is where one string value of a spec is written: the byte
// range of the TOML string, delimiters included, and its value as the
// parser read it.
type textSpan struct {
	start, end int
	value      string
}

// pathKey joins the parts of a value's key path, each table of an array
// of tables followed by its index ("panel", "1", "title", "ko"), into a
// key of Spec.strings. The parts are joined by a NUL, which no TOML key
// written in a spec holds (a quoted key may hold a dot).
func pathKey(parts ...string) string { return strings.Join(parts, "\x00") }

// stringSpans returns where each string value of the spec is written, by
// its key path (see pathKey): one entry per value, so two values with
// the same text each have their own. It walks go-toml's parser, which
// keeps every value's byte range; a spec it cannot read to the end (one
// the decoder took, with syntax the parser reads otherwise) keeps the
// values read before the error. It is built once per spec.
func (s *Spec) stringSpans() map[string]textSpan {
	if s.spans != nil {
		return s.spans
	}
	s.spans = map[string]textSpan{}
	var p unstable.Parser
	p.Reset(s.Src)
	// arrays counts the tables of each array of tables, by the path of
	// the array with the indexes of the arrays it is in
	arrays := map[string]int{}
	// resolve gives the parts of a table header the index of the last
	// table of each array of tables among them ([[panel.group]] is in
	// the last [[panel]])
	resolve := func(keys []string) []string {
		var out []string
		for _, k := range keys {
			out = append(out, k)
			if n := arrays[pathKey(out...)]; n > 0 {
				out = append(out, strconv.Itoa(n-1))
			}
		}
		return out
	}
	var walk func(path []string, v *unstable.Node)
	walk = func(path []string, v *unstable.Node) {
		switch v.Kind {
		case unstable.String:
			if _, dup := s.spans[pathKey(path...)]; !dup {
				s.spans[pathKey(path...)] = textSpan{int(v.Raw.Offset), int(v.Raw.Offset + v.Raw.Length), string(v.Data)}
			}
		case unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				kv := it.Node()
				if kv.Kind == unstable.KeyValue {
					walk(append(path[:len(path):len(path)], tomlpos.KeyStrings(kv)...), kv.Value())
				}
			}
		case unstable.Array:
			i := 0
			for it := v.Children(); it.Next(); {
				if e := it.Node(); e.Kind != unstable.Comment {
					walk(append(path[:len(path):len(path)], strconv.Itoa(i)), e)
					i++
				}
			}
		}
	}
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			table = resolve(tomlpos.KeyStrings(e))
		case unstable.ArrayTable:
			k := tomlpos.KeyStrings(e)
			table = resolve(k[:len(k)-1])
			table = append(table, k[len(k)-1])
			arrays[pathKey(table...)]++
			table = append(table, strconv.Itoa(arrays[pathKey(table...)]-1))
		case unstable.KeyValue:
			walk(append(table[:len(table):len(table)], tomlpos.KeyStrings(e)...), e.Value())
		}
	}
	return s.spans
}

// decodeTOMLString reads a TOML string as written (raw, delimiters
// included) and returns its value with, for each byte of the value, the
// offset in raw of the character it comes from (the backslash of an
// escape), and one more entry: the offset of the closing delimiter. It
// reports false for a string it does not read as TOML does.
func decodeTOMLString(raw []byte) (string, []int, bool) {
	var val []byte
	var offs []int
	add := func(b []byte, at int) {
		for range b {
			offs = append(offs, at)
		}
		val = append(val, b...)
	}
	trimNewline := func(i int) int {
		if strings.HasPrefix(string(raw[i:]), "\n") {
			return i + 1
		}
		if strings.HasPrefix(string(raw[i:]), "\r\n") {
			return i + 2
		}
		return i
	}
	// basic reads a basic string's bytes raw[start:end], escapes
	// decoded; in a multi-line one (multi), a backslash ending a line
	// drops the whitespace and newlines up to the next other character.
	basic := func(start, end int, multi bool) bool {
		for i := start; i < end; {
			if raw[i] != '\\' {
				add(raw[i:i+1], i)
				i++
				continue
			}
			if multi {
				j := i + 1
				for j < end && (raw[j] == ' ' || raw[j] == '\t') {
					j++
				}
				if j < end && (raw[j] == '\n' || raw[j] == '\r') {
					for j < end && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
						j++
					}
					i = j
					continue
				}
			}
			b, n, ok := unescape(raw[i:end])
			if !ok {
				return false
			}
			add(b, i)
			i += n
		}
		offs = append(offs, end)
		return true
	}
	switch {
	case len(raw) >= 6 && string(raw[:3]) == `'''` && string(raw[len(raw)-3:]) == `'''`:
		for i := trimNewline(3); i < len(raw)-3; i++ {
			add(raw[i:i+1], i)
		}
		offs = append(offs, len(raw)-3)
	case len(raw) >= 2 && raw[0] == '\'' && raw[len(raw)-1] == '\'':
		for i := 1; i < len(raw)-1; i++ {
			add(raw[i:i+1], i)
		}
		offs = append(offs, len(raw)-1)
	case len(raw) >= 6 && string(raw[:3]) == `"""` && string(raw[len(raw)-3:]) == `"""`:
		if !basic(trimNewline(3), len(raw)-3, true) {
			return "", nil, false
		}
	case len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"':
		if !basic(1, len(raw)-1, false) {
			return "", nil, false
		}
	default:
		return "", nil, false
	}
	return string(val), offs, true
}

// unescape reads the escape at the start of b (a backslash and what
// follows) and returns the bytes it stands for and its length.
func unescape(b []byte) ([]byte, int, bool) {
	if len(b) < 2 {
		return nil, 0, false
	}
	switch b[1] {
	case 'b':
		return []byte{'\b'}, 2, true
	case 't':
		return []byte{'\t'}, 2, true
	case 'n':
		return []byte{'\n'}, 2, true
	case 'f':
		return []byte{'\f'}, 2, true
	case 'r':
		return []byte{'\r'}, 2, true
	case 'e':
		return []byte{0x1b}, 2, true
	case '"':
		return []byte{'"'}, 2, true
	case '\\':
		return []byte{'\\'}, 2, true
	}
	size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[b[1]]
	if size == 0 || len(b) < 2+size {
		return nil, 0, false
	}
	r, err := strconv.ParseUint(string(b[2:2+size]), 16, 32)
	if err != nil || !utf8.ValidRune(rune(r)) {
		return nil, 0, false
	}
	return utf8.AppendRune(nil, rune(r)), 2 + size, true
}
