package evidence

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// SourceMismatch is a value of a transcribed evidence file that its cited
// source text does not contain where the file says it does.
type SourceMismatch struct {
	Set    string // evidence set id
	File   string // repository-relative evidence file
	Line   int    // 1-based line of the value in File
	Value  string // the value's raw text
	Name   string // the value's name in the set
	Source string // the source file the value was looked up in
	Reason string // what was looked for
}

func (m SourceMismatch) String() string {
	return fmt.Sprintf("evidence set %s, %s:%d: value %s (%s) not found in %s: %s", m.Set, m.File, m.Line, m.Value, m.Name, m.Source, m.Reason)
}

// CompareWithSource checks every value read from a transcribed file of set
// (one whose Provenance has Origin OriginTranscribed and a SourceFile)
// against the plain text of that source file, resolved against root (the
// repository root). Values are compared line by line of the evidence file:
//
//   - a Markdown table row matches when a source table row with the same
//     label (first cell, without ** and `) holds the same numbers at the
//     same column positions, or else when a prose paragraph or a single
//     table cell of the source has all of the row's numbers next to one
//     occurrence of the label;
//   - the values of a transcript line must all lie in one paragraph of the
//     source (tables included), each next to its key (the word before = or
//     :).
//
// "Next to" means among the numbers right after the label, or right
// before it, as Korean and Japanese write "40초 창".
//
// Numbers compare by exact decimal value, whatever sign or unit decorates
// them; the Korean native numerals 한/하나, 두, 세, 네 before a counter
// (번, 회, 개, 건) and the Japanese 一, 二, 三 before 回 count as digits.
// Derived values are not compared (they are computed, not transcribed).
// It returns the files it compared (repository-relative) and the
// mismatches; an unreadable source file is an error wrapping the
// os.ReadFile error, so a caller can tell a missing source (fs.ErrNotExist)
// from a mismatch.
func CompareWithSource(root string, set *Set) (compared []string, out []SourceMismatch, err error) {
	return compareWithSource(root, set, map[string]*sourceText{})
}

// compareWithSource is CompareWithSource with parsed source documents kept
// in parsed (by source_file) across calls.
func compareWithSource(root string, set *Set, parsed map[string]*sourceText) (compared []string, out []SourceMismatch, err error) {
	type lineKey struct {
		file string
		line int
	}
	groups := map[lineKey][]*Value{}
	for v := range set.All() {
		if v.Derived {
			continue
		}
		p := set.Provenance(v.Pos.File)
		if p.Origin != OriginTranscribed || p.SourceFile == "" {
			continue
		}
		k := lineKey{v.Pos.File, v.Pos.Line}
		groups[k] = append(groups[k], v)
	}
	keys := make([]lineKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].file != keys[j].file {
			return keys[i].file < keys[j].file
		}
		return keys[i].line < keys[j].line
	})
	sources := map[string]*sourceText{} // this call's, with its own used numbers
	files := map[string][]string{}
	seen := map[string]bool{}
	for _, k := range keys {
		src := set.Provenance(k.file).SourceFile
		st, ok := sources[src]
		if !ok {
			b, rerr := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(src)), safefile.DefaultMaxSize)
			if rerr != nil {
				return compared, out, fmt.Errorf("evidence set %s: source_file %s: %w", set.Manifest.ID, src, rerr)
			}
			doc, cached := parsed[src]
			if !cached {
				doc = newSourceText(string(b))
				parsed[src] = doc
			}
			st = &sourceText{rows: doc.rows, paragraphs: doc.paragraphs, prose: doc.prose, used: map[[2]int]bool{}}
			sources[src] = st
		}
		lines, ok := files[k.file]
		if !ok {
			b, rerr := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(k.file)), safefile.DefaultMaxSize)
			if rerr != nil {
				return compared, out, rerr
			}
			lines = strings.Split(string(b), "\n")
			files[k.file] = lines
		}
		if !seen[k.file] {
			seen[k.file] = true
			compared = append(compared, k.file)
		}
		vs := groups[k]
		sort.Slice(vs, func(i, j int) bool { return vs[i].Pos.Column < vs[j].Pos.Column })
		text := lines[k.line-1]
		for _, miss := range st.match(text, vs) {
			out = append(out, SourceMismatch{Set: set.Manifest.ID, File: k.file, Line: k.line, Value: miss.v.Raw,
				Name: miss.v.Name, Source: src, Reason: miss.reason})
		}
	}
	return compared, out, nil
}

// sourceText is a source document split into table rows and paragraphs.
type sourceText struct {
	rows       [][]string      // cells of every table row, label first
	paragraphs []paragraph     // blank-line separated blocks, lines joined by " "
	prose      []paragraph     // the paragraphs without their table rows, and every table cell but the first of its row
	used       map[[2]int]bool // paragraph index and byte offset of source numbers transcript values rest on
}

