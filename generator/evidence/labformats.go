package evidence

// Raw-data readers for lab tool output other than Envoy's admin endpoints:
// fortio (JSON and console text), curl -w write-out, CSV, generic JSON,
// istioctl tables and dig. Each is a Reader (see reader.go) registered in
// readers() under the format name given in its doc comment.
//
// Conventions shared by every reader in this file:
//
//   - The file must be clean UTF-8 text with LF line endings (checkText).
//   - Reading.Raw is exactly the bytes of src at Reading.Pos, except for the
//     aggregate readings that carry Inputs (CSV count_where, istioctl
//     t<N>.rows), whose Raw is documented with them.
//   - Reading.Number.Start/End delimit the number within Raw: Start is 0
//     and End is len(Raw).
//   - Values are exact decimals. E-notation (1.0301e+05, 8.8889218e-05) is
//     accepted where the format writes it, with an exponent of at most
//     ±400 (lfMaxExponent).
//   - A key that occurs more than once in a file is numbered in file order:
//     the first keeps its name, later ones get "#2", "#3", … (several
//     requests in one curl capture, several fortio runs, duplicate JSON
//     keys, repeated dig answer names).
//   - Errors are diag.Errorf diagnostics with the rule "evidence-<format>"
//     and a message ending in what was expected; at most lfMaxErrors are
//     reported per file.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
	"github.com/shopspring/decimal"

	"evdoc/generator/diag"
)

// lfMaxExponent bounds the decimal exponent of e-notation numbers, so that
// a hostile "1e999999999" cannot make later arithmetic materialise a
// billion digits.
const lfMaxExponent = 400

// lfMaxErrors caps the diagnostics one reader reports for one file.
const lfMaxErrors = 20

