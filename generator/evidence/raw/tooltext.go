package raw

import (
	"iter"
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// What the readers of load testers' and system tools' console output
// share (vegeta, wrk, hey, ghz, k6, go test -bench, benchstat, time,
// ping, mtr, kubectl, Envoy access logs): a value token with the unit the
// tool writes glued to it or after a space (ToolNumber), percentile keys
// (PctKey) and echoed commands (OutputLines). The lines each format
// defines as not data are package formats' (sweep.go).

// ToolUnit is what a unit suffix a tool writes means: the canonical unit
// of package unit, and a power of ten the number is scaled by ("k" in
// wrk's 8.74k is 10^3 with no unit).
type ToolUnit struct {
	Unit  string
	Shift int32
}

// TimeSuffixes are the time units Go's time.Duration.String, wrk, k6 and
// the shells write, each as a canonical unit.
var TimeSuffixes = map[string]ToolUnit{
	"ns": {Unit: "ns"}, "us": {Unit: "us"}, "µs": {Unit: "us"}, "μs": {Unit: "us"}, "ms": {Unit: "ms"},
	"s": {Unit: "s"}, "m": {Unit: "min"}, "h": {Unit: "h"},
}

// NumberPrefix matches the number at the start of a token: an optional
// sign, digits with an optional fraction and an optional exponent.
var NumberPrefix = regexp.MustCompile(`^[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d{1,4})?`)

// greekMuSeconds is microseconds written with the Greek small letter mu
// (U+03BC) instead of the micro sign (U+00B5).
const greekMuSeconds = "\u03bcs"

// goDurationParts matches one component of a Go duration (1h2m3.5s).
var goDurationParts = regexp.MustCompile(`(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|μs|ns)`)

// goMultiDuration matches a Go duration of two or more components.
var goMultiDuration = regexp.MustCompile(`^-?(?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|μs|ns)){2,}$`)

// LookupUnit returns units[suffix], and for μs written with the Greek
// small letter mu (U+03BC) the entry of µs with the micro sign (U+00B5),
// which Go's time.Duration.String and the tools write: a value copied
// through a font or an editor that maps one to the other is still read,
// as Go's time.ParseDuration reads both.
func LookupUnit(units map[string]ToolUnit, suffix string) (ToolUnit, bool) {
	u, ok := units[suffix]
	if !ok && suffix == greekMuSeconds {
		u, ok = units["µs"]
	}
	return u, ok
}

// ToolNumber reads tok, a number followed by one of the unit suffixes of
// units (or by none), exactly: "2.66ms" is 2.66 ms, "8.74k" is 8740 with
// k in units meaning 10^3, "10m0s" (a Go duration of several components,
// read when units has "s") is 600 s. It reports false when tok is not
// such a token.
func ToolNumber(tok string, units map[string]ToolUnit) (decimal.Decimal, string, bool) {
	if units["s"].Unit == "s" && goMultiDuration.MatchString(tok) {
		var sum decimal.Decimal
		for _, m := range goDurationParts.FindAllStringSubmatch(tok, -1) {
			v, ok := ParseDecimal(m[1])
			if !ok {
				return decimal.Decimal{}, "", false
			}
			s, _ := unit.Convert(v, TimeSuffixes[m[2]].Unit, "s")
			sum = sum.Add(s)
		}
		if strings.HasPrefix(tok, "-") {
			sum = sum.Neg()
		}
		return sum, "s", true
	}
	num := NumberPrefix.FindString(tok)
	if num == "" {
		return decimal.Decimal{}, "", false
	}
	v, ok := ParseDecimal(strings.TrimPrefix(num, "+"))
	if !ok {
		return decimal.Decimal{}, "", false
	}
	suffix := tok[len(num):]
	u, ok := LookupUnit(units, suffix)
	if !ok && suffix != "" {
		return decimal.Decimal{}, "", false
	}
	return v.Shift(u.Shift), u.Unit, true
}

// AddTool records the token tok at byte offset off under key, read by
// ToolNumber with units; unitOf, when tok writes no unit, is the unit
// the format defines for it ("" for none). It reports whether tok was
// read.
func (r *Recorder) AddTool(key string, off int, tok string, units map[string]ToolUnit, unitOf string) bool {
	v, u, ok := ToolNumber(tok, units)
	if !ok {
		return false
	}
	if u == "" {
		u = unitOf
	}
	r.Add(key, off, tok, v, u)
	return true
}

// AddSpaced records "NUMBER UNIT" at off (the unit after a space, as
// ping's "134 ms", hey's "0.0035 secs" and k6's "157 MB" write it):
// raw is the whole text, the number and its unit word. It reports
// whether raw was such a text.
func (r *Recorder) AddSpaced(key string, off int, raw string, units map[string]ToolUnit) bool {
	num, word, ok := strings.Cut(raw, " ")
	word = strings.TrimLeft(word, " ")
	if !ok {
		return r.AddTool(key, off, raw, units, "")
	}
	u, known := LookupUnit(units, word)
	v, ok := ParseDecimal(strings.TrimPrefix(num, "+"))
	if !known || !ok {
		return false
	}
	r.Add(key, off, raw, v.Shift(u.Shift), u.Unit)
	return true
}

// PctKey turns a percentile as a tool writes it ("99", "99.9", "99.900",
// "50.000%") into a key segment: p99, p99_9, p50.
func PctKey(p string) string {
	p = strings.TrimSuffix(strings.TrimSpace(p), "%")
	if strings.Contains(p, ".") {
		p = strings.TrimRight(strings.TrimRight(p, "0"), ".")
	}
	return "p" + strings.ReplaceAll(p, ".", "_")
}

// OutputLines yields each line of src (its byte offset and text) as a
// tool's output is read: a shell command echoed before the output ("$ wrk
// -t2 …") is not data and comes as an empty text, ending what came
// before it as a blank line does (a table, a section).
func OutputLines(src []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for _, ln := range SplitLines(src) {
			text := string(src[ln.Start:ln.End])
			if isCommand(text) {
				text = ""
			}
			if !yield(ln.Start, text) {
				return
			}
		}
	}
}

