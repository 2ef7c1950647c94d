package evidence

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"
	units "github.com/evdoc-lab/evdoc/generator/unit"
	"github.com/evdoc-lab/evdoc/internal/nesting"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// LoadSet reads one evidence set from setDir (repository-relative, under
// root). It returns nil and the errors when the set cannot be read whole;
// a set that loads may still come with warnings (such as a decimal comma
// read as a decimal point) and with diag.EvidenceOrigin errors (a file
// without a declared origin), which do not keep its values from use.
//
// The steps: parse the manifest; read each entry's raw file into local
// names (entries); name every value of every entry one way (loader.name);
// attach declared units (applyUnits) to values whose raw text and format
// give none; compute derived values (derive).
func LoadSet(root, setDir string) (*Set, diag.List) {
	return LoadSetWith(root, setDir, Options{})
}

// fileDiag turns a refused or unreadable file into a diagnostic at pos:
// evidence-path for a link, a non-regular file or a path leaving the
// set, evidence-limit for a file over the size limit, else evidence-io.
func fileDiag(pos diag.Position, what string, err error) diag.Diagnostic {
	var fe *safefile.Error
	if errors.As(err, &fe) {
		switch fe.Kind {
		case safefile.Symlink, safefile.NotRegular, safefile.Escapes:
			return diag.Errorf(pos, diag.EvidencePath, "%s %v", what, err)
		case safefile.TooLarge:
			return diag.Errorf(pos, diag.EvidenceLimit, "%s %v", what, err)
		}
	}
	return diag.Errorf(pos, diag.EvidenceIO, "cannot read %s %v", what, err)
}

// LoadSetWith is LoadSet with options. The manifest must be a regular
// file inside the project of at most safefile.SpecMaxSize bytes, nesting
// no deeper than nesting.MaxDepth; each raw file a regular file of at
// most opt.MaxFileSize bytes.
func LoadSetWith(root, setDir string, opt Options) (*Set, diag.List) {
	mfile := path.Join(setDir, manifest.FileName)
	src, err := safefile.ReadFile(root, mfile, safefile.SpecMaxSize)
	if err != nil {
		return nil, diag.List{fileDiag(diag.Position{File: mfile, Line: 1, Column: 1}, "manifest", err)}.TokenEnds(func(string) []byte { return nil })
	}
	msrcs := map[string][]byte{mfile: src}
	if d := nesting.TOML(src, nesting.MaxDepth); d != nil {
		return nil, diag.List{diag.Errorf(diag.NewLineIndex(mfile, src).Pos(d.Offset), diag.EvidenceLimit,
			"manifest nests arrays or tables deeper than %d levels; expected a flat manifest", d.Limit)}.TokenEnds(func(f string) []byte { return msrcs[f] })
	}
	m, errs := manifest.Parse(mfile, path.Base(setDir), src)
	if errs != nil {
		return nil, errs.TokenEnds(func(f string) []byte { return msrcs[f] })
	}
	l := &loader{
		root: root, setDir: setDir, msrc: src, mix: diag.NewLineIndex(mfile, src), maxFileSize: opt.maxFileSize(),
		set:   &Set{Dir: setDir, Manifest: *m, values: map[string]*Value{}, NonNumeric: map[string]labreport.Cell{}},
		files: map[string][]byte{}, streamed: map[string]bool{}, failed: map[string]bool{}, broken: map[string]bool{},
		tables: map[string][]labreport.Table{},
	}
	for _, e := range l.entries() {
		if e.stream != nil {
			if vs, ok := l.streamRaw(e); ok {
				l.nameAll(e.name, vs)
				continue
			}
		}
		b, rel, ok := l.readRaw(e.file)
		if !ok {
			continue
		}
		l.nameAll(e.name, e.read(l, rel, b))
	}
	l.applyUnits()
	l.linkSpreads()
	l.checkPlausible()
	l.applyChanges()
	perrs := l.checkProvenance()
	l.errs.Sort()
	if l.errs.HasErrors() {
		errs := append(l.errs, perrs...)
		errs.Sort()
		return nil, errs.TokenEnds(l.source)
	}
	derrs, fatal := derive(l.set, l.mix, src)
	if fatal {
		return nil, derrs.TokenEnds(l.source)
	}
	sort.Strings(l.set.Files)
	// Provenance errors do not unload the set: its values are sound, only
	// their origin is undeclared, and claims on them are still judged.
	// Nor do derived values that could not be computed: they are left out
	// (Set.Unavailable), and claims on the others are still judged.
	errs = append(append(l.errs, perrs...), derrs...)
	errs.Sort()
	return l.set, errs.TokenEnds(l.source) // nil, warnings, or provenance errors
}