// lfNumberRe is a plain or e-notation number as lab tools print them (the
// JSON number grammar, leniently allowing leading zeros).
var lfNumberRe = regexp.MustCompile(`^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// lfDecimal converts a number token matching lfNumberRe exactly. It
// reports false for anything else, including exponents beyond
// ±lfMaxExponent.
func lfDecimal(s string) (decimal.Decimal, bool) {
	if !lfNumberRe.MatchString(s) {
		return decimal.Decimal{}, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e := strings.TrimLeft(s[i+1:], "+-")
		if len(e) > 4 {
			return decimal.Decimal{}, false
		}
		if n, err := strconv.Atoi(e); err != nil || n > lfMaxExponent {
			return decimal.Decimal{}, false
		}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, false
	}
	return d, true
}

// lfRead accumulates the readings and diagnostics of one file.
type lfRead struct {
	ix   *diag.LineIndex
	src  []byte
	rule string
	out  []Reading
	errs diag.List
	seen map[string]int
}

// lfStart checks src (see checkText) and prepares a reading of format.
func lfStart(file string, src []byte, format string) (*lfRead, diag.List) {
	ix := diag.NewLineIndex(file, src)
	if errs := checkText(ix, src); errs != nil {
		return nil, errs
	}
	return &lfRead{ix: ix, src: src, rule: "evidence-" + format, seen: map[string]int{}}, nil
}

// add records a reading whose raw token starts at byte offset off, giving
// a repeated key its "#N" suffix.
func (r *lfRead) add(key string, off int, raw string, v decimal.Decimal, unit string) {
	if off < 0 || off+len(raw) > len(r.src) || string(r.src[off:off+len(raw)]) != raw {
		r.errorf(off, "internal error: token %q of %q is not at its position; expected the reader to locate every token", raw, key)
		return
	}
	r.seen[key]++
	if n := r.seen[key]; n > 1 {
		key = fmt.Sprintf("%s#%d", key, n)
	}
	r.out = append(r.out, Reading{Key: key, Number: Number{Value: v, Unit: unit, Start: 0, End: len(raw)}, Raw: raw, Pos: r.ix.Pos(off)})
}

// addNum records the number token raw at off, if it is one (lfDecimal).
func (r *lfRead) addNum(key string, off int, raw string, unit string) bool {
	v, ok := lfDecimal(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(raw), unit)))
	if !ok {
		return false
	}
	r.add(key, off, raw, v, unit)
	return true
}

func (r *lfRead) errorf(off int, format string, args ...any) {
	if len(r.errs) >= lfMaxErrors {
		return
	}
	r.errs = append(r.errs, diag.Errorf(r.ix.Pos(off), r.rule, format, args...))
}

func (r *lfRead) result() ([]Reading, diag.List) { return r.out, r.errs }

// lfSlug lower-cases s and replaces each run of characters outside
// [a-z0-9] with one "_", trimming "_" at both ends.
func lfSlug(s string) string {
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

// lfPercentile names a percentile "p<value>" with "." written "_":
// 50 -> "p50", 99.9 -> "p99_9".
func lfPercentile(v decimal.Decimal) string {
	return "p" + strings.ReplaceAll(v.String(), ".", "_")
}

// ---------------------------------------------------------------------
// JSON

// lfNode is one JSON value with its byte range in the source.
type lfNode struct {
	kind       byte // '{' object, '[' array, '"' string, '0' number, 't'/'f' boolean, 'n' null
	start, end int
	keys       []string // object member names, decoded
	keyOffs    []int    // offset of each member name's opening quote
	vals       []*lfNode
}

// member returns the value of the first member called name, or nil.
func (n *lfNode) member(name string) *lfNode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i, k := range n.keys {
		if k == name {
			return n.vals[i]
		}
	}
	return nil
}

func (n *lfNode) kindName() string {
	switch n.kind {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	}
	return "null"
}

// lfJSON parses JSON that encoding/json has already validated, recording
// byte offsets. It stays bounds-checked so a mismatch can never panic.
type lfJSON struct {
	src    []byte
	i, lim int
	bad    bool
	depth  int
	deep   int // offset of the bracket that nested too deep, or -1
}

// lfMaxDepth bounds JSON nesting (encoding/json allows 10000): paths of a
// deeper document would cost memory quadratic in its depth.
const lfMaxDepth = 512

// lfParseJSON validates src[start:end] with encoding/json (reporting the
// first syntax error at its line:col) and parses it into an lfNode tree.
func lfParseJSON(ix *diag.LineIndex, src []byte, start, end int, rule string) (*lfNode, diag.List) {
	var raw json.RawMessage
	if err := json.Unmarshal(src[start:end], &raw); err != nil {
		off := start
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = start + int(se.Offset)
			// "invalid character" errors are counted after the offending
			// byte; "unexpected end" errors point at the end.
			if !strings.HasPrefix(se.Error(), "unexpected end") && off > start {
				off--
			}
		}
		return nil, diag.List{diag.Errorf(ix.Pos(off), rule, "invalid JSON: %v; expected a JSON document (RFC 8259)", err)}
	}
	p := &lfJSON{src: src, i: start, lim: end, deep: -1}
	n := p.value()
	if p.deep >= 0 {
		return nil, diag.List{diag.Errorf(ix.Pos(p.deep), rule, "JSON nested deeper than %d levels; expected a shallower document", lfMaxDepth)}
	}
	if n == nil || p.bad {
		return nil, diag.List{diag.Errorf(ix.Pos(p.i), rule, "cannot parse JSON here; expected a JSON value")}
	}
	return n, nil
}

func (p *lfJSON) ws() {
	for p.i < p.lim {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *lfJSON) peek() byte {
	if p.i < p.lim {
		return p.src[p.i]
	}
	return 0
}

func (p *lfJSON) value() *lfNode {
	p.ws()
	if p.bad || p.i >= p.lim {
		p.bad = true
		return nil
	}
	switch c := p.src[p.i]; {
	case c == '{' || c == '[':
		if p.depth >= lfMaxDepth {
			p.deep, p.bad = p.i, true
			return nil
		}
		p.depth++
		defer func() { p.depth-- }()
		if c == '{' {
			return p.object()
		}
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		n := &lfNode{kind: '0', start: p.i}
		for p.i < p.lim && strings.IndexByte("+-.eE0123456789", p.src[p.i]) >= 0 {
			p.i++
		}
		n.end = p.i
		return n
	case c == 't' || c == 'f' || c == 'n':
		n := &lfNode{kind: c, start: p.i}
		for p.i < p.lim && p.src[p.i] >= 'a' && p.src[p.i] <= 'z' {
			p.i++
		}
		n.end = p.i
		return n
	}
	p.bad = true
	return nil
}

func (p *lfJSON) str() *lfNode {
	n := &lfNode{kind: '"', start: p.i}
	p.i++
	for p.i < p.lim {
		switch p.src[p.i] {
		case '\\':
			p.i += 2
		case '"':
			p.i++
			n.end = p.i
			return n
		default:
			p.i++
		}
	}
	p.bad = true
	return nil
}

func (p *lfJSON) object() *lfNode {
	n := &lfNode{kind: '{', start: p.i}
	p.i++
	p.ws()
	if p.peek() == '}' {
		p.i++
		n.end = p.i
		return n
	}
	for !p.bad {
		p.ws()
		if p.peek() != '"' {
			p.bad = true
			return nil
		}
		k := p.str()
		if k == nil {
			return nil
		}
		var name string
		if err := json.Unmarshal(p.src[k.start:k.end], &name); err != nil {
			name = string(p.src[k.start+1 : k.end-1])
		}
		p.ws()
		if p.peek() != ':' {
			p.bad = true
			return nil
		}
		p.i++
		v := p.value()
		if v == nil {
			return nil
		}
		n.keys = append(n.keys, name)
		n.keyOffs = append(n.keyOffs, k.start)
		n.vals = append(n.vals, v)
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			n.end = p.i
			return n
		default:
			p.bad = true
		}
	}
	return nil
}

func (p *lfJSON) array() *lfNode {
	n := &lfNode{kind: '[', start: p.i}
	p.i++
	p.ws()
	if p.peek() == ']' {
		p.i++
		n.end = p.i
		return n
	}
	for !p.bad {
		v := p.value()
		if v == nil {
			return nil
		}
		n.vals = append(n.vals, v)
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			n.end = p.i
			return n
		default:
			p.bad = true
		}
	}
	return nil
}

// jsonNumber records n under key when it is a JSON number or a string
// holding exactly a number ("53"). For a number Raw is the literal; for a
// numeric string Raw is the text between the quotes and Pos its first
// byte. It reports whether n was numeric; a numeric literal out of range
// is an error.
func (r *lfRead) jsonNumber(key string, n *lfNode) bool {
	if n == nil {
		return false
	}
	switch n.kind {
	case '0':
		raw := string(r.src[n.start:n.end])
		if !r.addNum(key, n.start, raw, "") {
			r.errorf(n.start, "number %s of %q is out of range; expected an exponent within ±%d", raw, key, lfMaxExponent)
		}
		return true
	case '"':
		if n.end-n.start < 3 {
			return false
		}
		return r.addNum(key, n.start+1, string(r.src[n.start+1:n.end-1]), "")
	}
	return false
}

// jsonDecimal returns the value of a number or numeric-string node.
func (r *lfRead) jsonDecimal(n *lfNode) (decimal.Decimal, bool) {
	if n == nil {
		return decimal.Decimal{}, false
	}
	switch n.kind {
	case '0':
		return lfDecimal(string(r.src[n.start:n.end]))
	case '"':
		if n.end-n.start >= 3 {
			return lfDecimal(string(r.src[n.start+1 : n.end-1]))
		}
	}
	return decimal.Decimal{}, false
}

// lfFortioHistograms are the top-level fortio result members holding a
// histogram object.
var lfFortioHistograms = map[string]bool{"DurationHistogram": true, "ErrorsDurationHistogram": true, "Sizes": true, "HeaderSizes": true}

// lfFortioStats are the summary members of a fortio histogram object.
var lfFortioStats = map[string]bool{"Count": true, "Min": true, "Max": true, "Sum": true, "Avg": true, "StdDev": true}

// ReadFortioJSON reads a fortio result JSON file (fortio load -json, the
// web UI's saved result, or Nighthawk's fortio-compatible output); format
// "fortio-json". Readings, keyed by the JSON member names:
//
//	NumThreads, ActualQPS, RequestedQPS, …   every top-level number or numeric string
//	                                         ("RequestedQPS": "30" and 30 alike;
//	                                         ActualDuration is in nanoseconds)
//	DurationHistogram.Count|Min|Max|Sum|Avg|StdDev   seconds (Count is a count)
//	DurationHistogram.p50, .p99_9, …         Percentiles[].Value by Percentile
//	                                         ("." written "_"), seconds
//	Sizes.*, HeaderSizes.*, ErrorsDurationHistogram.*   the same, bytes or seconds
//	RetCodes.<code>                          count per code as the JSON key writes it:
//	                                         "200", "503", gRPC "1" (SERVING), and
//	                                         "-1" for socket errors (RetCodes.-1)
//
// Counts Nighthawk writes as strings ("Count": "53") are read as numbers;
// Raw is then the text between the quotes and Pos its first digit. The
// Data buckets are not read (use format "json" for those). Errors: invalid
// JSON (at the line:col of the first syntax error), a document that is not
// an object with RetCodes or DurationHistogram, and a RetCodes entry that
// is not a count.
func ReadFortioJSON(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "fortio-json")
	if errs != nil {
		return nil, errs
	}
	root, errs := lfParseJSON(r.ix, src, 0, len(src), r.rule)
	if errs != nil {
		return nil, errs
	}
	if root.kind != '{' || (root.member("RetCodes") == nil && root.member("DurationHistogram") == nil) {
		r.errorf(root.start, "JSON %s is not a fortio result; expected an object with RetCodes and DurationHistogram (fortio load -json)", root.kindName())
		return r.result()
	}
	for i, k := range root.keys {
		v := root.vals[i]
		switch {
		case k == "RetCodes":
			if v.kind != '{' {
				r.errorf(v.start, "RetCodes is a %s; expected an object of counts per code", v.kindName())
				continue
			}
			for j, code := range v.keys {
				if !r.jsonNumber("RetCodes."+code, v.vals[j]) {
					r.errorf(v.vals[j].start, "RetCodes %q is a %s; expected a count", code, v.vals[j].kindName())
				}
			}
		case lfFortioHistograms[k] && v.kind == '{':
			for j, s := range v.keys {
				switch hv := v.vals[j]; {
				case lfFortioStats[s]:
					r.jsonNumber(k+"."+s, hv)
				case s == "Percentiles" && hv.kind == '[':
					for _, e := range hv.vals {
						if p, ok := r.jsonDecimal(e.member("Percentile")); ok {
							r.jsonNumber(k+"."+lfPercentile(p), e.member("Value"))
						}
					}
				}
			}
		default:
			r.jsonNumber(k, v)
		}
	}
	return r.result()
}

// ReadJSON reads any JSON document; format "json". Every number, and
// every string holding exactly a number ("53", "-1.5e3"), is a reading
// keyed by its path: member names joined with "." and array indexes as
// "[i]", e.g. "a.b[0].c" or, for a top-level array, "[0].endpoints[1].x".
// Member names are written as they are, so a name holding "." or "[" makes
// an ambiguous path; a document that is a single number has the key "$".
// Raw is the number literal, or the text between the quotes of a numeric
// string with Pos at its first byte.
//
// With opt.Paths set only those paths are read, and a listed path that is
// missing, or that holds something other than a number, is an error at the
// nearest existing value. Invalid JSON is an error at the line:col of the
// first syntax error.
func ReadJSON(file string, src []byte, opt ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "json")
	if errs != nil {
		return nil, errs
	}
	root, errs := lfParseJSON(r.ix, src, 0, len(src), r.rule)
	if errs != nil {
		return nil, errs
	}
	var want map[string]bool
	if len(opt.Paths) > 0 {
		want = map[string]bool{}
		for _, p := range opt.Paths {
			want[p] = true
		}
	}
	nodes := map[string]*lfNode{} // with opt.Paths: every value by path
	numeric := map[string]bool{}
	var walk func(p string, n *lfNode)
	walk = func(p string, n *lfNode) {
		if _, dup := nodes[p]; want != nil && !dup {
			nodes[p] = n
		}
		switch n.kind {
		case '{':
			for i, k := range n.keys {
				if p == "" {
					walk(k, n.vals[i])
				} else {
					walk(p+"."+k, n.vals[i])
				}
			}
		case '[':
			for i, e := range n.vals {
				walk(fmt.Sprintf("%s[%d]", p, i), e)
			}
		default:
			key := p
			if key == "" {
				key = "$"
			}
			if want != nil && !want[key] {
				return
			}
			if r.jsonNumber(key, n) {
				numeric[key] = true
			}
		}
	}
	walk("", root)
	if want != nil {
		paths := make([]string, 0, len(want))
		for p := range want {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			if numeric[p] {
				continue
			}
			if n, ok := nodes[p]; ok && p != "" {
				r.errorf(n.start, "path %q is a %s; expected a number or numeric string", p, n.kindName())
				continue
			}
			near, at := lfNearestPath(p, nodes)
			r.errorf(at, "path %q is not in the document (nearest existing path %q); expected a path such as a.b[0].c naming a number", p, near)
		}
	}
	return r.result()
}

// lfNearestPath finds the longest existing prefix of path p (dropping
// ".name" and "[i]" steps) and its offset.
func lfNearestPath(p string, nodes map[string]*lfNode) (string, int) {
	for p != "" {
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			p = ""
			break
		}
		p = p[:i]
		if n, ok := nodes[p]; ok && p != "" {
			return p, n.start
		}
	}
	if n, ok := nodes[""]; ok {
		return "$", n.start
	}
	return "$", 0
}

// ---------------------------------------------------------------------
// fortio console text

var (
	ftCode    = regexp.MustCompile(`^Code\s+(-?\d+)\s*:\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)(\s*%)\))?\s*$`)
	ftProto   = regexp.MustCompile(`^(tcp|udp)\s+(\S[^:]*?)\s*:\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)(\s*%)\))?\s*$`)
	ftSockets = regexp.MustCompile(`^Sockets used:\s*(\d+)`)
	ftAllDone = regexp.MustCompile(`^All done (\d+) calls(?: \(plus (\d+) warmup\))?\s+(\S+)( ms)? avg, (\S+) qps`)
	ftEnded   = regexp.MustCompile(`^Ended after \S+ : (\d+) calls\. qps=(\S+)`)
	ftStart   = regexp.MustCompile(`^Starting at .*? with (\d+) thread\(s\)`)
	ftStats   = regexp.MustCompile(`^(\S.*?)\s*:\s*count (\S+) avg (\S+) \+/- (\S+) min (\S+) max (\S+) sum (\S+)\s*$`)
	ftTarget  = regexp.MustCompile(`^# target (\d+(?:\.\d+)?)% (\S+)\s*$`)
	ftBytes   = regexp.MustCompile(`^Total Bytes sent: (\d+), received: (\d+)`)
)

