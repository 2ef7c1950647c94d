package raw

import (
	"fmt"
	"hash/maphash"
	"math"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// What the raw-file readers share: the accumulator of one file's readings
// and diagnostics (Recorder) and the number syntax they accept. Its users
// are the Envoy readers (package envoy) and the readers of other lab
// tools' output, the lab-format readers (packages structured, loadtest,
// cmdtools, gobench): fortio, curl -w write-out, CSV, generic JSON,
// istioctl tables, dig and the rest. Each is a ListReader (see reader.go)
// listed in package formats' table under the format name given in its
// doc comment.
//
// Conventions shared by every lab-format reader:
//
//   - The file must be UTF-8 text; a byte order mark and CRLF line
//     endings are read, positions counting the file's own bytes
//     (CheckRawText).
//   - Reading.Raw is exactly the bytes of src at Reading.Pos, except for the
//     aggregate readings that carry Inputs (CSV count_where, istioctl
//     t<N>.rows), whose Raw is documented with them.
//   - Reading.Number.Start/End delimit the number within Raw: Start is 0
//     and End is len(Raw).
//   - Values are exact decimals. E-notation (1.0301e+05, 8.8889218e-05) is
//     accepted where the format writes it, with an exponent of at most
//     ±400 (MaxExponent).
//   - A key that occurs more than once in a file is numbered in file order:
//     the first keeps its name, later ones get "#2", "#3", … (several
//     requests in one curl capture, several fortio runs, duplicate JSON
//     keys, repeated dig answer names).
//   - Errors are diag.Errorf diagnostics with the format's catalogue rule
//     ("evidence-<format>", e.g. diag.EvidenceCSV for "csv")
//     and a message ending in what was expected; at most maxFileErrors are
//     reported per file.
//
// The Envoy readers follow the same conventions but two: a repeated key
// is not numbered, and errors have the rule "evidence-envoy" and stop at
// EnvoyMaxErrors with a note that more follow (see package envoy).

// MaxExponent bounds the decimal exponent of e-notation numbers, so that a
// hostile "1e999999999" cannot make later arithmetic materialise a billion
// digits: Envoy and the lab tools write uint64 and float64 values, none of
// which needs more.
const MaxExponent = 400

// IsMachineNumber reports whether s is a plain or e-notation number as
// Envoy and the lab tools print them (the JSON number grammar, leniently
// allowing leading zeros: -?digits[.digits][(e|E)[+|-]digits]); the
// Envoy readers also accept it inside JSON strings. Its digits are read
// by the scanner claims and ParseCell use (unit.ScanDigits), without
// thousands separators or full-width digits, which machine formats never
// print.
func IsMachineNumber(s string) bool {
	t := strings.TrimPrefix(s, "-")
	d, err := unit.ScanDigitsShape(t, unit.Style{})
	// More than unit.MaxDigits digits is no measurement, and converting
	// them would cost time quadratic in their number.
	if err != nil || d.Len == 0 || d.Grouped || d.FullWidth || d.Len > unit.MaxDigits+1 {
		return false
	}
	rest := t[d.Len:]
	if rest == "" {
		return true
	}
	if rest[0] != 'e' && rest[0] != 'E' {
		return false
	}
	rest = rest[1:]
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		rest = rest[1:]
	}
	return rest != "" && strings.Trim(rest, "0123456789") == ""
}

// Recorder accumulates the readings and diagnostics of one raw file. The
// Envoy readers and the lab-format readers differ in their error cap (see
// NewRecorder) and in how they add a reading: number (Envoy: an error for a
// non-number, a repeated key kept as it is) or add and addNum (lab formats:
// a repeated key numbered "#2", "#3", …).
type Recorder struct {
	Index *diag.LineIndex
	Src   []byte
	Rule  diag.RuleID // the rule of every error errorf reports
	Out   *Readings
	Errs  diag.List

	maxErrors int    // errorf keeps the first maxErrors diagnostics
	capNote   string // added once when errorf first drops one; "" for none
	capped    bool   // capNote was added

	seen keyCounts // readings add has made per key
}

// keyCounts counts the readings rawRead.add makes per key without holding
// every key: a key's first reading is found through a table of reading
// indices, compared with the key the list holds, and only a key met again
// (or whose first reading dropUnkept dropped) is held, with its count. A
// file of distinct keys (a histogram line per bucket) costs 8 to 16 bytes
// a key.
type keyCounts struct {
	seed  maphash.Seed
	slots []uint32 // 0: empty; keyGone: a dropped reading's; else the index+1 of a key's first reading
	n     int      // slots not empty
	more  map[string]int
}

