package staging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/viewer"
)

// pinClaimPositions returns page src (at rel) with the position of each
// of its claims in the page written after the claim's destination, as
// evdoc's claim render hook reads it ("[4건](<ev:SET/NAME @LINE:COL>)"),
// and true, when the page has a shortcode call: Hugo gives a link inside
// a shortcode's inner content ({{% tab %}}…{{% /tab %}}) a position
// counted from the shortcode, so two tabs quoting the same sentence would
// give two claims one position and one popover id. The positions are the
// claim parser's (the AST's). Another page, and a claim whose
// destination is not written as goldmark read it (escapes, a reference
// link), is left as it is: Hugo's position is right there, or the claim
// keeps it.
func pinClaimPositions(rel string, src []byte) ([]byte, bool) {
	return markClaims(claim.MarkdownConfig{}, rel, src, true, false, nil, 0, nil)
}

// edit is one destination a marking wrote: src[a:e] (the destination
// as goldmark read it) became w (the destination with its marks, in
// angle brackets unless the source has them around it).
type edit struct {
	a, e int
	w    string
}

// markClaims is pinClaimPositions (when pin is set) that also writes
// the precision of each claim of marks (by its literal's offset in the
// page, shift bytes before its offset in src) into its destination, as
// the render hook reads it ("[40.3초](<ev:SET/NAME ~1>)": its data key,
// see precisionKey). The page is read with the site's goldmark
// configuration md, as check reads it: a link inside a passthrough
// formula is the formula's text, not a claim to mark.
//
// With refs, where two claims of the page have one data key (their
// destination and precision mark), the first gets "+" after " @" and
// its position if any, and each after it "=" ("[4건](<ev:SET/NAME @=>)",
// "[4건](<ev:SET/NAME @7:9=>)"): the
// render hook gives the first's popover the id the key and the page
// give, each later one its position's (the popover bodies are in the
// evidence sets' popover files, not in the page). The choice is the
// page's text, not the order
// Hugo renders in: a page whose content is rendered several times (a
// summary, RenderString, several output formats) makes the same choice
// each time. A claim left unmarked (an escaped or reference-style
// destination, one whose marks would change the parse) writes its whole
// popover under its own id and is no claim's first.
//
// With edits, the destinations written are appended to *edits, in
// order.
func markClaims(md claim.MarkdownConfig, rel string, src []byte, pin, refs bool, marks map[int]string, shift int, edits *[]edit) ([]byte, bool) {
	pin = pin && bytes.Contains(src, []byte("{{"))
	if !pin && !refs && len(marks) == 0 || !bytes.Contains(src, []byte("ev:")) {
		return src, false
	}
	m := claim.NewMarkdownWith(md)
	parsed, _ := claim.Parse(m, rel, src)
	// a page with no repeated key is marked as without refs
	if refs = refs && hasRepeat(parsed.Claims, marks, shift); !refs && !pin && len(marks) == 0 {
		return src, false
	}
	// The brackets written around a destination can pair with brackets
	// in the claim's own text ("[0[0](<](ev:x)": the "(<" in the text
	// and the new "<" make an inner link, and the claim is gone), so
	// the marked page is parsed again and must hold the same claims in
	// the same order; a claim whose marking changes the parse is left
	// as written (its position then is Hugo's, which the output check
	// verifies), and the page is marked again without it.
	skip := map[int]bool{}
	var es []edit
	var esp *[]edit // the edits are kept only for the caller's
	if edits != nil {
		esp = &es
	}
	for {
		es = es[:0]
		out, n := appendMarks(parsed.Claims, src, pin, refs, marks, shift, skip, esp)
		if n == 0 {
			return src, false
		}
		again, _ := claim.Parse(m, rel, out)
		bad := sameClaims(parsed.Claims, again.Claims)
		if bad < 0 {
			if edits != nil {
				*edits = append(*edits, es...)
			}
			return out, true
		}
		// the claim that differs, else the next one still marked (its
		// brackets can pair with text of a claim before it), else the
		// nearest one before
		k := bad
		for k < len(parsed.Claims) && skip[k] {
			k++
		}
		if k == len(parsed.Claims) {
			for k = bad; k >= 0 && skip[k]; k-- {
			}
		}
		if k < 0 {
			return src, false
		}
		skip[k] = true
	}
}

