package raw

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// No raw token vanishes: every numeric-looking field of a raw file's data
// is a reading, or a diagnostic says it is not read. This file defines
// what a numeric-looking field is (numericFields) and the sweep every
// reader ends with (Account, unreadWarnings), which turns the fields no
// reading or diagnostic covers into one evidence-number warning per run
// of them on a line, its range [Pos, End) spanning the run.

// numField is a numeric-looking field: its byte range [start, end) in the
// text it was found in.
type numField struct{ start, end int }

// fieldDelim reports whether b separates fields: white space and the
// brackets, quotes and operators around values (key=value, p(90)=,
// "quoted", [1], {a}, <x>, a;b, `code`).
func fieldDelim(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', ';', '=', '(', ')', '[', ']', '{', '}', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

// IsDigitAt reports whether s[i:] starts with an ASCII or full-width digit.
func IsDigitAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	if s[i] >= '0' && s[i] <= '9' {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r >= '０' && r <= '９'
}

// isDigitBefore reports whether s[:i] ends with an ASCII or full-width digit.
func isDigitBefore(s string, i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r >= '0' && r <= '9' || r >= '０' && r <= '９'
}

// numericFields returns the numeric-looking fields of text: fields
// (separated by fieldDelim bytes, by a comma that does not sit between two
// digits, and by a colon between a letter and a digit, as in "a:5") that,
// after emphasis marks, a leading colon, trailing punctuation (":,.!?")
// and a sign (+ - − Δ ~ ≈ ±) are set aside, start with a digit (or a point
// and a digit: ".5") and do not have the shape of an identifier
// (identifierShapes: an address, version, date, clock time, hash, 5xx,
// 2nd). "566", "665", "p/s" of "566 / 665 p/s" give the fields "566" and
// "665"; "p99", "upstream_rq_5xx", "curl/7.73.0", "10.0.0.1:80" give none.
func numericFields(text string) []numField {
	var out []numField
	i := 0
	for i < len(text) {
		for i < len(text) && (fieldDelim(text[i]) || text[i] == ',' && !(isDigitBefore(text, i) && IsDigitAt(text, i+1))) {
			i++
		}
		j := i
		for j < len(text) && !fieldDelim(text[j]) {
			if text[j] == ',' && !(isDigitBefore(text, j) && IsDigitAt(text, j+1)) {
				break
			}
			if text[j] == ':' && j > i && IsDigitAt(text, j+1) && !isDigitBefore(text, j) && text[j-1] != ':' {
				break // a:5
			}
			j++
		}
		if f, ok := numericField(text, i, j); ok {
			out = append(out, f)
		}
		if j == i {
			j++
		}
		i = j
	}
	return out
}

// numericField trims text[a:b] (see numericFields) and reports the field
// when it is numeric-looking.
func numericField(text string, a, b int) (numField, bool) {
	for a < b && (text[a] == '*' || text[a] == ':' && !strings.HasPrefix(text[a:b], "::")) {
		a++
	}
	for b > a && strings.IndexByte("*:,.!?", text[b-1]) >= 0 {
		b--
	}
	if a >= b || !HasDigitRune(text[a:b]) {
		return numField{}, false
	}
	norm, _ := normaliseCell(text[a:b]) // emphasis marks dropped, full-width digits ASCII
	for {
		r, n := utf8.DecodeRuneInString(norm)
		if n == 0 || !strings.ContainsRune("+-−Δ~≈±", r) {
			break
		}
		norm = norm[n:]
	}
	if !(IsDigitAt(norm, 0) || len(norm) > 1 && norm[0] == '.' && IsDigitAt(norm, 1)) {
		return numField{}, false
	}
	if Identifier(norm) {
		return numField{}, false
	}
	return numField{a, b}, true
}

// gluedNumber is a number, a unit the tools write (a time, a size, a
// rate's prefix) and a digit after it: "40ms5", "0.5ms5", "74m5",
// "1.234s5". A Go duration of several parts (1h2m3s) has this shape too
// and is a duration (goMultiDuration); any other such token is a value
// cut or glued to garbage, which a reader either reads whole or the
// sweep reports, never an identifier to skip.
var gluedNumber = regexp.MustCompile(`^\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h|d|min|secs?|B|[kKMGTP]i?B|[KMGTP]i|[kKMG])\d`)

// hexHash is a hexadecimal identifier of six or more digits; with at least
// one letter it is a hash, not a number ("409610" is a number).
var hexHash = regexp.MustCompile(`^[0-9a-f]{6,}$`)

// Identifier reports whether a text that starts with a digit names
// something (identifierShapes, or a hash) rather than quoting a number.
func Identifier(s string) bool {
	if plainNumber(s) {
		return false // every shape needs a letter, "_", "-", "/", ":" or a second point
	}
	if gluedNumber.MatchString(s) && !goMultiDuration.MatchString(s) {
		return false // 40ms5: a value with garbage glued to it (or two values run together), not a name
	}
	if hexHash.MatchString(s) && strings.IndexFunc(s, unicode.IsLetter) >= 0 {
		return true
	}
	for _, re := range identifierShapes {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// plainNumber reports whether s has only ASCII digits, commas, a percent
// sign and at most one point.
func plainNumber(s string) bool {
	points := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ',', c == '%':
		case c == '.':
			points++
		default:
			return false
		}
	}
	return points <= 1
}

// keyNumbers adds the numbers inside key to set: each run of ASCII digits
// joined by single points or underscores (the 90 of "p(90)", the 99_9 of
// "p99_9", the 200 of "code.200"), as written and with "_" read as ".".
// The field of the same line that writes one names the reading rather
// than being one.
func keyNumbers(set map[string]bool, key string) {
	eachKeyNumber(key, func(n string) { set[n] = true })
}

// eachKeyNumber calls f with each number keyNumbers finds in key.
func eachKeyNumber(key string, f func(string)) {
	digits := func(i int) int {
		for i < len(key) && key[i] >= '0' && key[i] <= '9' {
			i++
		}
		return i
	}
	for i := 0; i < len(key); {
		j := digits(i)
		if j == i {
			i++
			continue
		}
		for j+1 < len(key) && (key[j] == '.' || key[j] == '_') && key[j+1] >= '0' && key[j+1] <= '9' {
			j = digits(j + 1)
		}
		n := key[i:j]
		f(n)
		if strings.IndexByte(n, '_') >= 0 {
			f(strings.ReplaceAll(n, "_", "."))
		}
		i = j
	}
}

// namesReading reports whether field (digits, points, a percent sign)
// writes one of the key numbers of its line.
func namesReading(field string, keyNums map[string]bool) bool {
	f := strings.TrimSuffix(strings.TrimLeft(field, "+-"), "%")
	if strings.Contains(f, ".") {
		f = strings.TrimRight(strings.TrimRight(f, "0"), ".") // wrk2's 99.900% names p99_9
	}
	return f != "" && keyNums[f]
}

// spans is a set of byte ranges sorted by start, with the running maximum
// of their ends, so that whether one overlaps [a, b) is a binary search.
type spans struct {
	r      [][2]int
	maxEnd []int
}

func (s *spans) add(a, b int) { s.r = append(s.r, [2]int{a, b}) }

// sort sorts s by start; maxEnd is left empty while the ends are sorted
// too (as spans32's).
func (s *spans) sort() {
	sort.Slice(s.r, func(i, j int) bool { return s.r[i][0] < s.r[j][0] })
	s.maxEnd = nil
	for i := 1; i < len(s.r); i++ {
		if s.r[i][1] < s.r[i-1][1] {
			s.maxEnd = make([]int, len(s.r))
			for i, r := range s.r {
				s.maxEnd[i] = r[1]
				if i > 0 && s.maxEnd[i-1] > r[1] {
					s.maxEnd[i] = s.maxEnd[i-1]
				}
			}
			return
		}
	}
}

// overlaps reports whether a range of s overlaps [a, b).
func (s *spans) overlaps(a, b int) bool {
	n := sort.Search(len(s.r), func(i int) bool { return s.r[i][0] >= b })
	if n == 0 {
		return false
	}
	if s.maxEnd != nil {
		return s.maxEnd[n-1] > a
	}
	return s.r[n-1][1] > a
}

// dropped accounts for the readings a reader left out of its result
// because its caller keeps other keys only (ReadOptions.Keep): the byte
// ranges of their tokens and, per line, the numbers of their keys
// (keyNumbers), so that the sweep finds them read as if they had been
// returned, while a reading costs 16 bytes here instead of a Reading.
type dropped struct {
	covered spans32
	lines   []droppedLine // in the order added
}

// spans32 is a set of byte ranges of a file shorter than 2 GiB, as spans
// are, held in 8 bytes a range; maxEnd is left empty while the ranges,
// sorted by start, are also sorted by end (readings of one file never
// overlap), the end of the last range before a point being then the
// greatest.
type spans32 struct {
	r      [][2]int32
	maxEnd []int32
}

func (s *spans32) sort() {
	if !sort.SliceIsSorted(s.r, func(i, j int) bool { return s.r[i][0] < s.r[j][0] }) {
		sort.Slice(s.r, func(i, j int) bool { return s.r[i][0] < s.r[j][0] })
	}
	for i := 1; i < len(s.r); i++ {
		if s.r[i][1] < s.r[i-1][1] {
			s.maxEnd = make([]int32, len(s.r))
			for i, r := range s.r {
				s.maxEnd[i] = r[1]
				if i > 0 && s.maxEnd[i-1] > r[1] {
					s.maxEnd[i] = s.maxEnd[i-1]
				}
			}
			return
		}
	}
}

// overlaps reports whether a range of s overlaps [a, b).
func (s *spans32) overlaps(a, b int) bool {
	n := sort.Search(len(s.r), func(i int) bool { return int(s.r[i][0]) >= b })
	if n == 0 {
		return false
	}
	if s.maxEnd != nil {
		return int(s.maxEnd[n-1]) > a
	}
	return int(s.r[n-1][1]) > a
}

// droppedLine holds the key numbers of the dropped readings of one line,
// each followed by a NUL byte.
type droppedLine struct {
	line int
	nums string
}

// add records the reading rd as read but not returned.
func (d *dropped) add(rd head) {
	d.covered.r = append(d.covered.r, [2]int32{int32(rd.off), int32(rd.off + max(rd.size, 1))})
	eachKeyNumber(rd.key, func(n string) {
		if k := len(d.lines); k == 0 || d.lines[k-1].line != rd.line {
			d.lines = append(d.lines, droppedLine{line: rd.line})
		}
		dl := &d.lines[len(d.lines)-1]
		if !strings.Contains("\x00"+dl.nums, "\x00"+n+"\x00") {
			dl.nums += n + "\x00"
		}
	})
}

// dropUnkept moves the readings r.out[n:] whose keys keep rejects out of
// r.out into d, which accounts for them (see dropped); with keep or d nil
// it keeps them all. Aggregates (readings with Inputs), readings without
// a line and spreads stay: the caller's own filter decides on them.
func (r *Recorder) dropUnkept(n int, keep func(string) bool, d *dropped) {
	if keep == nil || d == nil || len(r.Src) >= math.MaxInt32 {
		return
	}
	l := r.Out
	l.Flush()
	j := n
	for i := n; i < l.Len(); i++ {
		h := l.head(i)
		if keep(h.key) || h.line <= 0 || h.inputs || h.spreadOf != "" {
			*l.ents.at(j) = *l.ents.at(i)
			r.seen.moved(i, j, h.key)
			j++
			continue
		}
		r.seen.moved(i, -1, h.key)
		d.add(h)
	}
	l.truncate(j)
}

// DropUnkept moves the readings from the n-th on that opt.Keep does not
// keep out of r.Out, into what the sweep (Account) counts as read (see
// dropUnkept): a reader that keeps only the selected readings calls it
// after each record (an access log's line).
func (r *Recorder) DropUnkept(n int, opt ReadOptions) {
	r.dropUnkept(n, opt.Keep, opt.drop)
}

// accounting is what accounts for the numeric fields of a file: the byte
// ranges of its readings' raw tokens (returned or dropped) and of its
// diagnostics (a diagnostic without an End covers the byte at its
// position), and per line the numbers of the keys of the readings on it,
// looked up when a field of the line is not covered.
type accounting struct {
	covered spans
	rs      *Readings
	byLine  [][2]int32 // the line and index of each reading of rs with a line, by line
	drop    *dropped

	line int             // the line of nums (0: none yet)
	nums map[string]bool // the key numbers of line
}

func newAccounting(rs *Readings, errs diag.List, drop *dropped) *accounting {
	a := &accounting{rs: rs, drop: drop}
	// sized once: a slice grown by append allocates five times its size
	a.covered.r = make([][2]int, 0, rs.Len()+len(errs))
	a.byLine = make([][2]int32, 0, rs.Len())
	for i := range rs.Len() {
		r := rs.head(i)
		if r.line <= 0 || r.inputs {
			continue
		}
		a.covered.add(r.off, r.off+max(r.size, 1))
		a.byLine = append(a.byLine, [2]int32{int32(r.line), int32(i)})
	}
	if byLine := func(i, j int) bool { return a.byLine[i][0] < a.byLine[j][0] }; !sort.SliceIsSorted(a.byLine, byLine) {
		sort.SliceStable(a.byLine, byLine)
	}
	if drop != nil {
		drop.covered.sort()
		if byLine := func(i, j int) bool { return drop.lines[i].line < drop.lines[j].line }; !sort.SliceIsSorted(drop.lines, byLine) {
			sort.SliceStable(drop.lines, byLine)
		}
	}
	for _, d := range errs {
		if d.Pos.Line <= 0 {
			continue
		}
		end := d.Pos.Offset + 1
		if d.End.IsValid() && d.End.Offset > d.Pos.Offset {
			end = d.End.Offset
		}
		a.covered.add(d.Pos.Offset, end)
	}
	a.covered.sort()
	return a
}

// keyNums returns the numbers of the keys of the readings on line.
func (acc *accounting) keyNums(line int) map[string]bool {
	if acc.nums != nil && acc.line == line {
		return acc.nums
	}
	set := map[string]bool{}
	rs, by := acc.rs, acc.byLine
	for i := sort.Search(len(by), func(i int) bool { return int(by[i][0]) >= line }); i < len(by) && int(by[i][0]) == line; i++ {
		keyNumbers(set, rs.head(int(by[i][1])).key)
	}
	if acc.drop != nil {
		ls := acc.drop.lines
		for i := sort.Search(len(ls), func(i int) bool { return ls[i].line >= line }); i < len(ls) && ls[i].line == line; i++ {
			for rest := ls[i].nums; rest != ""; {
				var n string
				n, rest, _ = strings.Cut(rest, "\x00")
				set[n] = true
			}
		}
	}
	acc.line, acc.nums = line, set
	return set
}

// accounted reports whether the field [a, b) on line overlaps a reading or
// a diagnostic's range, or names a reading of its line (namesReading).
func (acc *accounting) accounted(line, a, b int, field string) bool {
	return acc.covered.overlaps(a, b) || acc.drop != nil && acc.drop.covered.overlaps(a, b) || namesReading(field, acc.keyNums(line))
}

// unreadWarnings returns one warning (rule evidence-number) for each run
// of numeric-looking fields (numericFields) of a line of lines that no
// reading or diagnostic accounts for, positioned at the first field of
// the run, its End just past the last, naming them (a read field between
// two unread ones starts a new run, so a range holds unread fields only); format and hint say
// where such numbers are read. Text inside the blank ranges (string
// literals a JSON reader does not read, URLs) is not data.
func unreadWarnings(ix *diag.LineIndex, src []byte, lines []LineSpan, rs *Readings, errs diag.List, drop *dropped, format, hint string) diag.List {
	acc := newAccounting(rs, errs, drop)
	var out diag.List
	for _, ln := range lines {
		text := string(src[ln.Start:ln.End])
		if !HasDigitRune(text) {
			continue
		}
		line := ix.Pos(ln.Start).Line
		var missed []numField
		for _, f := range numericFields(text) {
			a, b := ln.Start+f.start, ln.Start+f.end
			if !acc.accounted(line, a, b, text[f.start:f.end]) {
				missed = append(missed, numField{a, b})
				continue
			}
			if len(missed) > 0 { // a read field ends the run
				out = append(out, unreadWarning(ix, src, missed, format, hint))
				missed = nil
			}
		}
		if len(missed) > 0 {
			out = append(out, unreadWarning(ix, src, missed, format, hint))
		}
	}
	return out
}

// UnreadWarnings is the sweep of Account for a reader that accounts for
// its numbers itself (a transcript): a warning for each run of numeric
// fields of lines that the readings rs and the diagnostics errs leave
// unaccounted, saying format does not read them and ending in hint.
func UnreadWarnings(ix *diag.LineIndex, src []byte, lines []LineSpan, rs []Reading, errs diag.List, format, hint string) diag.List {
	l := newReadings(ix, src)
	for _, r := range rs {
		l.Add(r)
	}
	l.Flush()
	return unreadWarnings(ix, src, lines, l, errs, nil, format, hint)
}

// Unaccounted lists the numeric fields of the spans of view (src with the
// text that is not data blanked) that the readings rs and diagnostics
// errs leave unaccounted for, "line:col field" each: what the sweep
// (Account) would warn of, for a test that a reader leaves no number
// unaccounted (package rawtest's CheckNoVanish).
func Unaccounted(ix *diag.LineIndex, src, view []byte, spans []LineSpan, rs []Reading, errs diag.List) []string {
	acc := newAccounting(ListOf("f", src, rs), errs, nil)
	var out []string
	for _, sp := range spans {
		text := string(view[sp.Start:sp.End])
		p := ix.Pos(sp.Start)
		for _, f := range numericFields(text) {
			a, b := sp.Start+f.start, sp.Start+f.end
			if !acc.accounted(p.Line, a, b, text[f.start:f.end]) {
				out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Column+f.start, text[f.start:f.end]))
			}
		}
	}
	return out
}

