package structured

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// The pattern reader ("pattern", ReadPattern): line-oriented output of
// any tool, read by regular expressions the manifest gives. The
// conventions of every lab-format reader are in raw's readings.go.

// patternVocabulary is the grok-like vocabulary a pattern can use as
// %{NAME} or %{NAME:group}: sub-patterns for the tokens tool output is
// made of.
var patternVocabulary = map[string]string{
	"NUMBER":   `[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`,
	"INT":      `[-+]?\d+`,
	"DURATION": `\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h)(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m))*`,
	"PERCENT":  `\d+(?:\.\d+)?%`,
	"SIZE":     `\d+(?:\.\d+)?(?:B|KB|kB|KiB|MB|MiB|GB|GiB|Ki|Mi|Gi)`,
	"WORD":     `\w+`,
	"NOTSPACE": `\S+`,
	"DATA":     `.*?`,
	"GREEDY":   `.*`,
}

// patternRef is a %{NAME} or %{NAME:group} reference to the vocabulary.
var patternRef = regexp.MustCompile(`%\{([A-Z]+)(?::([A-Za-z_][A-Za-z0-9_]*))?\}`)

// patternUnits are the unit suffixes a DURATION, PERCENT or SIZE group
// (or any group whose text ends in one) is read with.
var patternUnits = map[string]raw.ToolUnit{
	"ns": {Unit: "ns"}, "us": {Unit: "us"}, "µs": {Unit: "us"}, "μs": {Unit: "us"}, "ms": {Unit: "ms"},
	"s": {Unit: "s"}, "m": {Unit: "min"}, "h": {Unit: "h"}, "%": {Unit: "%"},
	"B": {Unit: "B"}, "KB": {Unit: "KB"}, "kB": {Unit: "KB"}, "KiB": {Unit: "KiB"}, "MB": {Unit: "MB"}, "MiB": {Unit: "MiB"},
	"GB": {Unit: "GB"}, "GiB": {Unit: "GiB"}, "Ki": {Unit: "KiB"}, "Mi": {Unit: "MiB"}, "Gi": {Unit: "GiB"},
	"bytes": {Unit: "B"}, "seconds": {Unit: "s"}, "secs": {Unit: "s"}, "sec": {Unit: "s"}, "msec": {Unit: "ms"},
	"KBytes": {Unit: "KiB"}, "MBytes": {Unit: "MiB"}, "GBytes": {Unit: "GiB"},
}

// patternKeyRef is a {group} reference in a key template.
var patternKeyRef = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// CompilePattern expands the vocabulary references of a pattern
// (%{NUMBER:reqs} is (?P<reqs>…)) and compiles it; the error says what is
// wrong and what was expected. A pattern is compiled once (memoPattern).
func CompilePattern(p string) (*regexp.Regexp, error) {
	return memoPattern("named\x00"+p, func() (*regexp.Regexp, error) { return compilePattern(p) })
}

// compiledPatterns memoizes CompilePattern and CompilePatternAny: an
// entry's patterns are compiled once, not at every file read (compiling
// the three recipes of FuzzPattern took nearly all of its 5 ms an
// execution). It is emptied when it holds maxCompiledPatterns entries
// (serve re-reads manifests as they are edited).
var compiledPatterns struct {
	sync.Mutex
	m map[string]compiledPattern
}

type compiledPattern struct {
	re  *regexp.Regexp
	err error
}

const maxCompiledPatterns = 256

// memoPattern returns the memoized result of compile for key, compiling
// it (without the lock held) when absent.
func memoPattern(key string, compile func() (*regexp.Regexp, error)) (*regexp.Regexp, error) {
	compiledPatterns.Lock()
	c, ok := compiledPatterns.m[key]
	compiledPatterns.Unlock()
	if ok {
		return c.re, c.err
	}
	c.re, c.err = compile()
	compiledPatterns.Lock()
	if compiledPatterns.m == nil || len(compiledPatterns.m) >= maxCompiledPatterns {
		compiledPatterns.m = map[string]compiledPattern{}
	}
	compiledPatterns.m[key] = c
	compiledPatterns.Unlock()
	return c.re, c.err
}