// isCommand reports whether a line is a shell command echoed before a
// tool's output ("$ wrk -t2 …"): not data.
func isCommand(text string) bool {
	t := strings.TrimLeft(text, " \t")
	return t == "$" || strings.HasPrefix(t, "$ ")
}

// Fields splits text at runs of spaces and tabs, returning each field's
// byte range.
func Fields(text string) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == ' ' || text[i] == '\t' {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// ReadJSONTree reads every number and numeric string of a JSON document
// (as package structured's ReadJSON does without paths), keyed by rename of its path
// (member names joined with ".", array elements as "[i]"); a rename to
// "" drops a value that names something rather than measuring it (a
// percentile's own number), and rename sees the node to tell.
func (r *Recorder) ReadJSONTree(root *jsontree.Node, rename func(path string, n *jsontree.Node) string) {
	jsontree.Walk(root, func(p string, n *jsontree.Node) {
		if n.Kind == jsontree.Object || n.Kind == jsontree.Array {
			return
		}
		if key := rename(p, n); key != "" {
			r.AddJSONNumber(key, n)
		}
	})
}

// Added returns the reading appended since the reader had n, or nil
// when none was (a token out of range is an error, not a reading): a
// reader sets the unit its format defines on it.
func (r *Recorder) Added(n int) *Reading {
	if r.Out.Len() > n {
		return r.Out.Ref(r.Out.Len() - 1)
	}
	return nil
}

// decimalInt is n as a decimal.
func decimalInt(n int) decimal.Decimal { return decimal.NewFromInt(int64(n)) }

// clockTime is the time of day inside a timestamp a tool prints, after
// the date's "T" or a space, or alone: 14:03:22, 14:03:22.123 (RFC 3339's
// 2024-03-01T14:03:22.123Z, date's "Wed Dec  2 03:50:26 UTC 2026").
var clockTime = regexp.MustCompile(`(?:^|[T ])((?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d{1,9})?)(?:$|[^\d:.])`)

// AddClock records the time of day in the timestamp tok (at byte offset
// off) under key: seconds since midnight in unit tod, as the tool wrote
// it (in the time zone it printed), Raw being the hh:mm:ss[.fraction]
// text, so a claim quoting 14:03:22 binds to it. It reports whether tok
// holds a time of day.
func (r *Recorder) AddClock(key string, off int, tok string) bool {
	m := clockTime.FindStringSubmatchIndex(tok)
	if m == nil {
		return false
	}
	raw := tok[m[2]:m[3]]
	h, _ := ParseDecimal(raw[0:2])
	mi, _ := ParseDecimal(raw[3:5])
	s, ok := ParseDecimal(raw[6:])
	if !ok {
		return false
	}
	r.Add(key, off+m[2], raw, h.Mul(decimalInt(3600)).Add(mi.Mul(decimalInt(60))).Add(s), "tod")
	return true
}

// Match is the first of several expressions that matched a line, and
// its submatch indexes.
type Match struct {
	Re *regexp.Regexp
	M  []int
}

// MatchAny returns the first of res that matches text (Re nil when none).
func MatchAny(text string, res ...*regexp.Regexp) Match {
	for _, re := range res {
		if m := re.FindStringSubmatchIndex(text); m != nil {
			return Match{re, m}
		}
	}
	return Match{}
}

// LooksJSON reports whether src's first non-space byte opens a JSON
// object, as the tools' JSON reports start.
func LooksJSON(src []byte) bool {
	s := strings.TrimLeft(string(src[TextStart(src):]), " \t\r\n")
	return s != "" && s[0] == '{'
}

// PercentUnit reads a percentage (11%).
var PercentUnit = map[string]ToolUnit{"%": {Unit: "%"}}

// KeySlug lower-cases s and replaces each run of characters outside
// [a-z0-9] with one "_", trimming "_" at both ends.
func KeySlug(s string) string {
	var b strings.Builder
	under := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.Trim(b.String(), "_")
}

// FirstField returns s up to its first space or tab.
func FirstField(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// ParseWholeJSON parses the file being read as one JSON document (after
// a byte order mark), its syntax errors reported with the reader's rule.
func (r *Recorder) ParseWholeJSON() (*jsontree.Node, diag.List) {
	return jsontree.ParseFile(r.Index, r.Src, TextStart(r.Src), len(r.Src), r.Rule)
}
