package evidence

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// Value is one named number of an evidence set.
//
// Ref is "<set id>/<name>", the text after "ev:" in a claim. Value is exact.
// Unit is what the raw text wrote after the number ("", "%", "s", "ms",
// "B", "KB", "KiB"). For a value read from a file, Pos is the first byte of
// the raw token and Raw its text. For a derived value, Pos is its
// declaration in the manifest, Raw the expression, and Inputs the
// positions of every raw value it was computed from, in first-use order.
type Value struct {
	Ref     string          `json:"ref"`
	Set     string          `json:"set"`
	Name    string          `json:"name"`
	Value   decimal.Decimal `json:"value"`
	Unit    string          `json:"unit,omitempty"`
	Raw     string          `json:"raw"`
	Pos     diag.Position   `json:"pos"`
	Derived bool            `json:"derived,omitempty"`
	Inputs  []diag.Position `json:"inputs,omitempty"`
	// Delta is set for a difference: a raw value written with + or Δ, or
	// a derived value computed by delta() or a top-level subtraction.
	Delta bool `json:"delta,omitempty"`
}

// Set is one loaded evidence set: its manifest, the repository-relative
// paths of the raw files it reads, and its values by name.
type Set struct {
	Dir      string // repository-relative directory, slash-separated
	Manifest Manifest
	Files    []string
	Values   map[string]*Value
	// NonNumeric holds the table cells that would be named but are not
	// numbers ("N/A", "forty-one"), by name, so a reference to one can be
	// reported at the cell.
	NonNumeric map[string]raw.Cell
}

// Sorted returns the set's values sorted by name.
func (s *Set) Sorted() []*Value {
	out := make([]*Value, 0, len(s.Values))
	for _, v := range s.Values {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Store holds every loaded evidence set. Build one with Load.
type Store struct {
	Sets []*Set
	// Broken holds the ids (directory names) of sets that failed to load.
	Broken map[string]bool
	refs   map[string]*Value
}

// Lookup returns the value a claim reference ("set/name") names.
func (s *Store) Lookup(ref string) (*Value, bool) {
	v, ok := s.refs[ref]
	return v, ok
}

// NonNumeric reports whether ref names a table cell that holds text, not
// a number, and returns that cell.
func (s *Store) NonNumeric(ref string) (raw.Cell, bool) {
	setID, name, _ := strings.Cut(ref, "/")
	for _, set := range s.Sets {
		if set.Manifest.ID == setID {
			c, ok := set.NonNumeric[name]
			return c, ok
		}
	}
	return raw.Cell{}, false
}

// Values returns every value, sorted by Ref.
func (s *Store) Values() []*Value {
	out := make([]*Value, 0, len(s.refs))
	for _, v := range s.refs {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out
}

// Load reads every evidence set under dir, a directory of the repository at
// root (for example "evidence"): each subdirectory holding an evidence.toml
// is one set. Positions name files relative to root. A set with errors
// contributes none of its values; all errors are returned, sorted.
func Load(root, dir string) (*Store, diag.List) {
	st := &Store{refs: map[string]*Value{}, Broken: map[string]bool{}}
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return st, diag.List{diag.Errorf(diag.Position{File: dir}, diag.EvidenceIO, "cannot read evidence directory: %v", err)}
	}
	var errs diag.List
	for _, e := range entries {
		setDir := path.Join(filepath.ToSlash(dir), e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			errs = append(errs, diag.Errorf(diag.Position{File: setDir}, diag.EvidencePath, "evidence set is a symbolic link; expected a directory inside %s", dir))
			st.Broken[e.Name()] = true
			continue
		}
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, setDir, ManifestName)); err != nil {
			errs = append(errs, diag.Diagnostic{Pos: diag.Position{File: setDir}, Severity: diag.Warning, Rule: diag.EvidenceManifest,
				Message: fmt.Sprintf("directory has no %s; it is not an evidence set and none of its files are read", ManifestName)})
			continue
		}
		set, serrs := LoadSet(root, setDir)
		errs = append(errs, serrs...)
		if set == nil {
			st.Broken[e.Name()] = true
			continue
		}
		st.Sets = append(st.Sets, set)
		for _, v := range set.Values {
			st.refs[v.Ref] = v
		}
	}
	errs.Sort()
	return st, errs
}