// ReadFortioText reads fortio's console output (fortio load without
// -json); format "fortio-text". Lines read, with their keys:
//
//	Code 200 : 18 (90.0 %)            code.200 = 18, code.200.pct = 90.0 (Raw "90.0 %", unit %)
//	Code 200 : 300000                 code.200 (2017 format, no percentage); "Code -1" is code.-1
//	tcp OK : 100000 (100.0 %)         tcp.ok, tcp.ok.pct (udp likewise; other statuses slugged)
//	Sockets used: 3 (for perfect …)   sockets_used
//	All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps
//	                                  calls, warmup, avg_ms (Raw "7.917 ms", unit ms), qps
//	Ended after 1.2s : 100000 calls. qps=1.0301e+05
//	                                  ended.calls, ended.qps (e-notation read exactly: 103010)
//	Starting at … with 4 thread(s) …  threads
//	Total Bytes sent: 2400, received: 2400   bytes_sent, bytes_received
//	<Label> : count N avg A +/- S min X max Y sum Z
//	                                  <label>.count|avg|stddev|min|max|sum, <label> being
//	                                  the label slugged without a leading "Aggregated " or
//	                                  "Response ": function_time, sleep_time, header_sizes,
//	                                  body_total_sizes, …
//	# target 50% 0.00625              target.p50 (seconds; 99.9% is p99_9) after the
//	                                  function-time histogram; after another histogram
//	                                  <label>.target.p50 (sleep_time.target.p50)
//
// Every other line (logs, histogram buckets, per-thread lines, prose) is
// skipped. A file with none of these lines is an error, as is text that is
// not clean UTF-8.
func ReadFortioText(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "fortio-text")
	if errs != nil {
		return nil, errs
	}
	hist := ""
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		at := func(m []int, g int) (int, string) { return ln.start + m[2*g], text[m[2*g]:m[2*g+1]] }
		num := func(key string, m []int, g int) {
			if m[2*g] >= 0 {
				off, raw := at(m, g)
				r.addNum(key, off, raw, "")
			}
		}
		pct := func(key string, m []int, g int) {
			if m[2*g] >= 0 {
				off := ln.start + m[2*g]
				r.addNum(key, off, text[m[2*g]:m[2*g+3]], "%")
			}
		}
		if m := ftCode.FindStringSubmatchIndex(text); m != nil {
			_, code := at(m, 1)
			num("code."+code, m, 2)
			pct("code."+code+".pct", m, 3)
			continue
		}
		if m := ftProto.FindStringSubmatchIndex(text); m != nil {
			_, proto := at(m, 1)
			_, status := at(m, 2)
			key := proto + "." + lfSlug(status)
			num(key, m, 3)
			pct(key+".pct", m, 4)
			continue
		}
		if m := ftSockets.FindStringSubmatchIndex(text); m != nil {
			num("sockets_used", m, 1)
			continue
		}
		if m := ftAllDone.FindStringSubmatchIndex(text); m != nil {
			num("calls", m, 1)
			num("warmup", m, 2)
			if m[8] >= 0 {
				r.addNum("avg_ms", ln.start+m[6], text[m[6]:m[9]], "ms")
			} else {
				num("avg_ms", m, 3)
			}
			num("qps", m, 5)
			continue
		}
		if m := ftEnded.FindStringSubmatchIndex(text); m != nil {
			num("ended.calls", m, 1)
			num("ended.qps", m, 2)
			continue
		}
		if m := ftStart.FindStringSubmatchIndex(text); m != nil {
			num("threads", m, 1)
			continue
		}
		if m := ftBytes.FindStringSubmatchIndex(text); m != nil {
			num("bytes_sent", m, 1)
			num("bytes_received", m, 2)
			continue
		}
		if m := ftStats.FindStringSubmatchIndex(text); m != nil {
			_, label := at(m, 1)
			label = strings.TrimPrefix(strings.TrimPrefix(label, "Aggregated "), "Response ")
			hist = lfSlug(label)
			if hist == "" {
				hist = "stats"
			}
			for g, stat := range []string{"count", "avg", "stddev", "min", "max", "sum"} {
				num(hist+"."+stat, m, g+2)
			}
			continue
		}
		if m := ftTarget.FindStringSubmatchIndex(text); m != nil {
			_, p := at(m, 1)
			pv, ok := lfDecimal(p)
			if !ok {
				continue
			}
			key := "target." + lfPercentile(pv)
			if hist != "" && hist != "function_time" {
				key = hist + "." + key
			}
			num(key, m, 2)
			continue
		}
	}
	if len(r.out) == 0 && len(r.errs) == 0 {
		r.errorf(0, "no fortio result lines; expected lines such as \"Code 200 : 18 (90.0 %%)\", \"All done 20 calls (plus 0 warmup) 7.9 ms avg, 2517.8 qps\" or \"# target 50%% 0.006\"")
	}
	return r.result()
}

