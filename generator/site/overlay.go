package site

import (
	"path"
	"path/filepath"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/unit"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// SetOverlay makes the Checker read the content file at the repository
// path file (slash-separated, like Page.Path) as src instead of the file
// on disk: an editor's unsaved buffer (evdoc lsp). A nil src reads the
// file from disk again. The page is judged with src at the next Recheck
// of file, which the caller makes; a lazily loaded page is parsed from
// src whenever it is parsed again (its translation's re-check).
func (c *Checker) SetOverlay(file string, src []byte) {
	s := c.site
	file = path.Clean(filepath.ToSlash(file))
	if src == nil {
		delete(s.overlay, file)
		return
	}
	if s.overlay == nil {
		s.overlay = map[string][]byte{}
	}
	s.overlay[file] = src
}

// PageSource returns the content of page p as the Checker judges it: its
// overlay (SetOverlay), else the file.
func (s *Site) PageSource(p *Page) ([]byte, error) {
	if src, ok := s.overlay[p.Path]; ok {
		return src, nil
	}
	if p.Parsed != nil {
		return p.Parsed.Source, nil
	}
	return safefile.ReadPath(filepath.Join(s.Root, filepath.FromSlash(p.Path)), safefile.TextMaxSize)
}

// Shown is what a reader is shown of one number of a claim, as the
// claim's popover shows it: the value, the value at the precision (and
// in the unit) the claim writes, and, for a derived value, its
// derivation.
type Shown struct {
	// Value is the evidence value with its unit ("0.0071234 s").
	Value string
	// Written is the value rounded to the decimal places of the claim's
	// number, in the unit the claim writes when it converts ("7.12 ms");
	// "" when that is Value.
	Written string
	// Derivation explains a derived value; nil for a raw one.
	Derivation *Derivation
}

// ShowBinding returns what the popover of claim c shows of its i-th
// binding b (check.Result.Bindings), whose value v is in st.
func ShowBinding(c claim.Claim, i int, b check.Binding, v *evidence.Value, st *evidence.Store) Shown {
	sh := Shown{Value: formatQuantity(v.Value, v.Unit, v.Delta)}
	places := writtenPlaces(b.Number)
	wu := writtenUnit(c, i, v.Unit)
	r, u := v.Value, v.Unit
	if wu != "" {
		if conv, ok := unit.Convert(r, u, wu); ok {
			r, u = conv, wu
		}
	}
	if int32(places) < -r.Exponent() {
		r = r.Round(int32(places))
	}
	if w := formatQuantity(r, u, v.Delta); w != sh.Value {
		sh.Written = w
	}
	if v.Derived {
		dp := places
		if wu != "" {
			dp = -1 // the places of another unit: the exact result
		}
		if d, ok := explainDerived(v, st, dp); ok {
			sh.Derivation = &d
		}
	}
	return sh
}