// checkPlausible warns (rule evidence-plausible) at a time value written
// as a whole number that is 1000 times or more another value of the same
// raw key in the same file written with a fraction: "TIME=74602" beside
// "TIME=0.060416" is a curl 7.74.0 time in microseconds (curl#6367), not
// 20.7 hours.
func (l *loader) checkPlausible() {
	type fileKey struct{ file, key string }
	// frac holds, by file and key, the first value written with a
	// fraction: an eager value, or the id of a lazy one.
	type fracAt struct {
		v   *Value
		id  int32
		off int
	}
	frac := map[fileKey]fracAt{}
	isTime := func(v *Value) bool {
		u, ok := units.Canonical(v.Unit)
		return !v.Derived && v.Key != "" && ok && u.Dim == units.Time && v.Value.IsPositive()
	}
	z := l.set.lazy
	// each calls f with every value (a lazy one built for the call, id ≥
	// 0); without units declared, a lazy reading's unit is its own, and
	// one not of time is not built.
	each := func(f func(v *Value, id int32)) {
		for _, v := range l.set.values {
			f(v, -1)
		}
		if z == nil {
			return
		}
		for _, p := range z.parts {
			for i := range p.rs.Len() {
				id := p.start + int32(i)
				if z.dead[id] {
					continue
				}
				if len(z.units) == 0 {
					if u, ok := units.Canonical(p.rs.At(i).Number.Unit); !ok || u.Dim != units.Time {
						continue
					}
				}
				f(z.build(l.set.Manifest.ID, id, z.name(id)), id)
			}
		}
	}
	each(func(v *Value, id int32) {
		if !isTime(v) || !strings.ContainsAny(v.Raw, ".,") {
			return
		}
		k := fileKey{v.Pos.File, v.Key}
		if f, ok := frac[k]; !ok || v.Pos.Offset < f.off {
			at := fracAt{v: v, id: id, off: v.Pos.Offset}
			if id >= 0 {
				at.v = nil // built again if a warning names it
			}
			frac[k] = at
		}
	})
	if len(frac) == 0 {
		return
	}
	each(func(w *Value, _ int32) {
		if !isTime(w) || strings.ContainsAny(w.Raw, ".,") || strings.Trim(w.Raw, "0123456789") != "" {
			return
		}
		at, ok := frac[fileKey{w.Pos.File, w.Key}]
		if !ok {
			return
		}
		f := at.v
		if f == nil {
			f = z.build(l.set.Manifest.ID, at.id, z.name(at.id))
		}
		if w.Unit != f.Unit || w.Value.LessThan(f.Value.Mul(decimal.NewFromInt(1000))) {
			return
		}
		l.errs = append(l.errs, diag.Diagnostic{Pos: w.Pos, Severity: diag.Warning, Rule: diag.EvidencePlausible,
			Message: fmt.Sprintf("%s = %s %s is %s times %s = %s %s at %s, which is written with a fraction; expected the same unit for both: is %s in a finer unit (curl 7.74.0 printed time_* in µs)?",
				w.Ref, w.Raw, w.Unit, w.Value.Div(f.Value).Round(0), f.Ref, f.Raw, f.Unit, f.Pos, w.Raw)})
	})
}

