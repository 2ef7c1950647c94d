package staging

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/slots"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/internal/nesting"
)

// slotPage returns t, page src as staged without slots (its claims
// marked by markClaims or markRepeats, edits, into marked, then
// emphasis.HugoMarkdown's insertions ins), with the destination of each claim it can give a slot written
// as one (slots.Scheme and the id from pg, padded with "-" to the
// length of what it replaces): the render hook then writes only a
// placeholder for it, which evdoc fills in after Hugo with what the
// hook would have written (slots.Filler). A slot has the length of the
// destination it replaces (with its marks and angle brackets), so every
// byte of t stays where it was: a claim left without slot keeps the
// position Hugo gives it in t, and a slotted one gets that position
// from its slot: the one pinned in its destination (" @LINE:COL"),
// else that of its link's "[" in t (Hugo's position of a link), which
// it takes only where its literal follows the "[" directly. It reports
// whether it wrote any slot.
//
// cands are the page's claims with a candidate (StageData.Candidates),
// those before offset from (summaryFrom) left out,
// known reports whether claim data has a data key (claim.html's format
// exists), shortcodes whether the page calls one: a claim of such a page
// without a pinned position (one markClaims left out) keeps its
// destination, since Hugo counts its position from the shortcode.
func slotPage(t, marked, src []byte, edits []edit, ins []emphasis.Insertion, cands []stagedata.Candidate, from int, known func(string) bool, shortcodes bool, pg *slots.Page) ([]byte, bool) {
	if len(cands) == 0 {
		return t, false
	}
	// the marked page's offsets: src's plus what the edits before them
	// added
	growth := make([]int, len(edits)+1) // growth[i]: of edits[:i]
	for i, ed := range edits {
		growth[i+1] = growth[i] + len(ed.w) - (ed.e - ed.a)
	}
	markedAt := func(x int) (int, bool) {
		i := sort.Search(len(edits), func(i int) bool { return edits[i].e > x })
		if i < len(edits) && edits[i].a < x {
			return 0, false // inside a written destination
		}
		return x + growth[i], true
	}
	// the staged page's offsets: the marked page's plus the insertions
	// HugoMarkdown made before them (a newline made a space adds none)
	var insAt, insGrowth []int
	if len(ins) > 0 {
		_, bodyStart, _ := claim.SplitFrontMatter(t) // the front matter is never changed
		g := 0
		for _, in := range ins {
			if in.Offset < bodyStart {
				continue
			}
			if in.Text != " " || in.Offset >= len(marked) || marked[in.Offset] != '\n' {
				g += len(in.Text)
			}
			insAt = append(insAt, in.Offset)
			insGrowth = append(insGrowth, g)
		}
	}
	stagedAt := func(x int) int {
		i := sort.SearchInts(insAt, x+1) // insertions at or before x
		if i == 0 {
			return x
		}
		return x + insGrowth[i-1]
	}
	var out []byte
	// a cursor over t's lines
	lineOff, line, lineStart := 0, 1, 0
	ei := 0
	for _, c := range cands {
		a, e := c.At, c.At+len(c.Dest)
		if c.Lit < from || a <= 0 || e > len(src) || string(src[a:e]) != c.Dest {
			continue
		}
		for ei < len(edits) && edits[ei].a < a {
			ei++
		}
		edited := ei < len(edits) && edits[ei].a == a && edits[ei].e == e
		if !edited && shortcodes {
			continue
		}
		bracketed := src[a-1] == '<' && e < len(src) && src[e] == '>'
		key, role, pinned, pl, pc := c.Dest, slots.RolePlain, false, 0, 0
		want := c.Dest // the bytes the slot replaces
		if edited {
			w := edits[ei].w
			inner := w
			if !bracketed {
				inner = strings.TrimSuffix(strings.TrimPrefix(w, "<"), ">")
			}
			var ok bool
			if key, role, pinned, pl, pc, ok = readMarks(c.Dest, inner); !ok {
				continue
			}
			want = w
		}
		if bracketed {
			want = "<" + strings.TrimSuffix(strings.TrimPrefix(want, "<"), ">") + ">"
		}
		if !known(key) {
			continue
		}
		startM, ok := markedAt(a)
		if !ok {
			continue
		}
		if bracketed {
			startM--
		}
		start := stagedAt(startM)
		end := start + len(want)
		if end > len(t) || string(t[start:end]) != want {
			continue // an insertion inside it
		}
		if !pinned {
			// Hugo's position of a link: its "["
			lit, ok := markedAt(c.Lit)
			if !ok || lit <= 0 {
				continue
			}
			open := stagedAt(lit - 1)
			if open >= len(t) || t[open] != '[' || stagedAt(lit) != open+1 || open < lineOff {
				continue
			}
			line += bytes.Count(t[lineOff:open], []byte{'\n'})
			if nl := bytes.LastIndexByte(t[lineOff:open], '\n'); nl >= 0 {
				lineStart = lineOff + nl + 1
			}
			lineOff = open
			pl, pc = line, open-lineStart+1
		}
		id := pg.Next()
		if len(id) > end-start {
			continue
		}
		pg.Add(pl, pc, key, role)
		if out == nil {
			out = append([]byte(nil), t...)
		}
		n := copy(out[start:end], id)
		for i := start + n; i < end; i++ {
			out[i] = '-'
		}
	}
	if out == nil {
		return t, false
	}
	return out, true
}

