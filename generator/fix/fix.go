// Package fix rewrites stale claim literals to the evidence value, in the
// style they were written (precision, sign convention, full-width digits,
// thousands separators; unit words and approximation marks are kept), and
// writes pages atomically. It applies the suggested fixes of one check run
// (Plan): one judgement, one write per page. A rewrite by a factor of 1000
// or more is refused unless Options.AllowScale is set.
package fix

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/internal/safefile"
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

// Options tunes fix.
type Options struct {
	// AllowScale lets fix change a number by a factor of 1000 or more
	// (1.2 → 1232, 28 → 0.028). Without it such a rewrite is refused as
	// "fix-scale": a change that large is almost always a unit or
	// separator mistake (ms written as s, 1,232 read as thousands), not a
	// stale number.
	AllowScale bool
}

// scaleLimit is the factor from which a rewrite needs AllowScale.
var scaleLimit = decimal.NewFromInt(1000)

// Edits returns the edits that bring every stale number of page p to its
// evidence value: it judges the page once (check.Claims) and plans the
// suggested fixes of that judgement (see Plan), with the default Options.
func Edits(p *claim.Page, st *evidence.Store, opt check.Options) ([]Edit, diag.List) {
	_, findings := check.Claims(p, st, opt)
	edits, rest, _ := Plan([]*claim.Page{p}, findings, Options{})
	var ds diag.List
	for _, d := range rest {
		if d.Rule == diag.FixManual || d.Rule == diag.FixMarkup || d.Rule == diag.FixScale {
			ds = append(ds, d)
		}
	}
	return edits[p.Path], ds
}

// Plan turns the findings of one check run into edits, per page path: the
// suggested fixes of its claim-mismatch findings. It returns the findings
// that remain after the edits are applied: every finding that is not a
// fixed mismatch, and for a mismatch without a mechanical fix a
// diagnostic saying why: inline markup inside the link text
// ("fix-markup"), a unit, sign or precision problem that a person must
// resolve, or a file not among pages ("fix-manual"), or a change by a
// factor of 1000 or more without Options.AllowScale ("fix-scale"). A
// figure spec is passed as a page whose Source is the spec file. fixed
// counts the mismatches resolved.
func Plan(pages []*claim.Page, findings diag.List, fo Options) (edits map[string][]Edit, remaining diag.List, fixed int) {
	byPath := map[string]*claim.Page{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	edits = map[string][]Edit{}
	for _, d := range findings {
		p := byPath[d.Pos.File]
		if d.Rule != diag.ClaimMismatch {
			remaining = append(remaining, d)
			continue
		}
		if p == nil {
			// every stale claim is rewritten or listed with the reason
			remaining = append(remaining, d, diag.Errorf(d.Pos, diag.FixManual, "cannot rewrite automatically: %s is not a page or figure spec evdoc fix rewrites; fix it by hand: %s", d.Pos.File, d.Message).Spanning(d.End))
			continue
		}
		if len(d.Fixes) == 0 {
			rule, why := diag.FixManual, "it needs a person: "+d.Message
			if c := claimAt(p, d.Pos.Offset); c != nil && string(p.Source[c.Pos.Offset:c.End]) != c.Literal {
				// markup, not only character references and escapes
				// (40&nbsp;ms), stands between the literal's bytes
				if dec, _ := claim.DecodeInline(p.Source, c.Pos.Offset, c.End); string(dec) != c.Literal {
					rule, why = diag.FixMarkup, "the number is not written as one run of the link text; fix it by hand"
				}
			}
			manual := diag.Errorf(d.Pos, rule, "cannot rewrite automatically: %s", why).Spanning(d.End)
			manual.Related = d.Related // the evidence, and why a figure text is not rewritten
			remaining = append(remaining, d, manual)
			continue
		}
		var es []Edit
		scaled := ""
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				old := string(p.Source[e.Pos.Offset:e.End])
				if !fo.AllowScale && scaleChange(old, e.NewText) {
					scaled = fmt.Sprintf("%q → %q", old, e.NewText)
				}
				es = append(es, Edit{Page: p.Path, Start: e.Pos.Offset, End: e.End, Old: old, New: e.NewText, Pos: e.Pos, Ref: f.Message})
			}
		}
		if scaled != "" {
			remaining = append(remaining, d, diag.Errorf(d.Pos, diag.FixScale,
				"cannot rewrite automatically: %s changes the number by a factor of 1000 or more, which is almost always a unit or digit-grouping mistake; check the unit and the raw value, or pass --allow-scale", scaled).Spanning(d.End))
			continue
		}
		edits[p.Path] = append(edits[p.Path], es...)
		fixed++
	}
	return edits, remaining, fixed
}

// scaleChange reports whether rewriting the literal old to nw changes any
// of its numbers (each end of a range, each side of a fraction) by a
// factor of 1000 or more, or changes how many numbers it holds. Each side
// counts at least one unit of old's last digit, so 0 → 46 is a change by
// 46.
func scaleChange(old, nw string) bool {
	a, err1 := literal.ParseLiteral(old)
	b, err2 := literal.ParseLiteral(nw)
	if err1 != nil || err2 != nil || len(a.Quantities) != len(b.Quantities) {
		return err1 == nil && err2 == nil // a rewrite that changes the shape is never a plain update
	}
	for i := range a.Quantities {
		step := a.Quantities[i].Step()
		x, y := decimal.Max(a.Quantities[i].Value.Abs(), step), decimal.Max(b.Quantities[i].Value.Abs(), step)
		if x.IsZero() || y.IsZero() {
			continue
		}
		if y.Div(x).GreaterThanOrEqual(scaleLimit) || x.Div(y).GreaterThanOrEqual(scaleLimit) {
			return true
		}
	}
	return false
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
	cur, err := safefile.ReadPath(path, safefile.TextMaxSize)
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
