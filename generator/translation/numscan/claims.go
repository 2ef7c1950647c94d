package numscan

import (
	"hash/maphash"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
)

// ClaimNumbers returns a claim's numbers as the claim grammar read them
// (c.Parsed: the judge's reading of 두 번, 二回, 五千台, 1분 30초 …), in
// parity's base units, with the sign as written (△ and ▼ a minus, as
// the grammar reads them) and the words around its link that qualify a
// claim of one number (최대 [3단계](…), [3](…)まで, 약 [40초](…)). A
// literal the grammar cannot read (the judge reports it, as it reports
// ▲, whose sign depends on the language) is read by ScanLang in the
// page's language lang. src is the page, sl hands out the numbers' memory
// (one Slab a page), and units gives the unit of the evidence value a
// reference names (nil: none known).
func ClaimNumbers(src string, c *claim.Claim, lang string, sl *Slab, units func(ref string) (string, bool)) []Number {
	return ClaimNumbersCached(src, c, lang, sl, units, nil)
}

// ClaimCache keeps the numbers ClaimNumbers read of a page's claims, for
// a later claim of the same page with the same literal, reading,
// references and words around its link (a value quoted again: 약 38초
// in two sections). One ClaimCache a page: the page's language and the
// units of its references are not part of its key.
type ClaimCache struct {
	at   map[uint64]int32 // the hash of a claim's key (claimHash) → its entry
	e    []cachedClaim
	hits int // claims read from the cache (for the tests)
}

// Reset empties the cache, keeping its room, for another page.
func (cc *ClaimCache) Reset() {
	clear(cc.at)
	clear(cc.e)
	cc.e = cc.e[:0]
	cc.hits = 0
}

// Grow makes room in the cache for n claims.
func (cc *ClaimCache) Grow(n int) {
	if cc.at == nil {
		cc.at = make(map[uint64]int32, n)
	}
	cc.e = slices.Grow(cc.e, n)
}

// cachedClaim is the claim a cache entry was read from and its numbers,
// of which those in mask (bit i: number i) had their point read from the
// text before the claim's link.
type cachedClaim struct {
	c    *claim.Claim
	nums []Number
	mask uint64
}

// claimSeed seeds claimHash.
var claimSeed = maphash.MakeSeed()

// claimHash hashes what ClaimNumbers reads of a claim besides its
// reading and the text before its link (pointAt, read again for each
// claim): its literal, the words around its link and its references.
func claimHash(c *claim.Claim, before, after string) uint64 {
	h := maphash.String(claimSeed, c.Literal)
	h = h*0x9E3779B97F4A7C15 ^ maphash.String(claimSeed, before)
	h = h*0x9E3779B97F4A7C15 ^ maphash.String(claimSeed, after)
	for _, r := range c.Refs {
		h = h*0x9E3779B97F4A7C15 ^ maphash.String(claimSeed, r)
	}
	return h
}

// ClaimNumbersCached is ClaimNumbers with cache (nil: none): a claim whose
// literal, references and words around its link are an earlier claim's
// of the page, read alike by the claim grammar (sameReading), gets a copy
// of that claim's numbers, their spans read from its own quantities and
// their points from the text before its own link. The result is what
// ClaimNumbers returns (TestClaimNumbersCachedEqual, FuzzClaimNumbersCached).
func ClaimNumbersCached(src string, c *claim.Claim, lang string, sl *Slab, units func(ref string) (string, bool), cache *ClaimCache) []Number {
	qs := c.Parsed.Quantities
	if c.ParseErr != nil || len(qs) == 0 {
		return scanClaim(src, c, lang)
	}
	before, after := linkContext(src, c)
	if cache == nil {
		nums, _, _ := claimNumbers(src, c, before, after, lang, sl, units)
		return nums
	}
	key := claimHash(c, before, after)
	if i, ok := cache.at[key]; ok {
		e := &cache.e[i]
		// the same key (not only its hash) and the same reading
		if b, a := linkContext(src, e.c); b == before && a == after && slices.Equal(e.c.Refs, c.Refs) && sameReading(e.c, c) {
			cache.hits++
			nums := append(sl.numbers(len(e.nums)), e.nums...)
			var point, read bool
			for i := range nums {
				n := &nums[i]
				n.spanQ = ownQuantity(e.c, c, n.spanQ)
				if i < 64 && e.mask&(1<<i) != 0 {
					if !read {
						open := max(0, c.Pos.Offset-1)
						point, read = pointAt(src[max(0, open-400):open], ""), true
					}
					n.point = point
				}
			}
			return nums
		}
	}
	nums, mask, ok := claimNumbers(src, c, before, after, lang, sl, units)
	if ok && len(nums) <= 64 {
		if cache.at == nil {
			cache.at = map[uint64]int32{}
		}
		cache.at[key] = int32(len(cache.e))
		cache.e = append(cache.e, cachedClaim{c: c, nums: nums, mask: mask})
	}
	return nums
}

