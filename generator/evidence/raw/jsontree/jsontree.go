package jsontree

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// A JSON parser that keeps byte offsets, shared by every reader of JSON:
// envoy-stats-json and envoy-clusters-json (parseEnvoyJSON), fortio-json,
// json and curl-writeout's %{json} lines (ParseFile). The two wrappers
// differ only in how they word a syntax error and whether an object may
// repeat a key.

// Kind is the kind of a parsed JSON value.
type Kind uint8

// The kinds of JSON value; true and false are both Bool.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String names the kind with its article ("an object"), as the Envoy
// readers' messages write it.
func (k Kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// Noun names the kind without an article ("object"), as the lab-format
// readers' messages write it.
func (k Kind) Noun() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Node is one parsed JSON value and the byte range [start, end) of its
// text in the file.
type Node struct {
	Kind       Kind
	Start, End int
	Str        string // decoded string value
	Elems      []*Node
	Members    []Member
}

// Member is one member of an object, its key decoded.
type Member struct {
	Key string
	Val *Node
}

// Get returns the value of the first of names present in object n, or nil.
func (n *Node) Get(names ...string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, name := range names {
		for _, m := range n.Members {
			if m.Key == name {
				return m.Val
			}
		}
	}
	return nil
}

// MaxDepth bounds nesting so hostile input cannot exhaust the stack
// (encoding/json allows 10000, and a reader's paths would cost memory
// quadratic in the depth).
const MaxDepth = 512

// SyntaxError is the first error Parse met: the offset of the
// offending byte and a message saying what was expected. deep marks the
// error of a document nested deeper than MaxDepth, which is otherwise
// well-formed up to that byte.
type SyntaxError struct {
	Off  int
	Msg  string
	deep bool
}

// jsonDupKeys says whether an object may repeat a key.
type jsonDupKeys bool

const (
	// RejectDupKeys makes a repeated key a syntax error (Envoy never
	// writes one).
	RejectDupKeys jsonDupKeys = false
	// AllowDupKeys keeps every member of a repeated key, in file order
	// (Node.get returns the first).
	AllowDupKeys jsonDupKeys = true
)

// jsonParser is the state of one Parse call. src ends where the
// document must end, so len(src) is the parse limit.
type jsonParser struct {
	src   []byte
	pos   int
	depth int
	dups  jsonDupKeys
	err   *SyntaxError
}

// Parse parses src[start:end] as one JSON document (RFC 8259, at most
// MaxDepth levels deep); node offsets are offsets in src. On a syntax
// error it returns the offset of the offending byte and a message saying
// what was expected.
func Parse(src []byte, start, end int, dups jsonDupKeys) (*Node, *SyntaxError) {
	p := &jsonParser{src: src[:end], pos: start, dups: dups}
	p.ws()
	n := p.value()
	if p.err != nil {
		return nil, p.err
	}
	p.ws()
	if p.pos < len(p.src) {
		p.fail("unexpected %s after the top-level value; expected end of file", p.what())
		return nil, p.err
	}
	return n, nil
}

// fail records the first error, at the current offset.
func (p *jsonParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Off: p.pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// what describes the byte at p.pos for an error message.
func (p *jsonParser) what() string {
	if p.pos >= len(p.src) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

// ws skips JSON white space.
func (p *jsonParser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value that starts at p.pos (white space skipped).
func (p *jsonParser) value() *Node {
	if p.pos >= len(p.src) {
		p.fail("unexpected end of file; expected a JSON value")
		return nil
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.string()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", Bool)
	case c == 'f':
		return p.literal("false", Bool)
	case c == 'n':
		return p.literal("null", Null)
	}
	p.fail("unexpected %s; expected a JSON value", p.what())
	return nil
}

// enter counts one more level of nesting for the bracket at p.pos and
// reports true, or records the depth error and reports false beyond
// MaxDepth. After true the caller undoes it with p.depth--.
func (p *jsonParser) enter() bool {
	p.depth++
	if p.depth > MaxDepth {
		p.fail("nesting deeper than %d levels; expected a shallower document", MaxDepth)
		p.err.deep = true
		return false
	}
	return true
}

// object parses an object; p.pos is at its '{'.
func (p *jsonParser) object() *Node {
	n := &Node{Kind: Object, Start: p.pos}
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	p.pos++ // {
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		n.End = p.pos
		return n
	}
	var seen map[string]bool // keys so far, when they may not repeat
	if p.dups == RejectDupKeys {
		seen = map[string]bool{}
	}
	for {
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			if len(n.Members) == 0 {
				p.fail("unexpected %s in object; expected a string key or '}'", p.what())
			} else {
				p.fail("unexpected %s after ','; expected a string key", p.what())
			}
			return nil
		}
		keyStart := p.pos
		k := p.string()
		if p.err != nil {
			return nil
		}
		if seen != nil {
			if seen[k.Str] {
				p.pos = keyStart
				p.fail("duplicate key %q; expected each key once per object", k.Str)
				return nil
			}
			seen[k.Str] = true
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			p.fail("unexpected %s after object key; expected ':'", p.what())
			return nil
		}
		p.pos++
		p.ws()
		v := p.value()
		if p.err != nil {
			return nil
		}
		n.Members = append(n.Members, Member{Key: k.Str, Val: v})
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			p.ws()
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			n.End = p.pos
			return n
		}
		p.fail("unexpected %s after object value; expected ',' or '}'", p.what())
		return nil
	}
}

// array parses an array; p.pos is at its '['.
func (p *jsonParser) array() *Node {
	n := &Node{Kind: Array, Start: p.pos}
	if !p.enter() {
		return nil
	}
	defer func() { p.depth-- }()
	p.pos++ // [
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		n.End = p.pos
		return n
	}
	for {
		if len(n.Elems) > 0 && p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.fail("unexpected ']' after ','; expected a value")
			return nil
		}
		v := p.value()
		if p.err != nil {
			return nil
		}
		n.Elems = append(n.Elems, v)
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			p.ws()
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			n.End = p.pos
			return n
		}
		p.fail("unexpected %s after array element; expected ',' or ']'", p.what())
		return nil
	}
}

