// Package rawtest holds what the tests of package raw and of its reader
// packages share: format cases run through package formats
// (RunFormatCases), the invariants of every reader (CheckReadings,
// Inside), the no-vanish check (CheckNoVanish: every numeric field of a
// file's data is read or reported), and fuzz targets' seeds (AddSamples:
// the reference site's evidence, the shared corpus and raw's
// testdata/tools samples, cut into pieces). Only tests import it.
package rawtest

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"
)

// FormatCase is one reader input: the readings it must give (key -> value and
// raw text), keys it must not give, and diagnostics it must report (each
// a substring of one diagnostic's String(), such as "f:2:3: error:").
type FormatCase struct {
	Name   string
	Src    string
	Opt    raw.ReadOptions
	Want   map[string][2]string
	Absent []string
	Diags  []string
	Count  int // exact number of readings when > 0
}

// CheckReadings asserts the invariants of every reader: positions Inside src,
// Raw at Pos (aggregates named in aggregates excepted), Start/End over Raw.
func CheckReadings(t testing.TB, src []byte, rs []raw.Reading, errs diag.List, aggregates map[string]string) {
	t.Helper()
	ix := diag.NewLineIndex("f", src)
	for _, e := range errs {
		Inside(t, src, e.Pos, ix)
	}
	for _, r := range rs {
		Inside(t, src, r.Pos, ix)
		for _, p := range r.Inputs {
			Inside(t, src, p, ix)
		}
		if pred, ok := aggregates[r.Key]; ok {
			if r.Raw != pred {
				t.Fatalf("count %s: raw %q, want the predicate %q", r.Key, r.Raw, pred)
			}
			continue
		}
		if r.Pos.Offset+len(r.Raw) > len(src) || string(src[r.Pos.Offset:r.Pos.Offset+len(r.Raw)]) != r.Raw {
			t.Fatalf("reading %s: raw %q is not at %v", r.Key, r.Raw, r.Pos)
		}
		if r.Number.Implied && r.Raw != "" && r.Number.Start == 0 && r.Number.End == 0 {
			continue // a value the format implies at the token Raw
		}
		if r.Raw == "" || r.Number.Start != 0 || r.Number.End != len(r.Raw) {
			t.Fatalf("reading %s: raw %q, number range [%d,%d)", r.Key, r.Raw, r.Number.Start, r.Number.End)
		}
	}
}

func RunFormatCases(t *testing.T, format string, cases []FormatCase) {
	t.Helper()
	read, err := formats.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			rs, errs := read("f", []byte(c.Src), c.Opt)
			CheckReadings(t, []byte(c.Src), rs, errs, c.Opt.CountWhere)
			got := map[string]raw.Reading{}
			for _, r := range rs {
				if _, dup := got[r.Key]; dup {
					t.Errorf("duplicate key %q", r.Key)
				}
				got[r.Key] = r
			}
			for k, w := range c.Want {
				r, ok := got[k]
				if !ok {
					t.Errorf("no reading %q; got %v", k, ReadingKeys(rs))
					continue
				}
				if r.Number.Value.String() != w[0] || r.Raw != w[1] {
					t.Errorf("%s = %s raw %q, want %s raw %q", k, r.Number.Value, r.Raw, w[0], w[1])
				}
			}
			for _, k := range c.Absent {
				if _, ok := got[k]; ok {
					t.Errorf("unexpected reading %q", k)
				}
			}
			if c.Count > 0 && len(rs) != c.Count {
				t.Errorf("got %d readings %v, want %d", len(rs), ReadingKeys(rs), c.Count)
			}
			for _, e := range errs {
				matched := false
				for _, d := range c.Diags {
					if strings.Contains(e.String(), d) {
						matched = true
					}
				}
				if !matched {
					t.Errorf("unexpected diagnostic %v", e)
				}
			}
			for _, d := range c.Diags {
				found := false
				for _, e := range errs {
					if strings.Contains(e.String(), d) {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic containing %q in %v", d, errs)
				}
			}
		})
	}
}

func ReadingKeys(rs []raw.Reading) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

// CorpusDir is the shared corpus of real third-party samples.
var CorpusDir = sharedCorpus()

// sharedCorpus is ../shared/corpus beside the repository, or $EVDOC_CORPUS
// (for a worktree that has no ../shared beside it).
func sharedCorpus() string {
	if d := os.Getenv("EVDOC_CORPUS"); d != "" {
		return d
	}
	return filepath.Join(root(), "..", "shared", "corpus")
}

// corpusFormat names the format of corpus files Sniff cannot place.
var corpusFormat = map[string]string{
	// Only two bare values and comments: nothing says curl but the source.
	"curl_issue_3489_locale_comma.txt": "curl-writeout",
}

// FormatOf is the format of a sample file called name holding src: its
// entry in corpusFormat, else what formats.Sniff guesses.
func FormatOf(name string, src []byte) string {
	if f := corpusFormat[name]; f != "" {
		return f
	}
	return formats.Sniff(name, src)
}

