package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"
)

// FileName is the file name of an evidence set's manifest.
const FileName = "evidence.toml"

// Manifest is the decoded evidence.toml of one evidence set (see
// package evidence's doc for the format).
type Manifest struct {
	// ID is the set's name in claim references (SET/NAME); it must equal
	// the set's directory name.
	ID string `toml:"id"`
	// Title names the lab report on the evidence pages.
	Title string `toml:"title"`
	// Date is the run's date, YYYY-MM-DD, or "unknown".
	Date string `toml:"date"`
	// Environment says where the data was measured (versions, cluster,
	// load).
	Environment string `toml:"environment"`
	// Report is the path or name of the report the set belongs to.
	Report string `toml:"report"`
	// Origin is how the set's files were obtained: "raw" (the lab's own
	// output, unchanged) or "transcribed" (re-typed from a document).
	// check requires an origin for every file a set reads; [[file]]
	// entries override it per file (see Provenance).
	Origin string `toml:"origin"`
	// Source names the document and section a transcribed set was
	// re-typed from (for raw files it may name the run or tool).
	Source string `toml:"source"`
	// SourceFile is an optional plain-text copy of Source, relative to the
	// repository root, for the source-match test.
	SourceFile string `toml:"source_file"`
	// Text gives, per site language (a language key of hugo.toml: "ko",
	// "ja"), the title, environment and source as that language's evidence
	// pages and claim popovers show them ([text.ja] title = "…"). A field
	// it leaves out falls back to the top-level one, which stays the
	// set's name in every other language.
	Text map[string]SetText `toml:"text"`
	// Files give one raw file a provenance of its own.
	Files []FileSpec `toml:"file"`
	// Tables name the numeric cells of GFM tables in Markdown reports.
	Tables []TableSpec `toml:"table"`
	// Transcripts name the readings of key=value lab transcripts.
	Transcripts []TranscriptSpec `toml:"transcript"`
	// Reads name the readings of raw files read by a format reader
	// (Envoy admin, fortio, curl, CSV, JSON, istioctl, dig, Prometheus).
	Reads []ReadSpec `toml:"read"`
	// Derived declares values computed from others with exact decimal
	// arithmetic: NAME = "EXPRESSION" (delta(a, b), percent(a, b), + - * /).
	Derived map[string]string `toml:"derived"`
	// Decimal is the decimal mark of the set's raw files, "." or ","
	// (default: each file's own numbers decide; an ambiguous "1,232" is
	// an error). An entry's own decimal overrides it.
	Decimal string `toml:"decimal"`
}

// SetText is the part of a manifest a reader of one language sees: the
// set's title, environment and source in that language.
type SetText struct {
	// Title is the set's name on that language's evidence pages.
	Title string `toml:"title"`
	// Environment is where the data was measured, in that language.
	Environment string `toml:"environment"`
	// Source names the source document and section in that language (a
	// title the document prints may stay as printed).
	Source string `toml:"source"`
}

// InLanguage returns the set's title, environment and source as pages of
// language lang show them: [text.LANG]'s, each one that is empty falling
// back to the top-level field.
func (m *Manifest) InLanguage(lang string) SetText {
	out := SetText{Title: m.Title, Environment: m.Environment, Source: m.Source}
	t := m.Text[lang]
	if t.Title != "" {
		out.Title = t.Title
	}
	if t.Environment != "" {
		out.Environment = t.Environment
	}
	if t.Source != "" {
		out.Source = t.Source
	}
	return out
}

// FileSpec gives one raw file of a set its own provenance, overriding the
// set's origin and source:
//
//	[[file]]
//	path   = "result.txt"
//	origin = "transcribed"
//	source = "published Q&A page, appendix B"
type FileSpec struct {
	// Path is the raw file, relative to the set's directory.
	Path string `toml:"path"`
	// Origin is "raw" or "transcribed", for this file.
	Origin string `toml:"origin"`
	// Source names the document a transcribed file was re-typed from.
	Source string `toml:"source"`
	// SourceFile is an optional plain-text copy of Source.
	SourceFile string `toml:"source_file"`
}

