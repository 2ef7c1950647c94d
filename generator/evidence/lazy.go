package evidence

import (
	"fmt"
	"hash/maphash"
	"iter"
	"math"
	"strings"
	"sync"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	units "github.com/evdoc-lab/evdoc/generator/unit"
)

// lazyValues holds the values of a set's [[read]] entries without select
// as their reader's raw.Readings (about 32 bytes a reading, RELIABILITY.md
// "Cost bounds"), not as Values (about 300 bytes each): a reading becomes
// a Value when it is looked up (Set.Value), and a lookup's Value is kept,
// so a claim citing it twice gets one Value; listing a set (Set.All,
// Set.Sorted) builds the others one at a time without keeping them.
//
// A reading's value is the one the eager naming gives it: named
// <entry>.<manifest.SlugKey(key)>, with the manifest's units and changes applied
// in the order applyUnits and applyChanges apply them (units, changes).
// Readings a spread concerns, and every reading of an entry declaring
// spreads, are named eagerly (Set.values), as are select's, tables' and
// transcripts'.
type lazyValues struct {
	parts []lazyPart
	n     int32 // ids: parts[k].start ≤ id < parts[k].start+parts[k].rs.Len()
	// dead holds the ids of readings that name no lazy value (an empty
	// key part, a duplicate name, a value named eagerly).
	dead  map[int32]bool
	seed  maphash.Seed
	index map[uint32]int32 // the low 32 bits of a name's hash → its id
	over  map[string]int32 // names whose hash another name has
	units []unitRule       // applied to a value whose name has the rule's prefix, in order
	chg   []changeRule     // likewise
	mu    sync.Mutex       // guards made
	made  map[int32]*Value // the values looked up so far
}

// lazyPart is the readings of one entry.
type lazyPart struct {
	entry string
	rs    *raw.Readings
	start int32
}

// unitRule is one declaration of an entry's units, as applyUnits applies
// it: to a value named prefix+local with matchesLocal(local, key).
type unitRule struct {
	prefix, key, unit, format string
}

// changeRule is one name of an entry's changes.
type changeRule struct {
	prefix, key string
}

func newLazyValues() *lazyValues {
	return &lazyValues{dead: map[int32]bool{}, seed: maphash.MakeSeed(), index: map[uint32]int32{}, over: map[string]int32{}, made: map[int32]*Value{}}
}

// part returns the part holding id and the reading's index in it.
func (z *lazyValues) part(id int32) (*lazyPart, int) {
	for k := len(z.parts) - 1; k >= 0; k-- {
		if p := &z.parts[k]; id >= p.start {
			return p, int(id - p.start)
		}
	}
	panic("evidence: lazy value id out of range")
}

// name returns the name of the reading id ("" when its key names none).
func (z *lazyValues) name(id int32) string {
	p, i := z.part(id)
	return lazyName(p.entry, p.rs.At(i).Key)
}

func lazyName(entry, key string) string {
	local := manifest.SlugKey(key)
	if local == "" {
		return ""
	}
	return entry + "." + local
}

// find returns the id of the live reading named name.
func (z *lazyValues) find(name string) (int32, bool) {
	if z == nil {
		return 0, false
	}
	if id, ok := z.index[uint32(maphash.String(z.seed, name))]; ok && z.name(id) == name {
		return id, true
	}
	id, ok := z.over[name]
	return id, ok
}

// add indexes the reading id under name; the caller has checked name is
// not taken.
func (z *lazyValues) add(name string, id int32) {
	h := uint32(maphash.String(z.seed, name))
	if _, taken := z.index[h]; taken {
		z.over[name] = id
		return
	}
	z.index[h] = id
}

