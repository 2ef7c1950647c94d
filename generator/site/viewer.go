package site

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/generator/unit"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Evidence viewer windows: a raw file is shown on pages of at most
// windowLines lines and about windowBytes bytes each, so a large dump
// does not become one multi-megabyte HTML page.
const (
	windowLines = 400
	windowBytes = 96 << 10
)

// Large raw files are shown sparsely, so that neither evdoc nor Hugo
// holds the whole file: a file over sparseBytes gets viewer pages only
// for its first window and the windows a claim, a value table, a figure
// or a citation links to; the file itself is published whole as a
// download beside them (Hugo copies it as a static file, streaming).
// A line of such a file is shown cut after maxShownLine bytes.
const (
	sparseBytes  = 4 << 20
	maxShownLine = windowBytes
)

// viewerFile is one raw file of an evidence set as the viewer shows it:
// its window boundaries, found by one streaming pass over the file
// (newViewer); the lines themselves are read again window by window
// when the pages are written (stageEvidence).
type viewerFile struct {
	File  string // repository-relative path
	Set   *evidence.Set
	Size  int64 // bytes
	Total int   // lines
	// Starts holds the first line (1-based) of each window, Offsets the
	// byte offset of that line.
	Starts  []int
	Offsets []int64
	// Lexer is the chroma lexer name of the file (lexerFor).
	Lexer string
	// Sparse files (over sparseBytes) show only the windows in shown.
	Sparse bool
	shown  map[int]bool
}

// window returns the index of the window showing line.
func (f *viewerFile) window(line int) int {
	i := sort.SearchInts(f.Starts, line+1) - 1
	if i < 0 {
		return 0
	}
	return i
}

// pagePath returns the Hugo page path of window i, such as
// "/evidence/dns-passthrough-tcp/report-md" or ".../report-md-p2".
func (f *viewerFile) pagePath(i int) string {
	p := "/" + strings.TrimSuffix(evidencePageDir(f.File), "/")
	if i > 0 {
		p += fmt.Sprintf("-p%d", i+1)
	}
	return p
}

// show marks window i as one that gets a page.
func (f *viewerFile) show(i int) {
	if f.shown == nil {
		f.shown = map[int]bool{}
	}
	f.shown[i] = true
}

// hasPage reports whether window i gets a viewer page: every window of a
// file shown whole; of a sparse file, the first and those linked to.
func (f *viewerFile) hasPage(i int) bool {
	return !f.Sparse || i == 0 || f.shown[i]
}

// evidencePageDir is the logical path of a raw file's first viewer page:
// "evidence/SET/report-md/".
func evidencePageDir(file string) string {
	dir, base := path.Split(file)
	return dir + strings.ReplaceAll(base, ".", "-") + "/"
}

// viewer holds every raw file the evidence pages show, by path.
type viewer struct {
	root  string
	files map[string]*viewerFile
	order []string
	// marks holds, by file and line, the byte ranges (within the line)
	// of the raw tokens a claim's popover shows (rawLine): the viewer
	// marks them on the line a claim lands on.
	marks map[string]map[int][]tokenMark
}

// tokenMark is a byte range of a raw line the viewer marks: a token a
// claim cites (<mark class="ev-token">) or a number no reading took
// (<mark class="ev-unread">, an evidence-number warning).
type tokenMark struct {
	start, end int
	unread     bool
	// id is a cited token's anchor, "L12-34" (line, byte column of the
	// token's first byte): a claim's link lands on it (target.Col).
	id string
}

// unreadRanges returns, by file and line, the byte ranges of the
// evidence-number warnings of ds (a range holds only numbers no reading
// took: raw.NumericFields inside it are those numbers), unless the
// project turned the rule off.
func unreadRanges(ds diag.List, rules diag.RuleConfig) map[string]map[int][][2]int {
	if !rules.Enabled(diag.EvidenceNumber) {
		return nil
	}
	out := map[string]map[int][][2]int{}
	for _, d := range ds {
		if d.Rule != diag.EvidenceNumber || d.Pos.Line == 0 || d.End.Line != d.Pos.Line || d.End.Column <= d.Pos.Column {
			continue
		}
		if out[d.Pos.File] == nil {
			out[d.Pos.File] = map[int][][2]int{}
		}
		out[d.Pos.File][d.Pos.Line] = append(out[d.Pos.File][d.Pos.Line], [2]int{d.Pos.Column - 1, d.End.Column - 1})
	}
	return out
}

// unreadMarks returns the marks of the numbers no reading took on line
// (text), inside the ranges of its evidence-number warnings, leaving out
// any a cited token overlaps.
func unreadMarks(text string, ranges [][2]int, cited []tokenMark) []tokenMark {
	var out []tokenMark
	for _, f := range raw.NumericFields(text) {
		for _, r := range ranges {
			if f[0] < r[0] || f[1] > r[1] {
				continue
			}
			overlaps := false
			for _, c := range cited {
				overlaps = overlaps || c.start < f[1] && f[0] < c.end
			}
			if !overlaps {
				out = append(out, tokenMark{start: f[0], end: f[1], unread: true})
			}
			break
		}
	}
	return out
}