// Units, in every spec, declares the unit of values whose raw text does
// not state it: local name (relative to the spec's name) or "*.suffix"
// → a canonical unit name of package unit (unit.Names: ratio, %, %p, ns,
// us, ms, s, min, h, d, wk, mo, yr, B, KB, KiB, MB, MiB, GB, GiB, TB, TiB,
// their throughputs (MB/s …), core, mcore, ucore, ncore, /s, count, x).
// A claim written with a physical unit (%, 초, ms, 바이트, …) cannot bind to
// a value without one.

// TableSpec names the numeric cells of one GFM table as
// <Name>.<row key>.<column key>.
type TableSpec struct {
	// File is the Markdown report, relative to the set's directory.
	File string `toml:"file"`
	// Heading is text contained in the heading above the table.
	Heading string `toml:"heading"`
	// Index picks the table under that heading when there are several
	// (1-based).
	Index int `toml:"index"`
	// Name prefixes the cells' names: NAME.ROW.COLUMN.
	Name string `toml:"name"`
	// Rows maps a row's first-cell label to its name segment (default: the
	// label slugged).
	Rows map[string]string `toml:"rows"`
	// Columns maps a column's header label to its name segment (default:
	// the label slugged).
	Columns map[string]string `toml:"columns"`
	// Units declares the unit of values whose cells do not state one:
	// local name or "*.suffix" → unit (%, s, ms, count, …).
	Units   map[string]string `toml:"units"`
	Decimal string            `toml:"decimal"` // the file's decimal mark, "." or "," (see Manifest.Decimal)
	// Changes lists the values that are themselves changes (an
	// "Overhead %" or growth column: +22.73%): local name or "*.suffix".
	// A signed claim ([+22.73%], [Δ3], [12% 감소]) binds to them as to a
	// derived difference.
	Changes []string `toml:"changes"`
	// Spreads declares which value is the spread of which (a pattern
	// read's mean_sd of its mean): the mean's local name or "*.suffix" →
	// the spread's ("*.mean" = "*.mean_sd"). A claim "mean ± spread" on
	// the mean then checks both numbers. Readers that print the ± (a
	// markdown-tables cell "A ± B", benchstat, fortio's +/-) know it
	// without a declaration.
	Spreads map[string]string `toml:"spreads"`
	// indexSet records that the manifest gave index explicitly.
	indexSet bool
}

// IndexGiven reports whether the manifest gave the entry's index
// explicitly (Parse sets an absent index to 1).
func (t TableSpec) IndexGiven() bool { return t.indexSet }

// TranscriptSpec names the numeric readings of one lab transcript as
// <Name>.<section key>.<key>.
type TranscriptSpec struct {
	// File is the transcript, relative to the set's directory.
	File string `toml:"file"`
	// Name prefixes the readings' names: NAME.SECTION.KEY.
	Name string `toml:"name"`
	// Sections maps a [SECTION] label to its name segment.
	Sections map[string]string `toml:"sections"`
	// Units declares the unit of readings that do not state one: local
	// name or "*.suffix" → unit.
	Units   map[string]string `toml:"units"`
	Decimal string            `toml:"decimal"` // the file's decimal mark, "." or "," (see Manifest.Decimal)
	// Changes lists the values that are themselves changes (an
	// "Overhead %" or growth column: +22.73%): local name or "*.suffix".
	// A signed claim ([+22.73%], [Δ3], [12% 감소]) binds to them as to a
	// derived difference.
	Changes []string `toml:"changes"`
	// Spreads declares which value is the spread of which (a pattern
	// read's mean_sd of its mean): the mean's local name or "*.suffix" →
	// the spread's ("*.mean" = "*.mean_sd"). A claim "mean ± spread" on
	// the mean then checks both numbers. Readers that print the ± (a
	// markdown-tables cell "A ± B", benchstat, fortio's +/-) know it
	// without a declaration.
	Spreads map[string]string `toml:"spreads"`
}

