package raw

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// valueSlots places a token where each machine format writes a value: the
// token must then be read, or be a diagnostic on its line.
var valueSlots = []struct{ format, prefix, suffix string }{
	{"envoy-stats", "cluster.x.upstream_rq_total: ", "\n"},
	{"envoy-clusters", "outbound|80||x::10.0.0.1:80::cx_active::", "\n"},
	{"envoy-clusters-json", `{"cluster_statuses":[{"name":"c","host_statuses":[{"address":{"socket_address":{"address":"10.0.0.1","port_value":80}},"stats":[{"name":"cx_active","value":"`, `"}]}]}]}`},
	{"envoy-stats-json", `{"stats":[{"name":"a.b","value":`, `}]}`},
	{"fortio-json", `{"RetCodes":{"200":1},"ActualQPS":`, `}`},
	{"fortio-text", "Sockets used: ", "\n"},
	{"fortio-text", "# target 50% ", "\n"},
	{"dig", ";; Query time: ", " msec\n"},
	{"dig", "x.example. ", " IN A 10.0.0.1\n"},
	{"curl-writeout", "time_total: ", "\n"},
	{"prometheus", "metric_a{b=\"c\"} ", "\n"},
	{"istioctl-table", "NAME     PORT\nx        ", "\n"},
	{"json", `{"a":`, `}`},
}

// FuzzMachineValueNeverVanishes: in every machine format, a token with a
// digit written where the format writes a value is read or is a
// diagnostic on its line, never silently absent.
func FuzzMachineValueNeverVanishes(f *testing.F) {
	for _, s := range []string{"42", "1,232", "40,045811", "1e3", "１２", "1m0.5s", "0x1f", "12ms", "1.5.6", "-3", "7 8", "1e999", "NaN1", "3.", ".5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if !hasDigit(tok) || strings.ContainsAny(tok, "\r\n\"\\{}[]|:#;\x00") || strings.TrimSpace(tok) != tok || strings.IndexFunc(tok, unicode.IsControl) >= 0 {
			return
		}
		for _, s := range valueSlots {
			if s.format == "istioctl-table" && (isName(tok) || istioNonNumber(tok)) {
				continue // a table cell may name things; READY 1/1, AGE 5d are not numbers there
			}
			src := []byte(s.prefix + tok + s.suffix)
			read, _ := ReaderFor(s.format)
			rs, errs := read("f", src, ReadOptions{})
			start := len(s.prefix)
			if !tokenAccounted(src, start, start+len(tok), rs, errs) {
				t.Errorf("%s: value %q vanished from %q (readings %v, diagnostics %v)", s.format, tok, src, rs, errs)
			}
		}
	})
}

// tokenAccounted reports whether src[start:end] overlaps a reading's raw
// text or lies on the line of a diagnostic.
func tokenAccounted(src []byte, start, end int, rs []Reading, errs diag.List) bool {
	for _, r := range rs {
		if r.Pos.Offset < end && r.Pos.Offset+len(r.Raw) > start {
			return true
		}
	}
	ix := diag.NewLineIndex("f", src)
	line := ix.Pos(start).Line
	for _, e := range errs {
		if e.Pos.Line == line || e.Pos.Offset >= start && e.Pos.Offset < end {
			return true
		}
	}
	return false
}

// notData are the lines each format defines as not data: comments,
// echoed commands, logs and headers whose numbers name things (dig's
// query id, server address and date; fortio's log lines; a transcript's
// section titles).
var notData = map[string]*regexp.Regexp{
	"curl-writeout":  regexp.MustCompile(`^\s*(?:#|\$ |[*<>])`),
	"dig":            regexp.MustCompile(`^\s*(?:\$ |dig |; <<>> DiG|;; ->>HEADER<<-|;; SERVER:|;; WHEN:|; COOKIE:|; \(\d+ servers? found\)|;[^;\s])`),
	"fortio-text":    regexp.MustCompile(`^\s*(?:\$ |\d{2}:\d{2}:\d{2} [IWEFV] |\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} (?:Will|Fortio|W |I ))`),
	"transcript":     regexp.MustCompile(`^\s*(?:#|\$ |\[[^\]\s]+\])`),
	"prometheus":     regexp.MustCompile(`^\s*#`),
	"istioctl-table": regexp.MustCompile(`^\s*[A-Z][A-Z0-9_ /%().#-]*$`),
}

// digitField is a whitespace- or punctuation-delimited field of a raw line.
var digitField = regexp.MustCompile(`[^\s,;=()\[\]{}"'<>]+`)

// jsonStringLit is a JSON string literal; urlText a URL.
var (
	jsonStringLit = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	urlText       = regexp.MustCompile(`[a-z]+://[^\s,]+`)
)