// sameReading reports whether the claim grammar read the literals of a
// and b alike in what ClaimNumbers reads of them: their approximation,
// comparator, and each quantity's offsets, unit, sign, value and spread.
func sameReading(a, b *claim.Claim) bool {
	pa, pb := &a.Parsed, &b.Parsed
	if a.Literal != b.Literal || a.ParseErr != nil || b.ParseErr != nil || pa.Approx != pb.Approx || pa.Cmp != pb.Cmp || len(pa.Quantities) != len(pb.Quantities) {
		return false
	}
	for i := range pa.Quantities {
		qa, qb := &pa.Quantities[i], &pb.Quantities[i]
		if !sameQuantity(qa, qb) || (qa.Spread == nil) != (qb.Spread == nil) || qa.Spread != nil && !sameQuantity(qa.Spread, qb.Spread) {
			return false
		}
	}
	return true
}

func sameQuantity(a, b *literal.Quantity) bool {
	return a.Start == b.Start && a.End == b.End && a.Unit == b.Unit && a.Sign == b.Sign && a.Value.Exponent() == b.Value.Exponent() && a.Value.Equal(b.Value)
}

// ownQuantity returns the quantity (or spread) of c at the place q has
// in from's reading: a span is read from the claim's own quantity.
func ownQuantity(from, c *claim.Claim, q *literal.Quantity) *literal.Quantity {
	if q == nil {
		return nil
	}
	fq, cq := from.Parsed.Quantities, c.Parsed.Quantities
	for i := range fq {
		if q == &fq[i] {
			return &cq[i]
		}
		if q == fq[i].Spread {
			return cq[i].Spread
		}
	}
	return q
}

