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
// litCacheLen bytes, litCacheMax of them, and is emptied when full: a
// few MB at most, whatever the site.
const (
	litCacheMax = 1 << 14
	litCacheLen = 128
)

// litTable maps a literal to its reading. The readings own their
// quantities (never handed out: copied into each page's) and their
// strings are substrings of the key, a copy of the literal, so that the
// cache keeps no page's memory alive. A quantity's spread and parts are
// shared, as sameLiteral shares them: nothing writes to them.
type litTable = map[string]literal.Literal

// The cache is two tables: litSnap, published whole and never written
// after, read without a lock by the page workers (one plain map look-up
// a claim: a sync.Map's look-up through an interface key cost about
// three times as much); and litNew, the literals stored since litSnap
// was published, under litMu. litNew is published (copied with litSnap
// into a new table) once it holds a quarter as many literals as litSnap
// (at least litPublishMin), so the copies cost about four look-ups a
// literal kept.
var (
	litSnap atomic.Pointer[litTable]
	litMu   sync.Mutex
	litNew  litTable // guarded by litMu
)

// litPublishMin is the fewest literals litNew holds before it is
// published.
const litPublishMin = 64

// cachedLiteral returns the reading of lit the cache holds, if any.
func cachedLiteral(lit string) (literal.Literal, bool) {
	if len(lit) > litCacheLen {
		return literal.Literal{}, false
	}
	if m := litSnap.Load(); m != nil {
		if l, ok := (*m)[lit]; ok {
			return l, true
		}
	}
	litMu.Lock()
	l, ok := litNew[lit]
	litMu.Unlock()
	return l, ok
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
	storeLiteral(key, kept)
	return l, nil
}

// storeLiteral keeps the reading l of literal key: in litNew, published
// with litSnap when litNew is large enough; both emptied first when the
// cache is full.
func storeLiteral(key string, l literal.Literal) {
	litMu.Lock()
	defer litMu.Unlock()
	snap := litSnap.Load()
	old := 0
	if snap != nil {
		if _, ok := (*snap)[key]; ok {
			return // two workers read it at once: the first one's is kept
		}
		old = len(*snap)
	}
	if _, ok := litNew[key]; ok {
		return
	}
	if old+len(litNew) >= litCacheMax {
		// full: emptied, and this literal the first of the next
		litSnap.Store(nil)
		snap, old, litNew = nil, 0, nil
	}
	if litNew == nil {
		litNew = litTable{}
	}
	litNew[key] = l
	if len(litNew) < max(litPublishMin, old/4) {
		return
	}
	next := make(litTable, old+len(litNew))
	if snap != nil {
		for k, v := range *snap {
			next[k] = v
		}
	}
	for k, v := range litNew {
		next[k] = v
	}
	litSnap.Store(&next)
	litNew = nil
}