// checkProvenance checks that every raw file the set reads says how it was
// obtained (provenance.go).
func (l *loader) checkProvenance() diag.List {
	var rels []string
	for _, f := range l.set.Files {
		rels = append(rels, strings.TrimPrefix(f, l.setDir+"/"))
	}
	sort.Strings(rels)
	return checkProvenance(&l.set.Manifest, l.mix, l.msrc, rels)
}

// loader is the state of one LoadSet: the manifest's text (for positions),
// the raw files read so far and the diagnostics.
type loader struct {
	root, setDir string
	maxFileSize  int64 // per raw file
	msrc         []byte
	mix          *diag.LineIndex
	set          *Set
	errs         diag.List
	spreads      []spreadLink                 // readings that are another's spread (raw.Reading.SpreadOf)
	byKey        map[string]map[string]*Value // entry name → reading key → value
	files        map[string][]byte            // raw file contents by repository-relative path
	streamed     map[string]bool              // raw files read window by window (streamRaw)
	failed       map[string]bool              // raw files that could not be read (reported once)
	broken       map[string]bool              // raw files whose own errors are reported
	tables       map[string][]labreport.Table // Markdown tables by file
}

// entry is one [[table]], [[transcript]] or [[read]] of the manifest: the
// raw file it reads, the name its values are given (<name>.<local>) and
// the reading step that turns the file into local names.
type entry struct {
	name, file string
	format     string // the reader: "markdown-tables", "transcript" or the [[read]]'s
	units      map[string]string
	changes    []string // local names or "*.suffix" of values that are changes
	spreads    map[string]string
	read       func(l *loader, rel string, src []byte) []localValue
	// stream, when set, reads a large file of a line-oriented format
	// from the open file instead (see loader.streamRaw).
	stream func(l *loader, rel string, r io.Reader) ([]localValue, error)
}

// localValue is one reading named within its entry. A reading with no
// local name is the spread of a named one (raw.Reading.SpreadOf) that
// select leaves unnamed: it is kept as that value's Spread.
type localValue struct {
	local string
	r     *raw.Reading // in its reader's slice: a file's readings are not copied
}

// spreadLink is a reading of entry that is the spread of the reading
// keyed of, and its own value when it is named.
type spreadLink struct {
	entry, of string
	r         raw.Reading
	named     *Value
}

// entries lists the manifest's entries in manifest order of kind: tables,
// transcripts, reads. [[table]] and [[transcript]] are shorthands of a
// [[read]] with format "markdown-tables" or "transcript" that name their
// readings by row and column, or by section and key.
func (l *loader) entries() []entry {
	m := &l.set.Manifest
	var out []entry
	for _, ts := range m.Tables {
		out = append(out, entry{name: ts.Name, file: ts.File, format: "markdown-tables", units: ts.Units, changes: ts.Changes, spreads: ts.Spreads,
			read: func(l *loader, rel string, b []byte) []localValue { return l.readTable(ts, rel, b) }})
	}
	for _, tr := range m.Transcripts {
		out = append(out, entry{name: tr.Name, file: tr.File, format: "transcript", units: tr.Units, changes: tr.Changes, spreads: tr.Spreads,
			read: func(l *loader, rel string, b []byte) []localValue { return l.readTranscript(tr, rel, b) }})
	}
	for _, rs := range m.Reads {
		e := entry{name: rs.Name, file: rs.File, format: rs.Format, units: rs.Units, changes: rs.Changes, spreads: rs.Spreads,
			read: func(l *loader, rel string, b []byte) []localValue { return l.readFormat(rs, rel, b) }}
		if raw.Windowed(rs.Format) {
			e.stream = func(l *loader, rel string, r io.Reader) ([]localValue, error) { return l.streamFormat(rs, rel, r) }
		}
		out = append(out, e)
	}
	return out
}