// LabFormatFuzz runs format's reader on arbitrary input and checks the
// invariants of every reader: no panic, every position Inside the file and
// consistent with its offset, Raw at Pos (count_where aggregates
// excepted), a non-empty Raw spanned by Number.Start/End, and no numeric
// field vanishing (CheckNoVanish). It is seeded with the format's samples
// (AddSamples) and seeds.
func LabFormatFuzz(f *testing.F, seeds []string, format string, opts ...raw.ReadOptions) {
	AddSamples(f, format, seeds...)
	if len(opts) == 0 {
		opts = []raw.ReadOptions{{}}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, opt := range opts {
			CheckNoVanish(t, format, src, opt)
		}
	})
}

// seedBytes bounds the seeds of the raw-format fuzz targets. Go's fuzzer
// minimizes every input that finds new coverage, first removing one byte
// at a time and then every span of bytes: a number of executions that
// grows with the square of the input's length, each costing time in
// proportion to it, up to -fuzzminimizetime (60 s by default), and the
// executions of a minimization are counted only when it ends. An input
// grown from a 1.4 KB k6 sample held a 20-second run for its whole length
// (7 executions counted); inputs grown from pieces of at most seedBytes
// are minimized in milliseconds. The whole samples are read by the golden
// tests and TestNoDigitVanishes.
const seedBytes = 256

// AddSamples seeds f with seeds and with the samples of format cut into
// pieces (AddPieces): the reference site's evidence files, the shared
// corpus of real third-party output (when present) and
// testdata/tools/FORMAT, each placed by corpusFormat or Sniff.
func AddSamples(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	var files []string
	for _, pattern := range []string{filepath.Join(root(), "evidence", "*", "*"), filepath.Join(CorpusDir, "*", "*")} {
		m, _ := filepath.Glob(pattern)
		for _, p := range m {
			base := filepath.Base(p)
			if src, err := os.ReadFile(p); err == nil && FormatOf(base, src) == format {
				files = append(files, p)
			}
		}
	}
	tools, _ := filepath.Glob(filepath.Join(ToolSamples, format, "*"))
	for _, p := range append(files, tools...) {
		if filepath.Ext(p) == ".golden" {
			continue
		}
		if src, err := os.ReadFile(p); err == nil {
			AddPieces(f, src)
		}
	}
}

// AddPieces adds src to f's seeds in pieces of at most about seedBytes: a
// JSON document as jsonPieces cuts it, other text as runs of whole lines,
// each after the first led by the file's first line (the header of a
// table or CSV file); a longer line is cut.
func AddPieces(f *testing.F, src []byte) {
	if len(src) <= seedBytes {
		f.Add(src)
		return
	}
	if json.Valid(src) {
		for _, p := range jsonPieces(src, seedBytes) {
			f.Add(p)
		}
		return
	}
	first := src[:bytes.IndexByte(src, '\n')+1]
	if len(first) > seedBytes/2 {
		first = nil
	}
	var piece []byte
	for len(src) > 0 {
		n := bytes.IndexByte(src, '\n') + 1
		if n == 0 || n > seedBytes {
			n = min(len(src), seedBytes)
			for n < len(src) && n > 1 && !utf8.RuneStart(src[n]) {
				n-- // whole characters: a reader rejects invalid UTF-8
			}
		}
		if len(piece)+n > seedBytes && len(piece) > len(first) {
			f.Add(piece)
			piece = append([]byte(nil), first...)
		}
		piece = append(piece, src[:n]...)
		src = src[n:]
	}
	f.Add(piece)
}

// jsonPieces cuts a JSON document into documents of at most about limit
// bytes (a value that is larger alone is cut further or left out): the
// members of an object, or the elements of an array, packed in order,
// each piece wrapped in the keys of its ancestors (an array ancestor as a
// one-element array), so that a reader finds its values at their paths.
func jsonPieces(src []byte, limit int) [][]byte {
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	var out [][]byte
	fits := func(v any) bool { b, _ := json.Marshal(v); return len(b) <= limit }
	var cut func(v any, wrap func(any) any)
	cut = func(v any, wrap func(any) any) {
		if b, _ := json.Marshal(wrap(v)); len(b) <= limit {
			out = append(out, b)
			return
		}
		// build(lo, hi) is the value with members lo..hi-1 only; child(i)
		// is member i and its wrapping.
		var n int
		var build func(lo, hi int) any
		var child func(i int) (any, func(any) any)
		switch v := v.(type) {
		case map[string]any:
			keys := slices.Sorted(maps.Keys(v))
			n = len(keys)
			build = func(lo, hi int) any {
				m := map[string]any{}
				for _, k := range keys[lo:hi] {
					m[k] = v[k]
				}
				return m
			}
			child = func(i int) (any, func(any) any) {
				return v[keys[i]], func(x any) any { return wrap(map[string]any{keys[i]: x}) }
			}
		case []any:
			n = len(v)
			build = func(lo, hi int) any { return v[lo:hi] }
			child = func(i int) (any, func(any) any) { return v[i], func(x any) any { return wrap([]any{x}) } }
		default:
			return // a string or number too long alone
		}
		lo := 0
		for i := range n {
			if fits(wrap(build(lo, i+1))) {
				continue
			}
			if lo < i {
				cut(build(lo, i), wrap)
			}
			lo = i
			if !fits(wrap(build(i, i+1))) {
				cut(child(i))
				lo = i + 1
			}
		}
		if lo < n {
			cut(build(lo, n), wrap)
		}
	}
	cut(v, func(x any) any { return x })
	return out
}