// The limits of a pattern (and of a section or skip pattern): its text,
// its capture groups and the instructions of its compiled program. Go's
// regexp engine keeps every capture slot in each of its threads, of which
// there are at most as many as instructions, so a match costs memory
// proportional to groups × instructions and time proportional to the line
// times the instructions: 10,000 optional groups took 3.2 GB for a two-line
// file. Within these limits a line costs at most two queues of 5,000
// threads of 202 slots (about 16 MB of match state), whatever the file,
// and time proportional to its length times 5,000.
const (
	MaxPatternLen    = 4096 // bytes of pattern text, before %{…} expansion
	MaxPatternGroups = 100  // capture groups, named or not, after expansion
	MaxPatternInsts  = 5000 // instructions of the compiled program
)

// quoteCut quotes s (%q) cut to at most n bytes of its text, with the
// length of the whole when cut: an error quoting a hostile 20,000-byte
// pattern stays one short line.
func quoteCut(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}

// quoteLen is the length of the pattern text an error quotes.
const quoteLen = 80

func compilePattern(p string) (*regexp.Regexp, error) {
	if len(p) > MaxPatternLen {
		return nil, fmt.Errorf("%d bytes long (%q); expected at most %d bytes (a pattern reads one line; split a longer one into several patterns)", len(p), cutText(p, quoteLen), MaxPatternLen)
	}
	var unknown string
	expanded := patternRef.ReplaceAllStringFunc(p, func(ref string) string {
		m := patternRef.FindStringSubmatch(ref)
		sub, ok := patternVocabulary[m[1]]
		if !ok {
			unknown = m[1]
			return ref
		}
		if m[2] == "" {
			return "(?:" + sub + ")"
		}
		return "(?P<" + m[2] + ">" + sub + ")"
	})
	if unknown != "" {
		names := make([]string, 0, len(patternVocabulary))
		for n := range patternVocabulary {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("unknown sub-pattern %%{%s}; expected one of %s", unknown, strings.Join(names, ", "))
	}
	// The limits are checked on the parsed and compiled program before
	// the regexp package builds its matcher (regexp.Compile parses with
	// syntax.Perl too).
	parsed, err := syntax.Parse(expanded, syntax.Perl)
	if err != nil {
		msg := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = se.Code.String() + ": `" + cutText(se.Expr, quoteLen) + "`"
		}
		return nil, fmt.Errorf("%s; expected a Go regular expression (RE2 syntax)", msg)
	}
	if n := parsed.MaxCap(); n > MaxPatternGroups {
		return nil, fmt.Errorf("%d capture groups (%s); expected at most %d (a group for each value a line holds; (?:…) groups nothing)", n, quoteCut(p, quoteLen), MaxPatternGroups)
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err == nil && len(prog.Inst) > MaxPatternInsts {
		return nil, fmt.Errorf("%d instructions compiled (%s); expected at most %d (fewer or smaller repetitions {n,m} and alternatives)", len(prog.Inst), quoteCut(p, quoteLen), MaxPatternInsts)
	}
	re, err := regexp.Compile(expanded)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = se.Code.String() + ": `" + cutText(se.Expr, quoteLen) + "`"
		}
		return nil, fmt.Errorf("%s; expected a Go regular expression (RE2 syntax)", msg)
	}
	named := false
	for _, n := range re.SubexpNames() {
		named = named || n != ""
	}
	if !named {
		return nil, fmt.Errorf("pattern %s has no named group; expected (?P<name>…) or %%{NUMBER:name} for each value to read", quoteCut(p, quoteLen))
	}
	return re, nil
}

