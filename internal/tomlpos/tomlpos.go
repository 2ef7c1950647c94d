// Package tomlpos holds what evdoc's positioned TOML readers share: they
// walk go-toml's unstable parser (which keeps every node's byte range)
// so that each finding names the key or value it concerns.
package tomlpos

import (
	"errors"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Keys returns the parts of the key of a table, array table or key/value
// node: [a.b] and a.b = 1 give the nodes a and b.
func Keys(n *unstable.Node) []*unstable.Node {
	var out []*unstable.Node
	for it := n.Key(); it.Next(); {
		out = append(out, it.Node())
	}
	return out
}

// KeyStrings returns the parts of n's key as strings.
func KeyStrings(n *unstable.Node) []string {
	var out []string
	for it := n.Key(); it.Next(); {
		out = append(out, string(it.Node().Data))
	}
	return out
}

// JoinKey writes a dotted key as TOML spells it.
func JoinKey(k []*unstable.Node) string {
	parts := make([]string, len(k))
	for i, n := range k {
		parts[i] = string(n.Data)
	}
	return strings.Join(parts, ".")
}

// ParseError returns the finding for the error p stopped at, if any: at
// the bytes the parser highlights, or at the end of the file when it
// names none, with rule and "invalid TOML: …".
func ParseError(p *unstable.Parser, ix *diag.LineIndex, size int, rule diag.RuleID) (diag.Diagnostic, bool) {
	err := p.Error()
	if err == nil {
		return diag.Diagnostic{}, false
	}
	var pe *unstable.ParserError
	off, end := size, size
	if errors.As(err, &pe) && pe.Highlight != nil {
		r := p.Range(pe.Highlight)
		off, end = int(r.Offset), int(r.Offset+r.Length)
	}
	pos, endPos := ix.Span(off, end)
	return diag.Errorf(pos, rule, "invalid TOML: %s", err).Spanning(endPos), true
}
