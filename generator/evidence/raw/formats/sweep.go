package formats

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/cmdtools"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/loadtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"
)

// The sweep's per-format definitions for raw.Account: which lines of a
// file are data (dataLines, DataLines), which text inside them is not
// (blanked) and where a number the format does not read belongs
// (formatHint).

// toolNotData are the lines each tool's format defines as not data
// (see dataLines): shell commands echoed before the output ("$ wrk …"),
// wrk2's spectrum column header, k6's check names (✓ status is 200),
// log lines and banner. A tool format that writes JSON has an entry
// too, so its string literals are names, not data.
var toolNotData = map[string]*regexp.Regexp{
	"vegeta":           regexp.MustCompile(`^\s*\$(?: |$)`),
	"wrk":              regexp.MustCompile(`^\s*(?:\$(?: |$)|Value\s+Percentile\s+TotalCount)`),
	"hey":              regexp.MustCompile(`^\s*\$(?: |$)`),
	"oha":              regexp.MustCompile(`^\s*\$(?: |$)`),
	"ghz":              regexp.MustCompile(`^\s*\$(?: |$)`),
	"go-bench":         regexp.MustCompile(`^\s*(?:\$(?: |$)|(?:goos|goarch|pkg|cpu):\s|--- (?:PASS|FAIL|SKIP): |=== (?:RUN|PAUSE|CONT|NAME)\s)`),
	"benchstat":        regexp.MustCompile(`^\s*(?:\$(?: |$)|(?:goos|goarch|pkg|cpu):\s|[¹²³⁴⁵⁶⁷⁸⁹⁰]+\s|│)|^[./][^\s:]*:\s`),
	"time":             regexp.MustCompile(`^\s*(?:\$(?: |$)|Command being timed:)`),
	"kubectl":          regexp.MustCompile(`^\s*\$(?: |$)`),
	"docker-stats":     regexp.MustCompile(`^\s*\$(?: |$)`),
	"envoy-access-log": regexp.MustCompile(`^\s*\$(?: |$)`),
	"ping":             regexp.MustCompile(`^\s*\$(?: |$)`),
	"mtr":              regexp.MustCompile(`^\s*(?:\$(?: |$)|Start: )`),
	"k6":               regexp.MustCompile(`^\s*(?:\$(?: |$)|[✓✗] [^.']*$|(?:ERRO|WARN|INFO|DEBU)\[\d+\] |time="|[/|\\ _‾()]*$)`),
}

// toolBlank is text inside a tool's data lines that names a reading
// rather than being one: mtr's hop marker ("  1.|--"), the hop number
// being the key's.
var toolBlank = map[string]*regexp.Regexp{
	"mtr": regexp.MustCompile(`(?m)^\s*\d+\.\|--`),
}

// Lines a format defines as not data: comments, echoed commands, logs and
// headers whose numbers name things (dig's query id, server address and
// date; fortio's log lines; istioctl's column headers; curl -v's protocol
// lines).
var (
	curlNotData   = regexp.MustCompile(`^\s*(?:#|\$ |\$$|[*<>]|[{}](?:\s|$))`)
	digNotData    = regexp.MustCompile(`^\s*(?:\$ |dig |; <<>> DiG|;; ->>HEADER<<-|;; SERVER:|;; WHEN:|; COOKIE:|; \(\d+ servers? found\)|;[^;\s])`)
	fortioNotData = regexp.MustCompile(`^\s*(?:\$|#(?:$|[^ ]| [^t]| t[^a])|\d{4}-\d{2}-\d{2}T[\d:.]+Z? [a-z]+ )`)
	promNotData   = regexp.MustCompile(`^\s*#`)
)

// eachMatch calls f with the range of each match of re in src, in order,
// as FindAllIndex finds them, without holding them all (a large log has
// millions of string literals). re must not match the empty string nor
// assert anything about the text before a match (^, \b): a match is
// looked for in the text after the last one.
func eachMatch(re *regexp.Regexp, src []byte, f func(a, b int)) {
	for pos := 0; pos < len(src); {
		m := re.FindIndex(src[pos:])
		if m == nil || m[1] == m[0] {
			return
		}
		f(pos+m[0], pos+m[1])
		pos += m[1]
	}
}

// ownAccounting are the formats whose readers account for their numbers
// themselves: a transcript (ReadTranscript warns per line) and a report's
// tables (CellNumber warns per cell; prose outside tables is not data).
var ownAccounting = map[string]bool{"transcript": true, "markdown-tables": true}