func newSourceText(s string) *sourceText {
	st := &sourceText{used: map[[2]int]bool{}}
	var para, prose []string
	flush := func() {
		if len(para) > 0 {
			st.paragraphs = append(st.paragraphs, newParagraph(strings.Join(para, " ")))
			para = nil
		}
		if len(prose) > 0 {
			st.prose = append(st.prose, newParagraph(strings.Join(prose, " ")))
			prose = nil
		}
	}
	for _, ln := range strings.Split(s, "\n") {
		t := strings.TrimSpace(ln)
		if t == "" {
			flush()
			continue
		}
		t = listMarker.ReplaceAllString(t, "")
		para = append(para, t)
		if strings.HasPrefix(t, "|") {
			cells := tableCells(t)
			st.rows = append(st.rows, cells)
			for _, c := range cells[1:] {
				st.prose = append(st.prose, newParagraph(c))
			}
		} else {
			prose = append(prose, t)
		}
	}
	flush()
	return st
}

func tableCells(line string) []string {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	cells := strings.Split(t, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

func safeCell(row []string, i int) string {
	if i < 0 || i >= len(row) {
		return ""
	}
	return row[i]
}

func cleanLabel(s string) string {
	return strings.ToLower(strings.TrimSpace(strings.NewReplacer("**", "", "`", "").Replace(s)))
}

type miss struct {
	v      *Value
	reason string
}

// listMarker is the number of an ordered list item ("2. "), which is not a
// value.
var listMarker = regexp.MustCompile(`^\d+[.)]\s+`)

var keyBefore = regexp.MustCompile(`([A-Za-z_][\w.|-]*)\s*[=:]?\s*$`)

// match returns the values of one evidence line that the source does not
// contain next to their label.
func (st *sourceText) match(line string, vs []*Value) []miss {
	if strings.HasPrefix(strings.TrimSpace(line), "|") {
		return st.matchRow(line, vs)
	}
	type want struct {
		label string
		v     *Value
	}
	var ws []want
	for _, v := range vs {
		col := v.Pos.Column - 1
		if col > len(line) {
			col = len(line)
		}
		m := keyBefore.FindStringSubmatch(line[:col])
		label := ""
		if m != nil {
			label = m[1]
		}
		ws = append(ws, want{label, v})
	}
	// Every value of the line must be found in one paragraph, each at a
	// source number no earlier line has used.
	best, bestFound := -1, -1
	var bestUse []int
	for i, p := range st.paragraphs {
		found, use := 0, make([]int, len(ws))
		for k, w := range ws {
			use[k] = -1
			if w.label == "" {
				continue
			}
			for _, win := range windows(p, w.label, 1, false) {
				for _, o := range win {
					if o.value.Equal(w.v.Value) && !st.used[[2]int{i, o.offset}] && use[k] < 0 {
						use[k] = o.offset
					}
				}
			}
			if use[k] >= 0 {
				found++
			}
		}
		if found > bestFound {
			best, bestFound, bestUse = i, found, use
		}
	}
	var out []miss
	for k, w := range ws {
		switch {
		case w.label == "":
			out = append(out, miss{w.v, "no key before the value to look it up by"})
		case best < 0 || bestUse[k] < 0:
			out = append(out, miss{w.v, fmt.Sprintf("no paragraph holding the line's other values has %s next to %q (each source number vouches for one transcript value)", w.v.Raw, w.label)})
		default:
			st.used[[2]int{best, bestUse[k]}] = true
		}
	}
	return out
}

func (st *sourceText) matchRow(line string, vs []*Value) []miss {
	cells := tableCells(line)
	label := cleanLabel(cells[0])
	// Column of each value: count the pipes before it.
	type cell struct {
		idx int
		v   *Value
	}
	var want []cell
	for _, v := range vs {
		col := v.Pos.Column - 1
		if col > len(line) {
			col = len(line)
		}
		idx := strings.Count(strings.TrimLeft(line[:col], " \t"), "|") - 1
		want = append(want, cell{idx, v})
	}
	// A source row with this label that agrees on every cell; else the
	// one that agrees on the most, to say which cells differ.
	var bestRow []bool
	bestRowHit := 0
	for _, row := range st.rows {
		if cleanLabel(row[0]) != label {
			continue
		}
		hit, ok := 0, make([]bool, len(want))
		for i, w := range want {
			c, isNum := raw.ParseCell(safeCell(row, w.idx))
			if isNum && c.Value.Equal(w.v.Value) {
				ok[i] = true
				hit++
			}
		}
		if hit == len(want) {
			return nil
		}
		if hit > bestRowHit {
			bestRow, bestRowHit = ok, hit
		}
	}
	// Otherwise the row may be written out in prose: all of its values
	// next to one occurrence of the label.
	todo := make([]int, len(want))
	for i := range want {
		todo[i] = i
	}
	// The windows that hold the most of them; a cell missing from any of
	// those is reported (with two equally good windows, it is unclear
	// which cell is wrong, so both are named).
	var bestWins [][]bool
	bestHit := 0
	for _, p := range st.prose {
		for _, win := range windows(p, label, len(todo), true) {
			hit, ok := 0, make([]bool, len(todo))
			for k, i := range todo {
				for _, o := range win {
					if o.value.Equal(want[i].v.Value) {
						ok[k] = true
						hit++
						break
					}
				}
			}
			switch {
			case hit > bestHit:
				bestWins, bestHit = [][]bool{ok}, hit
			case hit == bestHit && hit > 0:
				bestWins = append(bestWins, ok)
			}
		}
	}
	if bestHit == len(todo) {
		return nil
	}
	switch {
	case bestRow != nil && bestRowHit > bestHit:
		bestWins = [][]bool{bestRow}
	case bestRow != nil && bestRowHit == bestHit:
		bestWins = append(bestWins, bestRow) // unclear which cell is wrong
	}
	var out []miss
	for k, i := range todo {
		inAll := len(bestWins) > 0
		for _, ok := range bestWins {
			inAll = inAll && ok[k]
		}
		if inAll {
			continue
		}
		w := want[i]
		out = append(out, miss{w.v, fmt.Sprintf("no table row %q with %s in column %d, and no paragraph or cell with the row's values next to %q", cells[0], w.v.Raw, w.idx, cells[0])})
	}
	return out
}

var sourceNumber = regexp.MustCompile(`(^|[^\p{L}\p{N}_.])(\d+(?:\.\d+)?)`)

type numOcc struct {
	offset, end int
	value       decimal.Decimal
}

// maxBefore is how far (in bytes) a number may end before its label and
// still be read as the label's number: a unit word and a space ("40초 창",
// "100% 200", "2/2 런").
const maxBefore = 12

// paragraph is one normalized block of source text with its numbers.
type paragraph struct {
	text, lower string
	nums        []numOcc
}

func newParagraph(raw string) paragraph {
	p := paragraph{text: normalizeText(raw)}
	p.lower = strings.ToLower(p.text)
	for _, m := range sourceNumber.FindAllStringSubmatchIndex(p.text, -1) {
		if d, err := decimal.NewFromString(p.text[m[4]:m[5]]); err == nil {
			p.nums = append(p.nums, numOcc{m[4], m[5], d})
		}
	}
	return p
}

// windows returns, for every occurrence of label in paragraph p (compared
// case-insensitively), the n numbers right after it and the (at most n)
// numbers ending at most maxBefore bytes before it when withBefore is set
// (a table row label, which prose may write after its number).
func windows(p paragraph, label string, n int, withBefore bool) [][]numOcc {
	ll := strings.ToLower(label)
	if ll == "" {
		return nil
	}
	var out [][]numOcc
	for from := 0; ; {
		i := strings.Index(p.lower[from:], ll)
		if i < 0 {
			return out
		}
		start, end := from+i, from+i+len(ll)
		from = start + 1
		var after, before []numOcc
		for _, o := range p.nums {
			if o.offset >= end && len(after) < n {
				after = append(after, o)
			}
			if withBefore && o.offset < start && start-o.end <= maxBefore {
				before = append(before, o)
			}
		}
		if len(before) > n {
			before = before[len(before)-n:]
		}
		out = append(out, append(after, before...))
	}
}

var nativeNumerals = regexp.MustCompile(`(^|[^\p{Hangul}])(한|두|세|네)(\s*(?:번|회|개|건))|(^|[^\p{Hangul}])하나([^\p{Hangul}]|$)|(一|二|三)(回)`)

// normalizeText removes emphasis and code marks (** and `) and writes
// native numerals as digits (see normalizeNumerals).
func normalizeText(s string) string {
	return normalizeNumerals(strings.NewReplacer("**", "", "`", "").Replace(s))
}

// normalizeNumerals writes the Korean native numerals 한/하나, 두, 세, 네
// before a counter and the Japanese 一, 二, 三 before 回 as digits.
func normalizeNumerals(s string) string {
	digit := map[string]string{"한": "1", "두": "2", "세": "3", "네": "4", "一": "1", "二": "2", "三": "3"}
	return nativeNumerals.ReplaceAllStringFunc(s, func(m string) string {
		sm := nativeNumerals.FindStringSubmatch(m)
		switch {
		case sm[2] != "":
			return sm[1] + " " + digit[sm[2]] + sm[3]
		case sm[7] != "":
			return " " + digit[sm[7]] + sm[8]
		default:
			return sm[4] + " 1" + sm[5]
		}
	})
}
