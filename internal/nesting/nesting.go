// Package nesting measures how deeply a document nests before it is
// parsed, so that a hostile or broken file (two million nested TOML
// arrays, a 3000-level Markdown list) is refused with a clear error at
// its position instead of overflowing a recursive parser's stack or
// taking quadratic time.
//
// The scanners are linear, allocate nothing and understand just enough
// of each syntax (strings, comments, code fences) not to count brackets
// or markers that are text.
package nesting

// MaxDepth is the default nesting limit of evdoc's inputs: far above what
// a manifest, a JSON report or a page needs, far below what overflows a
// parser.
const MaxDepth = 100

// TooDeep reports the first place a document nests deeper than its limit.
type TooDeep struct {
	// Offset is the byte offset of the opening that goes past the limit.
	Offset int
	// Limit is the limit that was exceeded.
	Limit int
}

// TOML returns the first bracket or brace of src (TOML 1.0) that opens a
// level deeper than max, or nil. Brackets inside strings and comments do
// not count; a table header's brackets count as one level.
func TOML(src []byte, max int) *TooDeep {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipTOMLString(src, i)
		case '[', '{':
			depth++
			if depth > max {
				return &TooDeep{Offset: i, Limit: max}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// skipTOMLString returns the offset of the last byte of the string that
// starts at src[i] (basic or literal, single or multi-line).
func skipTOMLString(src []byte, i int) int {
	q := src[i]
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		for j := i + 3; j+2 < len(src); j++ {
			if q == '"' && src[j] == '\\' {
				j++
				continue
			}
			if src[j] == q && src[j+1] == q && src[j+2] == q {
				for j+3 < len(src) && src[j+3] == q { // up to two quotes may end the content
					j++
				}
				return j + 2
			}
		}
		return len(src)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if q == '"' {
				j++
			}
		case q, '\n':
			return j
		}
	}
	return len(src)
}

// JSONDocument is JSON for a file that may or may not hold JSON: it
// checks src only when its first byte other than white space is { or [.
func JSONDocument(src []byte, max int) *TooDeep {
	for _, c := range src {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return JSON(src, max)
		}
		return nil
	}
	return nil
}

// JSON returns the first bracket or brace of src that opens a level
// deeper than max, or nil. Brackets inside strings do not count.
func JSON(src []byte, max int) *TooDeep {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
			if depth > max {
				return &TooDeep{Offset: i, Limit: max}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// Markdown returns the first line of src whose container prefix (block
// quote markers, list markers and the indentation that continues a list
// item) nests deeper than max, or nil. Lines inside fenced code blocks
// opened at the start of a line are skipped. The measure is an upper
// bound of CommonMark's nesting: each '>' and each list marker of the
// prefix counts one level, and every two columns of indentation count
// one level (the least a nested list item indents by).
func Markdown(src []byte, max int) *TooDeep {
	var fence byte
	fenceLen := 0
	for start := 0; start < len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := src[start:end]
		if f, n := FenceOf(line); n > 0 {
			switch {
			case fence == 0:
				fence, fenceLen = f, n
			case f == fence && n >= fenceLen:
				fence = 0
			}
		} else if fence == 0 {
			if d, off := prefixDepth(line); d > max {
				return &TooDeep{Offset: start + off, Limit: max}
			}
		}
		start = end + 1
	}
	return nil
}

// FenceOf returns the fence character and length when line (after up to
// three spaces) starts or closes a code fence: a run of three or more
// backticks or tildes; 0, 0 otherwise.
func FenceOf(line []byte) (byte, int) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0
	}
	c, n := line[i], 0
	for i+n < len(line) && line[i+n] == c {
		n++
	}
	if n < 3 {
		return 0, 0
	}
	return c, n
}

// prefixDepth estimates the nesting of line's container prefix and
// returns it with the offset where the prefix ends.
func prefixDepth(line []byte) (depth, off int) {
	cols := 0
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ':
			cols++
		case c == '\t':
			cols += 4 - cols%4
		case c == '>':
			depth++
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
			depth++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				depth++
				i = j
			} else {
				return depth + cols/2, i
			}
		default:
			return depth + cols/2, i
		}
		i++
	}
	return depth + cols/2, i
}

// YAML returns the first place of src (YAML 1.2 as front matter writes
// it) that nests deeper than max, or nil. A line's depth is the number of
// block levels open at it (each deeper indentation opens one, each "- "
// sequence entry that starts the line's content one more) plus the flow
// collections ("[", "{") open there; brackets in quoted scalars and
// comments and the lines of a block scalar ("|", ">") do not count.
func YAML(src []byte, max int) *TooDeep {
	var indents []int // the indentation of each open block level
	flow := 0
	scalar := -1 // the indentation a block scalar's lines exceed; -1: none
	for start := 0; start < len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := src[start:end]
		ind := 0
		for ind < len(line) && line[ind] == ' ' {
			ind++
		}
		blank := ind == len(line) || line[ind] == '#' || line[ind] == '\r'
		switch {
		case blank:
		case scalar >= 0 && ind > scalar:
			// a line of a block scalar: text
		default:
			scalar = -1
			if flow == 0 {
				for len(indents) > 0 && indents[len(indents)-1] >= ind {
					indents = indents[:len(indents)-1]
				}
				indents = append(indents, ind)
			}
			depth := len(indents)
			i := ind
			for i+1 < len(line) && line[i] == '-' && (line[i+1] == ' ' || line[i+1] == '\t') {
				depth++
				i += 2
				for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
					i++
				}
			}
			if depth+flow > max {
				return &TooDeep{Offset: start + ind, Limit: max}
			}
			last := byte(0)
			for ; i < len(line); i++ {
				c := line[i]
				switch {
				case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
					i = len(line)
					continue
				case c == '"' || c == '\'':
					for i++; i < len(line) && line[i] != c; i++ {
						if c == '"' && line[i] == '\\' {
							i++
						}
					}
				case c == '[' || c == '{':
					flow++
					if depth+flow > max {
						return &TooDeep{Offset: start + i, Limit: max}
					}
				case c == ']' || c == '}':
					if flow > 0 {
						flow--
					}
				}
				if c != ' ' && c != '\t' && c != '\r' {
					last = c
				}
			}
			if flow == 0 && (last == '|' || last == '>' || blockScalarHeader(line)) {
				scalar = ind
			}
		}
		start = end + 1
	}
	return nil
}

// blockScalarHeader reports whether line ends with a block scalar header
// with indicators ("|-", ">+", "|2").
func blockScalarHeader(line []byte) bool {
	t := line
	for len(t) > 0 && (t[len(t)-1] == ' ' || t[len(t)-1] == '\r' || t[len(t)-1] == '\t') {
		t = t[:len(t)-1]
	}
	for k := len(t) - 1; k >= 0 && k >= len(t)-3; k-- {
		switch c := t[k]; {
		case c == '|' || c == '>':
			return k == 0 || t[k-1] == ' '
		case c == '-' || c == '+' || (c >= '1' && c <= '9'):
		default:
			return false
		}
	}
	return false
}