// NumericFields returns the byte ranges of the numeric-looking fields of
// one line of a raw file, as the evidence-number sweep finds them: every
// field inside an evidence-number warning's range [Pos, End) is a number
// no reading took (the evidence viewer marks them).
func NumericFields(line string) [][2]int {
	fs := numericFields(line)
	out := make([][2]int, len(fs))
	for i, f := range fs {
		out[i] = [2]int{f.start, f.end}
	}
	return out
}

// unreadWarning is the warning for the unread fields missed of one line.
func unreadWarning(ix *diag.LineIndex, src []byte, missed []numField, format, hint string) diag.Diagnostic {
	var quoted []string
	for i, f := range missed {
		if i == 4 {
			quoted = append(quoted, fmt.Sprintf("and %d more", len(missed)-4))
			break
		}
		quoted = append(quoted, fmt.Sprintf("%q", src[f.start:f.end]))
	}
	what := "number " + quoted[0] + " is"
	if len(missed) > 1 {
		what = fmt.Sprintf("%d numbers (%s) are", len(missed), strings.Join(quoted, ", "))
	}
	return diag.Diagnostic{Pos: ix.Pos(missed[0].start), End: ix.Pos(missed[len(missed)-1].end), Severity: diag.Warning, Rule: diag.EvidenceNumber,
		Message: fmt.Sprintf("%s not read by the %s format; expected %s", what, format, hint)}
}