// newViewer finds the windows of every raw file (and manifest) of the
// site's evidence sets, reading each file once in bounded chunks.
func (s *Site) newViewer(ctx context.Context) (*viewer, error) {
	v := &viewer{root: s.Root, files: map[string]*viewerFile{}}
	for _, set := range s.Store.Sets {
		files := append([]string{path.Join(set.Dir, evidence.ManifestName)}, set.Files...)
		for _, f := range files {
			if _, ok := v.files[f]; ok {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			vf, err := scanViewerFile(ctx, s.Root, f, set)
			if err != nil {
				return nil, err
			}
			v.files[f] = vf
			v.order = append(v.order, f)
		}
	}
	return v, nil
}

// scanViewerFile reads the raw file f in bounded chunks and returns its
// windows (see windowStarts), line count and lexer.
func scanViewerFile(ctx context.Context, root, f string, set *evidence.Set) (*viewerFile, error) {
	fh, size, err := safefile.Open(root, f, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	vf := &viewerFile{File: f, Set: set, Size: size, Sparse: size > sparseBytes}
	lr := newLineReader(fh)
	console := false
	var w windower
	for {
		text, n, ok, err := lr.next(len("$ "))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %v", f, err)
		}
		if !ok {
			break
		}
		if lr.n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if string(text) == "$ " {
			console = true
		}
		if w.add(lr.n, n) {
			vf.Starts = append(vf.Starts, lr.n)
			vf.Offsets = append(vf.Offsets, lr.start)
		}
	}
	vf.Total = lr.n
	vf.Lexer = lexerName(f, console)
	return vf, nil
}

// windower splits lines into viewer windows of at most windowLines
// lines and, unless one line alone is larger, windowBytes bytes.
type windower struct {
	start, size int
}

// add takes line n (1-based) of size bytes and reports whether it
// starts a new window.
func (w *windower) add(n, size int) bool {
	newWindow := w.start == 0 || n-w.start >= windowLines || (w.size > 0 && w.size+size > windowBytes)
	if newWindow {
		w.start, w.size = n, 0
	}
	w.size += size + 1
	return newWindow
}

// windowStarts returns the first line (1-based) of each viewer window of
// lines (see windower).
func windowStarts(lines []string) []int {
	var starts []int
	var w windower
	for i, l := range lines {
		if w.add(i+1, len(l)) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineReader reads a file line by line in bounded memory. Lines are what
// strings.Split(strings.TrimSuffix(content, "\n"), "\n") gives: a final
// newline ends the last line, and an empty file is one empty line.
type lineReader struct {
	r     *bufio.Reader
	n     int   // lines read
	off   int64 // bytes read
	start int64 // offset of the last line read
	eof   bool
	buf   []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its newline, cut to at most max
// bytes, its whole length in bytes, and false after the last line. The
// text is valid until the next call.
func (lr *lineReader) next(max int) (text []byte, size int, ok bool, err error) {
	if lr.eof {
		return nil, 0, false, nil
	}
	lr.buf = lr.buf[:0]
	lr.start = lr.off
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(chunk))
		body := chunk
		nl := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if nl {
			body = chunk[:len(chunk)-1]
		}
		if room := max - len(lr.buf); room > 0 {
			lr.buf = append(lr.buf, body[:min(room, len(body))]...)
		}
		size += len(body)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			lr.eof = true
			if size == 0 && lr.n > 0 {
				return nil, 0, false, nil // the file ended with a newline
			}
		case err != nil:
			return nil, 0, false, err
		}
		lr.n++
		return lr.buf, size, true, nil
	}
}

// target is where a claim or figure links: a viewer page and line.
type target struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Col is the byte column of the cited token on Line when the viewer
	// marks it (a value read from the line, with its raw line shown):
	// links land on the token's anchor, #L12-34 (tokenID), not the line.
	Col int `json:"col,omitempty"`
	// Page is the Hugo page path of the viewer window showing Line;
	// layouts resolve it with site.GetPage in the reader's language.
	Page string `json:"page"`
	// Origin and Source are the file's provenance (see
	// evidence.Provenance): "raw" or "transcribed", and the document.
	Origin string `json:"origin,omitempty"`
	Source string `json:"source,omitempty"`
	// SourceText is Source per site language (evidence.Provenance);
	// layouts show the reader's language's entry when there is one.
	SourceText map[string]string `json:"source_text,omitempty"`
}

func (v *viewer) target(p diag.Position) (target, bool) {
	f, ok := v.files[p.File]
	if !ok || p.Line < 1 {
		return target{}, false
	}
	w := f.window(p.Line)
	f.show(w) // a page links here: the window gets a page
	prov := f.Set.Provenance(p.File)
	return target{File: p.File, Line: p.Line, Page: f.pagePath(w), Origin: prov.Origin, Source: prov.Source, SourceText: prov.SourceText}, true
}

// claimValue is one evidence value a claim binds, as the claim's popover
// shows it.
type claimValue struct {
	Ref   string `json:"ref"`
	Value string `json:"value"`
	// Shown is the value at the precision the claim writes it ("43.9%"
	// for an exact "43.9024390243902439024390243902%"), set only when it
	// differs from Value, which the popover keeps one step away.
	Shown string `json:"shown,omitempty"`
	target
	// RawLine is the raw line the value was read from, its token marked
	// (none for a derived value: each input has its own).
	RawLine    *rawLine        `json:"rawline,omitempty"`
	Derivation *derivationData `json:"derivation,omitempty"`
}

type derivationData struct {
	Derivation
	Inputs []inputData `json:"inputs"`
}

type inputData struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	target
	RawLine *rawLine `json:"rawline,omitempty"`
}

// claimData is what the link render hook needs for one claim
// destination: the line the claim links to and each bound value.
type claimData struct {
	target
	Values []claimValue `json:"values"`
}