// ---------------------------------------------------------------------
// curl -w write-out

var (
	cwLineKV   = regexp.MustCompile(`^\s*([A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*)*)\s*:\s+(\S+)\s*$`)
	cwInlineKV = regexp.MustCompile(`([A-Za-z_][\w.-]*)(=|:[ \t]*)([^\s;]+)`)
	cwValue    = regexp.MustCompile(`^(-?\d+)(?:([.,])(\d+))?(s|ms)?$`)
	cwLocale   = regexp.MustCompile(`^-?\d+,(?:\d{3}|\d{6})(?:s|ms)?$`)
	cwOps      = map[string]bool{"+": true, "-": true, "=": true, "/": true, "*": true, "|": true, "x": true}
)

// cwNumber reads one curl write-out value: digits with an optional
// fraction and optional unit s or ms. A fraction after a decimal comma
// (curl printing in a locale such as de_DE) must have 3 or 6 digits, the
// precisions curl prints; locale reports that case.
func cwNumber(tok string) (v decimal.Decimal, unit string, locale, ok bool) {
	m := cwValue.FindStringSubmatch(tok)
	if m == nil {
		return decimal.Decimal{}, "", false, false
	}
	s := m[1]
	if m[2] == "," {
		if len(m[3]) != 3 && len(m[3]) != 6 {
			return decimal.Decimal{}, "", false, false
		}
		locale = true
	}
	if m[2] != "" {
		s += "." + m[3]
	}
	v, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, "", false, false
	}
	return v, m[4], locale, true
}

// curlValue records tok (at off) under key; a decimal comma adds a
// warning. It reports whether tok was a value.
func (r *lfRead) curlValue(key string, off int, tok string) bool {
	v, unit, locale, ok := cwNumber(tok)
	if !ok {
		return false
	}
	if locale {
		r.errs = append(r.errs, diag.Diagnostic{Pos: r.ix.Pos(off), Severity: diag.Warning, Rule: "evidence-curl-locale",
			Message: fmt.Sprintf("decimal comma in %q read as %s; expected a decimal point (run curl with LC_NUMERIC=C)", tok, v)})
	}
	r.add(key, off, tok, v, unit)
	return true
}

