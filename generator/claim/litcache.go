package claim

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
)

// The literals a process read without an error, shared by every page it
// parses: a value quoted in many pages (+9, 약 26초, 67.5%) is read by
// the claim grammar once, and each later claim with that literal gets a
// copy of its quantities (sameLiteral). A reading depends on the
// literal's text alone (literal.ParseInto with strict), so a literal
// reads alike in any page. The cache holds literals of at most
// litCacheLen bytes, litCacheMax of them (and at most one more for each
// worker storing one at the same time), and is emptied when full: a few
// MB at most, whatever the site.
const (
	litCacheMax = 1 << 14
	litCacheLen = 128
)

// litCache maps a literal (string) to its reading (literal.Literal):
// read without a lock by the workers that parse pages at once. The
// readings own their quantities (never handed out: copied into each
// page's) and their strings are substrings of the key, a copy of the
// literal, so that the cache keeps no page's memory alive. A quantity's
// spread and parts are shared, as sameLiteral shares them: nothing
// writes to them. litCacheN counts the literals stored since the cache
// was last emptied (a literal two workers read at once counts twice).
var (
	litCache  sync.Map
	litCacheN atomic.Int64
)

// cachedLiteral returns the reading of lit the cache holds, if any.
func cachedLiteral(lit string) (literal.Literal, bool) {
	if len(lit) > litCacheLen {
		return literal.Literal{}, false
	}
	if l, ok := litCache.Load(lit); ok {
		return l.(literal.Literal), true
	}
	return literal.Literal{}, false
}

// readLiteral is literal.ParseInto(lit, qs, true), with the reading kept
// in the cache when it has no error: lit is read from a copy of its
// own, which the cache keeps as its key, and the reading returned is
// that copy's (its strings are substrings of the copy, its quantities
// in qs).
func readLiteral(lit string, qs []literal.Quantity) (literal.Literal, error) {
	if len(lit) > litCacheLen {
		return literal.ParseInto(lit, qs, true)
	}
	key := strings.Clone(lit)
	l, err := literal.ParseInto(key, qs, true)
	if err != nil {
		return l, err
	}
	kept := l
	if l.Quantities != nil {
		kept.Quantities = append([]literal.Quantity(nil), l.Quantities...)
	}
	if litCacheN.Add(1) > litCacheMax {
		// full: emptied, and this literal the first of the next
		litCache.Clear()
		litCacheN.Store(1)
	}
	litCache.Store(key, kept)
	return l, nil
}
