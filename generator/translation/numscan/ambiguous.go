package numscan

import "github.com/evdoc-lab/evdoc/generator/unit"

// ResolvedAgainst returns n, a number of a claim, with an ambiguous unit
// word (127m: minutes or millicores) read in the dimension of other, the
// number of the claim of the other language that quotes the same
// evidence: [127m] against [0.127コア] is 127 millicores, as the judge
// reads it against the value (unit.Resolve), which it checks on each
// page. A unit neither ambiguous nor resolvable is left as written.
func ResolvedAgainst(n, other Number) Number {
	if n.Kind != "number" || other.Kind != "number" {
		return n
	}
	r := unit.Resolve(n.Unit, other.Unit) // n.Unit itself unless ambiguous
	bu, ok := parityUnits[r]
	if r == n.Unit || !ok || bu.name != other.Unit {
		return n
	}
	n.Unit = bu.name
	n.Value = mul(n.Value, bu.factor)
	n.spanFactor = mul(n.spanFactor, bu.factor)
	return n
}