// ReadSpec names the readings of one raw file read by a format reader
// (see Formats): <Name>.<local name>. With Select, only the listed native
// keys are named, each by its local name, and a key missing from the file
// is an error; without it every reading is named by its key with each
// dot-separated segment slugged.
type ReadSpec struct {
	// File is the raw file, relative to the set's directory.
	File string `toml:"file"`
	// Format is the format reader (see Formats; `evdoc values FILE` shows
	// the one guessed).
	Format string `toml:"format"`
	// Name prefixes the readings' names: NAME.LOCAL.
	Name string `toml:"name"`
	// Select maps native keys (as the file writes them) to local names;
	// only those are named, and a key missing from the file is an error.
	Select map[string]string `toml:"select"`
	// Key (csv) names the column whose cell names each row;
	// (envoy-access-log) the field whose value names each log line;
	// (pattern) the key template ("{method} {name}").
	Key string `toml:"key"`
	// CountWhere (csv) names counts of the rows an expr-lang predicate
	// holds for: { ok = "code == 200" }.
	CountWhere map[string]string `toml:"count_where"`
	// Paths (json) are the JSON paths to read ("a.b[0].c").
	Paths []string `toml:"paths"`
	// Patterns (pattern) are the regular expressions read on each line,
	// with named groups and the %{NUMBER:name} vocabulary.
	Patterns []string `toml:"patterns"`
	// Section (pattern) is the pattern of a section header line; Skip
	// (pattern) the pattern of lines that are not data.
	Section string `toml:"section"`
	Skip    string `toml:"skip"`
	// Units declares the unit of readings the format does not give one:
	// local name or "*.suffix" → unit.
	Units   map[string]string `toml:"units"`
	Decimal string            `toml:"decimal"` // the file's decimal mark, "." or "," (see Manifest.Decimal)
	// Changes lists the values that are themselves changes (an
	// "Overhead %" or growth column: +22.73%): local name or "*.suffix".
	// A signed claim ([+22.73%], [Δ3], [12% 감소]) binds to them as to a
	// derived difference.
	Changes []string `toml:"changes"`
	// Spreads declares which value is the spread of which (a pattern
	// read's mean_sd of its mean): the mean's local name or "*.suffix" →
	// the spread's ("*.mean" = "*.mean_sd"). A claim "mean ± spread" on
	// the mean then checks both numbers. Readers that print the ± (a
	// markdown-tables cell "A ± B", benchstat, fortio's +/-) know it
	// without a declaration.
	Spreads map[string]string `toml:"spreads"`
}

// manifestKeys returns the keys the manifest table at path accepts, as
// the Manifest type declares them (no path: the top level; "table": a
// [[table]] entry; "file", "transcript", "read" likewise), and a phrase
// naming that table for messages (" in [[table]]", "" at the top level).
// A path into a map or a value (e.g. table.rows) has no fixed keys: nil.
func manifestKeys(path ...string) (string, []string) {
	t := reflect.TypeOf(Manifest{})
	where := ""
	for i, p := range path {
		if t.Kind() == reflect.Map {
			// a map of tables ([text.ja]): p is a key of the map, not a field
			t = t.Elem()
			where = " in [" + strings.Join(path[:i+1], ".") + "]"
			if t.Kind() != reflect.Struct {
				return where, nil
			}
			continue
		}
		f, ok := tomlField(t, p)
		if !ok {
			return where, nil
		}
		t = f.Type
		if t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Struct {
			where = " in [" + p + "]"
			continue
		}
		if t.Kind() == reflect.Slice {
			t = t.Elem()
			where = " in [[" + p + "]]"
		} else {
			where = " in [" + p + "]"
		}
		if t.Kind() != reflect.Struct {
			return where, nil
		}
	}
	if t.Kind() != reflect.Struct {
		// [text] itself: its keys are languages, not fixed
		return where, nil
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if tag := strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]; tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return where, keys
}