// decimal returns the decimal mark an entry declares, else the set's.
func (l *loader) decimal(entry string) raw.Decimal {
	if entry != "" {
		return raw.Decimal(entry)
	}
	return raw.Decimal(l.set.Manifest.Decimal)
}

// source returns the content of the manifest or of a raw file read so far
// (repository-relative path), or nil: diag.List.TokenEnds gives the set's
// findings their ranges from it.
func (l *loader) source(file string) []byte {
	if file == l.mix.File() {
		return l.msrc
	}
	return l.files[file]
}

// readRaw returns a raw file of the set (read once), or false after
// reporting why it cannot be read.
func (l *loader) readRaw(name string) ([]byte, string, bool) {
	rel := path.Join(l.setDir, name)
	if b, ok := l.files[rel]; ok {
		return b, rel, true
	}
	if l.failed[rel] {
		return nil, rel, false // reported once
	}
	if err := checkRawPath(l.root, l.setDir, name); err != nil {
		l.errs = append(l.errs, diag.Errorf(l.at(name), diag.EvidencePath, "%v", err))
		l.failed[rel] = true
		return nil, rel, false
	}
	b, err := safefile.ReadFile(l.root, rel, l.maxFileSize)
	if err != nil {
		l.errs = append(l.errs, fileDiag(l.at(name), "file", err))
		l.failed[rel] = true
		return nil, rel, false
	}
	if d := nesting.JSONDocument(b, nesting.MaxDepth); d != nil {
		ix := diag.NewLineIndex(rel, b)
		l.errs = append(l.errs, diag.Errorf(ix.Pos(d.Offset), diag.EvidenceLimit,
			"JSON nests deeper than %d levels; expected a report, not a deeper structure", d.Limit).Spanning(ix.Pos(d.Offset+1)))
		l.failed[rel] = true
		return nil, rel, false
	}
	l.files[rel] = b
	l.set.Files = append(l.set.Files, rel)
	return b, rel, true
}

// streamRaw reads the file of an entry that can be streamed (e.stream)
// when it is larger than a read window and not already in memory: the
// file is read window by window, never whole, so a 200 MB /stats dump
// costs a window. It returns false when the file is to be read whole
// (readRaw); a file that cannot be opened is reported as readRaw would,
// and yields no value.
func (l *loader) streamRaw(e entry) ([]localValue, bool) {
	rel := path.Join(l.setDir, e.file)
	if _, ok := l.files[rel]; ok {
		return nil, false
	}
	if l.failed[rel] {
		return nil, true // reported once
	}
	if err := checkRawPath(l.root, l.setDir, e.file); err != nil {
		l.errs = append(l.errs, diag.Errorf(l.at(e.file), diag.EvidencePath, "%v", err))
		l.failed[rel] = true
		return nil, true
	}
	f, size, err := safefile.Open(l.root, rel, l.maxFileSize)
	if err != nil {
		l.errs = append(l.errs, fileDiag(l.at(e.file), "file", err))
		l.failed[rel] = true
		return nil, true
	}
	defer f.Close()
	if size <= raw.DefaultWindow {
		return nil, false
	}
	limit := l.maxFileSize
	if limit <= 0 {
		limit = 1<<63 - 2
	}
	lr := &io.LimitedReader{R: f, N: limit + 1}
	vs, err := e.stream(l, rel, lr)
	if err == nil && lr.N <= 0 {
		err = &safefile.Error{Kind: safefile.TooLarge, Path: rel, Detail: fmt.Sprintf("grew past the %s limit while being read", safefile.Size(l.maxFileSize))}
	}
	if err != nil {
		var fe *safefile.Error
		if !errors.As(err, &fe) {
			err = &safefile.Error{Kind: safefile.IO, Path: rel, Err: err}
		}
		l.errs = append(l.errs, fileDiag(l.at(e.file), "file", err))
		l.failed[rel] = true
		return nil, true
	}
	if !l.streamed[rel] {
		l.streamed[rel] = true
		l.set.Files = append(l.set.Files, rel)
	}
	return vs, true
}

