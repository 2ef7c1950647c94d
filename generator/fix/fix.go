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

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
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

// Edits returns the edits that bring every stale number of page p to its
// evidence value: the suggested fixes of check's claim-mismatch findings.
// A mismatch without a mechanical fix is returned as a diagnostic: inline
// markup inside the link text ("fix-markup"), or a unit, sign or precision
// problem that a person must resolve ("fix-manual").
func Edits(p *claim.Page, st *evidence.Store, opt check.Options) ([]Edit, diag.List) {
	var (
		edits []Edit
		ds    diag.List
	)
	_, findings := check.Claims(p, st, opt)
	for _, d := range findings {
		if d.Rule != diag.ClaimMismatch {
			continue
		}
		if len(d.Fixes) == 0 {
			rule, why := diag.FixManual, "it needs a person: "+d.Message
			if c := claimAt(p, d.Pos.Offset); c != nil && string(p.Source[c.Pos.Offset:c.End]) != c.Literal {
				rule, why = diag.FixMarkup, "the number is not written as one run of the link text; fix it by hand"
			}
			ds = append(ds, diag.Errorf(d.Pos, rule, "cannot rewrite automatically: %s", why))
			continue
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				edits = append(edits, Edit{Page: p.Path, Start: e.Pos.Offset, End: e.End, Old: string(p.Source[e.Pos.Offset:e.End]),
					New: e.NewText, Pos: e.Pos, Ref: f.Message})
			}
		}
	}
	return edits, ds
}

// claimAt returns the claim whose literal holds offset off.
func claimAt(p *claim.Page, off int) *claim.Claim {
	for i := range p.Claims {
		if c := &p.Claims[i]; off >= c.Pos.Offset && off <= c.End {
			return c
		}
	}
	return nil
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
