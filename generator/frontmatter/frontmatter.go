// Package frontmatter finds and decodes the front matter of a Hugo
// content file the way Hugo's page parser (parser/pageparser) reads it:
// YAML between "---" lines, TOML between "+++" lines, or a JSON object
// ("{ … }") at the start of the file, after optional blank space and a
// byte order mark. Findings name positions in the content file, not in
// the front matter text.
package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/nesting"
)

// Format is a front matter format: YAML, TOML or JSON.
type Format string

// The front matter formats Hugo reads.
const (
	YAML Format = "YAML"
	TOML Format = "TOML"
	JSON Format = "JSON"
)

// Block is the front matter of one file.
//
// Open is the offset of its opening delimiter ("---", "+++" or the "{" of
// a JSON object); Start and End delimit its text: for YAML and TOML the
// lines between the delimiter lines, for JSON the object itself, braces
// included. BodyStart is the offset of the first byte after the front
// matter (after the closing delimiter's line end). A file without front
// matter has the zero Block.
type Block struct {
	Format              Format
	Open, Start, End    int
	BodyStart           int
	closeStart, closeAt int // the closing delimiter line (YAML, TOML): its first byte and the byte after its line end
}

// Text returns the front matter text of src (see Block): nil when the
// file has none.
func (b Block) Text(src []byte) []byte {
	if b.Format == "" {
		return nil
	}
	return src[b.Start:b.End]
}

// CloseLine returns the offset of the first byte of the closing delimiter
// line of YAML or TOML front matter (where a field can be added as a last
// line), or -1 for JSON and for a file without front matter.
func (b Block) CloseLine() int {
	if b.Format != YAML && b.Format != TOML {
		return -1
	}
	return b.closeStart
}

// UnclosedError reports front matter whose opening delimiter has no
// closing one: Hugo refuses such a page.
type UnclosedError struct {
	Format Format
	Open   int // offset of the opening delimiter
}

func (e *UnclosedError) Error() string {
	if e.Format == JSON {
		return "JSON front matter is not closed; expected the \"}\" that ends the object (Hugo reads a page whose first character is \"{\" as JSON front matter)"
	}
	d := delimiter(e.Format)
	return fmt.Sprintf("%s front matter is not closed; expected a line %q after it", e.Format, d)
}

// DelimiterError reports a page whose first character is "-" or "+"
// without the "---" or "+++" of front matter ("- item", "+1 point"):
// Hugo reads that character as the start of a front matter delimiter and
// refuses the page ("invalid YAML delimiter").
type DelimiterError struct {
	Format Format
	Open   int // offset of the character
}

func (e *DelimiterError) Error() string {
	d := delimiter(e.Format)
	return fmt.Sprintf("the page starts with %q, which Hugo reads as the start of %s front matter (%s) and refuses as an invalid delimiter; expected front matter first, or the character escaped (\\%s)", d[:1], e.Format, d, d[:1])
}

func delimiter(f Format) string {
	if f == TOML {
		return "+++"
	}
	return "---"
}

// Split finds the front matter at the start of src as Hugo does: after
// blank space and a byte order mark, a line "---" (YAML) or "+++" (TOML)
// up to the next line starting with the same delimiter, or a JSON object
// whose braces balance (strings and escapes respected). A file without
// front matter returns the zero Block and nil; an opening delimiter
// without a closing one returns an *UnclosedError, and a first "-" or
// "+" that opens no delimiter ("- item") a *DelimiterError, as Hugo
// refuses both. Line ends may be "\n" or "\r\n".
func Split(src []byte) (Block, error) {
	i := 0
	for i < len(src) {
		switch {
		case bytes.HasPrefix(src[i:], []byte("\ufeff")):
			i += 3
			continue
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n':
			i++
			continue
		}
		break
	}
	if i == len(src) {
		return Block{}, nil
	}
	switch src[i] {
	case '{':
		return splitJSON(src, i)
	case '-':
		return splitDelimited(src, i, YAML)
	case '+':
		return splitDelimited(src, i, TOML)
	}
	return Block{}, nil
}