var decimalsRe = regexp.MustCompile(`[.．](\d+)`)

// writtenPlaces returns the number of decimal places of a claim's written
// number ("56.1" → 1), 0 when it has none.
func writtenPlaces(number string) int {
	if m := decimalsRe.FindStringSubmatch(number); m != nil {
		return len(m[1])
	}
	return 0
}

// claims returns the render hook's data for every claim destination:
// that of its first claim (in the order of data) with a binding whose
// value and line the viewer has. A destination whose claims write it at
// several precisions (multi, see StageData.precisionMarks) has data for
// each precision too, under precisionKey, which its claims' staged
// destinations name: each popover shows the value at its own claim's
// precision.
func (v *viewer) claims(data *StageData, multi map[string]bool, st *evidence.Store) map[string]claimData {
	out := map[string]claimData{}
	for _, u := range data.units {
		for _, d := range u.dests {
			_, plain := out[d.dest]
			key := ""
			if multi[d.dest] {
				key = precisionKey(d.dest, d.precision())
			}
			if _, ok := out[key]; plain && (key == "" || ok) {
				continue
			}
			cd, ok := v.claimData(d, st)
			if !ok {
				continue
			}
			if !plain {
				out[d.dest] = cd
			}
			if _, done := out[key]; key != "" && !done {
				out[key] = cd
			}
		}
	}
	return out
}

// claimData returns the render hook's data of one claim, false when
// none of its bindings has a value and line the viewer has.
func (v *viewer) claimData(d *destClaim, st *evidence.Store) (claimData, bool) {
	var cd claimData
	for _, b := range d.bindings {
		val, ok := st.Lookup(b.ref)
		if !ok {
			continue
		}
		t, ok := v.target(diag.Position{File: b.file, Line: b.line})
		if !ok {
			continue
		}
		cv := claimValue{Ref: b.ref, Value: formatQuantity(val.Value, val.Unit, val.Delta), target: t}
		exact := cv.Value
		cv.Value = shownQuantity(val, st)
		// shown in the unit the claim writes (b.unit: 7.12 ms of 0.00712 s)
		r, u := val.Value, val.Unit
		if b.unit != "" {
			if conv, ok := unit.Convert(r, u, b.unit); ok {
				r, u = conv, b.unit
			}
		}
		if int32(b.places) < -r.Exponent() {
			r = r.Round(int32(b.places))
		}
		if shown := formatQuantity(r, u, val.Delta); shown != exact {
			cv.Shown = shown
		}
		if !val.Derived {
			cv.RawLine = v.rawLine(val)
			if cv.RawLine != nil && val.Pos.File == t.File && val.Pos.Line == t.Line {
				cv.Col = val.Pos.Column
			}
		}
		if val.Derived {
			places := b.places
			if b.unit != "" {
				places = -1 // the places of another unit: the exact result
			}
			if d, ok := explainDerived(val, st, places); ok {
				dd := &derivationData{Derivation: d}
				short := map[string]string{}
				var names []string
				for _, in := range d.Inputs {
					names = append(names, in.Name)
				}
				for k, s := range shortNames(names) {
					short[k] = s
				}
				for _, in := range d.Inputs {
					pos := in.Pos
					if len(in.Inputs) > 0 {
						pos = in.Inputs[0]
					}
					it, ok := v.target(pos)
					if !ok {
						continue
					}
					id := inputData{Name: short[in.Name], Value: shownQuantity(in, st), target: it}
					if !in.Derived && len(in.Inputs) == 0 {
						id.RawLine = v.rawLine(in)
						if id.RawLine != nil {
							id.Col = in.Pos.Column
							// the claim's link lands on its first input's token
							if len(dd.Inputs) == 0 && in.Pos.File == cv.File && in.Pos.Line == cv.Line {
								cv.Col = in.Pos.Column
							}
						}
					}
					dd.Inputs = append(dd.Inputs, id)
				}
				cv.Derivation = dd
			}
		}
		if len(cd.Values) == 0 {
			cd.target = cv.target
		}
		cd.Values = append(cd.Values, cv)
	}
	return cd, len(cd.Values) > 0
}

// citation is a claim that cites a raw line, on the viewer page of one
// language.
type citation struct {
	Page string `yaml:"page" json:"page"` // Hugo page path of the citing page
	Text string `yaml:"text" json:"text"` // the claim as written
}

// viewerLine is one raw line of a viewer page: its number, its
// highlighted HTML (chroma token spans; text escaped) and the claims
// citing it.
type viewerLine struct {
	N     int         `yaml:"n" json:"n"`
	HTML  string      `yaml:"html" json:"html"`
	Cites []citeGroup `yaml:"cites,omitempty" json:"cites,omitempty"`
}

// citeGroup is a run of citations of one raw line from the same page:
// the page once and the claims as written, in order. The viewer lists
// them one per item; grouping keeps the front matter small and lets the
// layout resolve the page's link once for the run (a line of a report
// table is cited thousands of times).
type citeGroup struct {
	Page  string   `yaml:"page" json:"page"`
	Texts []string `yaml:"texts" json:"texts"`
}

// groupCitations merges consecutive citations from the same page,
// keeping their order.
func groupCitations(cs []citation) []citeGroup {
	var out []citeGroup
	for _, c := range cs {
		if n := len(out); n > 0 && out[n-1].Page == c.Page {
			out[n-1].Texts = append(out[n-1].Texts, c.Text)
			continue
		}
		out = append(out, citeGroup{Page: c.Page, Texts: []string{c.Text}})
	}
	return out
}

