package evidence

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/agnivade/levenshtein"
	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Value is one named number of an evidence set.
//
// Ref is "<set id>/<name>", the text after "ev:" in a claim. Value is exact.
// Unit is the unit the raw text wrote after the number ("%", "s", "ms",
// "B", "KB", "KiB", …), else the one its format defines (fortio's "s",
// Envoy's "ms", curl's "s"; see package raw), else the one the manifest
// declares, else "". For a value read from a file, Pos is the first byte of
// the raw token and Raw its text. For a derived value, Pos is its
// declaration in the manifest, Raw the expression, and Inputs the
// positions of every raw value it was computed from, in first-use order.
// Key is the reading's key as its reader gives it (what a [[read]]'s
// select and units name: "DurationHistogram.Count", a table cell's
// "row.column"); "" for a derived value.
type Value struct {
	Ref     string          `json:"ref"`
	Set     string          `json:"set"`
	Name    string          `json:"name"`
	Key     string          `json:"key,omitempty"`
	Value   decimal.Decimal `json:"value"`
	Unit    string          `json:"unit,omitempty"`
	Raw     string          `json:"raw"`
	Pos     diag.Position   `json:"pos"`
	Derived bool            `json:"derived,omitempty"`
	Inputs  []diag.Position `json:"inputs,omitempty"`
	// Delta is set for a difference: a raw value written with + or Δ, or
	// a derived value computed by delta() or a top-level subtraction.
	Delta bool `json:"delta,omitempty"`
	// PointsFrom is, for a derived difference of two percentages (unit
	// %p: delta(a, b), a - b), the percentage it is taken from (a of
	// delta, b of a - b), in %: the relative change the same two values
	// make is Value/PointsFrom, which a claim written in % on it is told.
	PointsFrom *decimal.Decimal `json:"points_from,omitempty"`
	// Spread is the spread printed after ± next to this value, when its
	// reader saw the ± (a markdown-tables cell "319.5 ± 11.2", benchstat's
	// "825µs ±11%", fortio's "avg A +/- S"; raw.Reading.SpreadOf) or the
	// manifest's spreads declares it; nil when no spread is known. A
	// claim "mean ± spread" on the value checks both numbers.
	Spread *Spread `json:"spread,omitempty"`
	// SpreadOf is the Ref of the value this one is the spread of, when
	// both are named.
	SpreadOf string `json:"spread_of,omitempty"`
	// unitFromName: Unit comes from a naming convention of the raw file
	// (raw.Number.UnitFromName), which a declaration of another
	// dimension overrides.
	unitFromName bool
}

// Spread is the spread of a value: Value in Unit, or, when Relative, a
// percentage of the value (benchstat's ±11%); Raw and Pos are the raw
// token and its position, Ref the spread's own name when it has one
// (h.java.mean_pm), else "".
type Spread struct {
	Value    decimal.Decimal `json:"value"`
	Unit     string          `json:"unit,omitempty"`
	Relative bool            `json:"relative,omitempty"`
	Raw      string          `json:"raw"`
	Pos      diag.Position   `json:"pos"`
	Ref      string          `json:"ref,omitempty"`
}

// Set is one loaded evidence set: its manifest, the repository-relative
// paths of the raw files it reads, and its values by name.
type Set struct {
	Dir      string // repository-relative directory, slash-separated
	Manifest manifest.Manifest
	Files    []string
	// values holds the values named eagerly, lazy the readings of
	// [[read]] entries without select (lazy.go); Value, All, Names and
	// Len see both.
	values map[string]*Value
	lazy   *lazyValues
	// NonNumeric holds the table cells that would be named but are not
	// numbers ("N/A", "forty-one", an empty cell), by name, so a
	// reference to one can be reported at the cell.
	NonNumeric map[string]labreport.Cell
	// Unavailable holds the derived values that could not be computed
	// (an input cell is empty, a division by zero…), by name, with the
	// position of the error that explains it: the set still loads, so
	// claims on its other values are judged, and a claim on one of these
	// is reported as a consequence of that error.
	Unavailable map[string]diag.Position
}