// lineEnd returns the offset just past the line end at or after off
// (len(src) on the last line) and the offset of the line end itself.
func lineEnd(src []byte, off int) (next, end int) {
	nl := bytes.IndexByte(src[off:], '\n')
	if nl < 0 {
		return len(src), len(src)
	}
	end = off + nl
	if end > off && src[end-1] == '\r' {
		end--
	}
	return off + nl + 1, end
}

func splitDelimited(src []byte, open int, f Format) (Block, error) {
	d := delimiter(f)
	if !bytes.HasPrefix(src[open:], []byte(d)) {
		// "- item" or "+1": Hugo reads the first "-" or "+" as the
		// start of a front matter delimiter and refuses the page.
		return Block{}, &DelimiterError{Format: f, Open: open}
	}
	next, end := lineEnd(src, open)
	if strings.TrimRight(string(src[open:end]), " \t") != d {
		// "----" (a thematic break): not front matter.
		return Block{}, nil
	}
	for off := next; off < len(src); {
		n, e := lineEnd(src, off)
		if bytes.HasPrefix(src[off:], []byte(d)) && strings.TrimRight(string(src[off+3:e]), " \t") == "" {
			return Block{Format: f, Open: open, Start: next, End: off, BodyStart: n, closeStart: off, closeAt: n}, nil
		}
		off = n
	}
	return Block{}, &UnclosedError{Format: f, Open: open}
}

func splitJSON(src []byte, open int) (Block, error) {
	level, inQuote := 0, false
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			if !inQuote {
				level++
			}
		case '}':
			if !inQuote {
				level--
			}
		case '"':
			inQuote = !inQuote
		case '\\':
			i++
		}
		if level == 0 {
			end := i + 1
			body := end
			if bytes.HasPrefix(src[body:], []byte("\r\n")) {
				body += 2
			} else if bytes.HasPrefix(src[body:], []byte("\n")) {
				body++
			}
			return Block{Format: JSON, Open: open, Start: open, End: end, BodyStart: body}, nil
		}
	}
	return Block{}, &UnclosedError{Format: JSON, Open: open}
}

// yamlLineRe matches the line number yaml.v3 puts before a message
// ("yaml: line 3: …", "line 4: mapping key …"); it counts from the front
// matter's first line.
var yamlLineRe = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlParserProblems are the yaml.v3 parser (not scanner) problems: for
// them the "line N" it reports is a 0-based line (yaml.v3's mark of the
// enclosing block), one less than the line it names.
var yamlParserProblems = map[string]bool{
	"did not find expected <document start>": true,
	"did not find expected node content":     true,
	"did not find expected key":              true,
	"did not find expected '-' indicator":    true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
}

// yamlError locates a YAML front matter error in text (the front matter
// text, starting at file offset start): it returns the offset of the
// finding in the file (-1 when yaml.v3 names no line) and a one-line
// message without yaml.v3's "line N:" prefix. src is the whole file.
func yamlError(src, text []byte, start int, ix *diag.LineIndex, err error) (int, string) {
	startLine := ix.Pos(start).Line
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg := te.Errors[0]
		off := -1
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			off = firstNonBlank(src, ix, startLine+n-1)
			msg = msg[len(m[0]):]
		}
		if more := len(te.Errors) - 1; more > 0 {
			msg += fmt.Sprintf(" (and %d more)", more)
		}
		return off, msg
	}
	if off, what, ok := unclosedYAML(text); ok {
		return start + off, what
	}
	msg := strings.TrimPrefix(strings.TrimSpace(err.Error()), "yaml: ")
	m := yamlLineRe.FindStringSubmatch(msg)
	if m == nil {
		return -1, strings.ReplaceAll(msg, "\n", " ")
	}
	n, _ := strconv.Atoi(m[1])
	msg = msg[len(m[0]):]
	if yamlParserProblems[msg] {
		n++
		if k := firstFailingLine(text, msg, n); k > 0 {
			n = k
		}
	}
	return firstNonBlank(src, ix, startLine+n-1), msg
}