// markable reports whether claim c's destination can carry marks: an
// ev: destination other than ev:exempt, written as goldmark read it,
// without marks of its own.
func markable(c claim.Claim) bool {
	return !c.Exempt && strings.HasPrefix(c.Destination, claim.Scheme) && !strings.Contains(c.Destination, " @") && !strings.Contains(c.Destination, " ~")
}

// dataKey is the render hook's data key of claim c: its destination,
// with its precision mark where marks has one (stagedata.PrecisionKey).
func dataKey(c claim.Claim, marks map[int]string, shift int) string {
	if p, ok := marks[c.Pos.Offset-shift]; ok {
		return stagedata.PrecisionKey(c.Destination, p)
	}
	return c.Destination
}

// hasRepeat reports whether two markable claims of claims have one data
// key.
func hasRepeat(claims []claim.Claim, marks map[int]string, shift int) bool {
	seen := make(map[string]bool, len(claims))
	for _, c := range claims {
		if !markable(c) {
			continue
		}
		k := dataKey(c, marks, shift)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// appendMarks writes src with the position (pin) and precision (marks)
// of each claim written after its destination, and with refs the mark
// of each claim of a data key the page has more than once ("+" for the
// first, "=" after it, see markClaims), but the claims of skip (by
// index); n counts the claims marked, each appended to *edits (when
// edits is not nil).
func appendMarks(claims []claim.Claim, src []byte, pin, refs bool, marks map[int]string, shift int, skip map[int]bool, edits *[]edit) (out []byte, n int) {
	last := 0
	var keys map[string]int // data key → its claims still to mark
	if refs {
		keys = map[string]int{}
		for i, c := range claims {
			if !skip[i] && markable(c) {
				keys[dataKey(c, marks, shift)]++
			}
		}
	}
	seen := map[string]bool{}
	for i, c := range claims {
		a, e := c.RefPos.Offset, c.DestEnd.Offset
		if skip[i] || !markable(c) || a < last || e > len(src) || a >= e || string(src[a:e]) != c.Destination {
			continue
		}
		p, marked := marks[c.Pos.Offset-shift]
		k := c.Destination
		if marked {
			k = stagedata.PrecisionKey(k, p)
		}
		repeated := refs && keys[k] > 1
		if !pin && !marked && !repeated {
			continue
		}
		// in angle brackets already (<ev:…>): the marks go inside
		bracketed := a > 0 && src[a-1] == '<' && e < len(src) && src[e] == '>'
		if !bracketed && strings.ContainsAny(c.Destination, "<>") {
			// "ev:>" would end the <…> it is put in; no set or value
			// is named with them, so check has already reported it
			continue
		}
		out = append(out, src[last:a]...)
		w := len(out)
		if !bracketed {
			out = append(out, '<')
		}
		out = append(out, c.Destination...)
		if marked {
			out = append(out, " ~"...)
			out = append(out, p...)
		}
		if pin || repeated {
			out = append(out, " @"...)
		}
		if pin {
			out = fmt.Appendf(out, "%d:%d", c.Pos.Line, c.Pos.Column)
		}
		if repeated {
			out = appendRole(out, seen[k])
			seen[k] = true
		}
		if !bracketed {
			out = append(out, '>')
		}
		if edits != nil {
			*edits = append(*edits, edit{a, e, string(out[w:])})
		}
		last = e
		n++
	}
	if n == 0 {
		return src, 0
	}
	return append(out, src[last:]...), n
}

// appendRole appends the mark of a claim of a data key its page has
// more than once, after " @" and its position if any: "=" for a
// repeat, "+" for the page's first.
func appendRole(out []byte, repeat bool) []byte {
	if repeat {
		return append(out, '=')
	}
	return append(out, '+')
}

// markRepeats writes src (the page at rel) with the marks markClaims
// writes with refs, from the check's reading of the page (rs:
// StageData.Repeats of the page, offsets shift bytes before their
// place in src) instead of a parse of its own: " @+" after the
// destination of the page's first claim of each data key it has more
// than once, " @=" after each later one's ("[4건](<ev:SET/NAME @=>)"), the
// destination put in angle brackets where it is not. It reports
// whether it wrote any. A claim whose destination is not at its offset
// (the page changed since the check read it) is left as written, and so
// is one whose line holds a "<" before its destination: the "<" written
// around it could pair with that one (as in "[0[0](<](ev:x)"), where a
// pointy destination, which never spans lines, would change the parse.
// In a destination already in angle brackets the marks change nothing
// of the parse; one written bare, on a line without "<" before it,
// becomes a pointy destination holding no "<" or ">", which cannot pair
// with anything before it on its line or after it. So the marked page
// reads to the same claims, without a second parse. A key left with
// one claim to mark is not marked. With edits, the destinations written
// are appended to *edits, in order.
func markRepeats(src []byte, rs []stagedata.Repeat, shift int, edits *[]edit) ([]byte, bool) {
	if len(rs) == 0 {
		return src, false
	}
	ok := make([]bool, len(rs))
	keys := make(map[string]int, len(rs)/2)
	last := 0
	for i, r := range rs {
		a := r.At + shift
		e := a + len(r.Dest)
		if a <= 0 || a < last || e > len(src) || string(src[a:e]) != r.Dest || strings.ContainsAny(r.Dest, "<>") ||
			!markable(claim.Claim{Destination: r.Dest}) {
			continue
		}
		if src[a-1] != '<' || e == len(src) || src[e] != '>' {
			ls := bytes.LastIndexByte(src[:a], '\n') + 1
			if bytes.IndexByte(src[ls:a], '<') >= 0 {
				continue
			}
			// the bare destination ends at a space, a ")" or the line's end
			if e < len(src) && src[e] != ')' && src[e] != ' ' && src[e] != '\t' && src[e] != '\n' && src[e] != '\r' {
				continue
			}
		}
		ok[i] = true
		keys[r.Key]++
		last = e
	}
	// each mark adds at most 5 bytes: "<", " @", its role, ">"
	out := make([]byte, 0, len(src)+5*len(rs))
	seen := make(map[string]bool, len(keys))
	last = 0
	for i, r := range rs {
		if !ok[i] || keys[r.Key] < 2 {
			continue
		}
		a := r.At + shift
		e := a + len(r.Dest)
		bracketed := src[a-1] == '<' && e < len(src) && src[e] == '>'
		out = append(out, src[last:a]...)
		w := len(out)
		if !bracketed {
			out = append(out, '<')
		}
		out = append(out, r.Dest...)
		out = append(out, " @"...)
		out = appendRole(out, seen[r.Key])
		seen[r.Key] = true
		if !bracketed {
			out = append(out, '>')
		}
		if edits != nil {
			*edits = append(*edits, edit{a, e, string(out[w:])})
		}
		last = e
	}
	if last == 0 {
		return src, false
	}
	return append(out, src[last:]...), true
}

// sameClaims returns the index of the first claim of after that differs
// from before's (its literal, or its destination without the marks
// markClaims writes), the index where one list ends early, or -1 when
// both hold the same claims.
func sameClaims(before, after []claim.Claim) int {
	for i := range min(len(before), len(after)) {
		d, _, _ := strings.Cut(after[i].Destination, " ~")
		d, _, _ = strings.Cut(d, " @")
		if d != before[i].Destination || after[i].Literal != before[i].Literal {
			return i
		}
	}
	if len(before) != len(after) {
		return min(len(before), len(after))
	}
	return -1
}

// stageClaims writes the claim data (claims: Viewer.Claims) and set
// data the component's templates read (data/evdoc).
func stageClaims(ctx context.Context, s *project.Site, stage string, v *viewer.Viewer, claims map[string]viewer.ClaimData, tables []project.EvtableShown) error {
	cj := make(map[string]*claimJSON, len(claims))
	for k, cd := range claims {
		cj[k] = &claimJSON{cd: cd}
	}
	return stageClaimsOf(ctx, s, stage, v, cj, tables, nil)
}

// claimJSON is one claim data key's data and its JSON, made once: as
// claims.json indents it (indent) and plain (for popoverVersions).
type claimJSON struct {
	cd            viewer.ClaimData
	indent, plain []byte
	// sets are the sets the claim's bindings name (ClaimCache).
	sets []string
	// marks are the tokens making the data marked (ClaimCache).
	marks []viewer.Mark
}

func (c *claimJSON) indented() ([]byte, error) {
	if c.indent == nil {
		b, err := json.MarshalIndent(c.cd, " ", " ")
		if err != nil {
			return nil, err
		}
		c.indent = b
	}
	return c.indent, nil
}

func (c *claimJSON) marshaled() ([]byte, error) {
	if c.plain == nil {
		b, err := json.Marshal(c.cd)
		if err != nil {
			return nil, err
		}
		c.plain = b
	}
	return c.plain, nil
}

// ClaimCache keeps, from one StageEditCached to the next, what staging
// the claim data reads of the evidence: the viewer of its files and the
// data of each claim (viewer.ClaimDataOf) by its destination and
// bindings, with its JSON. While the site's evidence is one Store (a
// Checker's RecheckEvidence makes a new one at each evidence save) it
// holds whole; after a new Store the viewer is made again and a claim's
// data is kept when every set its bindings name has the same files, of
// the same bytes (viewer.ViewerFile.Sum), or is in neither viewer: what
// ClaimDataOf reads of the evidence (the bindings' values, their inputs
// and raw lines, all in the binding's own set) is then the same. The
// zero value is empty.
type ClaimCache struct {
	store  *evidence.Store
	viewer *viewer.Viewer
	data   map[string]*claimJSON // by destKey; nil entry: no data
	// served is what the evidence viewer pages last staged were made
	// of (Staged, StageEditCached); nil: not known.
	served *viewerBasis
	// complete tells whether the last StageEditCached wrote all a
	// whole staging would change (EditComplete); nil: it did not.
	complete func() bool
	// prec is the destinations written at several precisions, kept
	// from one StageData to the next (StageEditCached, Staged).
	prec stagedata.PrecisionIndex
	// file keeps the claim data file's entries and the popover
	// versions from one StageEditCached to the next.
	file claimFileCache
	// made counts the claims whose data the cache made (for the tests).
	made int
}

// viewerOf returns the viewer of s's evidence, the cached one while s's
// Store is the cache's; after a new Store, it drops the claim data of
// the sets whose files changed.
func (cc *ClaimCache) viewerOf(ctx context.Context, s *project.Site) (*viewer.Viewer, error) {
	if cc.store == s.Store && cc.viewer != nil {
		return cc.viewer, nil
	}
	v, err := viewer.New(ctx, s)
	if err != nil {
		return nil, err
	}
	cc.adopt(s.Store, v)
	return v, nil
}

// setFiles returns, by set id, the files of each set v shows with their
// sums, as one string.
func setFiles(v *viewer.Viewer) map[string]string {
	out := map[string]string{}
	for _, f := range v.Order {
		vf := v.Files[f]
		if vf.Set == nil {
			continue
		}
		id := vf.Set.Manifest.ID
		out[id] += f + "\x00" + string(vf.Sum[:]) + "\x00"
	}
	return out
}

// claims is v.Claims(data, multi, st) of the cache (viewerOf made v),
// each claim's data looked up once (viewer.ClaimsOfOnce).
// made, when not nil, receives the tokens the claims' data marks, in the
// order v.Claims marks them: a cached claim's recorded ones, a claim
// made now as v marks them (v.OnMark must append them to *made).
func (cc *ClaimCache) claims(v *viewer.Viewer, data *stagedata.StageData, multi map[string]bool, st *evidence.Store, made *[]viewer.Mark) map[string]*claimJSON {
	seen := make(map[string]*claimJSON, len(cc.data))
	var key []byte
	out := viewer.ClaimsOfOnce(data, multi, func(d *stagedata.DestClaim) (*claimJSON, bool) {
		key = destKey(key[:0], d)
		c, ok := seen[string(key)]
		if !ok {
			if c, ok = cc.data[string(key)]; !ok {
				from := 0
				if made != nil {
					from = len(*made)
				}
				cc.made++
				if cd, ok := v.ClaimDataOf(d, st); ok {
					c = &claimJSON{cd: cd, sets: bindingSets(d)}
					if made != nil {
						c.marks = slices.Clone((*made)[from:])
					}
				}
			} else if c != nil && made != nil {
				*made = append(*made, c.marks...)
			}
			seen[string(key)] = c
		}
		return c, c != nil
	})
	cc.data = seen // what this staging read: a claim gone is dropped
	return out
}

// bindingSets returns the set ids d's bindings name.
func bindingSets(d *stagedata.DestClaim) []string {
	var out []string
	for _, b := range d.Bindings {
		set, _, _ := strings.Cut(b.Ref, "/")
		if !slices.Contains(out, set) {
			out = append(out, set)
		}
	}
	return out
}

// destKey appends to b what ClaimDataOf reads of d: its destination and
// each binding.
func destKey(b []byte, d *stagedata.DestClaim) []byte {
	b = append(b, d.Dest...)
	for _, x := range d.Bindings {
		b = append(b, 0)
		b = append(b, x.Ref...)
		b = append(b, 1)
		b = append(b, x.File...)
		b = append(b, 1)
		b = strconv.AppendInt(b, int64(x.Line), 10)
		b = append(b, 1)
		b = strconv.AppendInt(b, int64(x.Places), 10)
		b = append(b, 1)
		b = append(b, x.Unit...)
	}
	return b
}

// stageClaimsOf is stageClaims of the claim data with its JSON. With
// fc (nil: none) the claim data file and the popover versions are made
// from what fc kept of the last call's: each key's entry of
// claims.json and each set's version are made again only when the
// claim data under the key (its *claimJSON) is another, or, for a
// version, sets.json changed; the bytes are those made without it.
func stageClaimsOf(ctx context.Context, s *project.Site, stage string, v *viewer.Viewer, claims map[string]*claimJSON, tables []project.EvtableShown, fc *claimFileCache) error {
	sets, err := json.MarshalIndent(v.Sets(s.Store, tables), "", " ")
	if err != nil {
		return err
	}
	if err := WriteFile(filepath.Join(stage, "data", "evdoc", "sets.json"), sets); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if fc == nil {
		fc = &claimFileCache{}
	}
	keys := popoverKeys(claims)
	b, err := fc.claimsFile(claims)
	if err != nil {
		return err
	}
	if err := WriteFile(filepath.Join(stage, "data", "evdoc", "claims.json"), b); err != nil {
		return err
	}
	b, err = json.Marshal(keys)
	if err != nil {
		return err
	}
	if err := WriteFile(filepath.Join(stage, "data", "evdoc", "popovers.json"), b); err != nil {
		return err
	}
	versions, err := fc.popoverVersions(keys, claims, sets)
	if err != nil {
		return err
	}
	b, err = json.Marshal(versions)
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(stage, "data", "evdoc", "popoverversions.json"), b)
}

// claimFileCache keeps, from one stageClaimsOf to the next, each key's
// entry of claims.json and each set's popover version with what they
// were made of. The zero value is empty.
type claimFileCache struct {
	// entries holds each key's entry of claims.json (",\n \"KEY\": "
	// and its indented data) and the claim data it was made of.
	entries map[string]claimEntry
	// sorted are the keys of entries, sorted.
	sorted []string
	// setsSum is the SHA-256 of the sets.json versions were made with;
	// versions each set's version and its claim data, key by key.
	setsSum  [sha256.Size]byte
	versions map[string]setVersion
}

type claimEntry struct {
	c     *claimJSON
	entry []byte
}

type setVersion struct {
	claims  []*claimJSON
	version string
}

// claimsFile returns claims.json: the claim data by key, as
// json.MarshalIndent(claims, "", " ") writes the map of their data,
// from each key's indented JSON; fc keeps each key's entry.
func (fc *claimFileCache) claimsFile(claims map[string]*claimJSON) ([]byte, error) {
	if len(claims) == 0 {
		fc.entries, fc.sorted = nil, nil
		return []byte("{}"), nil
	}
	entries := make(map[string]claimEntry, len(claims))
	same := len(claims) == len(fc.entries) // the same keys, so far
	n := 2
	for k, c := range claims {
		e, ok := fc.entries[k]
		same = same && ok
		if !ok || e.c != c {
			b, err := c.indented()
			if err != nil {
				return nil, err
			}
			kb, err := json.Marshal(k)
			if err != nil {
				return nil, err
			}
			e = claimEntry{c: c, entry: make([]byte, 0, 4+len(kb)+2+len(b))}
			e.entry = append(e.entry, ",\n "...)
			e.entry = append(e.entry, kb...)
			e.entry = append(e.entry, ": "...)
			e.entry = append(e.entry, b...)
		}
		entries[k] = e
		n += len(e.entry)
	}
	keys := fc.sorted
	if !same {
		keys = make([]string, 0, len(claims))
		for k := range claims {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	fc.entries, fc.sorted = entries, keys
	out := make([]byte, 0, n)
	out = append(out, '{')
	for i, k := range keys {
		e := entries[k].entry
		if i == 0 {
			e = e[1:] // no comma before the first
		}
		out = append(out, e...)
	}
	return append(out, "\n}"...), nil
}

// popoverVersions returns, per evidence set, a digest (16 hex digits of
// SHA-256) of what its popover file's bodies are rendered from: the
// claim data of its keys and the sets' data (sets.json). The head
// partial puts it into the file's URL (?v=…), so a browser or a cache
// that kept the file of an earlier build never shows its old values
// beside a page built with new ones: a value that changes changes the
// URL. The component's templates and texts are not in it. A set's
// version fc kept is used again when sets.json and the claim data of
// each of its keys are the same.
func (fc *claimFileCache) popoverVersions(keys map[string][]string, claims map[string]*claimJSON, sets []byte) (map[string]string, error) {
	out := make(map[string]string, len(keys))
	versions := make(map[string]setVersion, len(keys))
	sum := sha256.Sum256(sets)
	old := fc.versions
	if sum != fc.setsSum {
		old = nil
	}
	// sets.json hashed once, each set's digest from a copy of its state
	var h0 hash.Hash
	for set, ks := range keys {
		if v, ok := old[set]; ok && len(v.claims) == len(ks) && func() bool {
			for i, k := range ks {
				if claims[k] != v.claims[i] {
					return false
				}
			}
			return true
		}() {
			out[set], versions[set] = v.version, v
			continue
		}
		if h0 == nil {
			h0 = sha256.New()
			h0.Write(sets)
		}
		c, err := h0.(hash.Cloner).Clone()
		if err != nil {
			return nil, err
		}
		h := c
		cs := make([]*claimJSON, len(ks))
		for i, k := range ks {
			cs[i] = claims[k]
			b, err := claims[k].marshaled()
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(h, "\x00%s\x00%d:", k, len(b))
			h.Write(b)
		}
		out[set] = hex.EncodeToString(h.Sum(nil))[:16]
		versions[set] = setVersion{claims: cs, version: out[set]}
	}
	fc.setsSum, fc.versions = sum, versions
	return out, nil
}

// PopoverFormat is the name of the component's output format of an
// evidence set's popover file (themes/evdoc/hugo.toml,
// layouts/section.evdocpop.js), which the set pages evdoc build writes
// have beside html.
const PopoverFormat = "evdocpop"

// popoverKeys returns, per evidence set, the sorted claim data keys
// (claims.json's keys) whose first value is in the set: the keys whose
// popover bodies the set's popover file holds (data/evdoc/popovers.json,
// read by layouts/section.evdocpop.js). Every key is in exactly one
// set's list, the one its claims' popovers name (data-ev-s).
func popoverKeys(claims map[string]*claimJSON) map[string][]string {
	out := map[string][]string{}
	for k, c := range claims {
		out[c.cd.Set] = append(out[c.cd.Set], k)
	}
	for _, ks := range out {
		slices.Sort(ks)
	}
	return out
}
