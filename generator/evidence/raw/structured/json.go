package structured

import (
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// The generic JSON reader ("json", ReadJSON), which keys every number by
// its path. The conventions of every lab-format reader are in raw's readings.go.

// ReadJSON reads any JSON document; format "json". Every number, and
// every string holding exactly a number ("53", "-1.5e3"), is a reading
// keyed by its path: member names joined with "." and array indexes as
// "[i]", e.g. "a.b[0].c" or, for a top-level array, "[0].endpoints[1].x".
// Member names are written as they are, so a name holding "." or "[" makes
// an ambiguous path; a document that is a single number has the key "$".
// Raw is the number literal, or the text between the quotes of a numeric
// string with Pos at its first byte.
//
// With opt.Paths set only those paths are read, and a listed path that is
// missing, or that holds something other than a number, is an error at the
// nearest existing value. Invalid JSON is an error at the line:col of the
// first syntax error.
func ReadJSON(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceJSON)
	if errs != nil {
		return nil, errs
	}
	root, errs := r.ParseWholeJSON()
	if errs != nil {
		return nil, errs
	}
	var want map[string]bool
	if len(opt.Paths) > 0 {
		want = map[string]bool{}
		for _, p := range opt.Paths {
			want[p] = true
		}
	}
	nodes := map[string]*jsontree.Node{} // with opt.Paths: every value by path
	numeric := map[string]bool{}
	jsontree.Walk(root, func(p string, n *jsontree.Node) {
		if _, dup := nodes[p]; want != nil && !dup {
			nodes[p] = n
		}
		if n.Kind == jsontree.Object || n.Kind == jsontree.Array {
			return
		}
		key := p
		if key == "" {
			key = "$"
		}
		if want != nil && !want[key] {
			return
		}
		if r.AddJSONNumber(key, n) {
			numeric[key] = true
		}
	})
	if want != nil {
		paths := make([]string, 0, len(want))
		for p := range want {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			if numeric[p] {
				continue
			}
			if n, ok := nodes[p]; ok && p != "" {
				r.Errorf(n.Start, "path %q is a %s; expected a number or numeric string", p, n.Kind.Noun())
				continue
			}
			near, at := nearestPath(p, nodes)
			r.Errorf(at, "path %q is not in the document (nearest existing path %q); expected a path such as a.b[0].c naming a number", p, near)
		}
	}
	return r.Result()
}

// nearestPath finds the longest existing prefix of path p (dropping
// ".name" and "[i]" steps) and its offset.
func nearestPath(p string, nodes map[string]*jsontree.Node) (string, int) {
	for p != "" {
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			p = ""
			break
		}
		p = p[:i]
		if n, ok := nodes[p]; ok && p != "" {
			return p, n.Start
		}
	}
	if n, ok := nodes[""]; ok {
		return "$", n.Start
	}
	return "$", 0
}