// at locates text in the manifest.
func (l *loader) at(needle string) diag.Position { return manifest.Locate(l.mix, l.msrc, needle) }

// nameAll names the readings of one entry (name) and keeps those that
// are another's spread for linkSpreads.
func (l *loader) nameAll(entry string, vs []localValue) {
	if l.byKey == nil {
		l.byKey = map[string]map[string]*Value{}
	}
	keys := l.byKey[entry]
	if keys == nil {
		keys = map[string]*Value{}
		l.byKey[entry] = keys
	}
	// Only the readings another is the spread of are looked up by key
	// (linkSpreads): a map of every key would cost as much as the values.
	of := map[string]bool{}
	for _, v := range vs {
		if v.r.SpreadOf != "" {
			of[v.r.SpreadOf] = true
		}
	}
	for _, v := range vs {
		var named *Value
		if v.local != "" {
			if named = l.name(entry, v); named != nil && of[v.r.Key] && keys[v.r.Key] == nil {
				keys[v.r.Key] = named
			}
		}
		if v.r.SpreadOf != "" {
			l.spreads = append(l.spreads, spreadLink{entry: entry, of: v.r.SpreadOf, r: *v.r, named: named})
		}
	}
}

// name gives a reading its value name <entry>.<local>: the one way every
// value of a set is named. It returns the value, nil for a duplicate.
func (l *loader) name(entry string, v localValue) *Value {
	name := entry + "." + v.local
	r := v.r
	if old, dup := l.set.peek(name); dup {
		l.errs = append(l.errs, diag.Errorf(r.Pos, diag.EvidenceDuplicate, "value %s/%s is also named at %s; expected unique names (relabel one)", l.set.Manifest.ID, name, old.Pos))
		return nil
	}
	id := l.set.Manifest.ID
	ref := id + "/" + name // Name shares Ref's bytes: one string a value
	val := &Value{Ref: ref, Set: id, Name: ref[len(id)+1:], Key: r.Key, Value: r.Number.Value, Unit: r.Number.Unit,
		Raw: r.Raw, Pos: r.Pos, Delta: r.Number.Signed, Inputs: r.Inputs, unitFromName: r.Number.UnitFromName}
	l.set.values[name] = val
	return val
}