// citations maps, for one language, file → line → claims citing it.
// Pages of the language count, and so do source-language pages the
// language falls back to.
func (s *Site) citations(data *StageData, lang string, fallbacks []Fallback) map[string]map[int][]citation {
	pages := map[string]string{} // repo path → Hugo page path in lang
	for _, p := range s.Pages {
		if p.Lang == lang && !p.IsEmpty() {
			pages[p.Path] = "/" + p.Logical
		}
	}
	for _, f := range fallbacks {
		pages[f.Source.Path] = "/" + f.Source.Logical
	}
	out := map[string]map[int][]citation{}
	type citeKey struct {
		file       string
		line       int
		page, text string
	}
	seen := map[citeKey]bool{}
	for _, u := range data.units {
		for _, run := range u.runs {
			pp, ok := pages[run.page]
			if !ok {
				continue
			}
			for _, c := range run.cites {
				text, line := run.texts[c.start:c.end], int(c.line)
				key := citeKey{c.file, line, pp, text}
				if seen[key] {
					continue
				}
				seen[key] = true
				if out[c.file] == nil {
					out[c.file] = map[int][]citation{}
				}
				out[c.file][line] = append(out[c.file][line], citation{Page: pp, Text: text})
			}
		}
	}
	return out
}

// lexerName picks the chroma lexer of a raw file by its format: Markdown
// reports, TOML manifests, JSON, Envoy admin stats ("name: value", read
// as YAML), shell transcripts (a .txt or .log file with a line starting
// "$ ": console); anything else is plain text.
func lexerName(file string, console bool) string {
	name := ""
	switch strings.ToLower(path.Ext(file)) {
	case ".md":
		name = "markdown"
	case ".toml":
		name = "toml"
	case ".json":
		name = "json"
	case ".stats", ".yaml", ".yml":
		name = "yaml"
	case ".txt", ".log":
		if console {
			name = "console"
		}
	}
	if name == "" || lexers.Get(name) == nil {
		return lexers.Get("plaintext").Config().Name
	}
	return lexers.Get(name).Config().Name
}

// highlightLines returns the HTML of each line of one window of a raw
// file: chroma token spans of the named lexer with the classes of
// themes/evdoc/static/evdoc/css/chroma.css, text escaped.
//
// marks holds, by index in lines, byte ranges of the line to mark (the
// raw tokens claims cite and the numbers no reading took): each is
// wrapped in <mark class="ev-token"> or <mark class="ev-unread">, split
// where it crosses a token span.
func highlightLines(lexer string, lines []string, marks map[int][]tokenMark) []string {
	src := strings.Join(lines, "\n") + "\n"
	out := make([]string, len(lines))
	it, err := chroma.Coalesce(untimedLexer(lexer)).Tokenise(nil, src)
	if err != nil {
		for i, l := range lines {
			out[i] = markedText(l, 0, marks[i])
		}
		return out
	}
	for i, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
		if i >= len(lines) {
			break
		}
		var b strings.Builder
		off := 0
		for _, t := range toks {
			text := strings.TrimSuffix(t.Value, "\n")
			if text == "" {
				continue
			}
			if c := tokenClass(t.Type); c != "" {
				fmt.Fprintf(&b, `<span class="%s">%s</span>`, c, markedText(text, off, marks[i]))
			} else {
				b.WriteString(markedText(text, off, marks[i]))
			}
			off += len(text)
		}
		out[i] = b.String()
	}
	// A lexer that dropped text would hide raw data: fall back to
	// plain escaped lines when the highlighted text differs.
	for i, l := range lines {
		if stripTags(out[i]) != html.EscapeString(l) {
			out[i] = markedText(l, 0, marks[i])
		}
	}
	return out
}

// markedText returns text, which starts at byte off of its line, HTML
// escaped, with the parts inside marks (byte ranges of the line) in
// <mark class="ev-token"> (a cited token) or <mark class="ev-unread"> (a
// number no reading took). A range is marked only where it falls on
// character boundaries of text. A cited token's first piece carries its
// id (tokenMark.id) and any later piece (a token split by the lexer's
// spans) data-ev-tok with the same id; a token's id that no piece can
// carry (it starts inside another mark, or off a character boundary) is
// an empty span before the text, so every claim's link has its anchor.
func markedText(text string, off int, marks []tokenMark) string {
	if len(marks) == 0 {
		return html.EscapeString(text)
	}
	var b strings.Builder
	pos := 0 // in text
	// anchors writes the ids of the marks starting in [from, to) but the
	// one skip names as empty spans.
	anchors := func(from, to int, skip string) {
		for _, m := range marks {
			if s := m.start - off; m.id != "" && m.id != skip && s >= from && s < to {
				fmt.Fprintf(&b, `<span id="%s"></span>`, m.id)
			}
		}
	}
	for pos < len(text) {
		// the first mark covering or after pos
		next, end := len(text), len(text)
		var cover *tokenMark
		for k := range marks {
			m := &marks[k]
			s, e := m.start-off, m.end-off
			if e <= pos || s >= len(text) || s >= e {
				continue
			}
			if s <= pos {
				cover, end = m, min(e, len(text))
				break
			}
			next = min(next, s)
		}
		if cover != nil && utf8.ValidString(text[pos:end]) && (end == len(text) || utf8.RuneStart(text[end])) && utf8.RuneStart(text[pos]) {
			own := ""
			if cover.id != "" && cover.start-off == pos {
				own = cover.id
			}
			anchors(pos, end, own)
			switch {
			case cover.unread:
				b.WriteString(`<mark class="ev-unread">`)
			case own != "":
				fmt.Fprintf(&b, `<mark class="ev-token" id="%s">`, own)
			case cover.id != "":
				fmt.Fprintf(&b, `<mark class="ev-token" data-ev-tok="%s">`, cover.id)
			default:
				b.WriteString(`<mark class="ev-token">`)
			}
			b.WriteString(html.EscapeString(text[pos:end]))
			b.WriteString(`</mark>`)
			pos = end
			continue
		}
		if cover != nil { // not on character boundaries: shown unmarked
			next = end
		}
		// anchors go at a character boundary
		k := pos
		for k < next && !utf8.RuneStart(text[k]) {
			k++
		}
		b.WriteString(html.EscapeString(text[pos:k]))
		anchors(pos, next, "")
		b.WriteString(html.EscapeString(text[k:next]))
		pos = next
	}
	return b.String()
}