// DataLines returns the lines of src a format reads as data, and a view
// of src in which the text that is not data inside those lines (the
// string literals of JSON, URLs) is blanked. Each format defines its own
// (package formats holds them all).
type DataLines func(src []byte, opt ReadOptions) ([]LineSpan, []byte)

// Account wraps the reader of format so that every numeric-looking
// field of the file's data (lines) that its readings and diagnostics
// leave unaccounted is an evidence-number warning (unreadWarnings), whose
// message ends in hint, where such a number belongs. A file the reader
// rejects with an error is not swept: it does not load.
func Account(format string, read ListReader, lines DataLines, hint string) ListReader {
	return func(file string, src []byte, opt ReadOptions) (*Readings, diag.List) {
		var drop *dropped
		if opt.Keep != nil {
			drop = &dropped{}
			opt.drop = drop
		}
		rs, errs := read(file, src, opt)
		if errs.HasErrors() || len(src) == 0 || len(opt.Paths) > 0 {
			// A file in error does not load; a JSON reading of chosen
			// paths leaves the others out by request.
			return rs, errs
		}
		ix := diag.NewLineIndex(file, src)
		if w := siblingUnitWarnings(ix, rs); len(w) > 0 {
			errs = append(errs, w...)
			errs.Sort()
		}
		lines, view := lines(src, opt)
		if w := unreadWarnings(ix, view, lines, rs, errs, drop, format, hint); len(w) > 0 {
			errs = append(errs, w...)
			errs.Sort()
		}
		return rs, errs
	}
}