// dataLines returns the lines of src that format reads as data, and a
// view of src in which the text that is not data inside those lines (the
// string literals of JSON, URLs) is blanked.
func dataLines(format string, src []byte) ([]raw.LineSpan, []byte) {
	var skip *regexp.Regexp
	switch format {
	case "curl-writeout":
		skip = curlNotData
	case "dig":
		skip = digNotData
	case "fortio-text":
		skip = fortioNotData
	case "prometheus":
		skip = promNotData
	default:
		skip = toolNotData[format]
	}
	view := src
	blank := func(a, b int) {
		if &view[0] == &src[0] {
			view = append([]byte(nil), src...)
		}
		for i := a; i < b; i++ {
			if view[i] != '\n' {
				view[i] = ' '
			}
		}
	}
	if bytes.Contains(src, []byte("://")) { // the regexp tries every byte
		for _, m := range urlText.FindAllIndex(src, -1) {
			blank(m[0], m[1])
		}
	}
	if re := toolBlank[format]; re != nil {
		for _, m := range re.FindAllIndex(src, -1) {
			blank(m[0], m[1]) // mtr's hop marker "1.|--" names the hop
		}
	}
	if format == "envoy-stats" {
		for _, m := range jsonStringLit.FindAllIndex(src, -1) {
			blank(m[0], m[1]) // a text readout: server.version_text: "1.30.1"
		}
	}
	if format == "prometheus" {
		for _, m := range promSampleTime.FindAllSubmatchIndex(src, -1) {
			blank(m[2], m[3])
		}
	}
	if strings.HasSuffix(format, "json") || format == "envoy-access-log" || toolNotData[format] != nil && raw.LooksJSON(src) {
		eachMatch(jsonStringLit, src, func(a, b int) {
			if !numericString(src[a:b]) {
				blank(a, b)
			}
		})
		eachMatch(jsonNameMembers, src, blank)
	}
	var out []raw.LineSpan
	cont := false
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		trimmed := strings.TrimSpace(text)
		switch {
		case cont:
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		case format == "curl-writeout" && strings.HasPrefix(trimmed, "{") && strings.HasSuffix(trimmed, "}"):
		case skip != nil && skip.MatchString(text):
			cont = (trimmed == "$" || strings.HasPrefix(trimmed, "$ ")) && strings.HasSuffix(trimmed, "\\")
			continue
		case format == "istioctl-table" && cmdtools.IsIstioHeader(text), format == "fortio-text" && loadtest.IsFortioLog(text):
			continue
		}
		out = append(out, ln)
	}
	return out, view
}

// numericString reports whether a JSON string literal holds exactly a
// number ("53"), as Envoy writes some values.
func numericString(lit []byte) bool {
	_, ok := raw.ParseDecimal(string(lit[1 : len(lit)-1]))
	return ok
}

// URLs are names; JSON string literals are names or prose unless they hold
// exactly a number; the members whose numbers name things (a host's port,
// a percentile or quantile label, a bucket's bound, the supported
// quantiles list) name readings rather than being read.
var (
	urlText         = regexp.MustCompile(`[a-z][a-z0-9+.-]*://[^\s,"]+`)
	jsonStringLit   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	promSampleTime  = regexp.MustCompile(`(?m)^[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^\n]*\})?[ \t]+\S+[ \t]+(-?\d+)[ \t]*\r?$`)
	jsonNameMembers = regexp.MustCompile(`"(?:port_value|portValue|Percentile|upper_bound|supported_quantiles|supported_percentiles)"\s*:\s*(?:\[[^\]]*\]|[-+0-9.eE]+)`)
)

// formatHints says, per format, where a number the format does not read
// belongs.
func formatHint(format string) string {
	switch format {
	case "curl-writeout":
		return "a \"key: value\" line, key=value tokens or a line of values (or a [[read]] format that reads this tool's output)"
	case "json", "fortio-json", "envoy-stats-json", "envoy-clusters-json":
		return "a JSON number the format reads (or a [[read]] format that reads this document)"
	}
	return "a line the format reads (or the [[read]] format of the tool that wrote it)"
}

// skipLines drops the lines a pattern entry's skip pattern matches: they
// are not data (CompilePatternAny; a pattern that does not compile skips
// nothing, and its entry is an error elsewhere).
func skipLines(src []byte, lines []raw.LineSpan, skip string) []raw.LineSpan {
	re, err := structured.CompilePatternAny(skip)
	if err != nil {
		return lines
	}
	out := lines[:0:0]
	for _, ln := range lines {
		if !re.Match(src[ln.Start:ln.End]) {
			out = append(out, ln)
		}
	}
	return out
}