// nameMembers are the JSON members whose numbers name readings rather
// than being read: a host's port (part of the host's name), a percentile
// or quantile (p50), a bucket's bound (b0.5).
var quantileList = regexp.MustCompile(`"supported_(?:quantiles|percentiles)"\s*:\s*\[[^\]]*\]`)

var nameMembers = regexp.MustCompile(`"(?:port_value|portValue|Percentile|upper_bound|supported_quantiles|supported_percentiles)"\s*:`)

// vanished returns the fields of src holding a digit that are neither
// read (overlapping a reading's raw text), nor diagnosed (on a
// diagnostic's line), nor names: an identifier (an address, version,
// date, clock time, hash, a word with digits), digits that name a reading
// of the same line (the 200 of code.200, the 99.9 of p99_9), or a line
// the format defines as not data (notData).
func vanished(format string, src []byte, rs []Reading, errs diag.List) []string {
	ix := diag.NewLineIndex("f", src)
	keysOnLine := map[int][]string{}
	for _, r := range rs {
		l := ix.Pos(r.Pos.Offset).Line
		keysOnLine[l] = append(keysOnLine[l], r.Key)
	}
	diagLine := map[int]bool{}
	for _, e := range errs {
		diagLine[e.Pos.Line] = true
	}
	// Text that is not data in any format: URLs, and in JSON the strings
	// a reader did not read (names, dates, versions, prose).
	blank := []byte(string(src))
	clear := func(a, b int) {
		if !tokenAccounted(src, a, b, rs, nil) {
			for i := a; i < b; i++ {
				blank[i] = ' '
			}
		}
	}
	for _, m := range urlText.FindAllIndex(src, -1) {
		clear(m[0], m[1])
	}
	if strings.HasSuffix(format, "json") {
		for _, m := range jsonStringLit.FindAllIndex(src, -1) {
			clear(m[0], m[1])
		}
		for _, m := range quantileList.FindAllIndex(src, -1) {
			clear(m[0], m[1])
		}
	}
	var out []string
	for _, ln := range splitLines(src) {
		text := string(blank[ln.start:ln.end])
		if nameMembers.MatchString(string(src[ln.start:ln.end])) {
			continue
		}
		line := ix.Pos(ln.start).Line
		if diagLine[line] || notData[format] != nil && notData[format].MatchString(text) {
			continue
		}
		for _, m := range digitField.FindAllStringIndex(text, -1) {
			f := strings.TrimSuffix(strings.Trim(text[m[0]:m[1]], ":|"), "%")
			if hasDigit(f) && strings.Contains(f, "::") {
				continue // an Envoy clusters line: name::host::stat::value, the value read or not
			}
			if !hasDigit(f) || isName(f) || strings.HasPrefix(f, "//") || strings.Contains(f, "://") {
				continue
			}
			if tokenAccounted(src, ln.start+m[0], ln.start+m[1], rs, nil) {
				continue
			}
			digits := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return r
				}
				return -1
			}, f)
			named := false
			for _, k := range keysOnLine[line] {
				if strings.Contains(k, f) || strings.Contains(k, strings.ReplaceAll(f, ".", "_")) || strings.Contains(strings.Map(func(r rune) rune {
					if r >= '0' && r <= '9' {
						return r
					}
					return ' '
				}, k), digits) {
					named = true
				}
			}
			if !named {
				out = append(out, f)
			}
		}
	}
	return out
}

// TestNoDigitVanishes: in every raw file of the shared corpus and of the
// reference site's evidence, every field holding a digit is a reading,
// part of a name the format defines, or on the line of a diagnostic.
func TestNoDigitVanishes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*"))
	if len(files) == 0 {
		t.Log("shared corpus not present: only the reference site's evidence is checked")
	}
	own, _ := filepath.Glob("../../../evidence/*/*")
	if len(own) == 0 {
		t.Fatal("no reference evidence files")
	}
	for _, p := range append(files, own...) {
		base := filepath.Base(p)
		if base == "evidence.toml" || strings.HasSuffix(base, ".md") || strings.Contains(base, "INVALID") {
			// A manifest; a report whose prose is not data (its table
			// cells are held to the rule by FuzzTokenNeverVanishes); a
			// file rejected as a whole.
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		format := corpusFormat[base]
		if format == "" {
			format = Sniff(base, src)
		}
		read, _ := ReaderFor(format)
		rs, errs := read(base, src, ReadOptions{})
		if v := vanished(format, src, rs, errs); len(v) > 0 {
			t.Errorf("%s (%s): %d fields with digits vanished: %q", base, format, len(v), v)
		}
	}
}
