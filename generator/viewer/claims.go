package viewer

import (
	"bytes"
	"io"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/unit"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Target is where a claim or figure links: a viewer page and line.
type Target struct {
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

func (v *Viewer) Target(p diag.Position) (Target, bool) {
	f, ok := v.Files[p.File]
	if !ok || p.Line < 1 {
		return Target{}, false
	}
	w := f.Window(p.Line)
	f.Show(w) // a page links here: the window gets a page
	prov := f.Set.Provenance(p.File)
	return Target{File: p.File, Line: p.Line, Page: f.PagePath(w), Origin: prov.Origin, Source: prov.Source, SourceText: prov.SourceText}, true
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
	Target
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
	Target
	RawLine *rawLine `json:"rawline,omitempty"`
}

// ClaimData is what the link render hook needs for one claim
// destination: the line the claim links to and each bound value.
type ClaimData struct {
	Target
	// Set is the evidence set of the first value: the set whose popover
	// file holds the claim's popover body (its id, data-ev-s in the
	// built page).
	Set    string       `json:"set"`
	Values []claimValue `json:"values"`
}

// Claims returns the render hook's data for every claim destination:
// that of its first claim (in the order of data) with a binding whose
// value and line the viewer has. A destination whose claims write it at
// several precisions (multi, see StageData.precisionMarks) has data for
// each precision too, under precisionKey, which its claims' staged
// destinations name: each popover shows the value at its own claim's
// precision.
func (v *Viewer) Claims(data *stagedata.StageData, multi map[string]bool, st *evidence.Store) map[string]ClaimData {
	return ClaimsOf(data, multi, func(d *stagedata.DestClaim) (ClaimData, bool) { return v.ClaimDataOf(d, st) })
}

// ClaimsOf is Claims with the data of each claim made by of (a
// Viewer's ClaimDataOf, or a cache of it): of is called for the claims
// Claims reads, in the same order, and its result is kept where Claims
// keeps ClaimDataOf's.
func ClaimsOf[T any](data *stagedata.StageData, multi map[string]bool, of func(d *stagedata.DestClaim) (T, bool)) map[string]T {
	return claimsOf(data, multi, of, false)
}

// ClaimsOfOnce is ClaimsOf for an of that, called again with a
// *DestClaim it was called with, returns the same and has no other
// effect (a cache of ClaimDataOf by the claim's destination and
// bindings): a DestClaim met again (StageData shares identical
// candidates between pages: a page and its translation cite the same
// values) is passed over without looking its keys up, as ClaimsOf would
// call of with it again, or pass over it, and so keep the same data.
func ClaimsOfOnce[T any](data *stagedata.StageData, multi map[string]bool, of func(d *stagedata.DestClaim) (T, bool)) map[string]T {
	return claimsOf(data, multi, of, true)
}

func claimsOf[T any](data *stagedata.StageData, multi map[string]bool, of func(d *stagedata.DestClaim) (T, bool), once bool) map[string]T {
	out := map[string]T{}
	var met map[*stagedata.DestClaim]struct{}
	if once {
		met = map[*stagedata.DestClaim]struct{}{}
	}
	for _, u := range data.Units {
		for _, d := range u.Dests {
			if once {
				if _, ok := met[d]; ok {
					continue
				}
				met[d] = struct{}{}
			}
			_, plain := out[d.Dest]
			key := ""
			if multi[d.Dest] {
				key = stagedata.PrecisionKey(d.Dest, d.Precision())
			}
			if _, ok := out[key]; plain && (key == "" || ok) {
				continue
			}
			cd, ok := of(d)
			if !ok {
				continue
			}
			if !plain {
				out[d.Dest] = cd
			}
			if _, done := out[key]; key != "" && !done {
				out[key] = cd
			}
		}
	}
	return out
}

// ClaimDataOf returns the render hook's data of one claim, false when
// none of its bindings has a value and line the viewer has. It reads
// of st the values of d's bindings and of their inputs, all of the
// bindings' sets.
func (v *Viewer) ClaimDataOf(d *stagedata.DestClaim, st *evidence.Store) (ClaimData, bool) {
	var cd ClaimData
	for _, b := range d.Bindings {
		val, ok := st.Lookup(b.Ref)
		if !ok {
			continue
		}
		t, ok := v.Target(diag.Position{File: b.File, Line: b.Line})
		if !ok {
			continue
		}
		cv := claimValue{Ref: b.Ref, Value: formatQuantity(val.Value, val.Unit, val.Delta), Target: t}
		exact := cv.Value
		cv.Value = shownQuantity(val, st)
		// shown in the unit the claim writes (b.unit: 7.12 ms of 0.00712 s)
		r, u := val.Value, val.Unit
		if b.Unit != "" {
			if conv, ok := unit.Convert(r, u, b.Unit); ok {
				r, u = conv, b.Unit
			}
		}
		if int32(b.Places) < -r.Exponent() {
			r = r.Round(int32(b.Places))
		}
		if shown := formatQuantity(r, u, val.Delta); shown != exact {
			cv.Shown = shown
		}
		if !val.Derived {
			cv.RawLine = v.rawLineOf(val)
			if cv.RawLine != nil && val.Pos.File == t.File && val.Pos.Line == t.Line {
				cv.Col = val.Pos.Column
			}
		}
		if val.Derived {
			places := b.Places
			if b.Unit != "" {
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
					it, ok := v.Target(pos)
					if !ok {
						continue
					}
					id := inputData{Name: short[in.Name], Value: shownQuantity(in, st), Target: it}
					if !in.Derived && len(in.Inputs) == 0 {
						id.RawLine = v.rawLineOf(in)
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
			cd.Target = cv.Target
			if f := v.Files[cv.File]; f != nil && f.Set != nil {
				cd.Set = f.Set.Manifest.ID
			}
		}
		cd.Values = append(cd.Values, cv)
	}
	return cd, len(cd.Values) > 0
}

// Citation is a claim that cites a raw line, on the viewer page of one
// language.
type Citation struct {
	Page string `yaml:"page" json:"page"` // Hugo page path of the citing page
	Text string `yaml:"text" json:"text"` // the claim as written
}

// CitedLine is a cited raw line of a viewer page: its number and the
// claims citing it.
type CitedLine struct {
	N     int         `yaml:"n" json:"n"`
	Cites []citeGroup `yaml:"cites" json:"cites"`
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

// GroupCitations merges consecutive citations from the same page,
// keeping their order.
func GroupCitations(cs []Citation) []citeGroup {
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

// Citations maps, for one language, file → line → claims citing it.
// Pages of the language count, and so do source-language pages the
// language falls back to.
func Citations(s *project.Site, data *stagedata.StageData, lang string, fallbacks []project.Fallback) map[string]map[int][]Citation {
	return CitationsOf(s, data, lang, fallbacks, nil)
}

// CitationsOf is Citations of the files in only (all files when nil):
// each file's lines hold the same citations, in the same order, as
// Citations gives.
func CitationsOf(s *project.Site, data *stagedata.StageData, lang string, fallbacks []project.Fallback, only map[string]bool) map[string]map[int][]Citation {
	pages := map[string]string{} // repo path → Hugo page path in lang
	for _, p := range s.Pages {
		if p.Lang == lang && !p.IsEmpty() {
			pages[p.Path] = "/" + p.Logical
		}
	}
	for _, f := range fallbacks {
		pages[f.Source.Path] = "/" + f.Source.Logical
	}
	out := map[string]map[int][]Citation{}
	type citeKey struct {
		file       string
		line       int
		page, text string
	}
	// A run holds each citation of its page once (stagedata), so only
	// the citations of a Hugo page that several runs give need to be
	// told apart: a page of several units, two repository paths of one
	// page.
	runs := map[string]int{}
	for _, u := range data.Units {
		for _, run := range u.Runs {
			if pp, ok := pages[run.Page]; ok {
				runs[pp]++
			}
		}
	}
	seen := map[citeKey]bool{}
	var file string              // the file of the last citation
	var lines map[int][]Citation // out[file]
	for _, u := range data.Units {
		for _, run := range u.Runs {
			pp, ok := pages[run.Page]
			if !ok {
				continue
			}
			several := runs[pp] > 1
			for _, c := range run.Cites {
				if only != nil && !only[c.File] {
					continue
				}
				text, line := run.Texts[c.Start:c.End], int(c.Line)
				if several {
					key := citeKey{c.File, line, pp, text}
					if seen[key] {
						continue
					}
					seen[key] = true
				}
				if lines == nil || c.File != file {
					file, lines = c.File, out[c.File]
					if lines == nil {
						lines = map[int][]Citation{}
						out[c.File] = lines
					}
				}
				lines[line] = append(lines[line], Citation{Page: pp, Text: text})
			}
		}
	}
	return out
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
	Target
}

// SetData is one evidence set for the evtable shortcode: values read from
// raw files, in the order of their position (file, line, column), so a
// table follows its report.
type SetData struct {
	Title  string     `json:"title"`
	Page   string     `json:"page"`
	Values []setValue `json:"values"`
}

// Sets returns the evtable shortcode's data for every evidence set. The
// raw tokens of the values tables show (a cell of one of tables) are
// marked on the viewer, each with its anchor.
func (v *Viewer) Sets(st *evidence.Store, tables []project.EvtableShown) map[string]SetData {
	out := map[string]SetData{}
	for _, set := range st.Sets {
		sd := SetData{Title: set.Manifest.Title, Page: "/" + project.EvidenceDir + "/" + set.Manifest.ID}
		var vals []*evidence.Value
		for val := range set.All() {
			if !val.Derived {
				vals = append(vals, val)
			}
		}
		sort.Slice(vals, func(i, j int) bool { return vals[i].Pos.Compare(vals[j].Pos) < 0 })
		for _, val := range vals {
			t, ok := v.Target(val.Pos)
			if !ok {
				continue
			}
			if slices.ContainsFunc(tables, func(e project.EvtableShown) bool { return e.Shows(set.Manifest.ID, val.Name) }) && v.rawLineOf(val) != nil {
				t.Col = val.Pos.Column
			}
			sd.Values = append(sd.Values, setValue{Name: val.Name, Value: shownQuantity(val, st), Decimal: val.Value.String(), Target: t})
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

// rawCacheBytes bounds the bytes of raw files rawLineOf keeps read
// (readAt): the values of a site's claims are read from a few files
// thousands of times each (3,200 values of 40 files at 500 pages), and
// opening a file inside the project (safefile.Open checks each path
// element) took half of an evidence edit's staging.
var rawCacheBytes = 16 << 20

// readAt reads len(buf) bytes of the raw file f (a path relative to the
// root) at off, as io.ReaderAt does: from the bytes of a file the viewer
// does not show sparsely, read once and kept (rawCacheBytes in all, the
// cache emptied when it would pass that), or else from the file opened.
func (v *Viewer) readAt(f string, buf []byte, off int64) (int, error) {
	if vf := v.Files[f]; vf != nil && !vf.Sparse {
		b, ok := v.raw[f]
		if !ok {
			var err error
			b, err = safefile.ReadFile(v.root, f, sparseBytes)
			ok = err == nil
			if ok {
				if v.rawBytes+len(b) > rawCacheBytes {
					v.raw, v.rawBytes = nil, 0
				}
				if v.raw == nil {
					v.raw = map[string][]byte{}
				}
				v.raw[f], v.rawBytes = b, v.rawBytes+len(b)
			}
		}
		if ok {
			if off >= int64(len(b)) {
				return 0, io.EOF
			}
			n := copy(buf, b[off:])
			if n < len(buf) {
				return n, io.EOF
			}
			return n, nil
		}
	}
	fh, _, err := safefile.Open(v.root, f, 0)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	return fh.ReadAt(buf, off)
}

// rawLine reads the line of a raw (not derived) value from its file and
// records its token in v.marks for the viewer page. It returns nil when
// the bytes at the value's position are not its raw token (a reader
// that normalises the text), so that nothing else is ever marked as the
// value.
func (v *Viewer) rawLineOf(val *evidence.Value) *rawLine {
	p := val.Pos
	if val.Derived || val.Raw == "" || p.Line < 1 || p.Column < 1 || p.Offset < p.Column-1 {
		return nil
	}
	if _, ok := v.Files[p.File]; !ok {
		return nil
	}
	lineStart := int64(p.Offset - (p.Column - 1))
	from := max(lineStart, int64(p.Offset)-rawContext-utf8.UTFMax)
	buf := make([]byte, int64(p.Offset)-from+int64(len(val.Raw))+rawContext+utf8.UTFMax)
	n, err := v.readAt(p.File, buf, from)
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
	if v.Marks == nil {
		v.Marks = map[string]map[int][]TokenMark{}
	}
	m := Mark{File: p.File, Line: p.Line, Token: TokenMark{Start: p.Column - 1, end: p.Column - 1 + len(val.Raw)}}
	AddMark(v.Marks, m)
	if v.OnMark != nil {
		v.OnMark(m)
	}
	return rl
}
