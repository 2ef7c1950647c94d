package evidence

import "reflect"

// Change is what differs between two loads of the evidence, in the terms
// a claim's verdict reads a Store by: Lookup, NonNumeric and Unavailable
// of its reference, Broken and BrokenAt of its set, Suggest for a
// reference that names nothing.
type Change struct {
	// Sets are the ids of the sets that changed as a whole: loaded in one
	// Store only, broken in one only, or broken at another first error.
	// Every reference into such a set is changed.
	Sets map[string]bool
	// Refs are the references ("SET/name") of a set loaded in both Stores
	// whose value (number, unit, raw text, position, inputs), non-numeric
	// cell or unavailability differs, or that exist in one Store only.
	Refs map[string]bool
	// Touched are the ids of every set that differs in anything at all
	// (manifest, files, values): Sets and the sets of Refs, and more.
	Touched map[string]bool
	// Names is set when the names a reference can resolve to differ (a set
	// or a value added or removed, a set's id changed): what Suggest
	// offers for a reference that names nothing may differ.
	Names bool
}

// Empty reports whether nothing differs.
func (c Change) Empty() bool { return len(c.Touched) == 0 && !c.Names }

// Diff returns what differs between old and cur.
func Diff(old, cur *Store) Change {
	c := Change{Sets: map[string]bool{}, Refs: map[string]bool{}, Touched: map[string]bool{}}
	ids := map[string]bool{}
	for _, st := range []*Store{old, cur} {
		for _, s := range st.Sets {
			ids[s.Manifest.ID] = true
		}
		for id := range st.Broken {
			ids[id] = true
		}
	}
	for id := range ids {
		a, b := old.set(id), cur.set(id)
		whole := (a == nil) != (b == nil) || old.Broken[id] != cur.Broken[id]
		if pa, ok := old.BrokenAt[id]; ok != hasKey(cur.BrokenAt, id) || pa != cur.BrokenAt[id] {
			whole = true
		}
		switch {
		case whole:
			c.Sets[id] = true
			c.Touched[id] = true
			c.Names = true
			continue
		case a == nil: // broken in both, at the same place
			continue
		case sameSet(a, b):
			continue
		}
		c.Touched[id] = true
		if !sameValueNames(a, b) {
			c.Names = true
		}
		diffValues(c.Refs, id, a, b)
		diffNames(c.Refs, id, a.NonNumeric, b.NonNumeric)
		diffNames(c.Refs, id, a.Unavailable, b.Unavailable)
	}
	return c
}

// diffNames adds to refs "id/name" for each name whose entry differs
// between a and b or is in one of them only.
func diffNames[V any](refs map[string]bool, id string, a, b map[string]V) {
	for name, va := range a {
		if vb, ok := b[name]; !ok || !reflect.DeepEqual(va, vb) {
			refs[id+"/"+name] = true
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			refs[id+"/"+name] = true
		}
	}
}

// sameSet reports whether a and b, two loads of one set, hold the same
// manifest, files, values, non-numeric cells and unavailable values.
// Values are compared by content: a value built from a reading is not
// kept by the comparison (Set.peek).
func sameSet(a, b *Set) bool {
	if a.Dir != b.Dir || !reflect.DeepEqual(a.Manifest, b.Manifest) || !reflect.DeepEqual(a.Files, b.Files) ||
		!reflect.DeepEqual(a.NonNumeric, b.NonNumeric) || !reflect.DeepEqual(a.Unavailable, b.Unavailable) || a.Len() != b.Len() {
		return false
	}
	for va := range a.All() {
		if vb, ok := b.peek(va.Name); !ok || !reflect.DeepEqual(va, vb) {
			return false
		}
	}
	return true
}

// sameValueNames reports whether a and b name the same values.
func sameValueNames(a, b *Set) bool {
	if a.Len() != b.Len() {
		return false
	}
	for n := range a.Names() {
		if !b.has(n) {
			return false
		}
	}
	return true
}

// diffValues adds to refs "id/name" for each value that differs between
// a and b or is in one of them only.
func diffValues(refs map[string]bool, id string, a, b *Set) {
	for va := range a.All() {
		if vb, ok := b.peek(va.Name); !ok || !reflect.DeepEqual(va, vb) {
			refs[id+"/"+va.Name] = true
		}
	}
	for n := range b.Names() {
		if !a.has(n) {
			refs[id+"/"+n] = true
		}
	}
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