// tokenID is the anchor of the cited token at byte column col (1-based)
// of raw line line: "L12-34".
func tokenID(line, col int) string { return fmt.Sprintf("L%d-%d", line, col) }

var tagRe = regexp.MustCompile(`<[^>]*>`)

func stripTags(s string) string { return tagRe.ReplaceAllString(s, "") }

func tokenClass(t chroma.TokenType) string {
	for _, c := range []chroma.TokenType{t, t.SubCategory(), t.Category()} {
		if s, ok := chroma.StandardTypes[c]; ok && s != "" {
			return s
		}
	}
	return ""
}

// viewerFrontMatter is the front matter of one viewer page: evdoc_file
// describes the window, evdoc_lines its lines. Raw and RawSize are set on
// the pages of a sparse file: the published copy of the whole file
// (relative to the site root) and its size.
type viewerFrontMatter struct {
	File  string `yaml:"file" json:"file"`
	Set   string `yaml:"set" json:"set"`
	Part  int    `yaml:"part" json:"part"`
	Parts int    `yaml:"parts" json:"parts"`
	First int    `yaml:"first" json:"first"`
	Last  int    `yaml:"last" json:"last"`
	Total int    `yaml:"total" json:"total"`
	Prev  string `yaml:"prev,omitempty" json:"prev,omitempty"`
	Next  string `yaml:"next,omitempty" json:"next,omitempty"`
	Lexer string `yaml:"lexer" json:"lexer"`
	Cited int    `yaml:"cited" json:"cited"`
	// Unread counts the window's numbers no reading took (marked
	// ev-unread).
	Unread  int    `yaml:"unread,omitempty" json:"unread,omitempty"`
	SetPage string `yaml:"set_page" json:"set_page"`
	Raw     string `yaml:"raw,omitempty" json:"raw,omitempty"`
	RawSize string `yaml:"raw_size,omitempty" json:"raw_size,omitempty"`
}

// stageEvidence writes the evidence index, one page per evidence set and
// the viewer pages of every raw file, in every language's content
// directory (translations paired by translationKey). It reads each raw
// file window by window, so memory is bounded by a window, not a file.
// Call it after the claims, values and figures have taken their targets
// (stageClaims, stageFigures): a sparse file's pages are the windows
// they link to.
func (s *Site) stageEvidence(ctx context.Context, stage string, v *viewer, data *StageData) error {
	fallbacks := s.Fallbacks()
	langs := s.Config.Ordered()
	cites := make([]map[string]map[int][]citation, len(langs))
	for i, lang := range langs {
		cites[i] = s.citations(data, lang.Code, fallbacks[lang.Code])
		for f, lines := range cites[i] {
			if vf, ok := v.files[f]; ok {
				for n := range lines {
					vf.show(vf.window(n))
				}
			}
		}
	}
	newest := s.newestOwnDates()
	for _, lang := range langs {
		// the files each page shows, for a theme's edit link
		// (translation.SourceParam): the evidence directory, a set's
		// manifest, a raw file
		title := s.i18nString(lang.Code, "evdoc_evidenceIndex", "Evidence")
		idx := map[string]any{"title": title, "translationKey": "evidence", "evdoc_index": true, translation.SourceParam: evidenceRoot(s.Store.Sets)}
		s.evidencePageParams(idx, title)
		if err := writeFrontMatterPage(s.Config.pageFile(stage, lang, EvidenceDir, "_index.md"), idx, s.evidenceBody()); err != nil {
			return err
		}
		for _, set := range s.Store.Sets {
			m := set.Manifest
			// the title, environment and source in the page's language
			// ([text.LANG] of the manifest, else the top-level strings)
			lt := m.InLanguage(lang.Code)
			fm := map[string]any{"title": lt.Title, "translationKey": "evidence/" + m.ID, translation.SourceParam: path.Join(set.Dir, evidence.ManifestName),
				"evdoc_set": map[string]string{"id": m.ID, "date": m.Date, "environment": lt.Environment, "report": m.Report,
					"origin": m.Origin, "source": lt.Source}}
			s.evidencePageParams(fm, lt.Title)
			setEvidenceDate(fm, m.Date, newest[lang.Code])
			if err := writeFrontMatterPage(s.Config.pageFile(stage, lang, path.Join(EvidenceDir, m.ID), "_index.md"), fm, s.evidenceBody()); err != nil {
				return err
			}
		}
	}
	unread := unreadRanges(s.evidenceFindings, s.Rules)
	for fi, f := range v.order {
		if err := s.stageViewerFile(ctx, stage, v.files[f], fi, langs, cites, v.marks[f], unread[f]); err != nil {
			return err
		}
	}
	return nil
}