// siblingUnitWarnings returns a warning (rule evidence-number) at each
// time value read in minutes from the one-letter unit "m" ("40.00m") on
// a line whose other time values are in ns, µs or ms: wrk's
// "m" is minutes, but a latency of minutes among milliseconds is more
// likely a "ms" a terminal cut, and the reading cannot tell. The value
// is still read (wrk writes minutes so); the warning names both readings.
func siblingUnitWarnings(ix *diag.LineIndex, rs *Readings) diag.List {
	if !rs.hasUnit("min") {
		return nil
	}
	small := map[int]string{} // line → a sub-second time unit read on it
	for i := range rs.Len() {
		r := rs.head(i)
		switch r.unit {
		case "ns", "us", "ms":
			if r.line > 0 {
				small[r.line] = r.unit
			}
		}
	}
	var out diag.List
	for i := range rs.Len() {
		if h := rs.head(i); h.unit != "min" {
			continue
		}
		r := rs.At(i)
		u, ok := small[r.Pos.Line]
		if !ok || r.Number.Unit != "min" || len(r.Raw) < 2 || r.Raw[len(r.Raw)-1] != 'm' || !IsDigitAt(r.Raw, len(r.Raw)-2) {
			continue
		}
		end := ix.Pos(r.Pos.Offset + len(r.Raw))
		out = append(out, diag.Diagnostic{Pos: r.Pos, End: end, Severity: diag.Warning, Rule: diag.EvidenceNumber,
			Message: fmt.Sprintf("%s = %q is read as %s min while the other times of its line are in %s; an \"ms\" cut to \"m\" would be %s ms; expected the whole token (check the tool's output)", r.Key, r.Raw, r.Number.Value, u, r.Raw[:len(r.Raw)-1])})
	}
	return out
}
