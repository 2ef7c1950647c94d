package viewer

import (
	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

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
	places := stagedata.WrittenPlaces(b.Number)
	wu := stagedata.WrittenUnit(c, i, v.Unit)
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