// readTable names the numeric cells of one [[table]]
// <row key>.<column key>; cells that hold text are kept in NonNumeric.
func (l *loader) readTable(ts manifest.TableSpec, rel string, b []byte) []localValue {
	tables, ok := l.tables[rel]
	if !ok {
		var terrs diag.List
		tables, terrs = labreport.ReadTables(rel, b)
		l.errs = append(l.errs, terrs...)
		l.tables[rel] = tables
		if terrs.HasErrors() {
			l.broken[rel] = true
		}
	}
	var under []labreport.Table
	headings := map[string]bool{}
	for _, t := range tables {
		if strings.Contains(t.Heading, ts.Heading) {
			under = append(under, t)
			headings[t.Heading] = true
		}
	}
	if len(headings) > 1 && !ts.IndexGiven() {
		var hs []string
		for h := range headings {
			hs = append(hs, strconv.Quote(h))
		}
		sort.Strings(hs)
		l.errs = append(l.errs, diag.Errorf(l.at(ts.Heading), diag.EvidenceTable,
			"table %q: heading %q matches %d headings (%s); expected text that names one heading, or an explicit index", ts.Name, ts.Heading, len(headings), strings.Join(hs, ", ")))
		return nil
	}
	if ts.Index > len(under) {
		if !l.broken[rel] { // else the file's own errors explain it
			l.errs = append(l.errs, diag.Errorf(l.at(ts.Heading), diag.EvidenceTable,
				"table %q: %s has %d table(s) under a heading containing %q; expected at least %d", ts.Name, rel, len(under), ts.Heading, ts.Index))
		}
		return nil
	}
	t := under[ts.Index-1]
	if len(t.Header) < 2 {
		l.errs = append(l.errs, diag.Errorf(t.Pos, diag.EvidenceTable, "table %q has %d header cell(s); expected a row-label column and at least one value column", ts.Name, len(t.Header)))
		return nil
	}
	usedRows, usedCols := map[string]bool{}, map[string]bool{}
	cols := make([]string, len(t.Header))
	colUnits := make([]string, len(t.Header)) // "Mean [ms]": ms
	for i, h := range t.Header[1:] {
		colUnits[i+1] = labreport.HeaderUnit(h.Text)
		usedCols[h.Text] = true
		usedCols[strings.NewReplacer("**", "", "`", "").Replace(h.Text)] = true
		k, err := manifest.KeyFor(h.Text, ts.Columns)
		if err != nil {
			l.errs = append(l.errs, diag.Errorf(h.Pos, diag.EvidenceTable, "column %v", err))
			continue
		}
		cols[i+1] = k
	}
	var cells []raw.Reading
	for _, row := range t.Rows {
		if len(row) == 0 {
			continue
		}
		usedRows[row[0].Text] = true
		usedRows[strings.NewReplacer("**", "", "`", "").Replace(row[0].Text)] = true
		rk, err := manifest.KeyFor(row[0].Text, ts.Rows)
		if err != nil {
			l.errs = append(l.errs, diag.Errorf(row[0].Pos, diag.EvidenceTable, "row %v", err))
			continue
		}
		for i := 1; i < len(row) && i < len(cols); i++ {
			if cols[i] == "" {
				continue
			}
			local := rk + "." + cols[i]
			rs, warn, ok := labreport.CellReadings(local, row[i], colUnits[i])
			if warn != nil {
				l.errs = append(l.errs, *warn)
			}
			if !ok {
				// text or an empty cell: a reference to it is reported
				// at the cell
				l.set.NonNumeric[ts.Name+"."+local] = row[i]
				continue
			}
			cells = append(cells, rs...)
		}
	}
	var out []localValue
	resolved, rerrs := raw.ResolveCommas(cells, l.decimal(ts.Decimal), labreport.TableCommas(tables))
	l.errs = append(l.errs, rerrs...)
	for i := range resolved {
		out = append(out, localValue{resolved[i].Key, &resolved[i]})
	}
	for label := range ts.Rows {
		if !usedRows[label] {
			l.errs = append(l.errs, diag.Errorf(l.at(label), diag.EvidenceManifest, "table %q: rows relabel %q matches no row label in %s", ts.Name, label, rel))
		}
	}
	for label := range ts.Columns {
		if !usedCols[label] {
			l.errs = append(l.errs, diag.Errorf(l.at(label), diag.EvidenceManifest, "table %q: columns relabel %q matches no column header in %s", ts.Name, label, rel))
		}
	}
	return out
}

// readTranscript names the readings of one [[transcript]]
// <section key>.<key> (<key> before the first section); a name that
// repeats gets _2, _3, ….
func (l *loader) readTranscript(tr manifest.TranscriptSpec, rel string, b []byte) []localValue {
	entries, terrs := labreport.ReadTranscript(rel, b, raw.ReadOptions{Decimal: l.decimal(tr.Decimal)})
	l.errs = append(l.errs, terrs...)
	var out []localValue
	seen := map[string]int{}
	sections := map[string]bool{}
	for _, e := range entries {
		sec, err := manifest.KeyFor(e.Section, tr.Sections)
		if e.Section == "" {
			sec, err = "", nil
		}
		if err != nil {
			if !sections[e.Section] {
				l.errs = append(l.errs, diag.Errorf(e.Pos, diag.EvidenceTranscript, "section [%s] %v (sections = { %q = \"…\" })", e.Section, err, e.Section))
			}
			sections[e.Section] = true
			continue
		}
		sections[e.Section] = true
		k := manifest.Slug(e.Key)
		if k == "" {
			continue
		}
		local := k
		if sec != "" {
			local = sec + "." + k
		}
		seen[local]++
		if c := seen[local]; c > 1 {
			local = fmt.Sprintf("%s_%d", local, c)
		}
		out = append(out, localValue{local, &raw.Reading{Key: e.Key, Number: e.Number, Raw: e.Raw, Pos: e.Pos}})
	}
	for id := range tr.Sections {
		if !sections[id] {
			l.errs = append(l.errs, diag.Errorf(l.at(id), diag.EvidenceManifest, "transcript %q: sections relabel %q matches no [%s] section with readings in %s", tr.Name, id, id, rel))
		}
	}
	return out
}