// claimNumbers is ClaimNumbers of a claim the grammar read, whose link
// has the words before and after it (linkContext): its numbers,
// which of them (bit i: number i) had their point read from the 400
// bytes before the claim's link, and false when it read the literal
// anew (scanClaim: quantities that are not offsets into it).
func claimNumbers(src string, c *claim.Claim, before, after, lang string, sl *Slab, units func(ref string) (string, bool)) ([]Number, uint64, bool) {
	lit := c.Literal
	qs := c.Parsed.Quantities
	// valueUnit is the unit of the evidence value the k-th number of the
	// claim (its quantities and their spreads, in order) is bound to, as
	// the judge binds them: the one reference, or one reference per
	// number; "" when not known.
	count := len(qs)
	for qi := range qs {
		if qs[qi].Spread != nil {
			count++
		}
	}
	valueUnit := func(k int) string {
		if units == nil {
			return ""
		}
		ref := ""
		switch {
		case len(c.Refs) == 1:
			ref = c.Refs[0]
		case len(c.Refs) == count && k < count:
			ref = c.Refs[k]
		default:
			return ""
		}
		u, _ := units(ref)
		return u
	}
	// inUnit is the base unit a number written in unit u is compared in:
	// a number written without a unit is in its value's unit, as the
	// judge reads it ([0.9975] on a ratio is 99.75 %, as [99.75%] is).
	inUnit := func(u string, k int) baseUnit {
		if u == "" {
			u = valueUnit(k)
		}
		bu, ok := parityUnits[u]
		if !ok {
			bu = baseUnit{u, one}
		}
		return bu
	}
	nums := sl.numbers(len(qs))
	// the factor of each number's unit, in a buffer of the stack for a
	// claim of up to four numbers (the most claims have one or two)
	var scaleBuf [4]decimal.Decimal
	scales := scaleBuf[:0]
	prevEnd := 0
	k := 0 // the number's index among the claim's numbers, spreads included
	for qi := range qs {
		q := &qs[qi]
		if q.Start < prevEnd || q.End > len(lit) || q.Start > q.End {
			return scanClaim(src, c, lang), 0, false // not offsets into the literal: read it anew
		}
		bu := inUnit(q.Unit, k)
		k++
		// span: the values the number stands for at its written
		// precision, as the judge reads an exact number (its
		// approximation is compared on its own: see Compare)
		n := Number{Kind: "number", Value: q.Value, Unit: bu.name, Text: lit[q.Start:q.End], Start: q.Start, End: q.End, Approx: c.Parsed.Approx,
			span: true, spanQ: q, spanFactor: bu.factor}
		if !literal.IsOne(bu.factor) {
			n.Value = mul(n.Value, bu.factor)
		}
		switch {
		case strings.ContainsAny(q.Sign, "-−－△▼"):
			n.Sign = "-"
		case q.Sign != "":
			n.Sign = "+"
		default:
			var start int
			if start, n.Sign = signBefore(lit, q.Start, prevEnd, lang); n.Sign == "-" {
				n.Value = n.Value.Neg()
				n.spanTurned = true // the span turns with the value
			}
			n.Start, n.Text = start, lit[start:q.End]
		}
		if len(nums) > 0 && n.Unit == "s" && nums[len(nums)-1].Unit == "s" && !nums[len(nums)-1].Spread && strings.TrimSpace(lit[prevEnd:q.Start]) == "" &&
			bu.factor.LessThan(scales[len(scales)-1]) && n.Sign == "" {
			// 1분 30초 read as two quantities: one duration
			last := &nums[len(nums)-1]
			last.Value, last.End, last.Text = last.Value.Add(n.Value), n.End, lit[last.Start:n.End]
			last.spanQ, last.spanFactor, last.spanTurned = n.spanQ, n.spanFactor, n.spanTurned // the last part's precision
			scales[len(scales)-1] = bu.factor
			prevEnd = q.End
			continue
		}
		nums = append(nums, n)
		scales = append(scales, bu.factor)
		prevEnd = q.End
		if sp := q.Spread; sp != nil {
			// 319.5 ± 11.2ms: the spread is a number of its own, compared
			// at its precision, as the judge checks it
			su := inUnit(sp.Unit, k)
			k++
			if q.SpreadRelative() {
				su = baseUnit{sp.Unit, one}
			}
			m := Number{Kind: "number", Value: sp.Value, Unit: su.name, Text: lit[sp.Start:sp.End], Start: sp.Start, End: sp.End, Sign: "±",
				span: true, spanQ: sp, spanFactor: su.factor, Spread: true}
			if !literal.IsOne(su.factor) {
				m.Value = mul(m.Value, su.factor)
			}
			nums = append(nums, m)
			scales = append(scales, su.factor)
		}
	}
	single := len(nums) == 1 || len(nums) == 2 && nums[1].Spread // one number, with its spread or not
	if single && c.Parsed.Cmp != "" {
		nums[0].Cmp = c.Parsed.Cmp
	}
	var mask uint64
	for i := range nums {
		n := &nums[i]
		if single && i == 0 {
			// the words outside the link, around the literal: what
			// qualify reads in before+lit+after, without joining them
			qualifyAround(n, before, after)
		} else {
			qualifyAround(n, "", "")
		}
		if n.Sign == "" && n.Unit == "s" && !n.point {
			// a point on a timeline its sentence speaks of (各列の時点は、
			// MID1が[12秒])
			open := max(0, c.Pos.Offset-1)
			n.point = pointAt(src[max(0, open-400):open], "")
			if i < 64 {
				mask |= 1 << i
			}
		}
		if n.Spread {
			n.Key = "±" + n.Key
		}
	}
	return nums, mask, true
}