// ReadCurlWriteout reads curl -w output; format "curl-writeout". Lines:
//
//	time_namelookup:  0.001403        "key: value" (the key may hold single spaces)
//	SIZE=409610 TIME=40.045811 CODE=200   "key=value" tokens (and "key: value" tokens)
//	{"time_total":0.5,"http_code":200}    -w '%{json}': the object's top-level numbers
//	0.534 + 0.545 = 0.545             unlabelled values, each keyed "value"
//	http://x/a,0.001196,4682          (a line of numbers, operators and URLs separated
//	                                  by spaces or commas)
//
// Keys are as written. A value is digits with an optional fraction (curl
// prints 3 decimals before 7.52 and 6 since; microsecond integers also
// occur) and an optional unit "s" or "ms". A key repeated by several
// requests is numbered in order: time_total, time_total#2, …; unlabelled
// values are value, value#2, ….
//
// A decimal comma ("40,045811", curl in a locale such as de_DE) is read as
// 40.045811 with a warning (severity warning, rule evidence-curl-locale)
// at its position; the fraction must have 3 or 6 digits, and outside a
// key it must be the whole line, since commas otherwise separate values.
//
// Skipped: blank lines, "#" comments, "$ …" commands (with "\"
// continuations), curl -v lines starting with "*", "<", ">", "{" or "}"
// that are not %{json} objects, and prose (a line with words that are not
// key/value pairs). A file with no value is an error.
func ReadCurlWriteout(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "curl-writeout")
	if errs != nil {
		return nil, errs
	}
	cont := false
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		trimmed := strings.TrimSpace(text)
		lead := strings.Index(text, trimmed)
		if cont {
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		}
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		if trimmed == "$" || strings.HasPrefix(trimmed, "$ ") {
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		}
		if trimmed[0] == '{' && trimmed[len(trimmed)-1] == '}' && json.Valid([]byte(trimmed)) {
			if obj, errs := lfParseJSON(r.ix, src, ln.start+lead, ln.start+lead+len(trimmed), r.rule); errs == nil && obj.kind == '{' {
				for i, k := range obj.keys {
					if obj.vals[i].kind == '0' {
						r.jsonNumber(k, obj.vals[i])
					}
				}
			}
			continue
		}
		if strings.IndexByte("*<>{}", trimmed[0]) >= 0 {
			continue
		}
		if m := cwLineKV.FindStringSubmatchIndex(text); m != nil && r.curlValue(text[m[2]:m[3]], ln.start+m[4], text[m[4]:m[5]]) {
			continue
		}
		found := false
		for _, m := range cwInlineKV.FindAllStringSubmatchIndex(text, -1) {
			if m[0] > 0 && strings.IndexByte(" \t,;(", text[m[0]-1]) < 0 {
				continue
			}
			key, vs, tok := text[m[2]:m[3]], m[6], text[m[6]:m[7]]
			if _, _, _, ok := cwNumber(tok); !ok {
				if i := strings.IndexByte(tok, ','); i > 0 {
					tok = tok[:i]
				}
			}
			if r.curlValue(key, ln.start+vs, tok) {
				found = true
			}
		}
		if found {
			continue
		}
		r.curlValueLine(ln.start, text)
	}
	if len(r.out) == 0 && !r.errs.HasErrors() {
		r.errorf(0, "no curl write-out values; expected lines such as \"time_total: 0.982326\", \"TIME=40.045811 CODE=200\" or a line of numbers")
	}
	return r.result()
}

// curlValueLine reads a line of unlabelled values (see ReadCurlWriteout)
// starting at byte offset base.
func (r *lfRead) curlValueLine(base int, text string) {
	trimmed := strings.TrimSpace(text)
	lead := strings.Index(text, trimmed)
	if cwLocale.MatchString(trimmed) {
		r.curlValue("value", base+lead, trimmed)
		return
	}
	type field struct {
		off int
		tok string
	}
	var fields []field
	start := -1
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == ' ' || text[i] == '\t' || text[i] == ',' {
			if start >= 0 {
				fields = append(fields, field{start, text[start:i]})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	var nums []field
	for _, f := range fields {
		tok := strings.TrimSuffix(f.tok, ":")
		if _, _, _, ok := cwNumber(tok); ok {
			nums = append(nums, field{f.off, tok})
			continue
		}
		if cwOps[tok] || strings.Contains(tok, "://") {
			continue
		}
		return // prose
	}
	for _, f := range nums {
		r.curlValue("value", base+f.off, f.tok)
	}
}

// ---------------------------------------------------------------------
// CSV

// ReadCSV reads an RFC 4180 CSV file whose first record is a header row;
// format "csv". Each cell that holds a number (ParseCell: "42", "51.7%",
// "60s", "1,234") is a reading "<row key>.<column>", where the row key is
// the value of the opt.Key column (whose own cells are not readings) or
// "r<N>" for the N-th data record (1-based), also used when the key cell
// is empty; a column with an empty header is named "c<N>". Other cells
// are not readings. Raw is the number within the cell (without quotes).
//
// opt.CountWhere maps a reading name to an expr-lang predicate over a
// row's columns, each column bound by its header name (use
// $env["name with spaces"] for names that are not identifiers) to a
// float64 when its cell is a number and to the cell string otherwise. The
// predicate is compiled once; the reading's Number is the exact count of
// rows where it is true, Raw the predicate text, Pos the first byte of the
// header row and Inputs the position of the first cell of every matching
// row. A predicate that does not compile, names a column the header lacks
// or fails on a row is an error.
//
// Errors: an empty file, a record whose field count differs from the
// header's (at its line), malformed quoting (at the csv package's
// line:col), and an opt.Key column the header lacks.
func ReadCSV(file string, src []byte, opt ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "csv")
	if errs != nil {
		return nil, errs
	}
	cr := csv.NewReader(bytes.NewReader(src))
	cr.ReuseRecord = false
	cr.FieldsPerRecord = 0
	header, err := cr.Read()
	if err == io.EOF {
		r.errorf(0, "empty CSV file; expected a header row")
		return r.result()
	}
	if err != nil {
		r.csvError(err)
		return r.result()
	}
	if len(header) == 0 {
		r.errorf(0, "empty header row; expected column names")
		return r.result()
	}
	hl, hc := cr.FieldPos(0)
	headerOff := r.lineCol(hl, hc)
	cols := make([]string, len(header))
	env := types.Map{}
	for i, h := range header {
		cols[i] = h
		if strings.TrimSpace(h) == "" {
			cols[i] = fmt.Sprintf("c%d", i+1)
		}
		env[h] = types.Any
	}
	keyCol := -1
	if opt.Key != "" {
		for i, h := range header {
			if h == opt.Key {
				keyCol = i
				break
			}
		}
		if keyCol < 0 {
			r.errorf(headerOff, "key column %q is not in the header; expected one of %s", opt.Key, strings.Join(lfQuoteAll(header), ", "))
			return r.result()
		}
	}
	type counter struct {
		name, pred string
		prog       *vm.Program
		count      int64
		inputs     []diag.Position
		failed     bool
	}
	var counters []*counter
	names := make([]string, 0, len(opt.CountWhere))
	for name := range opt.CountWhere {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		pred := opt.CountWhere[name]
		prog, err := expr.Compile(pred, expr.Env(env), expr.AsBool())
		if err != nil {
			r.errorf(headerOff, "count_where %q: cannot compile %q: %s; expected an expr-lang predicate over the columns %s", name, pred, lfFirstLine(err.Error()), strings.Join(lfQuoteAll(header), ", "))
			continue
		}
		counters = append(counters, &counter{name: name, pred: pred, prog: prog})
	}
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
				r.errorf(r.lineCol(pe.StartLine, 1), "record has %d fields; expected %d like the header at line %d", len(rec), len(header), hl)
				continue
			}
			r.csvError(err)
			break
		}
		if len(rec) != len(header) {
			continue
		}
		rowKey := fmt.Sprintf("r%d", row)
		if keyCol >= 0 && strings.TrimSpace(rec[keyCol]) != "" {
			rowKey = strings.TrimSpace(rec[keyCol])
		}
		vals := make(map[string]any, len(rec))
		for j, cell := range rec {
			n, ok := ParseCell(cell)
			if !ok {
				if _, dup := vals[header[j]]; !dup {
					vals[header[j]] = cell
				}
				continue
			}
			if _, dup := vals[header[j]]; !dup {
				vals[header[j]] = n.Value.InexactFloat64()
			}
			if j == keyCol {
				continue
			}
			line, col := cr.FieldPos(j)
			off := r.lineCol(line, col)
			if off < len(src) && src[off] == '"' {
				off++
			}
			raw := cell[n.Start:n.End]
			if o := off + n.Start; o+len(raw) <= len(src) && string(src[o:o+len(raw)]) == raw {
				r.add(rowKey+"."+cols[j], o, raw, n.Value, n.Unit)
			}
		}
		if len(counters) > 0 {
			line, col := cr.FieldPos(0)
			first := r.ix.Pos(r.lineCol(line, col))
			for _, c := range counters {
				if c.failed {
					continue
				}
				ok, err := lfRunPredicate(c.prog, vals)
				if err != nil {
					c.failed = true
					r.errorf(first.Offset, "count_where %q: %q fails on this row: %s; expected a predicate that holds or fails on every row", c.name, c.pred, lfFirstLine(err.Error()))
					continue
				}
				if ok {
					c.count++
					c.inputs = append(c.inputs, first)
				}
			}
		}
	}
	for _, c := range counters {
		if c.failed {
			continue
		}
		r.out = append(r.out, Reading{Key: c.name, Number: Number{Value: decimal.NewFromInt(c.count), End: len(c.pred)},
			Raw: c.pred, Pos: r.ix.Pos(headerOff), Inputs: c.inputs})
	}
	return r.result()
}