// readMarks reads the marks markClaims and markRepeats write after
// destination dest (inner: the written destination without angle
// brackets): its data key (dest, with " ~PRECISION" when written), role
// ("+" first, "=" repeat) and the position pinned (" @LINE:COL"), as
// the render hook reads them.
func readMarks(dest, inner string) (key string, role slots.Role, pinned bool, line, col int, ok bool) {
	rest, found := strings.CutPrefix(inner, dest)
	if !found {
		return "", 0, false, 0, 0, false
	}
	key = dest
	at := ""
	if k, a, has := strings.Cut(rest, " @"); has {
		rest, at = k, a
	}
	if rest != "" {
		if !strings.HasPrefix(rest, " ~") {
			return "", 0, false, 0, 0, false
		}
		key = dest + rest
	}
	switch {
	case strings.HasSuffix(at, "="):
		role, at = slots.RoleRepeat, strings.TrimSuffix(at, "=")
	case strings.HasSuffix(at, "+"):
		role, at = slots.RoleFirst, strings.TrimSuffix(at, "+")
	}
	if at != "" {
		l, c, has := strings.Cut(at, ":")
		var err1, err2 error
		line, err1 = strconv.Atoi(l)
		col, err2 = strconv.Atoi(c)
		if !has || err1 != nil || err2 != nil {
			return "", 0, false, 0, 0, false
		}
		pinned = true
	}
	return key, role, pinned, line, col, true
}

// slotter gives the pages of a site their slots (StageOptions.Slots).
type slotter struct {
	table *slots.Table
	// summary is the configuration's summaryLength (summaryFrom)
	summary int
	pages   map[string]int   // a page's path → its index in the site's pages
	langs   []string         // by index: the page's language
	rels    []string         // by index: its path within its content directory
	fms     []map[string]any // by index: its front matter
	cands   map[string][]stagedata.Candidate
	known   func(key string) bool
}

// page returns the slots of the page at rel (a slash path relative to
// the root), its source src, its claims with a candidate and the offset
// from which they may have slots (summaryFrom); nil for a file that is
// no page of the site, and on a nil slotter.
func (sl *slotter) page(rel string, src []byte) (*slots.Page, []stagedata.Candidate, int) {
	if sl == nil {
		return nil, nil, 0
	}
	n, ok := sl.pages[rel]
	if !ok || len(sl.cands[rel]) == 0 {
		return nil, nil, 0
	}
	from := summaryFrom(src, sl.fms[n], sl.cands[rel], sl.summary)
	if from >= len(src) {
		return nil, nil, 0
	}
	return sl.table.Page(n, sl.langs[n], sl.rels[n]), sl.cands[rel], from
}