// Sorted returns the set's values sorted by name.
func (s *Set) Sorted() []*Value {
	out := make([]*Value, 0, s.Len())
	for v := range s.All() {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Store holds every loaded evidence set. Build one with Load.
type Store struct {
	Sets []*Set
	// Broken holds the ids (directory names) of sets that failed to load;
	// BrokenAt the position of each one's first error (the root cause a
	// claim resting on it is reported against).
	Broken   map[string]bool
	BrokenAt map[string]diag.Position
	// byID indexes Sets by manifest id for set, made at the first
	// look-up after Sets changed length or place (an append).
	byID atomic.Pointer[setIndex]
}

// setIndex is a Store's sets by manifest id, as Sets held them: data
// and n are the slice it was made of (its first element's place and its
// length), and ids the first set with each id, as a scan in order finds
// it.
type setIndex struct {
	data **Set
	n    int
	ids  map[string]*Set
}

// Lookup returns the value a claim reference ("set/name") names.
func (s *Store) Lookup(ref string) (*Value, bool) {
	setID, name, _ := strings.Cut(ref, "/")
	if set := s.set(setID); set != nil {
		return set.Value(name)
	}
	return nil, false
}

// NonNumeric reports whether ref names a table cell that holds text, not
// a number, and returns that cell.
func (s *Store) NonNumeric(ref string) (labreport.Cell, bool) {
	setID, name, _ := strings.Cut(ref, "/")
	if set := s.set(setID); set != nil {
		c, ok := set.NonNumeric[name]
		return c, ok
	}
	return labreport.Cell{}, false
}

// set returns the loaded set with manifest id, or nil: the first of
// Sets with that id. Claims look a set up once a reference, so Sets is
// indexed by id (a map look-up instead of comparing the id with every
// set's), made again when Sets is another slice or another length; an
// id the index does not hold is looked for in Sets.
func (s *Store) set(id string) *Set {
	if len(s.Sets) > 4 {
		x := s.byID.Load()
		if x == nil || x.data != &s.Sets[0] || x.n != len(s.Sets) {
			x = &setIndex{data: &s.Sets[0], n: len(s.Sets), ids: make(map[string]*Set, len(s.Sets))}
			for _, set := range s.Sets {
				if _, ok := x.ids[set.Manifest.ID]; !ok {
					x.ids[set.Manifest.ID] = set
				}
			}
			s.byID.Store(x)
		}
		if set := x.ids[id]; set != nil && set.Manifest.ID == id {
			return set
		}
	}
	for _, set := range s.Sets {
		if set.Manifest.ID == id {
			return set
		}
	}
	return nil
}

// Unavailable reports whether ref names a derived value of a loaded set
// that could not be computed, and the position of the error that says
// why.
func (s *Store) Unavailable(ref string) (diag.Position, bool) {
	setID, name, _ := strings.Cut(ref, "/")
	if set := s.set(setID); set != nil {
		p, ok := set.Unavailable[name]
		return p, ok
	}
	return diag.Position{}, false
}

// Values returns every value, sorted by Ref.
func (s *Store) Values() []*Value {
	var out []*Value
	for _, set := range s.Sets {
		for v := range set.All() {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out
}

// Load reads every evidence set under dir, a directory of the repository at
// root (for example "evidence"): each subdirectory holding an evidence.toml
// is one set. Positions name files relative to root. A set with errors
// contributes none of its values (Store.Broken, Store.BrokenAt), except
// when the only errors are derived values that cannot be computed: those
// are left out (Set.Unavailable) and the others kept. All errors are
// returned, sorted.
func Load(root, dir string) (*Store, diag.List) {
	return LoadWith(root, dir, Options{})
}

// Options tunes LoadWith and LoadSetWith.
type Options struct {
	// MaxFileSize bounds each raw evidence file, in bytes; zero means
	// safefile.DefaultMaxSize (256 MiB). A larger file is an
	// evidence-limit error at the manifest line that names it.
	MaxFileSize int64
}

func (o Options) maxFileSize() int64 {
	if o.MaxFileSize == 0 {
		return safefile.DefaultMaxSize
	}
	return o.MaxFileSize
}

// LoadWith is Load with options.
func LoadWith(root, dir string, opt Options) (*Store, diag.List) {
	st := &Store{Broken: map[string]bool{}, BrokenAt: map[string]diag.Position{}}
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
		if _, err := os.Lstat(filepath.Join(root, setDir, manifest.FileName)); err != nil {
			errs = append(errs, diag.Diagnostic{Pos: diag.Position{File: setDir}, Severity: diag.Warning, Rule: diag.EvidenceManifest,
				Message: fmt.Sprintf("directory has no %s; it is not an evidence set and none of its files are read", manifest.FileName)})
			continue
		}
		set, serrs := LoadSetWith(root, setDir, opt)
		errs = append(errs, serrs...)
		if set == nil {
			st.Broken[e.Name()] = true
			first := append(diag.List(nil), serrs...)
			first.Sort()
			for _, d := range first {
				if d.Severity == diag.Error {
					st.BrokenAt[e.Name()] = d.Pos
					break
				}
			}
			continue
		}
		st.Sets = append(st.Sets, set)
	}
	errs.Sort()
	return st, errs
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

// Suggest returns the known reference closest to ref, an unknown claim
// reference ("set/name"), for a "did you mean" hint: the set is the one
// whose id is nearest to ref's set id by Levenshtein distance (the set
// itself when it exists), the name the nearest name in that set. A
// candidate is offered only when its distance is at most a third of the
// longer string's length (at least 1) — so "curl.strikt.code" suggests
// "curl.strict.code" — and ties go to the alphabetically first. ok is
// false when nothing is that close, or ref has no "/".
//
// Cost: one distance per set id and one per name of the chosen set, not
// one per value of the store.
func (s *Store) Suggest(ref string) (suggestion string, ok bool) {
	setID, name, found := strings.Cut(ref, "/")
	if !found {
		return "", false
	}
	var set *Set
	bestD := -1
	for _, st := range s.Sets {
		d := levenshtein.ComputeDistance(setID, st.Manifest.ID)
		if d <= closeEnough(setID, st.Manifest.ID) && (bestD < 0 || d < bestD || d == bestD && st.Manifest.ID < set.Manifest.ID) {
			set, bestD = st, d
		}
	}
	if set == nil {
		return "", false
	}
	best := ""
	bestD = -1
	for n := range set.Names() {
		if n == name && set.Manifest.ID != setID {
			return set.Manifest.ID + "/" + n, true // only the set id was mistyped
		}
		d := levenshtein.ComputeDistance(name, n)
		if d <= closeEnough(name, n) && (bestD < 0 || d < bestD || d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	if bestD < 0 {
		return "", false
	}
	return set.Manifest.ID + "/" + best, true
}

// closeEnough is the largest Levenshtein distance at which b is offered
// for a as a likely typo: a third of the longer length, at least 1.
func closeEnough(a, b string) int {
	n := max(len([]rune(a)), len([]rune(b))) / 3
	return max(n, 1)
}