// lfRunPredicate runs a compiled predicate, turning a panic into an error.
func lfRunPredicate(prog *vm.Program, env map[string]any) (ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			ok, err = false, fmt.Errorf("%v", p)
		}
	}()
	out, err := expr.Run(prog, env)
	if err != nil {
		return false, err
	}
	b, isBool := out.(bool)
	if !isBool {
		return false, fmt.Errorf("result %v is not a boolean", out)
	}
	return b, nil
}

// csvError reports an encoding/csv error at its line and column.
func (r *lfRead) csvError(err error) {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		r.errorf(r.lineCol(pe.Line, pe.Column), "%v; expected RFC 4180 CSV (quote fields holding commas or quotes, double quotes inside them)", pe.Err)
		return
	}
	r.errorf(0, "%v; expected RFC 4180 CSV", err)
}

// lineCol converts a 1-based line and byte column into an offset inside
// that line (clamped to its end).
func (r *lfRead) lineCol(line, col int) int {
	s := r.ix.LineStart(line)
	if s < 0 {
		return len(r.src)
	}
	end := len(r.src)
	if i := bytes.IndexByte(r.src[s:], '\n'); i >= 0 {
		end = s + i
	}
	off := s + col - 1
	if col < 1 {
		off = s
	}
	if off > end {
		off = end
	}
	return off
}

func lfQuoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

func lfFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ---------------------------------------------------------------------
// istioctl tables

var itHeaderWord = regexp.MustCompile(`^[A-Z][A-Z0-9_/%().#-]*$`)

// itIsHeader reports whether text is a table header: upper-case words at
// the start of the line, at least two of them, separated by runs of
// spaces at least one of which is two or more wide.
func itIsHeader(text string) bool {
	if text == "" || text[0] == ' ' || text[0] == '\t' || !strings.Contains(strings.TrimSpace(text), "  ") {
		return false
	}
	f := strings.Fields(text)
	if len(f) < 2 {
		return false
	}
	for _, w := range f {
		if !itHeaderWord.MatchString(w) {
			return false
		}
	}
	return true
}

// itLine is a line as runes with the byte offset of each rune (and of the
// line end) relative to the file.
type itLine struct {
	runes []rune
	offs  []int
}

func itSplit(src []byte, ln lineSpan) itLine {
	var l itLine
	for i := ln.start; i < ln.end; {
		c, n := utf8.DecodeRune(src[i:ln.end])
		l.runes = append(l.runes, c)
		l.offs = append(l.offs, i)
		i += n
	}
	l.offs = append(l.offs, ln.end)
	return l
}

func (l itLine) space(i int) bool { return i < 0 || i >= len(l.runes) || l.runes[i] == ' ' }

// cell returns the trimmed text of runes [a, b) and its byte offset.
func (l itLine) cell(a, b int) (string, int) {
	if b > len(l.runes) {
		b = len(l.runes)
	}
	for a < b && l.space(a) {
		a++
	}
	for b > a && l.space(b-1) {
		b--
	}
	if a >= b {
		return "", l.offs[min(a, len(l.runes))]
	}
	return string(l.runes[a:b]), l.offs[a]
}

type itColumn struct {
	name  string
	start int // rune column
}

// ReadIstioctlTable reads the whitespace-aligned tables of istioctl
// proxy-config and proxy-status (and kubectl-style tables); format
// "istioctl-table". A table starts at a header line of upper-case column
// names ("SERVICE FQDN   PORT   SUBSET   DIRECTION   TYPE") and runs to the
// next blank line. Column names may hold single spaces; a name after a
// single space still starts its own column when the rows below have text
// there ("ADDRESSES PORT"). Cells are cut at the header's column
// positions, or, for a row that does not line up, at runs of two or more
// spaces when that yields one cell per column.
//
// Each numeric cell (ParseCell) outside the first column is a reading
// "<first column value>.<COLUMN>", e.g.
// "istiod.istio-system.svc.cluster.local.PORT" = 15010 or
// "listener/main_internal.PORT"; rows sharing a first value are numbered
// (#2, …) and a row with an empty first cell is keyed "r<N>". IP:port
// cells, names, versions ("1.1.2") and "-" are not numbers. Each table
// also yields "t<N>.rows" (N 1-based in the file): the number of rows,
// with Raw the first column's name, Pos the header line and Inputs the
// first byte of each row.
//
// Errors: no header line in the file, and a row with numbers that lines
// up with neither the header positions nor its column count.
func ReadIstioctlTable(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "istioctl-table")
	if errs != nil {
		return nil, errs
	}
	lines := splitLines(src)
	tables := 0
	for i := 0; i < len(lines); i++ {
		if !itIsHeader(string(src[lines[i].start:lines[i].end])) {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(string(src[lines[j].start:lines[j].end])) != "" {
			j++
		}
		tables++
		r.istioTable(tables, itSplit(src, lines[i]), lines[i].start, lines[i+1:j])
		i = j
	}
	if tables == 0 {
		r.errorf(0, "no table header; expected a line of upper-case column names separated by two or more spaces, such as \"NAME   STATUS   PORT\"")
	}
	return r.result()
}