// LoadSet reads one evidence set from setDir (repository-relative, under
// root). It returns nil and the errors when the set cannot be read whole;
// a set that loads may still come with warnings (such as a curl decimal
// comma read as a decimal point) and with diag.EvidenceOrigin errors (a file
// without a declared origin), which do not keep its values from use.
func LoadSet(root, setDir string) (*Set, diag.List) {
	mfile := path.Join(setDir, ManifestName)
	src, err := os.ReadFile(filepath.Join(root, mfile))
	if err != nil {
		return nil, diag.List{diag.Errorf(diag.Position{File: mfile}, diag.EvidenceIO, "cannot read manifest: %v", err)}
	}
	m, errs := parseManifest(mfile, path.Base(setDir), src)
	if errs != nil {
		return nil, errs
	}
	mix := diag.NewLineIndex(mfile, src)
	set := &Set{Dir: setDir, Manifest: *m, Values: map[string]*Value{}}
	files := map[string][]byte{}
	failed := map[string]bool{}
	readRaw := func(name string) ([]byte, string, bool) {
		rel := path.Join(setDir, name)
		if b, ok := files[rel]; ok {
			return b, rel, true
		}
		if failed[rel] {
			return nil, rel, false // reported once
		}
		if err := checkRawPath(root, setDir, name); err != nil {
			errs = append(errs, diag.Errorf(locate(mix, src, name), diag.EvidencePath, "%v", err))
			failed[rel] = true
			return nil, rel, false
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			errs = append(errs, diag.Errorf(locate(mix, src, name), diag.EvidenceIO, "cannot read %s: %v", rel, err))
			failed[rel] = true
			return nil, rel, false
		}
		files[rel] = b
		set.Files = append(set.Files, rel)
		return b, rel, true
	}
	add := func(name, text string, n raw.Number, pos diag.Position) {
		if old, dup := set.Values[name]; dup {
			errs = append(errs, diag.Errorf(pos, diag.EvidenceDuplicate, "value %s/%s is also named at %s; expected unique names (relabel one)", m.ID, name, old.Pos))
			return
		}
		set.Values[name] = &Value{Ref: m.ID + "/" + name, Set: m.ID, Name: name, Value: n.Value, Unit: n.Unit, Raw: text, Pos: pos, Delta: n.Signed}
	}
	tableCache := map[string][]raw.Table{}
	nonNumeric := map[string]raw.Cell{} // named cells whose text is not a number
	brokenFiles := map[string]bool{}    // files whose errors are already reported
	for _, ts := range m.Tables {
		b, rel, ok := readRaw(ts.File)
		if !ok {
			continue
		}
		tables, ok := tableCache[rel]
		if !ok {
			var terrs diag.List
			tables, terrs = raw.ReadTables(rel, b)
			errs = append(errs, terrs...)
			tableCache[rel] = tables
			if terrs != nil {
				brokenFiles[rel] = true
			}
		}
		var under []raw.Table
		headings := map[string]bool{}
		for _, t := range tables {
			if strings.Contains(t.Heading, ts.Heading) {
				under = append(under, t)
				headings[t.Heading] = true
			}
		}
		if len(headings) > 1 && !ts.indexSet {
			var hs []string
			for h := range headings {
				hs = append(hs, strconv.Quote(h))
			}
			sort.Strings(hs)
			errs = append(errs, diag.Errorf(locate(mix, src, ts.Heading), diag.EvidenceTable,
				"table %q: heading %q matches %d headings (%s); expected text that names one heading, or an explicit index", ts.Name, ts.Heading, len(headings), strings.Join(hs, ", ")))
			continue
		}
		if ts.Index > len(under) && brokenFiles[rel] {
			continue // the file's own errors explain it
		}
		if ts.Index > len(under) {
			errs = append(errs, diag.Errorf(locate(mix, src, ts.Heading), diag.EvidenceTable,
				"table %q: %s has %d table(s) under a heading containing %q; expected at least %d", ts.Name, rel, len(under), ts.Heading, ts.Index))
			continue
		}
		t := under[ts.Index-1]
		if len(t.Header) < 2 {
			errs = append(errs, diag.Errorf(t.Pos, diag.EvidenceTable, "table %q has %d header cell(s); expected a row-label column and at least one value column", ts.Name, len(t.Header)))
			continue
		}
		usedRows, usedCols := map[string]bool{}, map[string]bool{}
		cols := make([]string, len(t.Header))
		for i, h := range t.Header[1:] {
			usedCols[h.Text] = true
			usedCols[strings.NewReplacer("**", "", "`", "").Replace(h.Text)] = true
			k, err := keyFor(h.Text, ts.Columns)
			if err != nil {
				errs = append(errs, diag.Errorf(h.Pos, diag.EvidenceTable, "column %v", err))
				continue
			}
			cols[i+1] = k
		}
		for _, row := range t.Rows {
			if len(row) == 0 {
				continue
			}
			usedRows[row[0].Text] = true
			usedRows[strings.NewReplacer("**", "", "`", "").Replace(row[0].Text)] = true
			rk, err := keyFor(row[0].Text, ts.Rows)
			if err != nil {
				errs = append(errs, diag.Errorf(row[0].Pos, diag.EvidenceTable, "row %v", err))
				continue
			}
			for i := 1; i < len(row) && i < len(cols); i++ {
				if cols[i] == "" {
					continue
				}
				n, ok := raw.ParseCell(row[i].Text)
				if !ok {
					if row[i].Text != "" {
						nonNumeric[ts.Name+"."+rk+"."+cols[i]] = row[i]
					}
					continue
				}
				pos := row[i].Pos
				pos.Column += n.Start
				pos.Offset += n.Start
				add(ts.Name+"."+rk+"."+cols[i], row[i].Text[n.Start:n.End], n, pos)
			}
		}
		for label := range ts.Rows {
			if !usedRows[label] {
				errs = append(errs, diag.Errorf(locate(mix, src, label), diag.EvidenceManifest, "table %q: rows relabel %q matches no row label in %s", ts.Name, label, rel))
			}
		}
		for label := range ts.Columns {
			if !usedCols[label] {
				errs = append(errs, diag.Errorf(locate(mix, src, label), diag.EvidenceManifest, "table %q: columns relabel %q matches no column header in %s", ts.Name, label, rel))
			}
		}
	}
	for _, tr := range m.Transcripts {
		b, rel, ok := readRaw(tr.File)
		if !ok {
			continue
		}
		entries, terrs := raw.ReadTranscript(rel, b)
		errs = append(errs, terrs...)
		seen := map[string]int{}
		sections := map[string]bool{}
		for _, e := range entries {
			sec, err := keyFor(e.Section, tr.Sections)
			if e.Section == "" {
				sec, err = "", nil
			}
			if err != nil {
				if !sections[e.Section] {
					errs = append(errs, diag.Errorf(e.Pos, diag.EvidenceTranscript, "section [%s] %v (sections = { %q = \"…\" })", e.Section, err, e.Section))
				}
				sections[e.Section] = true
				continue
			}
			sections[e.Section] = true
			k := slug(e.Key)
			if k == "" {
				continue
			}
			name := tr.Name + "." + k
			if sec != "" {
				name = tr.Name + "." + sec + "." + k
			}
			seen[name]++
			if c := seen[name]; c > 1 {
				name = fmt.Sprintf("%s_%d", name, c)
			}
			add(name, e.Raw, e.Number, e.Pos)
		}
		for id := range tr.Sections {
			if !sections[id] {
				errs = append(errs, diag.Errorf(locate(mix, src, id), diag.EvidenceManifest, "transcript %q: sections relabel %q matches no [%s] section with readings in %s", tr.Name, id, id, rel))
			}
		}
	}
	for _, rs := range m.Reads {
		b, rel, ok := readRaw(rs.File)
		if !ok {
			continue
		}
		read, err := raw.ReaderFor(rs.Format)
		if err != nil {
			continue // reported by parseManifest
		}
		readings, rerrs := read(rel, b, raw.ReadOptions{Key: rs.Key, CountWhere: rs.CountWhere, Paths: rs.Paths})
		errs = append(errs, rerrs...)
		found := map[string]bool{}
		for _, r := range readings {
			var local string
			if rs.Select != nil {
				l, ok := rs.Select[r.Key]
				if !ok {
					continue
				}
				local = l
				found[r.Key] = true
			} else if local = slugKey(r.Key); local == "" {
				continue
			}
			add(rs.Name+"."+local, r.Raw, r.Number, r.Pos)
			if v := set.Values[rs.Name+"."+local]; len(r.Inputs) > 0 && v.Pos == r.Pos {
				v.Inputs = r.Inputs
			}
		}
		for k := range rs.Select {
			if !found[k] && len(rerrs) == 0 {
				errs = append(errs, diag.Errorf(locate(mix, src, k), diag.EvidenceSelect, "read %q: %s has no numeric reading %q; run evdoc values %s to list what it holds", rs.Name, rel, k, rel))
			}
		}
	}
	type unitDecl struct {
		prefix string
		units  map[string]string
	}
	var decls []unitDecl
	for _, t := range m.Tables {
		decls = append(decls, unitDecl{t.Name, t.Units})
	}
	for _, t := range m.Transcripts {
		decls = append(decls, unitDecl{t.Name, t.Units})
	}
	for _, r := range m.Reads {
		decls = append(decls, unitDecl{r.Name, r.Units})
	}
	for _, d := range decls {
		for key, unit := range d.units {
			if !knownUnits[unit] {
				errs = append(errs, diag.Errorf(locate(mix, src, key), diag.EvidenceManifest, "unit %q for %q: expected one of %%, %%p, ns, us, ms, s, min, h, d, B, KB, KiB, MB, MiB, GB, GiB, /s, count, x", unit, key))
				continue
			}
			matched := false
			for name, v := range set.Values {
				local, ok := strings.CutPrefix(name, d.prefix+".")
				if !ok {
					continue
				}
				if local == key || strings.HasPrefix(key, "*.") && (strings.HasSuffix(local, key[1:]) || local == key[2:]) {
					if v.Unit != "" && v.Unit != unit {
						errs = append(errs, diag.Errorf(v.Pos, diag.EvidenceUnit, "%s is written in %s but the manifest declares %s", v.Ref, v.Unit, unit))
					}
					v.Unit = unit
					matched = true
				}
			}
			if !matched {
				errs = append(errs, diag.Errorf(locate(mix, src, key), diag.EvidenceManifest, "units: %q matches no value of %q", key, d.prefix))
			}
		}
	}
	var rels []string
	for _, f := range set.Files {
		rels = append(rels, strings.TrimPrefix(f, setDir+"/"))
	}
	sort.Strings(rels)
	perrs := checkProvenance(m, mix, src, rels)
	errs.Sort()
	if errs.HasErrors() {
		errs = append(errs, perrs...)
		errs.Sort()
		return nil, errs
	}
	set.NonNumeric = map[string]raw.Cell{}
	for name, c := range nonNumeric {
		set.NonNumeric[name] = c
	}
	if derrs := derive(set, mix, src); derrs != nil {
		return nil, derrs
	}
	sort.Strings(set.Files)
	// Provenance errors do not unload the set: its values are sound, only
	// their origin is undeclared, and claims on them are still judged.
	errs = append(errs, perrs...)
	errs.Sort()
	return set, errs // nil, warnings, or provenance errors
}

// checkRawPath rejects raw-file references that would leave the set's
// directory: absolute paths, "..", and symbolic links.
func checkRawPath(root, setDir, name string) error {
	if name == "" || path.IsAbs(name) || filepath.IsAbs(name) || strings.Contains(name, "\\") {
		return fmt.Errorf("file %q: expected a relative path inside %s", name, setDir)
	}
	clean := path.Clean(name)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("file %q leaves %s; expected a path inside the evidence set", name, setDir)
	}
	p := root
	for _, part := range strings.Split(path.Join(setDir, clean), "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return fmt.Errorf("file %q: %v", name, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("file %q: %s is a symbolic link; expected a regular file inside the evidence set", name, filepath.ToSlash(p))
		}
	}
	return nil
}