// summaryFrom returns the offset in page src (its front matter fm)
// from which its claims may have slots without changing Hugo's
// automatic summary of the page, len(src) for none. Hugo ends the
// summary at the end (</p>) of the first paragraph where the count of
// the page's HTML words (whitespace-separated runs, of the markup too,
// but for those that look like a tag or an attribute) reaches
// summaryLength (n): a placeholder counts otherwise than the claim's
// markup, so a claim that may be in the words counted keeps its
// destination. Each claim's markup counts at least one word (its link
// text's run; slots.Filler checks that of the formats), so the count
// reaches n by the n-th claim of the page: the claims before the end of
// the first paragraph that starts after it keep their destinations. A
// page with a summary of its own (front matter summary, the
// <!--more--> divider) has no automatic one; one calling a shortcode,
// whose output evdoc does not know, gets no slots without.
func summaryFrom(src []byte, fm map[string]any, cands []stagedata.Candidate, n int) int {
	for k := range fm {
		if strings.EqualFold(k, "summary") {
			return 0
		}
	}
	if bytes.Contains(src, []byte("<!--more-->")) {
		return 0
	}
	if bytes.Contains(src, []byte("{{")) || n <= 0 || len(cands) < n {
		return len(src)
	}
	at := cands[n-1].Lit
	// HTML blocks that may hold blank lines and text (a comment, pre,
	// script, style, textarea), and passthrough blocks, are not read
	// here: such a page gets no slots without a summary of its own
	if bytes.Contains(src, []byte("$$")) || bytes.Contains(src, []byte(`\[`)) {
		return len(src)
	}
	for i := bytes.IndexByte(src, '<'); i >= 0; {
		for _, o := range []string{"<!--", "<pre", "<script", "<style", "<textarea"} {
			if len(src)-i >= len(o) && bytes.EqualFold(src[i:i+len(o)], []byte(o)) {
				return len(src)
			}
		}
		j := bytes.IndexByte(src[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return paragraphAfter(src, at)
}

// paragraphAfter returns the end of the first paragraph of src that
// starts on a line after the one holding offset at: a run of lines after
// a blank line, each starting (unindented) with a letter, a digit not
// starting a list item, "[" or a character beyond ASCII, ended by a blank
// line, outside fenced code; len(src) when there is none. Hugo writes
// </p> after such a run.
func paragraphAfter(src []byte, at int) int {
	fence := "" // the fence of the code block the line is in
	off := 0
	start := -1 // the paragraph's first line's offset
	prevBlank := false
	for off < len(src) {
		lineEnd := len(src)
		if nl := bytes.IndexByte(src[off:], '\n'); nl >= 0 {
			lineEnd = off + nl + 1
		}
		l := src[off:lineEnd]
		t := bytes.TrimRight(l, "\r\n")
		blank := len(bytes.TrimSpace(t)) == 0
		tt := bytes.TrimLeft(t, " ")
		if f := fenceOf(tt); f != "" && (fence == "" || strings.HasPrefix(f, fence[:1]) && len(f) >= len(fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			start = -1
			off, prevBlank = lineEnd, false
			continue
		}
		switch {
		case fence != "":
		case start >= 0 && blank:
			return off
		case start >= 0 && !plainLine(t):
			start = -1 // not a plain paragraph after all
		case start < 0 && off > at && prevBlank && plainLine(t) && bytes.IndexByte(src[at:off], '\n') >= 0:
			start = off
		}
		prevBlank = blank && fence == ""
		off = lineEnd
	}
	return len(src)
}

// fenceOf returns the fence a line (without its indentation) opens or
// closes (nesting.FenceOf): a run of three or more backticks or tildes,
// or "".
func fenceOf(l []byte) string {
	c, n := nesting.FenceOf(l)
	return strings.Repeat(string(c), n)
}

// plainLine reports whether line l is paragraph text: unindented,
// starting with a letter, a digit not opening a list item, "[" or a
// character beyond ASCII, and no setext heading underline.
func plainLine(l []byte) bool {
	if len(l) == 0 {
		return false
	}
	c := l[0]
	switch {
	case c == '[':
		// not a link reference or footnote definition ("[x]: …")
		e := bytes.IndexByte(l, ']')
		return e < 0 || e+1 >= len(l) || l[e+1] != ':'
	case c >= 0x80, 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		return true
	case '0' <= c && c <= '9':
		i := 0
		for i < len(l) && '0' <= l[i] && l[i] <= '9' {
			i++
		}
		return i == len(l) || (l[i] != '.' && l[i] != ')')
	}
	return false
}