func (r *lfRead) istioTable(n int, head itLine, headOff int, spans []lineSpan) {
	rows := make([]itLine, len(spans))
	for i, s := range spans {
		rows[i] = itSplit(r.src, s)
	}
	// Header words.
	type word struct{ a, b int }
	var words []word
	for i := 0; i < len(head.runes); {
		if head.space(i) {
			i++
			continue
		}
		a := i
		for i < len(head.runes) && !head.space(i) {
			i++
		}
		words = append(words, word{a, i})
	}
	var cols []itColumn
	for k, w := range words {
		boundary := k == 0 || w.a-words[k-1].b >= 2
		if !boundary {
			// A single space: a new column only if no row has text
			// across it and some row has text starting under it.
			across, under := false, false
			for _, row := range rows {
				if !row.space(w.a - 1) {
					across = true
				}
				if !row.space(w.a) {
					under = true
				}
			}
			boundary = !across && under
		}
		if boundary {
			cols = append(cols, itColumn{name: string(head.runes[w.a:w.b]), start: w.a})
		} else {
			c := &cols[len(cols)-1]
			c.name = string(head.runes[c.start:w.b])
		}
	}
	var inputs []diag.Position
	for ri, row := range rows {
		_, firstOff := row.cell(0, len(row.runes))
		inputs = append(inputs, r.ix.Pos(firstOff))
		cells, ok := r.istioCells(row, cols, headOff)
		if !ok {
			continue
		}
		key := cells[0].text
		if key == "" {
			key = fmt.Sprintf("r%d", ri+1)
		}
		for k := 1; k < len(cols); k++ {
			num, ok := ParseCell(cells[k].text)
			if !ok {
				continue
			}
			r.add(key+"."+cols[k].name, cells[k].off+num.Start, cells[k].text[num.Start:num.End], num.Value, num.Unit)
		}
	}
	r.out = append(r.out, Reading{Key: fmt.Sprintf("t%d.rows", n), Number: Number{Value: decimal.NewFromInt(int64(len(rows))), End: len(cols[0].name)},
		Raw: cols[0].name, Pos: r.ix.Pos(headOff), Inputs: inputs})
}

// itCell is a trimmed table cell and the byte offset of its first byte.
type itCell struct {
	text string
	off  int
}

// istioCells cuts a row into one cell per column: at the header's column
// positions when no text runs across them, else at runs of two or more
// spaces when that gives one cell per column. A row that fits neither is
// skipped, and reported when it holds a number.
func (r *lfRead) istioCells(row itLine, cols []itColumn, headOff int) ([]itCell, bool) {
	cells := make([]itCell, len(cols))
	aligned := true
	for k, c := range cols {
		end := len(row.runes)
		if k+1 < len(cols) {
			end = cols[k+1].start
			if !row.space(end-1) && !row.space(end) {
				aligned = false
				break
			}
		}
		t, off := row.cell(c.start, end)
		if k+1 < len(cols) && strings.Contains(t, "  ") {
			aligned = false
			break
		}
		cells[k] = itCell{t, off}
	}
	if aligned {
		return cells, true
	}
	var parts []itCell
	for i := 0; i < len(row.runes); {
		if row.space(i) {
			i++
			continue
		}
		a := i
		for i < len(row.runes) && !(row.space(i) && row.space(i+1)) {
			i++
		}
		t, off := row.cell(a, i)
		parts = append(parts, itCell{t, off})
	}
	if len(parts) == len(cols) {
		return parts, true
	}
	for _, p := range parts {
		for _, f := range strings.Fields(p.text) {
			if _, ok := ParseCell(f); ok {
				r.errorf(p.off, "row has %d cells that do not line up with the %d columns of the header at %s; expected cells aligned under the header", len(parts), len(cols), r.ix.Pos(headOff))
				return nil, false
			}
		}
	}
	return nil, false
}

// ---------------------------------------------------------------------
// dig

var (
	dgQueryTime = regexp.MustCompile(`^;; Query time: (\d+) (msec|usec)`)
	dgMsgSize   = regexp.MustCompile(`^;; MSG SIZE\s+rcvd: (\d+)`)
	dgSection   = regexp.MustCompile(`^;; ([A-Z]+) (?:PSEUDO)?SECTION:`)
	dgFlags     = regexp.MustCompile(`\b(QUERY|ANSWER|AUTHORITY|ADDITIONAL): (\d+)`)
	dgClass     = regexp.MustCompile(`^(?:IN|CH|HS|CS|NONE|ANY|CLASS\d+)$`)
	dgType      = regexp.MustCompile(`^[A-Z][A-Z0-9-]*$`)
	dgTTL       = regexp.MustCompile(`^\d+$`)
)

// ReadDig reads dig output; format "dig". Readings:
//
//	;; Query time: 4 msec                    query_time_ms ("usec": query_time_us)
//	;; MSG SIZE  rcvd: 165                   msg_size (bytes)
//	;; flags: …; QUERY: 1, ANSWER: 3, …      query_count, answer_count,
//	                                         authority_count, additional_count
//	name.  10  IN  A  192.168.29.76          answer.<name>.<TYPE>.ttl (seconds), name
//	                                         without its final "." ("." itself is
//	                                         "root"): answer.redis.default.service.nomad.A.ttl
//
// Records under ";; AUTHORITY SECTION:" and ";; ADDITIONAL SECTION:" are
// keyed authority.… and additional.…; records outside any section (dig
// +noall +answer) count as answers when they name a class (IN). A name
// repeated with the same type is numbered: …A.ttl, …A.ttl#2, …; several
// dig runs in one file likewise number query_time_ms#2 and so on.
// Addresses and other record data are not numbers. Comments (";"), the
// question section and commands are skipped. A file with none of these
// lines is an error.
func ReadDig(file string, src []byte, _ ReadOptions) ([]Reading, diag.List) {
	r, errs := lfStart(file, src, "dig")
	if errs != nil {
		return nil, errs
	}
	section := ""
	for _, ln := range splitLines(src) {
		text := string(src[ln.start:ln.end])
		if strings.TrimSpace(text) == "" {
			section = ""
			continue
		}
		if m := dgQueryTime.FindStringSubmatchIndex(text); m != nil {
			key := "query_time_ms"
			if text[m[4]:m[5]] == "usec" {
				key = "query_time_us"
			}
			r.addNum(key, ln.start+m[2], text[m[2]:m[3]], "")
			continue
		}
		if m := dgMsgSize.FindStringSubmatchIndex(text); m != nil {
			r.addNum("msg_size", ln.start+m[2], text[m[2]:m[3]], "")
			continue
		}
		if m := dgSection.FindStringSubmatch(text); m != nil {
			section = strings.ToLower(m[1])
			continue
		}
		if strings.HasPrefix(text, ";; flags:") {
			for _, m := range dgFlags.FindAllStringSubmatchIndex(text, -1) {
				r.addNum(strings.ToLower(text[m[2]:m[3]])+"_count", ln.start+m[4], text[m[4]:m[5]], "")
			}
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(text), ";") {
			continue
		}
		switch section {
		case "", "answer", "authority", "additional":
		default:
			continue
		}
		r.digRecord(section, ln.start, text)
	}
	if len(r.out) == 0 && len(r.errs) == 0 {
		r.errorf(0, "no dig output; expected \";; Query time: N msec\", \";; MSG SIZE  rcvd: N\" or answer records \"name. TTL IN TYPE data\"")
	}
	return r.result()
}