// literal parses true, false or null.
func (p *jsonParser) literal(word string, kind Kind) *Node {
	if !strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(word))]), word) {
		p.fail("unexpected %s; expected a JSON value", p.what())
		return nil
	}
	n := &Node{Kind: kind, Start: p.pos, End: p.pos + len(word)}
	p.pos += len(word)
	return n
}

// digits skips a run of decimal digits and returns its length.
func (p *jsonParser) digits() int {
	s := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - s
}

// number parses a number with the RFC 8259 grammar (no leading zeros).
func (p *jsonParser) number() *Node {
	n := &Node{Kind: Number, Start: p.pos}
	if p.src[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		p.fail("unexpected %s in number; expected a digit", p.what())
		return nil
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			p.fail("unexpected %s in number; expected a digit after '.'", p.what())
			return nil
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			p.fail("unexpected %s in number; expected a digit in the exponent", p.what())
			return nil
		}
	}
	n.End = p.pos
	return n
}

// string parses a string, validating its escapes, and decodes it.
func (p *jsonParser) string() *Node {
	n := &Node{Kind: String, Start: p.pos}
	p.pos++ // "
	escaped := false
	for {
		if p.pos >= len(p.src) {
			p.fail("unterminated string; expected '\"'")
			return nil
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			n.End = p.pos
			if body := p.src[n.Start+1 : n.End-1]; !escaped && utf8.Valid(body) {
				n.Str = string(body)
			} else {
				// The scan above validated every escape, so this cannot
				// fail; bytes that are not UTF-8 decode to U+FFFD, as
				// encoding/json decodes them.
				_ = json.Unmarshal(p.src[n.Start:n.End], &n.Str)
			}
			return n
		case c < 0x20:
			p.fail("control character %s in string; expected it escaped", strconv.QuoteRune(rune(c)))
			return nil
		case c == '\\':
			escaped = true
			p.pos++
			if p.pos >= len(p.src) {
				p.fail("unterminated string; expected '\"'")
				return nil
			}
			switch p.src[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				p.pos++
				for i := 0; i < 4; i++ {
					if p.pos >= len(p.src) || !isHex(p.src[p.pos]) {
						p.fail("unexpected %s in \\u escape; expected four hex digits", p.what())
						return nil
					}
					p.pos++
				}
			default:
				p.fail("unexpected %s after '\\'; expected one of \"\\/bfnrtu", p.what())
				return nil
			}
		default:
			p.pos++
		}
	}
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// ParseFile parses src[start:end] for the lab-format readers, which keep
// repeated object keys (ReadJSON numbers them) and word a syntax error as
// encoding/json does ("invalid JSON: invalid character '}' looking for
// beginning of object key string; expected a JSON document (RFC 8259)"),
// at the line:col of its first one. Only a document Parse rejects is
// handed to encoding/json, for that message. Both accept the same
// documents but for their depth bound, so one that encoding/json accepts
// was rejected for nesting deeper than MaxDepth; the last error is a
// safeguard should they ever disagree.
func ParseFile(ix *diag.LineIndex, src []byte, start, end int, rule diag.RuleID) (*Node, diag.List) {
	n, serr := Parse(src, start, end, AllowDupKeys)
	if serr == nil {
		return n, nil
	}
	var raw json.RawMessage
	if err := json.Unmarshal(src[start:end], &raw); err != nil {
		off := start
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = start + int(se.Offset)
			// "invalid character" errors are counted after the offending
			// byte; "unexpected end" errors point at the end.
			if !strings.HasPrefix(se.Error(), "unexpected end") && off > start {
				off--
			}
		}
		return nil, diag.List{diag.Errorf(ix.Pos(off), rule, "invalid JSON: %v; expected a JSON document (RFC 8259)", err)}
	}
	if serr.deep {
		return nil, diag.List{diag.Errorf(ix.Pos(serr.Off), rule, "JSON nested deeper than %d levels; expected a shallower document", MaxDepth)}
	}
	return nil, diag.List{diag.Errorf(ix.Pos(serr.Off), rule, "cannot parse JSON here; expected a JSON value")}
}

// Walk calls visit for n and every node inside it, parents first,
// with its path: member names joined with "." and array elements as
// "[i]" ("a.b[0].c"; "" for the root).
func Walk(n *Node, visit func(path string, n *Node)) {
	var walk func(p string, n *Node)
	walk = func(p string, n *Node) {
		visit(p, n)
		switch n.Kind {
		case Object:
			for _, m := range n.Members {
				if p == "" {
					walk(m.Key, m.Val)
				} else {
					walk(p+"."+m.Key, m.Val)
				}
			}
		case Array:
			for i, e := range n.Elems {
				walk(p+"["+strconv.Itoa(i)+"]", e)
			}
		}
	}
	walk("", n)
}
