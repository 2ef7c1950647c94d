package evidence

import (
	"fmt"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

// scanSet is Store.set as a scan of Sets in order: the oracle of the
// index.
func scanSet(s *Store, id string) *Set {
	for _, set := range s.Sets {
		if set.Manifest.ID == id {
			return set
		}
	}
	return nil
}

func newSet(id, name string) *Set {
	return &Set{Manifest: manifest.Manifest{ID: id}, values: map[string]*Value{name: {Ref: id + "/" + name, Set: id, Name: name}}}
}

// TestSetIndexEqualsScan: Store.set, indexed by id, returns what a scan
// of Sets in order returns, for stores of a few sets and of many, with
// an id twice (the first wins), after Sets is appended to (in its
// capacity and beyond) and after it is replaced by another slice of the
// same length.
func TestSetIndexEqualsScan(t *testing.T) {
	ids := func(s *Store) []string {
		out := []string{"", "nope", "s1x"}
		for _, set := range s.Sets {
			out = append(out, set.Manifest.ID)
		}
		return out
	}
	check := func(step string, s *Store) {
		t.Helper()
		for _, id := range ids(s) {
			if got, want := s.set(id), scanSet(s, id); got != want {
				t.Fatalf("%s: set(%q) = %p, a scan finds %p", step, id, got, want)
			}
			v, ok := s.Lookup(id + "/v")
			if want := scanSet(s, id); ok != (want != nil) || ok && v != want.values["v"] {
				t.Fatalf("%s: Lookup(%q) = %v, %v", step, id+"/v", v, ok)
			}
		}
	}
	for _, n := range []int{0, 1, 4, 5, 40} {
		s := &Store{}
		for i := range n {
			s.Sets = append(s.Sets, newSet(fmt.Sprintf("s%d", i), "v"))
		}
		check(fmt.Sprintf("%d sets", n), s)
		// the same id again, later: the first is found
		s.Sets = append(s.Sets, newSet("s0", "v"))
		check(fmt.Sprintf("%d sets and s0 again", n), s)
		// appended within the capacity: the same first element, a new length
		s.Sets = append(make([]*Set, 0, len(s.Sets)+8), s.Sets...)
		check(fmt.Sprintf("%d sets copied", n), s)
		s.Sets = append(s.Sets, newSet("late", "v"))
		check(fmt.Sprintf("%d sets and one appended", n), s)
		// another slice of the same length, the sets in another order
		other := make([]*Set, len(s.Sets))
		for i, set := range s.Sets {
			other[len(other)-1-i] = set
		}
		s.Sets = other
		check(fmt.Sprintf("%d sets reversed", n), s)
	}
}