// build returns a new Value of the reading id, named name, with the
// set's units and changes applied.
func (z *lazyValues) build(setID string, id int32, name string) *Value {
	p, i := z.part(id)
	r := p.rs.At(i)
	ref := setID + "/" + name // Name shares Ref's bytes
	v := &Value{Ref: ref, Set: setID, Name: ref[len(setID)+1:], Key: r.Key, Value: r.Number.Value, Unit: r.Number.Unit,
		Raw: r.Raw, Pos: r.Pos, Delta: r.Number.Signed, Inputs: r.Inputs, unitFromName: r.Number.UnitFromName}
	for _, u := range z.units {
		if local, ok := strings.CutPrefix(name, u.prefix); ok && matchesLocal(local, u.key) {
			applyUnit(v, u)
		}
	}
	for _, c := range z.chg {
		if local, ok := strings.CutPrefix(name, c.prefix); ok && matchesLocal(local, c.key) {
			v.Delta = true
		}
	}
	return v
}

// value returns the Value of the live reading id, kept when keep.
func (z *lazyValues) value(setID string, id int32, name string, keep bool) *Value {
	z.mu.Lock()
	v := z.made[id]
	z.mu.Unlock()
	if v != nil {
		return v
	}
	v = z.build(setID, id, name)
	if !keep {
		return v
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if old := z.made[id]; old != nil {
		return old
	}
	z.made[id] = v
	return v
}

// live yields the id and name of every live reading, in file order.
func (z *lazyValues) live() iter.Seq2[int32, string] {
	return func(yield func(int32, string) bool) {
		if z == nil {
			return
		}
		for _, p := range z.parts {
			for i := range p.rs.Len() {
				id := p.start + int32(i)
				if z.dead[id] {
					continue
				}
				if !yield(id, lazyName(p.entry, p.rs.At(i).Key)) {
					return
				}
			}
		}
	}
}

// count returns the number of live readings.
func (z *lazyValues) count() int {
	if z == nil {
		return 0
	}
	return int(z.n) - len(z.dead)
}

// Value returns the value of the set named name.
func (s *Set) Value(name string) (*Value, bool) {
	if v, ok := s.values[name]; ok {
		return v, true
	}
	if id, ok := s.lazy.find(name); ok {
		return s.lazy.value(s.Manifest.ID, id, name, true), true
	}
	return nil, false
}

// peek is Value without keeping a value built from a reading.
func (s *Set) peek(name string) (*Value, bool) {
	if v, ok := s.values[name]; ok {
		return v, true
	}
	if id, ok := s.lazy.find(name); ok {
		return s.lazy.value(s.Manifest.ID, id, name, false), true
	}
	return nil, false
}

// has reports whether the set has a value named name.
func (s *Set) has(name string) bool {
	if _, ok := s.values[name]; ok {
		return true
	}
	_, ok := s.lazy.find(name)
	return ok
}

// Len returns the number of the set's values.
func (s *Set) Len() int { return len(s.values) + s.lazy.count() }

// All yields every value of the set, in no order. A value of a reading
// not looked up is built for the call and not kept: listing a set of a
// million readings holds one of them at a time.
func (s *Set) All() iter.Seq[*Value] {
	return func(yield func(*Value) bool) {
		for _, v := range s.values {
			if !yield(v) {
				return
			}
		}
		for id, name := range s.lazy.live() {
			if !yield(s.lazy.value(s.Manifest.ID, id, name, false)) {
				return
			}
		}
	}
}

// Names yields the name of every value of the set, in no order, without
// building the values.
func (s *Set) Names() iter.Seq[string] {
	return func(yield func(string) bool) {
		for n := range s.values {
			if !yield(n) {
				return
			}
		}
		for _, name := range s.lazy.live() {
			if !yield(name) {
				return
			}
		}
	}
}

// eagerOnly names every value eagerly (tests compare both namings).
var eagerOnly bool

// lazyEntry reports whether the readings of rs are held as lazy values:
// a [[read]] without select whose values no entry's declared spreads can
// name (an entry declaring spreads names the values its name prefixes).
func (l *loader) lazyEntry(rs manifest.ReadSpec) bool {
	if rs.Select != nil || eagerOnly {
		return false
	}
	for _, e := range l.entries() {
		if len(e.spreads) > 0 && (rs.Name == e.name || strings.HasPrefix(rs.Name, e.name+".")) {
			return false
		}
	}
	return true
}

// nameLazy names the readings of the [[read]] entry as nameReadings and
// nameAll do without select, keeping them as list: a reading that is
// another's spread, or that another is the spread of, is named eagerly
// (linkSpreads changes both).
func (l *loader) nameLazy(rs manifest.ReadSpec, rel string, list *raw.Readings) {
	entry := rs.Name
	n := list.Len()
	if n == 0 {
		return
	}
	if z := l.set.lazy; z != nil && int64(z.n)+int64(n) > math.MaxInt32 {
		// ids are int32: past 2³¹ readings in one set, name them at once
		l.nameAll(entry, l.nameReadings(rs, rel, list.All(), nil))
		return
	}
	z := l.set.lazy
	if z == nil {
		z = newLazyValues()
		z.index = make(map[uint32]int32, n)
		l.set.lazy = z
	}
	start := z.n
	z.parts = append(z.parts, lazyPart{entry: entry, rs: list, start: start})
	z.n += int32(n)
	of := map[string]bool{}
	for i := range n {
		if r := list.At(i); r.SpreadOf != "" {
			of[r.SpreadOf] = true
		}
	}
	if l.byKey == nil {
		l.byKey = map[string]map[string]*Value{}
	}
	keys := l.byKey[entry]
	if keys == nil {
		keys = map[string]*Value{}
		l.byKey[entry] = keys
	}
	for i := range n {
		id := start + int32(i)
		r := list.At(i)
		local := manifest.SlugKey(r.Key)
		if local == "" {
			z.dead[id] = true
			l.errs = append(l.errs, diag.Diagnostic{Pos: r.Pos, Severity: diag.Warning, Rule: diag.EvidenceNumber,
				Message: fmt.Sprintf("read %q: the reading %q (%s) has a key with an empty part, which names no value; give it a name with select = { %q = \"NAME\" }", entry, r.Key, r.Raw, r.Key)})
			continue
		}
		if r.SpreadOf != "" || of[r.Key] {
			z.dead[id] = true
			named := l.name(entry, localValue{local, &r})
			if named != nil && of[r.Key] && keys[r.Key] == nil {
				keys[r.Key] = named
			}
			if r.SpreadOf != "" {
				l.spreads = append(l.spreads, spreadLink{entry: entry, of: r.SpreadOf, r: r, named: named})
			}
			continue
		}
		name := entry + "." + local
		if old, dup := l.set.peek(name); dup {
			z.dead[id] = true
			l.errs = append(l.errs, diag.Errorf(r.Pos, diag.EvidenceDuplicate, "value %s/%s is also named at %s; expected unique names (relabel one)", l.set.Manifest.ID, name, old.Pos))
			continue
		}
		z.add(name, id)
	}
}

// applyUnit applies the unit declaration u to v, which it matches, as
// applyUnits does; it returns the error a contradicting declaration is,
// or nil.
func (l *loader) applyUnit(v *Value, u unitRule) *diag.Diagnostic {
	if _, same := units.Factor(v.Unit, u.unit); v.unitFromName && !same {
		// A column name's unit word meant something else
		// ("99_percent": the 99th percentile): the
		// declaration says what the column holds.
		v.Unit, v.unitFromName = u.unit, false
		return nil
	}
	if v.Unit == "%" && u.unit == "%p" {
		// a percentage the raw text writes is a difference of two
		// percentages: the declaration says it is in points, a
		// difference
		v.Unit, v.Delta = u.unit, true
		return nil
	}
	if v.Unit != "" && v.Unit != u.unit {
		if l == nil {
			return nil
		}
		how := "as its raw text writes it"
		if !strings.HasSuffix(strings.TrimSpace(v.Raw), v.Unit) {
			how = "as the " + u.format + " format defines it"
		}
		d := diag.Errorf(v.Pos, diag.EvidenceUnit, "%s is in %s (%s) but the manifest declares %s at %s; expected no declaration, or %s", v.Ref, v.Unit, how, u.unit, l.at(u.key), v.Unit)
		return &d
	}
	v.Unit = u.unit
	return nil
}

// applyUnit applies u to a value built from a reading (its error was
// reported when the set loaded).
func applyUnit(v *Value, u unitRule) { (*loader)(nil).applyUnit(v, u) }