func tomlField(t reflect.Type, key string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := 0; i < t.NumField(); i++ {
		if strings.Split(t.Field(i).Tag.Get("toml"), ",")[0] == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// entryKey reports whether key is a key of a [[table]], [[transcript]]
// or [[read]] entry.
func entryKey(key string) bool {
	for _, e := range []string{"table", "transcript", "read"} {
		_, keys := manifestKeys(e)
		for _, k := range keys {
			if k == key {
				return true
			}
		}
	}
	return false
}

// hasUnknownParent reports whether a proper prefix of k is in unknown.
func hasUnknownParent(k toml.Key, unknown map[string]bool) bool {
	for i := 1; i < len(k); i++ {
		if unknown[k[:i].String()] {
			return true
		}
	}
	return false
}

// decodeLineRe matches the line BurntSushi/toml names in a decoding
// error that is not a ParseError ("toml: line 16 (last key "read.units.x"):
// incompatible types: …").
var decodeLineRe = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): `)

// decodeError reports a manifest that is valid TOML but does not fit the
// Manifest type (a number where a unit name is expected) at the key's
// line, naming the key, instead of at the top of the file.
func decodeError(ix *diag.LineIndex, src []byte, err error) diag.Diagnostic {
	msg := err.Error()
	m := decodeLineRe.FindStringSubmatch(msg)
	if m == nil {
		return diag.Errorf(diag.Position{File: ix.File(), Line: 1, Column: 1}, diag.EvidenceManifest, "invalid manifest: %s", strings.TrimPrefix(msg, "toml: "))
	}
	line, _ := strconv.Atoi(m[1])
	key := m[2]
	pos := ix.LineCol(line, 1)
	if start := ix.LineStart(line); start >= 0 {
		end := len(src)
		if nl := bytes.IndexByte(src[start:], '\n'); nl >= 0 {
			end = start + nl
		}
		last := key[strings.LastIndexByte(key, '.')+1:]
		for _, cand := range []string{strconv.Quote(last), last} {
			if i := bytes.Index(src[start:end], []byte(cand)); i >= 0 {
				pos = ix.Pos(start + i)
				break
			}
		}
	}
	return diag.Errorf(pos, diag.EvidenceManifest, "%s: %s", key, strings.TrimPrefix(msg, m[0]))
}

// tableTypeErrors reports manifest keys that must hold a table (units,
// select, rows, columns, sections, count_where, derived) but hold a
// string, number or array: BurntSushi/toml leaves such a map empty
// without an error, which would silently drop the declaration.
func tableTypeErrors(ix *diag.LineIndex, src []byte, md toml.MetaData) diag.List {
	var errs diag.List
	seen := map[string]int{} // occurrences of each key so far ([[read]] entries repeat keys)
	for _, k := range md.Keys() {
		ks := k.String()
		nth := seen[ks]
		seen[ks]++
		t := manifestFieldType(k)
		if t == nil || t.Kind() != reflect.Map {
			continue
		}
		switch typ := md.Type(k...); typ {
		case "String", "Integer", "Float", "Bool", "Datetime", "Array":
			where, _ := manifestKeys(k[:len(k)-1]...)
			errs = append(errs, diag.Errorf(locateKeyLine(ix, src, k[len(k)-1], nth), diag.EvidenceManifest,
				"%s%s is %s; expected a table of name = value pairs, such as %s = { \"p99\" = \"ms\" }", ks, where, article(strings.ToLower(typ)), k[len(k)-1]))
		}
	}
	return errs
}

// article prefixes a type name with "a" or "an".
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// manifestFieldType returns the Go type of the Manifest field the key
// path k decodes into, or nil when k does not name a field.
func manifestFieldType(k toml.Key) reflect.Type {
	t := reflect.TypeOf(Manifest{})
	for _, p := range k {
		if t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Struct {
			t = t.Elem() // p is a key of a map of tables ([text.ja])
			continue
		}
		f, ok := tomlField(t, p)
		if !ok {
			return nil
		}
		t = f.Type
	}
	return t
}

// locateKeyLine returns the position of the nth (from 0) line assigning
// key ("key =" or "\"key\" ="), else Locate's answer.
func locateKeyLine(ix *diag.LineIndex, src []byte, key string, nth int) diag.Position {
	re := regexp.MustCompile(`(?m)^[ \t]*(` + regexp.QuoteMeta(key) + `|` + regexp.QuoteMeta(strconv.Quote(key)) + `)[ \t]*=`)
	ms := re.FindAllSubmatchIndex(src, nth+1)
	if len(ms) > nth {
		return ix.Pos(ms[nth][2])
	}
	return Locate(ix, src, key)
}

// orList joins keys as "a, b or c".
func orList(keys []string) string {
	switch len(keys) {
	case 0:
		return "no key here"
	case 1:
		return keys[0]
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " or " + keys[len(keys)-1]
}

var (
	dateRe    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	segmentRe = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
	nameRe    = regexp.MustCompile(`^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$`)
)

// Parse decodes and validates a manifest. file names src in
// positions; dir is the set's directory name, which id must equal.
func Parse(file, dir string, src []byte) (*Manifest, diag.List) {
	ix := diag.NewLineIndex(file, src)
	if errs := raw.CheckText(ix, src); errs != nil {
		return nil, errs
	}
	var m Manifest
	md, err := toml.Decode(string(src), &m)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, diag.List{diag.Errorf(ix.LineCol(pe.Position.Line, pe.Position.Col),
				diag.EvidenceManifest, "invalid TOML: %s", pe.Message)}
		}
		return nil, diag.List{decodeError(ix, src, err)}
	}
	var errs diag.List
	at := func(needle string) diag.Position { return Locate(ix, src, needle) }
	// One finding per unknown key: the keys inside an unknown table
	// (units.x under an unknown units) are not reported again.
	unknown := map[string]bool{}
	for _, k := range md.Undecoded() {
		if hasUnknownParent(k, unknown) {
			continue
		}
		unknown[k.String()] = true
		where, keys := manifestKeys(k[:len(k)-1]...)
		hint := ""
		if len(k) == 1 && entryKey(k[0]) {
			hint = fmt.Sprintf(" (%s belongs to a [[table]], [[transcript]] or [[read]] entry: write it after that entry's header)", k[0])
		}
		errs = append(errs, diag.Errorf(at(k[len(k)-1]), diag.EvidenceManifest, "unknown manifest key %q%s; expected %s%s", k.String(), where, orList(keys), hint))
	}
	errs = append(errs, tableTypeErrors(ix, src, md)...)
	if m.ID != dir {
		errs = append(errs, diag.Errorf(at("id"), diag.EvidenceManifest, "id %q must equal the evidence set's directory name %q", m.ID, dir))
	}
	for _, f := range []struct{ key, val string }{{"title", m.Title}, {"environment", m.Environment}, {"report", m.Report}} {
		if strings.TrimSpace(f.val) == "" {
			errs = append(errs, diag.Errorf(diag.Position{File: file, Line: 1, Column: 1}, diag.EvidenceManifest, "missing %s; every evidence set says where it came from", f.key))
		}
	}
	for _, d := range decimals(&m) {
		if d != "" && d != "." && d != "," {
			errs = append(errs, diag.Errorf(at("decimal"), diag.EvidenceManifest, "decimal %q: expected \".\" or \",\"", d))
		}
	}
	if m.Date != "unknown" && !dateRe.MatchString(m.Date) {
		errs = append(errs, diag.Errorf(at("date"), diag.EvidenceManifest, "date %q: expected YYYY-MM-DD or \"unknown\"", m.Date))
	} else if _, err := time.Parse(time.DateOnly, m.Date); m.Date != "unknown" && err != nil {
		// the shape is right but no calendar has the day: 2026-02-30
		errs = append(errs, diag.Errorf(at("date"), diag.EvidenceManifest, "date %q is not a day of the calendar; expected YYYY-MM-DD (a month 01–12, a day that month has) or \"unknown\"", m.Date))
	}
	for i := range m.Tables {
		t := &m.Tables[i]
		if t.Index == 0 {
			t.Index = 1
		} else {
			t.indexSet = true
		}
		if !segmentRe.MatchString(t.Name) {
			errs = append(errs, diag.Errorf(at(t.Name), diag.EvidenceManifest, "table name %q: expected [a-z_][a-z0-9_]*", t.Name))
		}
		if t.File == "" || t.Heading == "" {
			errs = append(errs, diag.Errorf(at(t.Name), diag.EvidenceManifest, "table %q: expected both file and heading", t.Name))
		}
		for _, v := range values(t.Rows, t.Columns) {
			if !segmentRe.MatchString(v) {
				errs = append(errs, diag.Errorf(at(v), diag.EvidenceManifest, "relabel %q: expected [a-z_][a-z0-9_]*", v))
			}
		}
	}
	for _, t := range m.Transcripts {
		if !segmentRe.MatchString(t.Name) || t.File == "" {
			errs = append(errs, diag.Errorf(at(t.Name), diag.EvidenceManifest, "transcript %q: expected file and a name matching [a-z_][a-z0-9_]*", t.Name))
		}
		for _, v := range t.Sections {
			if !segmentRe.MatchString(v) {
				errs = append(errs, diag.Errorf(at(v), diag.EvidenceManifest, "section relabel %q: expected [a-z_][a-z0-9_]*", v))
			}
		}
	}
	for _, r := range m.Reads {
		if !segmentRe.MatchString(r.Name) || r.File == "" {
			errs = append(errs, diag.Errorf(at(r.Name), diag.EvidenceManifest, "read %q: expected file and a name matching [a-z_][a-z0-9_]*", r.Name))
		}
		if _, err := formats.ReaderFor(r.Format); err != nil {
			errs = append(errs, diag.Errorf(at(r.Format), diag.EvidenceManifest, "read %q: %v", r.Name, err))
		}
		errs = append(errs, patternErrors(ix, src, r)...)
		for _, v := range r.Select {
			if !nameRe.MatchString(v) {
				errs = append(errs, diag.Errorf(at(v), diag.EvidenceManifest, "select name %q: expected dot-separated [a-z_][a-z0-9_]* segments", v))
			}
		}
		for k := range r.CountWhere {
			if !nameRe.MatchString(k) {
				errs = append(errs, diag.Errorf(at(k), diag.EvidenceManifest, "count_where name %q: expected dot-separated [a-z_][a-z0-9_]* segments", k))
			}
		}
	}
	// Names of [[table]], [[transcript]] and [[read]]-without-select
	// entries must be unique; [[read]] entries with select name their
	// values explicitly and may share a name (one dump before, one after):
	// a collision of their values is still reported.
	var unselected []ReadSpec
	for _, r := range m.Reads {
		if r.Select == nil {
			unselected = append(unselected, r)
		}
	}
	specNames := map[string]int{} // uses so far
	for _, n := range append(append(tableNames(m.Tables), transcriptNames(m.Transcripts)...), readNames(unselected)...) {
		if c := specNames[n]; c > 0 {
			// Each repeat is reported at its own name = line, in file order.
			first := locateNameKey(ix, src, n, 0)
			errs = append(errs, diag.Errorf(locateNameKey(ix, src, n, c), diag.EvidenceDuplicate,
				"name %q is given to two [[table]]/[[transcript]]/[[read]] entries (first at %s); expected unique names", n, first))
		}
		specNames[n]++
	}
	for name := range m.Derived {
		if !nameRe.MatchString(name) {
			errs = append(errs, diag.Errorf(at(name), diag.EvidenceManifest, "derived value name %q: expected dot-separated [a-z_][a-z0-9_]* segments", name))
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return &m, nil
}

// decimals lists every decimal mark the manifest declares.
func decimals(m *Manifest) []string {
	out := []string{m.Decimal}
	for _, t := range m.Tables {
		out = append(out, t.Decimal)
	}
	for _, t := range m.Transcripts {
		out = append(out, t.Decimal)
	}
	for _, r := range m.Reads {
		out = append(out, r.Decimal)
	}
	return out
}

func tableNames(ts []TableSpec) (out []string) {
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func transcriptNames(ts []TranscriptSpec) (out []string) {
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func readNames(rs []ReadSpec) (out []string) {
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return out
}

func values(ms ...map[string]string) []string {
	var out []string
	for _, m := range ms {
		for _, v := range m {
			out = append(out, v)
		}
	}
	return out
}

// LocateIn is Locate restricted to the text after the first line that is
// exactly header ("[derived]"), so a derived name is found at its
// declaration rather than wherever the same text occurs first.
func LocateIn(ix *diag.LineIndex, src []byte, header, needle string) diag.Position {
	s := string(src)
	i := strings.Index(s, "\n"+header+"\n")
	if i < 0 {
		return Locate(ix, src, needle)
	}
	i += len(header) + 2
	for _, cand := range []string{strconv.Quote(needle), needle} {
		if j := strings.Index(s[i:], cand); needle != "" && j >= 0 {
			return ix.Pos(i + j)
		}
	}
	return Locate(ix, src, needle)
}

// locateNameKey returns the position of the nth (from 0) `name = "value"`
// line's value in a manifest, in file order, or Locate's answer when
// there are fewer.
func locateNameKey(ix *diag.LineIndex, src []byte, value string, nth int) diag.Position {
	re := regexp.MustCompile(`(?m)^[ \t]*name[ \t]*=[ \t]*(` + regexp.QuoteMeta(strconv.Quote(value)) + `|'` + regexp.QuoteMeta(value) + `')`)
	ms := re.FindAllSubmatchIndex(src, nth+1)
	if len(ms) > nth {
		return ix.Pos(ms[nth][2])
	}
	return Locate(ix, src, value)
}

// Locate returns the position of the first quoted occurrence of needle in
// a manifest (or of the bare word, for keys), or line 1 when absent.
// BurntSushi/toml does not keep key positions, so evdoc finds them by text.
func Locate(ix *diag.LineIndex, src []byte, needle string) diag.Position {
	s := string(src)
	for _, cand := range []string{strconv.Quote(needle), needle} {
		if needle == "" {
			break
		}
		if i := strings.Index(s, cand); i >= 0 {
			return ix.Pos(i)
		}
	}
	return diag.Position{File: ix.File(), Line: 1, Column: 1}
}

// patternErrors checks the patterns of a [[read]] entry of format
// "pattern" (structured.CompilePattern), each error at the pattern's text in
// the manifest; an entry of another format must not give patterns.
func patternErrors(ix *diag.LineIndex, src []byte, r ReadSpec) diag.List {
	var errs diag.List
	if r.Format != "pattern" {
		if len(r.Patterns) > 0 || r.Section != "" || r.Skip != "" {
			errs = append(errs, diag.Errorf(Locate(ix, src, "patterns"), diag.EvidenceManifest,
				"read %q: patterns, section and skip belong to format = \"pattern\"; expected no pattern keys for format %q", r.Name, r.Format))
		}
		return errs
	}
	if len(r.Patterns) == 0 {
		errs = append(errs, diag.Errorf(Locate(ix, src, r.Name), diag.EvidencePattern,
			"read %q: format \"pattern\" without patterns; expected patterns = ['REGEX', …] with named groups such as %%{NUMBER:p99}", r.Name))
	}
	for _, p := range r.Patterns {
		if _, err := structured.CompilePattern(p); err != nil {
			errs = append(errs, diag.Errorf(Locate(ix, src, p), diag.EvidencePattern, "read %q: pattern: %v", r.Name, err))
		}
	}
	for _, p := range []string{r.Section, r.Skip} {
		if p == "" {
			continue
		}
		if _, err := structured.CompilePatternAny(p); err != nil {
			errs = append(errs, diag.Errorf(Locate(ix, src, p), diag.EvidencePattern, "read %q: pattern: %v", r.Name, err))
		}
	}
	return errs
}