// firstFailingLine returns the first 1-based line k ≥ from of the YAML
// text such that its first k lines alone fail with the parser problem
// msg, or 0. yaml.v3 names the line where the enclosing block starts
// ("did not find expected key" at a mapping's first key); the first
// prefix that fails ends on the line that breaks the block.
func firstFailingLine(text []byte, msg string, from int) int {
	lines := bytes.SplitAfter(text, []byte("\n"))
	prefix := 0
	for k := 1; k <= len(lines) && k < from+1000; k++ {
		prefix += len(lines[k-1])
		if k < from {
			continue
		}
		var n yaml.Node
		if err := yaml.Unmarshal(text[:prefix], &n); err != nil && strings.HasSuffix(err.Error(), msg) {
			return k
		}
	}
	return 0
}

// firstNonBlank returns the offset in src of the first byte of 1-based
// line n that is not a space or tab, or -1 when the file has no such
// line.
func firstNonBlank(src []byte, ix *diag.LineIndex, n int) int {
	off := ix.LineStart(n)
	if off < 0 {
		return -1
	}
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	return off
}

// unclosedYAML scans YAML text for a quoted scalar or a flow collection
// ("[", "{") that the text never closes, as yaml.v3 reports only where
// it ran out of input ("found unexpected end of stream"). It returns the
// offset of the opening quote or bracket in text and a message naming
// what was expected.
func unclosedYAML(text []byte) (int, string, bool) {
	type open struct {
		off int
		c   byte
	}
	var stack []open
	atValueStart := true // after line start, ": ", "- ", "[", "{" or ","
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '"' || c == '\'') && atValueStart:
			j := i + 1
			closed := false
			for ; j < len(text); j++ {
				if c == '"' && text[j] == '\\' {
					j++
					continue
				}
				if text[j] == c {
					if c == '\'' && j+1 < len(text) && text[j+1] == '\'' {
						j++
						continue
					}
					closed = true
					break
				}
			}
			if !closed {
				name := "double"
				if c == '\'' {
					name = "single"
				}
				return i, fmt.Sprintf("the %s-quoted string opened here is never closed; expected a closing %c", name, c), true
			}
			i = j
			atValueStart = false
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i < len(text) && text[i] != '\n' {
				i++
			}
			atValueStart = true
		case (c == '[' || c == '{') && atValueStart:
			stack = append(stack, open{i, c})
		case (c == ']' || c == '}') && len(stack) > 0:
			stack = stack[:len(stack)-1]
			atValueStart = false
		case c == ',' && len(stack) > 0:
			atValueStart = true
		case c == '\n':
			atValueStart = true
		case c == ' ' || c == '\t' || c == '\r':
			// blank space keeps the state
		case c == ':' || c == '-' || c == '?':
			atValueStart = i+1 >= len(text) || text[i+1] == ' ' || text[i+1] == '\n' || text[i+1] == '\r' || (len(stack) > 0 && c == ':')
		default:
			atValueStart = false
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		name, want := "flow sequence", ']'
		if o.c == '{' {
			name, want = "flow mapping", '}'
		}
		return o.off, fmt.Sprintf("the %s %q opened here is never closed; expected %q", name, string(o.c), string(want)), true
	}
	return 0, "", false
}

// duplicateKey returns the first mapping key of the tree n that repeats
// an earlier key of the same mapping, and that earlier key.
func duplicateKey(n *yaml.Node) (dup, first *yaml.Node) {
	if n == nil {
		return nil, nil
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			if f, ok := seen[k.Value]; ok {
				return k, f
			}
			seen[k.Value] = k
		}
	}
	for _, c := range n.Content {
		if d, f := duplicateKey(c); d != nil {
			return d, f
		}
	}
	return nil, nil
}

