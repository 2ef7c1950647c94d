package raw

import (
	"hash/maphash"
	"math"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Readings is a file's readings held compactly: a reading whose raw text
// is the file's bytes at its position, whose position is the one the
// file's line index gives for its offset, whose number spans its raw text
// and whose value fits an int64 mantissa (with its decimal exponent) is
// 32 bytes besides its key — its Raw, Pos and Value are rebuilt from the
// file's bytes when asked (At), identical to the reading added. A key is
// held as its stem (the text before its last ".") in one arena for the
// file, written once for consecutive readings of the same stem (the
// readings of one line: "r12.duration", "r12.bytes_sent"), and its leaf
// ("duration") interned.
// Any other reading (an aggregate with Inputs, a spread, a number of more
// than 18 digits, an ambiguous comma, a raw text that is not the file's
// bytes) is held whole. A Reading is 192 bytes besides its key, raw text
// and big.Int, so a file of many short numbers (a histogram line per
// bucket) held as []Reading costs about ten times its size; held as
// Readings, about two (RELIABILITY.md, "Cost bounds").
type Readings struct {
	ix    *diag.LineIndex
	src   []byte
	ents  chunks[packed]
	keys  [][]byte // the key stems of packed readings, back to back in chunks of keyChunk bytes
	units []string // interned units; units[0] is ""
	unitN map[string]uint16
	// leaves are the interned key leaves (at most maxLeaves); a key
	// without a leaf (noLeaf) is its stem.
	leaves []string
	leafN  map[string]uint16
	// stem is the arena range of the last stem written.
	stemOff, stemLen uint32
	full             chunks[Reading] // readings not packed (flagFull: packed.mant indexes it), in chunks: never copied as the list grows

	// last is the reading added last, held whole until the next add so
	// that a reader can set its unit or spread (at); edits are other
	// readings a reader changed through at since then.
	last    Reading
	hasLast bool
	edits   []listEdit
}

type listEdit struct {
	i int
	r *Reading
}

// packed is one reading of Readings.
type packed struct {
	mant        int64 // the value's coefficient; for flagFull, the index in full
	off, rawLen uint32
	key         uint32 // the key's stem in keys
	exp         int32
	keyLen      uint16
	leaf        uint16 // the key's leaf in leaves, or noLeaf
	unit        uint16
	flags       uint16
}

// noLeaf marks a key held whole as its stem; maxLeaves bounds the leaves
// interned (a file whose keys end in as many different words keeps the
// others whole).
const (
	noLeaf    = math.MaxUint16
	maxLeaves = 4096
)

const (
	flagSigned uint16 = 1 << iota
	flagUnitFromName
	flagImplied
	flagFull
	flagCommaShift = 8 // Comma in bits 8–11
)

// newReadings returns an empty list of the readings of src, indexed by ix.
func newReadings(ix *diag.LineIndex, src []byte) *Readings {
	return &Readings{ix: ix, src: src, units: []string{""}, unitN: map[string]uint16{"": 0}}
}

// ListOf holds rs, readings of src (named file), as Readings.
func ListOf(file string, src []byte, rs []Reading) *Readings {
	l := newReadings(diag.NewLineIndex(file, src), src)
	for _, r := range rs {
		l.Add(r)
	}
	l.Flush()
	return l
}

// Len returns the number of readings.
func (l *Readings) Len() int {
	if l == nil {
		return 0
	}
	return l.ents.n
}

// At returns the i-th reading, as it was added.
func (l *Readings) At(i int) Reading {
	if l.hasLast && i == l.ents.n-1 {
		return l.last
	}
	for _, e := range l.edits {
		if e.i == i {
			return *e.r
		}
	}
	e := l.ents.at(i)
	if e.flags&flagFull != 0 {
		return *l.full.at(int(e.mant))
	}
	return Reading{
		Key: l.keyOf(e),
		Number: Number{Value: decimal.New(e.mant, e.exp), Unit: l.units[e.unit], End: int(e.rawLen),
			Signed: e.flags&flagSigned != 0, UnitFromName: e.flags&flagUnitFromName != 0, Implied: e.flags&flagImplied != 0,
			Comma: Comma(e.flags >> flagCommaShift & 0xf)},
		Raw: string(l.src[e.off : e.off+e.rawLen]),
		Pos: l.ix.Pos(int(e.off)),
	}
}

// All returns every reading as a slice.
func (l *Readings) All() []Reading {
	if l.Len() == 0 {
		return nil
	}
	out := make([]Reading, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// head is what the sweep and select need of a reading without building
// it: its key, unit, raw token's offset and length, line, and whether it
// is an aggregate (Inputs) or a spread.
type head struct {
	key       string
	unit      string
	off, size int
	line      int
	inputs    bool
	spreadOf  string
}

// head returns the head of the i-th reading (its key is a new string).
func (l *Readings) head(i int) head {
	if (l.hasLast && i == l.ents.n-1) || len(l.edits) > 0 || l.ents.at(i).flags&flagFull != 0 {
		r := l.At(i)
		return head{key: r.Key, unit: r.Number.Unit, off: r.Pos.Offset, size: len(r.Raw), line: r.Pos.Line, inputs: len(r.Inputs) > 0, spreadOf: r.SpreadOf}
	}
	e := l.ents.at(i)
	return head{key: l.keyOf(e), unit: l.units[e.unit], off: int(e.off), size: int(e.rawLen), line: l.ix.Pos(int(e.off)).Line}
}

// keyOf returns the key of the packed reading e.
func (l *Readings) keyOf(e *packed) string {
	stem := l.stem(e.key, e.keyLen)
	if e.leaf == noLeaf {
		return string(stem)
	}
	leaf := l.leaves[e.leaf]
	b := make([]byte, 0, len(stem)+1+len(leaf))
	return string(append(append(append(b, stem...), '.'), leaf...))
}

// whole returns the i-th reading when it is held whole (the last added,
// one changed through at, or one not packed), else nil.
func (l *Readings) whole(i int) *Reading {
	if l.hasLast && i == l.ents.n-1 {
		return &l.last
	}
	for _, e := range l.edits {
		if e.i == i {
			return e.r
		}
	}
	if e := l.ents.at(i); e.flags&flagFull != 0 {
		return l.full.at(int(e.mant))
	}
	return nil
}

// keyIs reports whether the i-th reading's key is key, without building
// it.
func (l *Readings) keyIs(i int, key string) bool {
	if r := l.whole(i); r != nil {
		return r.Key == key
	}
	e := l.ents.at(i)
	stem := l.stem(e.key, e.keyLen)
	if e.leaf == noLeaf {
		return string(stem) == key
	}
	leaf := l.leaves[e.leaf]
	return len(key) == len(stem)+1+len(leaf) && key[len(stem)] == '.' &&
		string(stem) == key[:len(stem)] && leaf == key[len(stem)+1:]
}

// keyHash returns maphash.String(seed, key) of the i-th reading's key,
// without building it.
func (l *Readings) keyHash(i int, seed maphash.Seed) uint64 {
	if r := l.whole(i); r != nil {
		return maphash.String(seed, r.Key)
	}
	e := l.ents.at(i)
	var h maphash.Hash
	h.SetSeed(seed)
	_, _ = h.Write(l.stem(e.key, e.keyLen))
	if e.leaf != noLeaf {
		_ = h.WriteByte('.')
		_, _ = h.WriteString(l.leaves[e.leaf])
	}
	return h.Sum64()
}

// Add appends r.
func (l *Readings) Add(r Reading) {
	l.Flush()
	l.ents.add(packed{})
	l.last, l.hasLast = r, true
}

// Ref returns the i-th reading for a reader to change: the change holds
// until the next add (or flush).
func (l *Readings) Ref(i int) *Reading {
	if l.hasLast && i == l.ents.n-1 {
		return &l.last
	}
	for _, e := range l.edits {
		if e.i == i {
			return e.r
		}
	}
	r := l.At(i)
	l.edits = append(l.edits, listEdit{i, &r})
	return &r
}

// Flush packs the readings changed since the last add.
func (l *Readings) Flush() {
	if l.hasLast {
		*l.ents.at(l.ents.n - 1) = l.pack(l.last, nil)
		l.last, l.hasLast = Reading{}, false
	}
	for _, e := range l.edits {
		*l.ents.at(e.i) = l.pack(*e.r, l.ents.at(e.i))
	}
	clear(l.edits)
	l.edits = l.edits[:0]
}

// truncate keeps the first n readings.
func (l *Readings) truncate(n int) {
	l.Flush()
	l.ents.truncate(n)
}

// pack returns the packed form of r; old, when not nil, is the entry r
// replaces (its key is kept when r's is the same).
func (l *Readings) pack(r Reading, old *packed) packed {
	n := r.Number
	off := r.Pos.Offset
	ok := r.Inputs == nil && r.SpreadOf == "" && !r.SpreadRelative &&
		n.Comma != CommaAmbiguous && n.Alt.IsZero() && n.Comma <= 0xf &&
		n.Start == 0 && n.End == len(r.Raw) &&
		off >= 0 && off+len(r.Raw) <= len(l.src) && off+len(r.Raw) <= math.MaxUint32 &&
		string(l.src[off:off+len(r.Raw)]) == r.Raw &&
		len(r.Key) < math.MaxUint16 && len(l.keys) < math.MaxUint32/keyChunk-1
	if ok {
		switch d := n.Value.NumDigits(); {
		case d == 19:
			ok = n.Value.Coefficient().IsInt64()
		case d > 19:
			ok = false
		}
	}
	if ok {
		ok = r.Pos == l.ix.Pos(off)
	}
	u, known := l.unitN[n.Unit]
	if ok && !known {
		if len(l.units) > math.MaxUint16 {
			ok = false
		} else {
			u = uint16(len(l.units))
			l.units = append(l.units, n.Unit)
			l.unitN[n.Unit] = u
		}
	}
	if !ok {
		if old != nil && old.flags&flagFull != 0 {
			*l.full.at(int(old.mant)) = r
			return *old
		}
		l.full.add(r)
		return packed{mant: int64(l.full.n - 1), flags: flagFull}
	}
	p := packed{mant: n.Value.CoefficientInt64(), exp: n.Value.Exponent(), off: uint32(off), rawLen: uint32(len(r.Raw)),
		unit: u, flags: uint16(n.Comma) << flagCommaShift}
	if n.Signed {
		p.flags |= flagSigned
	}
	if n.UnitFromName {
		p.flags |= flagUnitFromName
	}
	if n.Implied {
		p.flags |= flagImplied
	}
	if old != nil && old.flags&flagFull == 0 && l.keyOf(old) == r.Key {
		p.key, p.keyLen, p.leaf = old.key, old.keyLen, old.leaf
		return p
	}
	stem, leaf := r.Key, uint16(noLeaf)
	if j := len(r.Key) - 1 - lastDot(r.Key); j >= 0 && j < len(r.Key)-1 {
		s, lf := r.Key[:j], r.Key[j+1:]
		if k, ok := l.leafN[lf]; ok {
			stem, leaf = s, k
		} else if len(l.leaves) < maxLeaves {
			if l.leafN == nil {
				l.leafN = map[string]uint16{}
			}
			k := uint16(len(l.leaves))
			l.leaves = append(l.leaves, lf)
			l.leafN[lf] = k
			stem, leaf = s, k
		}
	}
	if l.stemLen == uint32(len(stem)) && string(l.stem(l.stemOff, uint16(l.stemLen))) == stem {
		p.key = l.stemOff
	} else {
		k := len(l.keys) - 1
		if k < 0 || len(l.keys[k])+len(stem) > keyChunk {
			l.keys = append(l.keys, make([]byte, 0, keyChunk))
			k++
		}
		p.key = uint32(k)*keyChunk + uint32(len(l.keys[k]))
		l.keys[k] = append(l.keys[k], stem...)
		l.stemOff, l.stemLen = p.key, uint32(len(stem))
	}
	p.keyLen, p.leaf = uint16(len(stem)), leaf
	return p
}

// lastDot returns how far from the end of key its last "." is (0 for
// the last byte), or len(key) when it has none.
func lastDot(key string) int {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '.' {
			return len(key) - 1 - i
		}
	}
	return len(key)
}

// hasUnit reports whether a reading may have unit u (a packed reading
// has it only when u is interned; a reading held whole may).
func (l *Readings) hasUnit(u string) bool {
	if l.Len() == 0 {
		return false
	}
	if _, ok := l.unitN[u]; ok {
		return true
	}
	if l.hasLast || len(l.edits) > 0 {
		return true
	}
	for _, c := range l.full.c {
		for _, r := range c {
			if r.Number.Unit == u {
				return true
			}
		}
	}
	return false
}

// keyChunk is the size of a chunk of key stems (a stem is shorter).
const keyChunk = 1 << 16

// stem returns the n bytes of key stems at off.
func (l *Readings) stem(off uint32, n uint16) []byte {
	if n == 0 {
		return nil
	}
	c := l.keys[off/keyChunk]
	o := off % keyChunk
	return c[o : o+uint32(n)]
}

// chunks is a list that grows a chunk at a time: growing never copies
// what it holds, so a file's readings cost their size, not the copies
// and spare capacity of a slice grown by append.
type chunks[T any] struct {
	c [][]T
	n int
}

const chunkLen = 1024

func (c *chunks[T]) add(v T) {
	k := c.n / chunkLen
	if k == len(c.c) {
		c.c = append(c.c, make([]T, 0, chunkLen))
	}
	c.c[k] = append(c.c[k], v)
	c.n++
}

func (c *chunks[T]) at(i int) *T { return &c.c[i/chunkLen][i%chunkLen] }

// truncate keeps the first n items; the chunk that holds the n-th is
// kept for the next (a reader that drops a line's unselected readings
// reuses it line after line).
func (c *chunks[T]) truncate(n int) {
	if n >= c.n {
		return
	}
	k := n / chunkLen
	clear(c.c[k][n%chunkLen:])
	c.c[k] = c.c[k][:n%chunkLen]
	for j := k + 1; j < len(c.c); j++ {
		c.c[j] = nil
	}
	c.c = c.c[:k+1]
	c.n = n
}