// evidenceBody is the body of every evidence page evdoc build writes:
// the component's evdoc/evidence shortcode alone, which draws the page
// from its front matter. The site's own page and list layouts show it as
// the page's .Content, so an evidence page keeps the theme's navigation,
// sidebar and footer like any other page of the site.
const evidenceBody = "{{< evdoc/evidence >}}\n"

// evidenceBody returns the body of the evidence pages: evidenceBody, or
// nothing when the theme list lacks evdoc's component, whose shortcode
// Hugo would not find (it would fail on the first evidence page); the
// output check then names the pages and the theme list.
func (s *Site) evidenceBody() string {
	if slices.Contains(s.Config.Themes, hosttheme.Component) {
		return evidenceBody
	}
	return ""
}

// evidencePageParams completes the front matter fm of an evidence page
// whose plain summary is summary: Hugo's summary (else .Summary, which
// list layouts show, would open with the viewer's text), the search
// exclusion param of hugo-book (bookSearchExclude), Hextra
// (excludeSearch), PaperMod (searchHidden) and Docsy (exclude_search),
// whose search indexes read each page's .Plain (the raw lines of every
// window), evdoc_heading when a theme of the site shows pages without
// their title (hosttheme.Theme.Untitled), and the edit link of the
// repository file the page shows (setEditURL).
//
// An evidence page is listed in its own section only (build.list
// "local": in .Pages, so a theme's sidebar and section listing still show
// it, not in site.RegularPages) and has no RSS output: feeds such as
// Hextra's, which show each page's whole .Content and take a section's
// feed from site.RegularPages of its type (the type the docs cascade
// gives the evidence pages), carried every raw line of every window.
func (s *Site) evidencePageParams(fm map[string]any, summary string) {
	fm["summary"] = summary
	fm["build"] = map[string]any{"list": "local"}
	fm["outputs"] = []string{"html"}
	for _, k := range []string{"bookSearchExclude", "excludeSearch", "searchHidden", "exclude_search"} {
		fm[k] = true
	}
	for _, t := range hosttheme.Detect(s.Root, s.Config.Themes) {
		if t.Untitled {
			fm["evdoc_heading"] = true
		}
	}
	if s.docsType() {
		fm["type"] = "docs"
	}
	s.Config.setEditURL(fm)
}

// docsType reports whether evidence pages get type "docs": a theme of
// the site has a docs layout (hosttheme.DocsLayout: Docsy's and Hextra's
// docs sidebar, title and content area) and the project chooses no
// layout for them itself (no cascade in its configuration, no
// layouts/evidence/ of its own). Without it such a theme draws them
// with its bare default layout.
func (s *Site) docsType() bool {
	if s.Config.Cascade {
		return false
	}
	if fi, err := os.Stat(filepath.Join(s.Root, "layouts", EvidenceDir)); err == nil && fi.IsDir() {
		return false
	}
	for _, t := range s.Config.Themes {
		if t != hosttheme.Component && hosttheme.DocsLayout(s.Root, t) {
			return true
		}
	}
	return false
}

// setEvidenceDate gives an evidence page (a set's page, or a window of
// one of its files) the set's date (its manifest's date), so a theme that
// prints a page's date shows when the evidence was taken, never Hugo's
// zero date (year 0001); the evidence index, with no date of its own,
// takes its newest set's as Hugo dates a section from its pages.
//
// Hugo also dates the home page and the site (site.Lastmod: feeds'
// lastBuildDate, the sitemap's lastmod) from the newest page of the
// whole site, evidence pages included. So the date is given only when it
// is not after limit, the newest date of the project's own pages in the
// language (newestOwnDates): then those defaults stay what they are
// without evdoc. A later set date, or one that does not parse, is left
// out (a theme printing dates shows Hugo's zero date on those pages; the
// adopting guide says so). A date after now would also keep Hugo from
// publishing the page.
func setEvidenceDate(fm map[string]any, date string, limit time.Time) {
	if t, ok := fmTime(date); ok && !t.After(limit) && !t.After(time.Now()) {
		fm["date"] = date
	}
}

// newestOwnDates returns, per language code, the newest date (date,
// lastmod, publishDate and the aliases Hugo reads by default) of the
// project's own pages that Hugo builds; a language without one has none.
func (s *Site) newestOwnDates() map[string]time.Time {
	out := map[string]time.Time{}
	now := time.Now()
	for _, p := range s.Pages {
		if !published(s.Config, p.FrontMatter, now) {
			continue
		}
		for _, k := range []string{"date", "lastmod", "modified", "publishdate", "pubdate", "published"} {
			if t, ok := fmTime(fmValue(p.FrontMatter, k)); ok && t.After(out[p.Lang]) {
				out[p.Lang] = t
			}
		}
	}
	return out
}

// i18nString returns the string of the i18n key in language code as
// Hugo's T gives it in the site (translation.I18nText), or def when no
// i18n file of the site defines it. A title evdoc build writes into a
// page's front matter is translated here: a theme shows it as it is.
func (s *Site) i18nString(code, key, def string) string {
	if t, ok := translation.I18nText(s.Root, s.Config.Themes, code, key); ok {
		return t
	}
	return def
}