// keyGone marks the slot of a first reading dropUnkept dropped; its key
// is in more.
const keyGone = math.MaxUint32

// next returns the number of the reading of key l is about to get (its
// Len()): 1 for the key's first, 2 for the second, ….
func (k *keyCounts) next(l *Readings, key string) int {
	if c, ok := k.more[key]; ok {
		k.more[key] = c + 1
		return c + 1
	}
	if k.slots == nil {
		k.seed, k.slots = maphash.MakeSeed(), make([]uint32, 16)
	}
	if 2*(k.n+1) > len(k.slots) {
		k.grow(l)
	}
	mask := len(k.slots) - 1
	for i := int(maphash.String(k.seed, key)) & mask; ; i = (i + 1) & mask {
		switch s := k.slots[i]; {
		case s == 0:
			if l.Len() >= keyGone-1 {
				k.count(key, 1)
				return 1
			}
			k.slots[i] = uint32(l.Len()) + 1
			k.n++
			return 1
		case s != keyGone && l.keyIs(int(s-1), key):
			k.count(key, 2)
			return 2
		}
	}
}

// count holds c as key's count.
func (k *keyCounts) count(key string, c int) {
	if k.more == nil {
		k.more = map[string]int{}
	}
	k.more[key] = c
}

// grow doubles the table.
func (k *keyCounts) grow(l *Readings) {
	old := k.slots
	k.slots, k.n = make([]uint32, 2*len(old)), 0
	mask := len(k.slots) - 1
	for _, s := range old {
		if s == 0 || s == keyGone {
			continue
		}
		i := int(l.keyHash(int(s-1), k.seed)) & mask
		for k.slots[i] != 0 {
			i = (i + 1) & mask
		}
		k.slots[i] = s
		k.n++
	}
}

// moved records that the reading at index i, of key key, is now at index
// j, or was dropped (j < 0): a dropped first reading's key is held with
// its count.
func (k *keyCounts) moved(i, j int, key string) {
	if k.slots == nil || i == j {
		return
	}
	mask := len(k.slots) - 1
	for s := int(maphash.String(k.seed, key)) & mask; k.slots[s] != 0; s = (s + 1) & mask {
		if k.slots[s] != uint32(i)+1 {
			continue
		}
		if j >= 0 {
			k.slots[s] = uint32(j) + 1
			return
		}
		k.slots[s] = keyGone
		if _, ok := k.more[key]; !ok {
			k.count(key, 1)
		}
		return
	}
}

// reset forgets every key.
func (k *keyCounts) reset() {
	if k.n == 0 && len(k.more) == 0 {
		return
	}
	if len(k.slots) > 64 && 8*k.n < len(k.slots) {
		k.slots = nil // a table sized for a long line is not cleared line after line
	} else {
		clear(k.slots)
	}
	k.n = 0
	clear(k.more)
}

// ForgetKeys forgets the keys r has added: a key added again is not
// numbered "#2" (a reader whose keys of different records never meet,
// as an access log's r<N>.… keys, starts the count again each record).
func (r *Recorder) ForgetKeys() { r.seen.reset() }

// NewRecorder checks src (see CheckRawText) and prepares its reading: errors
// get rule, and beyond maxErrors diagnostics errorf adds capNote once (when
// not "") and drops the rest.
func NewRecorder(file string, src []byte, rule diag.RuleID, maxErrors int, capNote string) (*Recorder, diag.List) {
	ix := diag.NewLineIndex(file, src)
	if errs := CheckRawText(ix, src); errs != nil {
		return nil, errs
	}
	return &Recorder{Index: ix, Src: src, Rule: rule, maxErrors: maxErrors, capNote: capNote, Out: newReadings(ix, src)}, nil
}

// maxFileErrors caps the diagnostics one lab-format reader reports for one
// file; the rest are dropped silently.
const maxFileErrors = 20

// StartRead checks src (see CheckRawText) and prepares a lab-format reading
// whose errors have rule, the format's catalogue rule.
func StartRead(file string, src []byte, rule diag.RuleID) (*Recorder, diag.List) {
	return NewRecorder(file, src, rule, maxFileErrors, "")
}