// cutText is s cut to at most n bytes (at a character boundary), with
// "…" when cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ReadPattern reads a line-oriented file by the regular expressions of
// its manifest entry; format "pattern":
//
//	[[read]]
//	file = "iperf3.txt"
//	format = "pattern"
//	name = "ip"
//	patterns = ['^\[SUM\]\s+%{NUMBER:start}-%{NUMBER:end}\s+sec\s+%{NUMBER:transfer} (?P<transfer_unit>[KMG]Bytes)\s+%{NUMBER:bitrate} Mbits/sec\s+(?P<role>sender|receiver)']
//	key = "{role}"
//	units = { "*.start" = "s", "*.end" = "s" }
//
// Each line is tried against the patterns in order; the first that
// matches reads the line. A pattern is a Go regular expression (RE2)
// whose named groups are the values, with a grok-like vocabulary written
// %{NAME} or %{NAME:group}: NUMBER, INT, DURATION (12ms, 1m30s),
// PERCENT (12.5%), SIZE (343Mi, 1.5GB), WORD, NOTSPACE, DATA (.*?) and
// GREEDY (.*). Every named group whose text is a number, with an
// optional unit suffix (ms, s, %, B, KiB, Mi, …: read as that unit) is
// a reading; a group whose name ends in _unit gives the unit of the
// group it names (latency_unit for latency: ms, s, %, bytes, seconds,
// KBytes …). Suffixes and _unit groups are read with the shared unit
// vocabulary (unit.ToolWord: nsec, usec, µs, secs, min, kB, KiB/s,
// MB/sec, …); a _unit group holding a word outside it (Mbits/sec) is an
// error at the word, and a value whose suffix and _unit group disagree
// (12ms with unit s) is an error at the value, not a reading. The key of a reading is the key template (key = "{method}
// {name}") with its {group} references filled and the result slugged
// (get_api_items), then "." and the group's name (without a template: the group's
// name); a group used in the template names the reading and is not one.
// A repeated key is numbered (#2, …), so a line that recurs keeps its
// every value.
//
// With skip = 'REGEX' the lines matching it are not data (a column
// header whose numbers name columns, as Locust's "50%  66%" header).
// With section = 'REGEX' a line matching it starts a section, and its
// first named group (or the whole match) prefixes the keys of the lines
// under it: "<section>.<key>".
//
// A pattern that does not compile, or names no group, is an error at
// the manifest's pattern (package evidence checks it), and so is one of
// more than 4096 bytes, with more than 100 capture groups or compiling
// to more than 5,000 instructions (MaxPatternLen, MaxPatternGroups,
// MaxPatternInsts): within them a line costs bounded match state, and
// reading a file time linear in its size. A numeric-looking
// field on a line no pattern matches is a warning (rule
// evidence-number), as in every format.
func ReadPattern(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidencePattern)
	if errs != nil {
		return nil, errs
	}
	if len(opt.Patterns) == 0 {
		r.Errorf(raw.TextStart(src), "no patterns; expected patterns = ['REGEX', …] in the [[read]] entry")
		return r.Result()
	}
	var res []*regexp.Regexp
	for _, p := range opt.Patterns {
		re, err := CompilePattern(p)
		if err != nil {
			r.Errorf(raw.TextStart(src), "pattern %s: %v", quoteCut(p, quoteLen), err)
			return r.Result()
		}
		res = append(res, re)
	}
	var section *regexp.Regexp
	if opt.Section != "" {
		var err error
		if section, err = CompilePatternAny(opt.Section); err != nil {
			r.Errorf(raw.TextStart(src), "section %s: %v", quoteCut(opt.Section, quoteLen), err)
			return r.Result()
		}
	}
	prefix := ""
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		if section != nil {
			if m := section.FindStringSubmatchIndex(text); m != nil {
				a, b := m[0], m[1]
				for g := 1; g < len(m)/2; g++ {
					if section.SubexpNames()[g] != "" && m[2*g] >= 0 {
						a, b = m[2*g], m[2*g+1]
						break
					}
				}
				prefix = raw.KeySlug(text[a:b]) + "."
				continue
			}
		}
		for _, re := range res {
			m := re.FindStringSubmatchIndex(text)
			if m == nil {
				continue
			}
			patternLine(r, re, m, ln.Start, text, prefix, opt.Key)
			break
		}
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no line matches the patterns with a numeric group; expected lines such as the patterns describe")
	}
	return r.Result()
}