// Inside asserts that p names a byte of src (or its end) consistently. ix
// indexes src (nil: built here; pass one when checking many positions).
func Inside(t testing.TB, src []byte, p diag.Position, ix ...*diag.LineIndex) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("position %v offset outside file of %d bytes", p, len(src))
	}
	var x *diag.LineIndex
	if len(ix) > 0 && ix[0] != nil {
		x = ix[0]
	} else {
		x = diag.NewLineIndex(p.File, src)
	}
	want := x.Pos(p.Offset)
	want.File = p.File
	if want != p {
		t.Fatalf("position %v disagrees with its offset (%v)", p, want)
	}
}

// CheckNoVanish reads src with format's reader (ReaderFor) and fails t for
// each numeric-looking field of the file's data that no reading and no
// diagnostic accounts for; it also checks the Reader contract
// (CheckReadings). It returns what the reader returned.
func CheckNoVanish(t testing.TB, format string, src []byte, opt raw.ReadOptions) ([]raw.Reading, diag.List) {
	t.Helper()
	read, err := formats.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	rs, errs := read("f", src, opt)
	CheckReadings(t, src, rs, errs, opt.CountWhere)
	view := src
	if format == "pattern" && opt.Skip != "" {
		// the entry's skip lines are not data: blank them, keeping offsets
		view = append([]byte(nil), src...)
		all, _ := formats.DataLines(format)(src, raw.ReadOptions{})
		kept, _ := formats.DataLines(format)(src, opt)
		for _, ln := range all {
			if !slices.Contains(kept, ln) {
				for i := ln.Start; i < ln.End; i++ {
					view[i] = ' '
				}
			}
		}
	}
	if v := Vanished(format, view, rs, errs); len(v) > 0 {
		t.Errorf("%s: %d numeric fields Vanished (no reading, no diagnostic): %q\nin %q", format, len(v), v, truncate(src, 2000))
	}
	return rs, errs
}

// truncate shortens a file for a failure message.
func truncate(src []byte, n int) string {
	if len(src) > n {
		return string(src[:n]) + "…"
	}
	return string(src)
}

// Vanished returns the numeric-looking fields of src's data (see
// CheckNoVanish) that no reading or diagnostic of rs and errs accounts
// for, "line:col field" each.
func Vanished(format string, src []byte, rs []raw.Reading, errs diag.List) []string {
	if errs.HasErrors() || !utf8.Valid(src) {
		return nil
	}
	ix := diag.NewLineIndex("f", src)
	var spans []raw.LineSpan
	view := src
	switch format {
	case "transcript":
		spans = labreport.TranscriptLines(src)
	case "markdown-tables":
		tables, _ := labreport.ReadTables("f", src)
		for _, tb := range tables {
			for _, row := range tb.Rows {
				for j := 1; j < len(row) && j < len(tb.Header); j++ {
					end := len(row[j].Text)
					if n, ok := raw.ParseCell(row[j].Text); ok {
						end = n.End // the parenthesised note after a number is a note
					}
					spans = append(spans, raw.LineSpan{Start: row[j].Pos.Offset, End: row[j].Pos.Offset + end})
				}
			}
		}
	default:
		spans, view = formats.DataLines(format)(src, raw.ReadOptions{})
	}
	return raw.Unaccounted(ix, src, view, spans, rs, errs)
}

// ToolFuzz fuzzes the reader of format with its samples (AddSamples:
// testdata/tools/FORMAT) and seeds of its own line shapes, holding the
// Reader contract and the no-vanish property (CheckNoVanish).
func ToolFuzz(f *testing.F, format string, seeds ...string) {
	AddSamples(f, format, seeds...)
	f.Fuzz(func(t *testing.T, src []byte) { CheckNoVanish(t, format, src, raw.ReadOptions{}) })
}

// root is the module's root: the nearest directory above the test's
// working directory (its package's directory) holding go.mod.
func root() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// ToolSamples is the directory of the tools' output samples, one
// directory per format (raw's testdata/tools), that TestToolSamples
// reads against their goldens and AddSamples seeds fuzz targets with.
var ToolSamples = filepath.Join(root(), "generator", "evidence", "raw", "testdata", "tools")

// AllOf is a reader's result with its readings as a slice.
func AllOf(l *raw.Readings, errs diag.List) ([]raw.Reading, diag.List) { return l.All(), errs }

// UnitOrDash is a unit for a listing, "-" for none.
func UnitOrDash(u string) string {
	if u == "" {
		return "-"
	}
	return u
}