// digRecord reads the TTL of a resource record line "name TTL [class]
// TYPE data" starting at byte offset base.
func (r *lfRead) digRecord(section string, base int, text string) {
	type field struct {
		off int
		tok string
	}
	var f []field
	for i := 0; i < len(text) && len(f) < 4; {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		a := i
		for i < len(text) && text[i] != ' ' && text[i] != '\t' {
			i++
		}
		f = append(f, field{a, text[a:i]})
	}
	if len(f) < 3 || !dgTTL.MatchString(f[1].tok) {
		return
	}
	typ := ""
	switch {
	case dgClass.MatchString(f[2].tok) && len(f) >= 4 && dgType.MatchString(f[3].tok):
		typ = f[3].tok
	case section != "" && dgType.MatchString(f[2].tok) && !dgClass.MatchString(f[2].tok):
		typ = f[2].tok
	default:
		return
	}
	if section == "" {
		section = "answer"
	}
	name := strings.TrimSuffix(f[0].tok, ".")
	if name == "" {
		name = "root"
	}
	r.addNum(section+"."+name+"."+typ+".ttl", base+f[1].off, f[1].tok, "")
}

// ---------------------------------------------------------------------
// Sniff

var (
	snSection      = regexp.MustCompile(`(?m)^\[[^\]\s]+\]`)
	snClusters     = regexp.MustCompile(`(?m)^[^\s:]+::\S+::\S`)
	snDig          = regexp.MustCompile(`(?m)^;; (?:Query time:|ANSWER SECTION:)`)
	snFortio       = regexp.MustCompile(`(?m)^(?:Code -?\d+ : \d+|All done \d+ calls)`)
	snEnvoyStat    = regexp.MustCompile(`^[A-Za-z_][^\s:]*\.[^\s:]*:(?:\s.*)?$`)
	snEnvoyStatVal = regexp.MustCompile(`^[A-Za-z_][^\s:]*\.[^\s:]*: -?\d`)
)

// Sniff returns the most likely format name (see Formats) for a raw file
// called name holding src. By extension: .md is "markdown-tables", .csv is
// "csv". JSON (a .json file, or content that is valid JSON): "fortio-json"
// when it holds "RetCodes", "envoy-clusters-json" when it holds
// "cluster_statuses" (or host_statuses/hostStatuses: the bare array
// istioctl prints), "envoy-stats-json" when it has a top-level "stats" or
// "histograms" member or is an array of {"name", "value"} objects (jq
// '.stats'), else "json". Text: "transcript" when it has "[ID] title"
// section lines, "envoy-clusters" for "cluster::host::stat::value" lines,
// "dig" for ";; Query time" or an answer section, "fortio-text" for
// "Code 200 :" or "All done" lines, "curl-writeout" when it mentions
// time_total or time_namelookup, "istioctl-table" for an upper-case column
// header followed by a row, "envoy-stats" when most lines are dotted
// "name: value" stats, and "transcript" otherwise. Sniff never fails; a
// reader still checks the file.
func Sniff(name string, src []byte) string {
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".md", ".markdown":
		return "markdown-tables"
	case ".csv":
		return "csv"
	}
	if ext == ".json" || json.Valid(src) {
		switch {
		case bytes.Contains(src, []byte(`"RetCodes"`)):
			return "fortio-json"
		case bytes.Contains(src, []byte(`"cluster_statuses"`)) || bytes.Contains(src, []byte(`"host_statuses"`)) || bytes.Contains(src, []byte(`"hostStatuses"`)):
			return "envoy-clusters-json"
		case lfTopLevelKeys(src)["stats"], lfTopLevelKeys(src)["histograms"], lfStatsArray(src):
			return "envoy-stats-json"
		}
		return "json"
	}
	switch {
	case snSection.Match(src):
		return "transcript"
	case snClusters.Match(src):
		return "envoy-clusters"
	case snDig.Match(src):
		return "dig"
	case snFortio.Match(src):
		return "fortio-text"
	case bytes.Contains(src, []byte("time_total")) || bytes.Contains(src, []byte("time_namelookup")):
		return "curl-writeout"
	}
	lines := splitLines(src)
	for i, ln := range lines {
		if itIsHeader(string(src[ln.start:ln.end])) && i+1 < len(lines) && strings.TrimSpace(string(src[lines[i+1].start:lines[i+1].end])) != "" {
			return "istioctl-table"
		}
	}
	stat, withValue, other := 0, 0, 0
	prevStat := false
	for _, ln := range lines {
		text := string(src[ln.start:ln.end])
		switch {
		case strings.TrimSpace(text) == "":
			continue
		case snEnvoyStat.MatchString(text):
			stat++
			prevStat = true
			if snEnvoyStatVal.MatchString(text) {
				withValue++
			}
		case prevStat && (text[0] == ' ' || text[0] == '\t'):
			stat++
		default:
			other++
			prevStat = false
		}
	}
	if stat > 0 && stat >= other && (withValue > 0 || stat > 1) {
		return "envoy-stats"
	}
	return "transcript"
}

// lfTopLevelKeys lists the member names of a top-level JSON object,
// tolerating syntax errors after them (Envoy's documentation publishes
// invalid JSON).
func lfTopLevelKeys(src []byte) map[string]bool {
	keys := map[string]bool{}
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return keys
			}
			if depth == 1 {
				k := j + 1
				for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
					k++
				}
				if k < len(src) && src[k] == ':' {
					keys[string(src[i+1:j])] = true
				}
			}
			i = j
		}
	}
	return keys
}

// lfStatsArray reports whether src is a JSON array whose first element is
// an object with "name" and "value" members, as jq '.stats' prints Envoy
// stats.
func lfStatsArray(src []byte) bool {
	var list []map[string]json.RawMessage
	if json.Unmarshal(src, &list) != nil || len(list) == 0 {
		return false
	}
	_, name := list[0]["name"]
	_, value := list[0]["value"]
	return name && value
}