// readFormat names the readings of one [[read]]: by select, or by the
// slug of each native key.
func (l *loader) readFormat(rs manifest.ReadSpec, rel string, b []byte) []localValue {
	if _, err := formats.ReaderFor(rs.Format); err != nil {
		return nil // reported by parseManifest
	}
	if l.lazyEntry(rs) {
		list, rerrs := formats.ReadList(rs.Format, rel, b, l.readOptions(rs), raw.DefaultWindow, nil)
		l.errs = append(l.errs, rerrs...)
		l.nameLazy(rs, rel, list)
		return nil
	}
	// Read in windows, keeping only the selected readings.
	readings, rerrs := formats.ReadKept(rs.Format, rel, b, l.readOptions(rs), raw.DefaultWindow, readKeep(rs))
	l.errs = append(l.errs, rerrs...)
	return l.nameReadings(rs, rel, readings, rerrs)
}

// streamFormat is readFormat reading from r window by window.
func (l *loader) streamFormat(rs manifest.ReadSpec, rel string, r io.Reader) ([]localValue, error) {
	var readings []raw.Reading
	rerrs, err := formats.ReadWindowedFrom(rs.Format, rel, r, l.readOptions(rs), raw.DefaultWindow, readKeep(rs), func(r raw.Reading) { readings = append(readings, r) })
	l.errs = append(l.errs, rerrs...)
	if err != nil {
		return nil, err
	}
	return l.nameReadings(rs, rel, readings, rerrs), nil
}

func (l *loader) readOptions(rs manifest.ReadSpec) raw.ReadOptions {
	opt := raw.ReadOptions{Key: rs.Key, CountWhere: rs.CountWhere, Paths: rs.Paths, Decimal: l.decimal(rs.Decimal),
		Patterns: rs.Patterns, Section: rs.Section, Skip: rs.Skip}
	if rs.Select != nil {
		opt.Keep = func(k string) bool { _, ok := rs.Select[k]; return ok }
	}
	return opt
}

// readKeep keeps the selected readings of a [[read]] with select (all
// without), so a large dump with a few selected stats costs a window,
// not the whole file's readings.
func readKeep(rs manifest.ReadSpec) func(raw.Reading) bool {
	if rs.Select == nil {
		return nil
	}
	return func(r raw.Reading) bool {
		_, ok := rs.Select[r.Key]
		_, of := rs.Select[r.SpreadOf]
		return ok || of && r.SpreadOf != ""
	}
}

// nameReadings names the readings of one [[read]]: by select, or by the
// slug of each native key. A selected key without a reading is an error
// unless the file had errors of its own (rerrs).
func (l *loader) nameReadings(rs manifest.ReadSpec, rel string, readings []raw.Reading, rerrs diag.List) []localValue {
	out := make([]localValue, 0, len(readings))
	found := map[string]bool{}
	for i := range readings {
		r := &readings[i]
		var local string
		if rs.Select != nil {
			s, ok := rs.Select[r.Key]
			if !ok {
				if _, of := rs.Select[r.SpreadOf]; of && r.SpreadOf != "" {
					out = append(out, localValue{"", r}) // the spread of a selected value
				}
				continue
			}
			local = s
			found[r.Key] = true
		} else if local = manifest.SlugKey(r.Key); local == "" {
			// Never dropped unsaid: the value would only meet "unknown
			// evidence reference" in a claim.
			l.errs = append(l.errs, diag.Diagnostic{Pos: r.Pos, Severity: diag.Warning, Rule: diag.EvidenceNumber,
				Message: fmt.Sprintf("read %q: the reading %q (%s) has a key with an empty part, which names no value; give it a name with select = { %q = \"NAME\" }", rs.Name, r.Key, r.Raw, r.Key)})
			continue
		}
		out = append(out, localValue{local, r})
	}
	for k := range rs.Select {
		if !found[k] && len(rerrs) == 0 {
			l.errs = append(l.errs, diag.Errorf(l.at(k), diag.EvidenceSelect, "read %q: %s has no numeric reading %q; run evdoc values %s to list what it holds", rs.Name, rel, k, rel))
		}
	}
	return out
}