// patternLine records the numeric groups of one matching line.
func patternLine(r *raw.Recorder, re *regexp.Regexp, m []int, base int, text, prefix, template string) {
	names := re.SubexpNames()
	// first[name] is the first group of that name that matched: one pass
	// over the groups, so a line costs time linear in their number.
	first := make(map[string]int, len(names))
	for g, n := range names {
		if _, ok := first[n]; !ok && n != "" && m[2*g] >= 0 {
			first[n] = g
		}
	}
	group := func(name string) (int, string, bool) {
		if g, ok := first[name]; ok {
			return m[2*g], text[m[2*g]:m[2*g+1]], true
		}
		return 0, "", false
	}
	used := map[string]bool{}
	key := ""
	if template != "" {
		key = raw.KeySlug(patternKeyRef.ReplaceAllStringFunc(template, func(ref string) string {
			n := ref[1 : len(ref)-1]
			used[n] = true
			_, v, _ := group(n)
			return v
		})) + "."
		if key == "." {
			key = ""
		}
	}
	for g, n := range names {
		if n == "" || used[n] || strings.HasSuffix(n, "_unit") || m[2*g] < 0 {
			continue
		}
		tok := text[m[2*g]:m[2*g+1]]
		units := patternUnits
		if num := raw.NumberPrefix.FindString(tok); num != "" && len(num) < len(tok) {
			if _, ok := raw.LookupUnit(patternUnits, tok[len(num):]); !ok {
				if u, ok := unit.ToolWord(tok[len(num):]); ok {
					// a suffix of the shared vocabulary (12nsec, 3KiB/s)
					units = map[string]raw.ToolUnit{tok[len(num):]: {Unit: u}}
				}
			}
		}
		unitOf := ""
		if at, u, ok := group(n + "_unit"); ok && u != "" {
			tu, known := raw.LookupUnit(patternUnits, u)
			if !known {
				if c, ok := unit.ToolWord(u); ok {
					tu, known = raw.ToolUnit{Unit: c}, true
				}
			}
			if !known {
				r.Errorf(base+at, "unit %q of group %s (for %s) is not a unit word evdoc knows; expected one of the shared vocabulary (ms, us, µs, nsec, s, secs, min, %%, B, KiB, kB, MB, KiB/s, MB/s, KBytes, …), or no %s group and units = { … } in the manifest", u, n+"_unit", n, n+"_unit")
				continue // not a value without its unit
			} else {
				unitOf = tu.Unit
			}
			if _, written, ok := raw.ToolNumber(tok, units); ok && written != "" && unitOf != "" && written != unitOf {
				r.Errorf(base+m[2*g], "%q is written in %s but group %s says %q (%s); expected one unit for the value", tok, written, n+"_unit", u, unitOf)
				continue
			}
		}
		r.AddTool(prefix+key+n, base+m[2*g], tok, units, unitOf)
	}
}

// CompilePatternAny compiles a section pattern, which may have no named
// group.
func CompilePatternAny(p string) (*regexp.Regexp, error) {
	return memoPattern("any\x00"+p, func() (*regexp.Regexp, error) {
		re, err := compilePattern(p)
		if err != nil && strings.Contains(err.Error(), "has no named group") {
			return regexp.Compile(patternRef.ReplaceAllString(p, `\S+`))
		}
		return re, err
	})
}