// runeColOffset converts yaml.v3's 1-based line and character column,
// counted from the front matter text's first line (startLine in the
// file), into a file offset.
func runeColOffset(src []byte, ix *diag.LineIndex, startLine, line, col int) int {
	off := ix.LineStart(startLine + line - 1)
	if off < 0 {
		return -1
	}
	for c := 1; c < col && off < len(src) && src[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// Decode decodes the front matter b of src (indexed by ix) into a map of
// its top-level fields. A syntax error is reported at its position in the
// file (ix's file), as a page-front-matter error naming the format.
func Decode(src []byte, b Block, ix *diag.LineIndex) (map[string]any, *diag.Diagnostic) {
	fields := map[string]any{}
	text := b.Text(src)
	if text == nil {
		return fields, nil
	}
	startLine := ix.Pos(b.Start).Line
	fail := func(off int, format string, args ...any) *diag.Diagnostic {
		d := diag.Errorf(ix.Pos(off), diag.PageFrontMatter, format, args...).Spanning(ix.LineEnd(off))
		return &d
	}
	// Nesting is bounded before parsing, in every format: the TOML
	// decoder recurses without a limit (2,000,000 nested arrays overflowed
	// the stack), and Hugo fails on what it cannot read.
	var deep *nesting.TooDeep
	switch b.Format {
	case YAML:
		deep = nesting.YAML(text, nesting.MaxDepth)
	case TOML:
		deep = nesting.TOML(text, nesting.MaxDepth)
	case JSON:
		deep = nesting.JSON(text, nesting.MaxDepth)
	}
	if deep != nil {
		off := b.Start + deep.Offset
		d := diag.Errorf(ix.Pos(off), diag.PageLimit, "%s front matter nests deeper than %d levels; expected a flatter structure", b.Format, deep.Limit).Spanning(ix.LineEnd(off))
		return nil, &d
	}
	switch b.Format {
	case YAML:
		var root yaml.Node
		err := yaml.Unmarshal(text, &root)
		if err == nil && root.Kind != 0 {
			if dup, first := duplicateKey(&root); dup != nil {
				off := runeColOffset(src, ix, startLine, dup.Line, dup.Column)
				return nil, fail(max(off, b.Open), "invalid YAML front matter: mapping key %q is already defined at line %d", dup.Value, startLine+first.Line-1)
			}
			err = root.Decode(&fields)
		}
		if err != nil {
			off, msg := yamlError(src, text, b.Start, ix, err)
			if off < 0 {
				off = b.Open
			}
			return nil, fail(off, "invalid YAML front matter: %s", msg)
		}
	case TOML:
		if _, err := toml.Decode(string(text), &fields); err != nil {
			off := b.Open
			msg := strings.TrimPrefix(err.Error(), "toml: ")
			var pe toml.ParseError
			if errors.As(err, &pe) {
				msg = pe.Message
				if s := ix.LineStart(startLine + pe.Position.Line - 1); s >= 0 {
					off = ix.LineCol(startLine+pe.Position.Line-1, pe.Position.Col).Offset
				}
			}
			// One line per finding: a token quoted in the message may
			// hold a line end ('0b\n').
			msg = strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(msg)
			return nil, fail(off, "invalid TOML front matter: %s", msg)
		}
	case JSON:
		dec := json.NewDecoder(bytes.NewReader(text))
		if err := dec.Decode(&fields); err != nil {
			off := b.Open
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				off = b.Start + int(se.Offset) - 1
			case errors.As(err, &te):
				off = b.Start + int(te.Offset) - 1
			}
			hint := ""
			if bytes.HasPrefix(text, []byte("{{")) {
				hint = " (Hugo reads a page whose first character is \"{\" as JSON front matter: a page cannot start with a shortcode call; put front matter before it)"
			}
			return nil, fail(max(off, b.Open), "invalid JSON front matter: %v%s", err, hint)
		}
	}
	return fields, nil
}

// String returns a top-level string field, as Hugo reads title or
// translationKey, and whether the field is a string.
func String(fields map[string]any, key string) (string, bool) {
	s, ok := fields[key].(string)
	return s, ok
}

// fieldRe matches the start of a top-level field line of each format:
// "key:" (YAML), "key =" (TOML), "\"key\":" (JSON); the submatch is the
// key.
var fieldRe = map[Format]*regexp.Regexp{
	YAML: regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:`),
	TOML: regexp.MustCompile(`^[ \t]*([A-Za-z_][A-Za-z0-9_-]*|"[^"]*")[ \t]*=`),
}

// Field is one top-level field's value text in the file: the key, and
// the byte range [Start, End) of the value as written (its first line,
// and the following lines that continue it).
type Field struct {
	Key        string
	Start, End int
}

// Fields returns the byte ranges of the values of top-level fields named
// in keys, in file order, as written in src: a YAML value continues on
// indented lines, a TOML multi-line string until its closing quotes; a
// TOML field after a [table] header is not top-level. JSON fields are
// found on the line of their key.
func Fields(src []byte, b Block, keys []string) []Field {
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	if b.Format == JSON {
		return jsonFields(src, b, want)
	}
	var out []Field
	re := fieldRe[b.Format]
	if re == nil {
		return nil
	}
	inTable := false
	for off := b.Start; off < b.End; {
		next, end := lineEnd(src, off)
		end = min(end, b.End)
		line := string(src[off:end])
		if b.Format == TOML && strings.HasPrefix(strings.TrimSpace(line), "[") {
			inTable = true
		}
		m := re.FindStringSubmatchIndex(line)
		if m == nil || inTable || !want[strings.Trim(line[m[2]:m[3]], `"`)] {
			off = next
			continue
		}
		f := Field{Key: strings.Trim(line[m[2]:m[3]], `"`), Start: off + m[1], End: end}
		off = next
		switch b.Format {
		case YAML:
			for off < b.End {
				n, e := lineEnd(src, off)
				l := src[off:min(e, b.End)]
				if len(bytes.TrimSpace(l)) > 0 && l[0] != ' ' && l[0] != '\t' {
					break
				}
				f.End = min(e, b.End)
				off = n
			}
		case TOML:
			v := strings.TrimSpace(line[m[1]:])
			for _, q := range []string{`"""`, `'''`} {
				if !strings.HasPrefix(v, q) || strings.Count(v, q) != 1 {
					continue
				}
				for off < b.End {
					n, e := lineEnd(src, off)
					e = min(e, b.End)
					f.End = e
					closed := bytes.Contains(src[off:e], []byte(q))
					off = n
					if closed {
						break
					}
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// jsonFields finds the string values of the top-level keys in want of
// JSON front matter with the decoder's token offsets.
func jsonFields(src []byte, b Block, want map[string]bool) []Field {
	dec := json.NewDecoder(bytes.NewReader(src[b.Start:b.End]))
	var out []Field
	depth := 0
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				depth++
				expectKey = depth == 1
			case '[':
				depth++
			default:
				depth--
				expectKey = depth == 1
			}
			continue
		case string:
			if depth == 1 && expectKey {
				if !want[t] {
					expectKey = false
					continue
				}
				start := int(dec.InputOffset())
				v, err := dec.Token()
				if err != nil {
					return out
				}
				if _, ok := v.(string); ok {
					vs := bytes.IndexByte(src[b.Start+start:b.End], '"')
					out = append(out, Field{Key: t, Start: b.Start + start + vs, End: b.Start + int(dec.InputOffset())})
				} else if d, ok := v.(json.Delim); ok && (d == '{' || d == '[') {
					depth++
				}
				expectKey = depth == 1
				continue
			}
		}
		if depth == 1 {
			expectKey = !expectKey
		}
	}
}