// Errorf reports an error at byte offset off, within the error cap.
func (r *Recorder) Errorf(off int, format string, args ...any) {
	if len(r.Errs) >= r.maxErrors {
		if r.capNote != "" && !r.capped {
			r.capped = true
			r.Errs = append(r.Errs, diag.Errorf(r.Index.Pos(off), r.Rule, "%s", r.capNote))
		}
		return
	}
	r.Errs = append(r.Errs, diag.Errorf(r.Index.Pos(off), r.Rule, format, args...))
}

// Warnf reports a warning (rule diag.EvidenceNumber) at byte offset off; a
// warning does not count towards the error cap.
func (r *Recorder) Warnf(off int, format string, args ...any) {
	r.Errs = append(r.Errs, diag.Diagnostic{Pos: r.Index.Pos(off), Severity: diag.Warning, Rule: diag.EvidenceNumber, Message: fmt.Sprintf(format, args...)})
}

// Result returns the readings and diagnostics in the Reader convention.
func (r *Recorder) Result() (*Readings, diag.List) {
	r.Out.Flush()
	return r.Out, r.Errs
}

// Push appends the reading key = v, raw being the bytes of src at off and
// unit the unit written in raw ("" for none).
func (r *Recorder) Push(key string, off int, raw string, v decimal.Decimal, unit string) {
	r.Out.Add(Reading{Key: key, Number: Number{Value: v, Unit: unit, Start: 0, End: len(raw)}, Raw: raw, Pos: r.Index.Pos(off)})
}

// BaseKey is key without the "#N" suffix add gives a repeated key; a "#"
// that is part of the name ("a#b.rq_time.p50") stays.
func BaseKey(key string) string {
	j := strings.LastIndexByte(key, '#')
	if j <= 0 || j == len(key)-1 {
		return key
	}
	for _, c := range key[j+1:] {
		if c < '0' || c > '9' {
			return key
		}
	}
	return key[:j]
}

// Add records a reading whose raw token starts at byte offset off, giving
// a repeated key its "#N" suffix (BaseKey removes it).
func (r *Recorder) Add(key string, off int, raw string, v decimal.Decimal, unit string) {
	if off < 0 || off+len(raw) > len(r.Src) || string(r.Src[off:off+len(raw)]) != raw {
		r.Errorf(off, "internal error: token %q of %q is not at its position; expected the reader to locate every token", raw, key)
		return
	}
	if n := r.seen.next(r.Out, key); n > 1 {
		key = fmt.Sprintf("%s#%d", key, n)
	}
	r.Push(key, off, raw, v, unit)
}

// AddNum records the number token raw at off, if it is one (ParseDecimal).
func (r *Recorder) AddNum(key string, off int, raw string, unit string) bool {
	v, ok := ParseDecimal(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(raw), unit)))
	if !ok {
		return false
	}
	r.Add(key, off, raw, v, unit)
	return true
}

// ParseDecimal converts a machine number token (IsMachineNumber). It reports
// false for anything else, including exponents beyond ±MaxExponent and
// exponents of more than four digits (leading zeros included; compare
// parseEnvoyNumber).
func ParseDecimal(s string) (decimal.Decimal, bool) {
	if !IsMachineNumber(s) {
		return decimal.Decimal{}, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e := strings.TrimLeft(s[i+1:], "+-")
		if len(e) > 4 {
			return decimal.Decimal{}, false
		}
		if n, err := strconv.Atoi(e); err != nil || n > MaxExponent {
			return decimal.Decimal{}, false
		}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, false
	}
	return d, true
}

// AddJSONNumber records n under key when it is a JSON number or a string
// holding exactly a number ("53"). For a number Raw is the literal; for a
// numeric string Raw is the text between the quotes and Pos its first
// byte. It reports whether n was numeric; a numeric literal out of range
// is an error.
func (r *Recorder) AddJSONNumber(key string, n *jsontree.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case jsontree.Number:
		raw := string(r.Src[n.Start:n.End])
		if !r.AddNum(key, n.Start, raw, "") {
			r.Errorf(n.Start, "number %s of %q is out of range; expected an exponent within ±%d", raw, key, MaxExponent)
		}
		return true
	case jsontree.String:
		if n.End-n.Start < 3 {
			return false
		}
		return r.AddNum(key, n.Start+1, string(r.Src[n.Start+1:n.End-1]), "")
	}
	return false
}
