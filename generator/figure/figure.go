package figure

import (
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
)

// Spec is a figure: its spec (package spec: decoded, checked and
// located), drawn from evidence by the methods of this package.
type Spec struct {
	*spec.Spec
}

// LoadSpecs reads every *.toml under root/dir (spec.Load). File names
// give the figure names. Malformed specs are reported at file:line:col
// and left out.
func LoadSpecs(root, dir string) ([]*Spec, diag.List) {
	ss, ds := spec.Load(root, dir)
	out := make([]*Spec, len(ss))
	for i, s := range ss {
		out[i] = &Spec{s}
	}
	return out, ds
}

// ParseSpec decodes one spec file and checks its structure (spec.Parse).
// A spec with errors is returned as nil.
func ParseSpec(file string, src []byte) (*Spec, diag.List) {
	s, ds := spec.Parse(file, src)
	if s == nil {
		return nil, ds
	}
	return &Spec{s}, ds
}