// evidenceRoot returns the repository directory holding the evidence
// sets (the parent of their directories), or EvidenceDir when there are
// none or they do not share one.
func evidenceRoot(sets []*evidence.Set) string {
	root := ""
	for i, set := range sets {
		d := path.Dir(set.Dir)
		if i > 0 && d != root {
			return EvidenceDir
		}
		root = d
	}
	if root == "" || root == "." {
		return EvidenceDir
	}
	return root
}

// stageViewerFile writes the viewer pages of one raw file in every
// language, and for a sparse file its published copy (static/FILE).
//
// tokens holds, by line, the byte ranges of the raw tokens to mark
// (viewer.marks of the file), unread those of its evidence-number
// warnings (unreadRanges).
func (s *Site) stageViewerFile(ctx context.Context, stage string, vf *viewerFile, fi int, langs []Language, cites []map[string]map[int][]citation, tokens map[int][]tokenMark, unread map[int][][2]int) error {
	newest := s.newestOwnDates()
	fh, _, err := safefile.Open(s.Root, vf.File, 0)
	if err != nil {
		return err
	}
	defer fh.Close()
	var pages []int // windows with a page
	for w := range vf.Starts {
		if vf.hasPage(w) {
			pages = append(pages, w)
		}
	}
	maxLine := int(vf.Size) + 1
	var raw, rawSize string
	if vf.Sparse {
		maxLine = maxShownLine
		raw, rawSize = vf.File, safefile.Size(vf.Size)
		if err := linkOrCopy(filepath.Join(s.Root, filepath.FromSlash(vf.File)), filepath.Join(stage, "static", filepath.FromSlash(vf.File))); err != nil {
			return fmt.Errorf("staging %s: %v", vf.File, err)
		}
	}
	for k, w := range pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := vf.Starts[w]
		end := vf.Total
		if w+1 < len(vf.Starts) {
			end = vf.Starts[w+1] - 1
		}
		if _, err := fh.Seek(vf.Offsets[w], io.SeekStart); err != nil {
			return err
		}
		lr := newLineReader(fh)
		lines := make([]string, 0, end-start+1)
		var cut []int // bytes not shown, by line of the window
		for n := start; n <= end; n++ {
			text, size, ok, err := lr.next(maxLine)
			if err != nil {
				return fmt.Errorf("reading %s: %v", vf.File, err)
			}
			if !ok {
				return fmt.Errorf("%s changed during the build (line %d is gone); run the build again", vf.File, n)
			}
			lines = append(lines, string(text))
			cut = append(cut, size-len(text))
		}
		marks := map[int][]tokenMark{}
		nUnread := 0
		for i := range lines {
			m := tokens[start+i]
			if len(m) > 0 {
				m = slices.Clone(m)
				for j := range m {
					m[j].id = tokenID(start+i, m[j].start+1)
				}
			}
			if r := unread[start+i]; r != nil {
				u := unreadMarks(lines[i], r, m)
				nUnread += len(u)
				m = append(append([]tokenMark(nil), m...), u...)
			}
			if m != nil {
				marks[i] = m
			}
		}
		html := highlightLines(vf.Lexer, lines, marks)
		for i, c := range cut {
			if c > 0 {
				html[i] += fmt.Sprintf(` <span class="ev-cut">… (+%s)</span>`, safefile.Size(int64(c)))
			}
		}
		meta := viewerFrontMatter{File: vf.File, Set: vf.Set.Manifest.ID, Part: w + 1, Parts: len(vf.Starts), First: start, Last: end,
			Total: vf.Total, Lexer: vf.Lexer, SetPage: "/" + EvidenceDir + "/" + vf.Set.Manifest.ID, Raw: raw, RawSize: rawSize, Unread: nUnread}
		if k > 0 {
			meta.Prev = vf.pagePath(pages[k-1])
		}
		if k+1 < len(pages) {
			meta.Next = vf.pagePath(pages[k+1])
		}
		title := vf.File
		if len(vf.Starts) > 1 {
			title = fmt.Sprintf("%s (%d–%d)", vf.File, start, end)
		}
		prov := vf.Set.Provenance(vf.File)
		for li, lang := range langs {
			lmeta := meta
			ls := make([]viewerLine, 0, len(lines))
			for i := range lines {
				l := viewerLine{N: start + i, HTML: html[i], Cites: groupCitations(cites[li][vf.File][start+i])}
				if len(l.Cites) > 0 {
					lmeta.Cited++
				}
				ls = append(ls, l)
			}
			src := prov.Source
			if t, ok := prov.SourceText[lang.Code]; ok {
				src = t
			}
			pfm := map[string]any{"evdoc_origin": map[string]string{"origin": prov.Origin, "source": src}, "title": title, "weight": (fi+1)*1_000_000 + w, "translationKey": strings.TrimPrefix(vf.pagePath(w), "/"),
				"evdoc_file": lmeta, "evdoc_lines": ls, translation.SourceParam: vf.File}
			if w > 0 {
				pfm["evdoc_continuation"] = true
			}
			s.evidencePageParams(pfm, title)
			setEvidenceDate(pfm, vf.Set.Manifest.Date, newest[lang.Code])
			name := path.Base(vf.pagePath(w)) + ".md"
			dir := path.Dir(strings.TrimPrefix(vf.pagePath(w), "/"))
			if err := writeJSONFrontMatterPage(s.Config.pageFile(stage, lang, dir, name), pfm, s.evidenceBody()); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkOrCopy makes to a hard link of from, or a copy where the file
// system refuses links.
func linkOrCopy(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if err := os.Link(from, to); err == nil {
		return nil
	}
	return copyFile(from, to)
}

// setValue is one named value of an evidence set for the evtable
// shortcode: its name, its value as a reader sees it, the exact decimal
// (for arithmetic) and its raw line (with the token's column when a
// table shows the value and the viewer marks it: the cell lands on the
// token, #L12-34, as a claim does).
type setValue struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Decimal string `json:"decimal"`
	target
}

// setData is one evidence set for the evtable shortcode: values read from
// raw files, in the order of their position (file, line, column), so a
// table follows its report.
type setData struct {
	Title  string     `json:"title"`
	Page   string     `json:"page"`
	Values []setValue `json:"values"`
}

// sets returns the evtable shortcode's data for every evidence set. The
// raw tokens of the values tables show (a cell of one of tables) are
// marked on the viewer, each with its anchor.
func (v *viewer) sets(st *evidence.Store, tables []evtableShown) map[string]setData {
	out := map[string]setData{}
	for _, set := range st.Sets {
		sd := setData{Title: set.Manifest.Title, Page: "/" + EvidenceDir + "/" + set.Manifest.ID}
		var vals []*evidence.Value
		for _, val := range set.Values {
			if !val.Derived {
				vals = append(vals, val)
			}
		}
		sort.Slice(vals, func(i, j int) bool { return vals[i].Pos.Compare(vals[j].Pos) < 0 })
		for _, val := range vals {
			t, ok := v.target(val.Pos)
			if !ok {
				continue
			}
			if slices.ContainsFunc(tables, func(e evtableShown) bool { return e.shows(set.Manifest.ID, val.Name) }) && v.rawLine(val) != nil {
				t.Col = val.Pos.Column
			}
			sd.Values = append(sd.Values, setValue{Name: val.Name, Value: shownQuantity(val, st), Decimal: val.Value.String(), target: t})
		}
		out[set.Manifest.ID] = sd
	}
	return out
}

// rawLine is the raw line a value was read from as a claim's popover
// shows it: the value's token and up to rawContext bytes of the line on
// either side (Before and After, cut at a character boundary; CutBefore
// and CutAfter say whether more of the line is left out).
type rawLine struct {
	Before    string `json:"before"`
	Token     string `json:"token"`
	After     string `json:"after"`
	CutBefore bool   `json:"cut_before,omitempty"`
	CutAfter  bool   `json:"cut_after,omitempty"`
}

// rawContext is how much of a raw line a popover shows on either side of
// the token.
const rawContext = 60

// rawLine reads the line of a raw (not derived) value from its file and
// records its token in v.marks for the viewer page. It returns nil when
// the bytes at the value's position are not its raw token (a reader
// that normalises the text), so that nothing else is ever marked as the
// value.
func (v *viewer) rawLine(val *evidence.Value) *rawLine {
	p := val.Pos
	if val.Derived || val.Raw == "" || p.Line < 1 || p.Column < 1 || p.Offset < p.Column-1 {
		return nil
	}
	if _, ok := v.files[p.File]; !ok {
		return nil
	}
	f, _, err := safefile.Open(v.root, p.File, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	lineStart := int64(p.Offset - (p.Column - 1))
	from := max(lineStart, int64(p.Offset)-rawContext-utf8.UTFMax)
	buf := make([]byte, int64(p.Offset)-from+int64(len(val.Raw))+rawContext+utf8.UTFMax)
	n, err := f.ReadAt(buf, from)
	if err != nil && err != io.EOF {
		return nil
	}
	buf = buf[:n]
	tokStart := int(int64(p.Offset) - from)
	tokEnd := tokStart + len(val.Raw)
	if tokEnd > len(buf) || string(buf[tokStart:tokEnd]) != val.Raw || bytes.ContainsAny(buf[:tokEnd], "\n") {
		return nil
	}
	before, after := buf[:tokStart], buf[tokEnd:]
	if i := bytes.IndexByte(after, '\n'); i >= 0 {
		after = after[:i]
	}
	after = bytes.TrimSuffix(after, []byte("\r"))
	rl := &rawLine{Token: val.Raw, CutBefore: from > lineStart}
	if len(before) > rawContext {
		before, rl.CutBefore = before[len(before)-rawContext:], true
	}
	for len(before) > 0 && !utf8.RuneStart(before[0]) {
		before, rl.CutBefore = before[1:], true
	}
	if len(after) > rawContext {
		after, rl.CutAfter = after[:rawContext], true
		// drop a character cut in two at the end
		for i := len(after) - 1; i >= 0 && i >= len(after)-utf8.UTFMax; i-- {
			if utf8.RuneStart(after[i]) {
				if !utf8.FullRune(after[i:]) {
					after = after[:i]
				}
				break
			}
		}
	}
	rl.Before, rl.After = string(before), string(after)
	if v.marks == nil {
		v.marks = map[string]map[int][]tokenMark{}
	}
	if v.marks[p.File] == nil {
		v.marks[p.File] = map[int][]tokenMark{}
	}
	span := tokenMark{start: p.Column - 1, end: p.Column - 1 + len(val.Raw)}
	if !slices.Contains(v.marks[p.File][p.Line], span) {
		v.marks[p.File][p.Line] = append(v.marks[p.File][p.Line], span)
	}
	return rl
}