// applyUnits attaches the units the manifest declares ("units" of each
// entry) to the values they match. A declaration that contradicts the unit
// the raw text writes or its format defines (fortio's seconds, Envoy's
// milliseconds, k6's and vegeta's ratios; see package raw) is an error,
// but for %p declared on a percentage the raw text writes: a column of
// differences of percentages, in points.
func (l *loader) applyUnits() {
	var rules []unitRule
	for _, e := range l.entries() {
		keys := make([]string, 0, len(e.units))
		for k := range e.units {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, key := range keys {
			unit := e.units[key]
			if _, ok := units.Canonical(unit); !ok || unit == "" {
				l.errs = append(l.errs, diag.Errorf(l.at(key), diag.EvidenceManifest, "unit %q for %q: expected one of %s", unit, key, strings.Join(units.Names(), ", ")))
				continue
			}
			rules = append(rules, unitRule{prefix: e.name + ".", key: key, unit: unit, format: e.format})
		}
	}
	// Each value meets the declarations in order (entries, then keys):
	// a value's declarations apply one after another.
	matched := make([]bool, len(rules))
	apply := func(name string, v *Value) {
		for k, u := range rules {
			if local, ok := strings.CutPrefix(name, u.prefix); ok && matchesLocal(local, u.key) {
				matched[k] = true
				if d := l.applyUnit(v, u); d != nil {
					l.errs = append(l.errs, *d)
				}
			}
		}
	}
	for name, v := range l.set.values {
		apply(name, v)
	}
	if z := l.set.lazy; z != nil && len(rules) > 0 {
		for id, name := range z.live() {
			apply(name, z.build(l.set.Manifest.ID, id, name))
		}
		z.units = rules
	}
	for k, u := range rules {
		if !matched[k] {
			l.errs = append(l.errs, diag.Errorf(l.at(u.key), diag.EvidenceManifest, "units: %q matches no value of %q", u.key, strings.TrimSuffix(u.prefix, ".")))
		}
	}
}

// DeclaredFormat returns the format in which the evidence set in setDir
// (repository-relative, under root) reads the raw file rel (repository-
// relative): a [[read]] entry's format, "transcript" for a [[transcript]]
// entry, "markdown-tables" for a [[table]] entry; "" when no entry reads
// the file or the manifest cannot be read. `evdoc values FILE` reads a
// file as its set does.
func DeclaredFormat(root, setDir, rel string) string {
	mfile := path.Join(setDir, manifest.FileName)
	src, err := safefile.ReadFile(root, mfile, safefile.SpecMaxSize)
	if err != nil || nesting.TOML(src, nesting.MaxDepth) != nil {
		return ""
	}
	m, errs := manifest.Parse(mfile, path.Base(setDir), src)
	if m == nil || errs.HasErrors() {
		return ""
	}
	reads := func(file string) bool { return path.Join(setDir, file) == rel }
	for _, r := range m.Reads {
		if reads(r.File) {
			return r.Format
		}
	}
	for _, t := range m.Transcripts {
		if reads(t.File) {
			return "transcript"
		}
	}
	for _, t := range m.Tables {
		if reads(t.File) {
			return "markdown-tables"
		}
	}
	return ""
}
