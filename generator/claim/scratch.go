package claim

import "github.com/evdoc-lab/evdoc/generator/claim/literal"

// Scratch holds room for a page's claims and their literals'
// quantities, the two largest allocations of a parse (a Claim is about
// 400 bytes, a Quantity about 260; the generated benchmark site writes
// 580 claims a page), and for its blocks and their inlines: a one-shot check that parses a page, judges it and drops it
// can parse the next page in the same memory (ParseScratch, then
// Recycle) instead of allocating it afresh and leaving the collector
// the old. The room is all zero while a Scratch holds it.
//
// A Scratch is not safe for concurrent use, and it serves one page at a
// time: the page parsed into it must be recycled before it parses
// another.
type Scratch struct {
	claims     []Claim
	quantities []literal.Quantity
	// the page's blocks and the slice their inlines share; spans is
	// collectBlocks' own
	blocks  []Block
	inlines []Inline
	spans   [][2]int
	// slab holds the claims' offsets, references and their positions
	slab slab
}

// claimRoom returns an empty slice with room for n claims: sc's room
// when it has that much (sc gives it up until Recycle), else a new one.
// A nil sc allocates.
func (sc *Scratch) claimRoom(n int) []Claim {
	if sc != nil && cap(sc.claims) >= n {
		room := sc.claims[:0]
		sc.claims = nil
		return room
	}
	return make([]Claim, 0, n)
}

// quantityRoom is claimRoom for n quantities.
func (sc *Scratch) quantityRoom(n int) []literal.Quantity {
	if sc != nil && cap(sc.quantities) >= n {
		room := sc.quantities[:0]
		sc.quantities = nil
		return room
	}
	return make([]literal.Quantity, 0, n)
}

// Recycle takes back the room of page p, parsed with ParseScratch(…, sc),
// once nothing reads p or holds one of its claims, their quantities or
// a slice of either any longer: the next parse writes over them. It
// keeps the larger of p's room and its own, zeroed, and leaves p without
// claims.
func (sc *Scratch) Recycle(p *Page) {
	if p == nil {
		return
	}
	keepLarger(&sc.claims, p.Claims)
	keepLarger(&sc.quantities, p.quantities)
	keepLarger(&sc.blocks, p.Blocks)
	keepLarger(&sc.inlines, p.inlines)
	sc.slab.reset()
	p.Claims, p.quantities, p.Blocks, p.inlines = nil, nil, nil, nil
}

// keepLarger makes s, zeroed, the room *room holds when its capacity is
// the larger.
func keepLarger[T any](room *[]T, s []T) {
	if cap(s) > cap(*room) {
		clear(s[:cap(s)])
		*room = s[:0]
	}
}
