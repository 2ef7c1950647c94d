// Package fix rewrites stale claim literals to the evidence value, in the
// style they were written (precision, sign convention, full-width digits,
// thousands separators; unit words and approximation marks are kept), and
// writes pages atomically.
package fix

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"evdoc/generator/check"
	"evdoc/generator/claim"
	"evdoc/generator/diag"
	"evdoc/generator/evidence"
)

// Edit replaces the bytes [Start, End) of a page with New. Old is the text
// it replaces; Pos is where Start lies.
type Edit struct {
	Page       string
	Start, End int
	Old, New   string
	Pos        diag.Position
	Ref        string
}

// Edits returns the edits that bring every mismatching number of page p
// to its evidence value. A claim whose literal is not written contiguously
// in the source (inline markup inside the link text) cannot be rewritten
// safely: it is reported as a diagnostic instead.
func Edits(p *claim.Page, st *evidence.Store, opt check.Options) ([]Edit, diag.List) {
	var (
		edits []Edit
		ds    diag.List
	)
	for _, c := range p.Claims {
		if c.Exempt {
			continue
		}
		lit, err := claim.ParseLiteral(c.Literal)
		if err != nil || len(lit.Quantities) != len(c.Refs) {
			continue // check reports these; nothing to rewrite
		}
		for i, q := range lit.Quantities {
			v, ok := st.Lookup(c.Refs[i])
			if !ok {
				continue
			}
			if ok, _ := check.Match(q, lit.Approx, v, opt); ok {
				continue
			}
			if string(p.Source[c.Pos.Offset:c.End]) != c.Literal {
				ds = append(ds, diag.Errorf(c.Pos, "fix-markup", "cannot rewrite %q: the link text has inline markup; fix it by hand", c.Literal))
				break
			}
			start, end := c.Pos.Offset+q.NumStart, c.Pos.Offset+q.NumEnd
			nw := q.Format(check.InUnitOf(q, v))
			if nw == string(p.Source[start:end]) {
				continue
			}
			edits = append(edits, Edit{Page: p.Path, Start: start, End: end, Old: string(p.Source[start:end]), New: nw,
				Pos: p.Index.Pos(start), Ref: c.Refs[i]})
		}
	}
	return edits, ds
}

// Apply returns src with the edits applied. Edits must not overlap.
func Apply(src []byte, edits []Edit) []byte {
	sorted := append([]Edit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	var b bytes.Buffer
	last := 0
	for _, e := range sorted {
		b.Write(src[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.Write(src[last:])
	return b.Bytes()
}

// ErrChanged is returned by WriteAtomic when the file on disk no longer
// holds the bytes the edits were computed from.
var ErrChanged = fmt.Errorf("file changed since it was read; left alone")

// WriteAtomic replaces path with data if the file still holds exactly
// read (compared by SHA-256). It writes a temporary file in the same
// directory with the original permissions, syncs it and renames it over
// path, so readers see either the old or the new file, never a mix.
func WriteAtomic(path string, read, data []byte) error {
	cur, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if sha256.Sum256(cur) != sha256.Sum256(read) {
		return ErrChanged
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".evdoc-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
