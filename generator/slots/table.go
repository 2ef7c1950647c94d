// Package slots is evdoc build's claim slots: the staged page writes
// each claim evdoc can rewrite with an opaque destination ("ev:#ID",
// a slot), evdoc's link render hook writes for it only a placeholder
// (<evdoc-c d="ev:#ID">TEXT</evdoc-c>), and after Hugo evdoc fills each
// placeholder with the claim's markup: the printf format
// evdoc/claim.html renders once per data key and language (Hugo writes
// them into a formats file, FormatsFile) with the claim's page, line,
// column, link text and the page's id part, exactly as the hook's
// printf writes it for a claim without a slot. A Table holds what each
// slot stands for.
package slots

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"html"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Scheme is how a slotted claim's destination starts in the staged
// page: "ev:#" and the slot's id (ID).
const Scheme = "ev:#"

// Role is how the render hook treats a claim of a data key: RolePlain
// for a claim whose page has its key once (or whose marks were left
// out), RoleFirst for the first of a key its page has more than once
// (" @+" in a staged destination without slot), RoleRepeat for each
// after it (" @="); the index of its format in claim.html's three.
type Role uint8

const (
	RolePlain Role = iota
	RoleFirst
	RoleRepeat
)

// Table maps each slot id to what its claim's markup is made of. It is
// filled by staging, page by page (each page by one goroutine: Page
// returns the page's own part), and only read after that.
type Table struct {
	pages []*Page
	feed  *Feed // nil: no rewrite of feed URLs
	// cites are the viewer windows' citations staged with a
	// placeholder (AddCites), by the number in their id
	cites []cites
}

// SetFeed makes Fill give the claims it fills into the files of
// Hugo's rss output format the URL rewrite Hugo gives those files
// (Feed). It is called before Load and Early.
func (t *Table) SetFeed(f *Feed) { t.feed = f }

// NewTable returns a table for n pages (the site's pages, by their
// index in the site's sorted page list).
func NewTable(n int) *Table { return &Table{pages: make([]*Page, n)} }

// Page is the slots of one content page.
type Page struct {
	n     int
	lang  string
	where string // the content path escaped as claim-page.html escapes it
	id    string // the page's id part: 6 hex digits of the path's md5
	slots []slot
}

// slot is one claim: its position in its page, data key and role.
type slot struct {
	line, col int32
	key       string
	role      Role
}

// Page returns the slots of the page with index n, in language lang,
// whose content path (Hugo's .File.Path: its path within its content
// directory) is rel. It is called once per page.
func (t *Table) Page(n int, lang, rel string) *Page {
	sum := md5.Sum([]byte(rel))
	p := &Page{n: n, lang: lang, where: strings.ReplaceAll(html.EscapeString(rel), "+", "&#43;"), id: hex.EncodeToString(sum[:])[:6]}
	t.pages[n] = p
	return p
}

// Next returns the staged destination of the next claim Add records:
// Scheme, the page's index and the claim's, in base 36 ("ev:#1a-3").
// The staged page may pad it with "-" ("ev:#1a-3----").
func (p *Page) Next() string {
	b := make([]byte, 0, 16)
	b = append(b, Scheme...)
	b = strconv.AppendInt(b, int64(p.n), 36)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(len(p.slots)), 36)
	return string(b)
}

// Add records the claim of p's next slot (Next): its position in the
// page (the hook's line and column), data key and role.
func (p *Page) Add(line, col int, key string, role Role) {
	p.slots = append(p.slots, slot{line: int32(line), col: int32(col), key: key, role: role})
}

// Len returns the number of slots the table holds.
func (t *Table) Len() int {
	n := 0
	for _, p := range t.pages {
		if p != nil {
			n += len(p.slots)
		}
	}
	return n
}

// Keys returns, per language, the sorted data keys of the table's
// slots: the keys Hugo writes formats of (FormatsFile).
func (t *Table) Keys() map[string][]string {
	set := map[string]map[string]bool{}
	for _, p := range t.pages {
		if p == nil || len(p.slots) == 0 {
			continue
		}
		if set[p.lang] == nil {
			set[p.lang] = map[string]bool{}
		}
		for _, s := range p.slots {
			set[p.lang][s.key] = true
		}
	}
	out := make(map[string][]string, len(set))
	for l, ks := range set {
		out[l] = slices.Sorted(maps.Keys(ks))
	}
	return out
}

// lookup returns the page and slot of id (the part after Scheme, with
// any padding): two numbers in base 36 (lower case, no leading zero)
// joined by "-".
func (t *Table) lookup(id []byte) (*Page, *slot, bool) {
	for len(id) > 0 && id[len(id)-1] == '-' {
		id = id[:len(id)-1]
	}
	i := bytes.IndexByte(id, '-')
	if i < 0 {
		return nil, nil, false
	}
	pn, ok1 := base36(id[:i])
	sn, ok2 := base36(id[i+1:])
	if !ok1 || !ok2 || pn >= len(t.pages) || t.pages[pn] == nil || sn >= len(t.pages[pn].slots) {
		return nil, nil, false
	}
	p := t.pages[pn]
	return p, &p.slots[sn], true
}

// base36 reads b as strconv.FormatInt(n, 36) writes n (no sign, no
// leading zero), up to 2^31.
func base36(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 6 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	n := 0
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			n = n*36 + int(c-'0')
		case 'a' <= c && c <= 'z':
			n = n*36 + int(c-'a'+10)
		default:
			return 0, false
		}
	}
	return n, true
}

// Slot is what a slot id stands for: its claim's language, position
// in its page (the hook's line and column), data key and role.
type Slot struct {
	Lang      string
	Line, Col int
	Key       string
	Role      Role
}

// Slot returns the claim of slot id (after Scheme, padding allowed).
func (t *Table) Slot(id string) (Slot, bool) {
	p, s, ok := t.lookup([]byte(id))
	if !ok {
		return Slot{}, false
	}
	return Slot{Lang: p.lang, Line: int(s.line), Col: int(s.col), Key: s.key, Role: s.role}, true
}