// Slab hands out the numbers of a page's claims from chunks of
// many: one allocation for hundreds of claims. After Reset it hands out
// the same chunks again.
type Slab struct {
	chunk []Number
	// used are the chunks filled before chunk; free those Reset gave
	// back, all zero.
	used, free [][]Number
}

// numbers returns an empty slice of capacity n from the current chunk
// (the next free chunk, or a new one, when it is full). Appending beyond
// n does not write into the chunk.
func (sl *Slab) numbers(n int) []Number {
	if cap(sl.chunk)-len(sl.chunk) < n {
		if sl.chunk != nil {
			sl.used = append(sl.used, sl.chunk)
		}
		if k := len(sl.free); k > 0 && cap(sl.free[k-1]) >= n {
			sl.chunk, sl.free = sl.free[k-1], sl.free[:k-1]
		} else {
			sl.chunk = make([]Number, 0, max(n, 256))
		}
	}
	at := len(sl.chunk)
	sl.chunk = sl.chunk[:at+n]
	return sl.chunk[at : at : at+n]
}

// Reset makes every number the slab handed out free to be handed out
// again, zeroed: nothing may read one of them after Reset.
func (sl *Slab) Reset() {
	if sl.chunk != nil {
		sl.used = append(sl.used, sl.chunk)
		sl.chunk = nil
	}
	for _, c := range sl.used {
		clear(c[:cap(c)])
		sl.free = append(sl.free, c[:0])
	}
	clear(sl.used)
	sl.used = sl.used[:0]
}

// scanClaim reads a claim's literal that the claim grammar cannot read
// with ScanNumbers, with the words around its link when it holds one
// number.
func scanClaim(src string, c *claim.Claim, lang string) []Number {
	lit := c.Literal
	nums := ScanLang(lit, lang)
	if len(nums) != 1 {
		// words around a transition, fraction or range ("51.7%→0.21%まで")
		// do not qualify one of its numbers
		return nums
	}
	before, after := linkContext(src, c)
	all := ScanLang(before+lit+after, lang)
	// the numbers starting in the literal: one run, as they are in order
	lo, hi := -1, -1
	for i, n := range all {
		if n.Start >= len(before) && n.Start < len(before)+len(lit) {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	if lo < 0 {
		return nil
	}
	return all[lo:hi:hi]
}

// linkContext returns the words before a claim's link and after it, up
// to a number or the end of the line (24 bytes at most each side), that
// qualify a claim of one number (최대 [3단계](…), [3](…)まで).
func linkContext(src string, c *claim.Claim) (string, string) {
	open := max(0, c.Pos.Offset-1) // "["
	before := src[max(0, open-24):open]
	// trim to a valid UTF-8 start
	for len(before) > 0 && !isRuneStart(before[0]) {
		before = before[1:]
	}
	after := ""
	if c.RefPos.Offset > 0 && c.RefPos.Offset < len(src) {
		if j := strings.IndexByte(src[c.RefPos.Offset:], ')'); j >= 0 {
			e := c.RefPos.Offset + j + 1
			after = src[e:min(len(src), e+24)]
			for len(after) > 0 && !isRuneStart(after[len(after)-1]) {
				after = after[:len(after)-1]
			}
			// and the lead byte of a multi-byte rune left at the end
			if n := len(after); n > 0 && after[n-1] >= utf8.RuneSelf {
				after = after[:n-1]
			}
		}
	}
	// Keep only the surrounding words, up to a number or line end.
	for i := len(before) - 1; i >= 0; i-- {
		if digitOrNewline(before[i]) {
			before = before[i+1:]
			break
		}
	}
	for i := 0; i < len(after); i++ {
		if digitOrNewline(after[i]) {
			after = after[:i]
			break
		}
	}
	return before, after
}

// digitOrNewline reports whether c is an ASCII digit or "\n": a byte
// that ends the words linkContext keeps (no byte of a multi-byte rune
// is one).
func digitOrNewline(c byte) bool { return c >= '0' && c <= '9' || c == '\n' }

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
