package labreport

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Entry is one numeric reading in a lab transcript: the section it sits in
// ("" before the first section header), its key as written, the number and
// the position and raw text of the value token.
type Entry struct {
	Section string
	Key     string
	Number  raw.Number
	Raw     string
	Pos     diag.Position
}

var (
	bannerLine  = regexp.MustCompile(`^\s*[=\-#*]{3,}\s*$`)
	sectionLine = regexp.MustCompile(`^\s*\[([^\]\s]+)\]\s*(.*)$`)
	deltaLine   = regexp.MustCompile(`^\s*([A-Za-z_][\w.:|-]*)\s+([+\-−]\d[\d,]*(?:\.\d+)?)\s*$`)
	colonLine   = regexp.MustCompile(`^\s*([A-Za-z_][\w.|-]*):\s+(\S+)\s*$`)
	colonUnit   = regexp.MustCompile(`^\s*([A-Za-z_][\w.|-]*):\s+(\S+[ \t]+\S+)\s*$`)
	kvToken     = regexp.MustCompile(`([A-Za-z_][\w.-]*(?:\([\w.]+\))?)=(\S+)`)
)

// sectionHeader reports whether a line is a section header "[ID] title"
// and returns ID. An ID that is a number or names a date, time or address
// ("[200]", "[2020-11-25T21:26:18.409Z]" as an access log line starts) is
// not a section: the line is data.
func sectionHeader(text string) (string, bool) {
	m := sectionLine.FindStringSubmatch(text)
	if m == nil || strings.Contains(m[1], "=") || strings.IndexFunc(m[1], unicode.IsLetter) < 0 || raw.Identifier(m[1]) {
		return "", false
	}
	return m[1], true
}

// TranscriptLines returns the data lines of a transcript: all but blank
// lines, banners, comments, echoed commands (with their \ continuations)
// and section headers.
func TranscriptLines(src []byte) []raw.LineSpan {
	var out []raw.LineSpan
	cont := false
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		trimmed := strings.TrimSpace(text)
		if cont {
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		}
		switch {
		case trimmed == "", bannerLine.MatchString(text), strings.HasPrefix(trimmed, "#"):
			continue
		case strings.HasPrefix(trimmed, "$ ") || trimmed == "$":
			cont = strings.HasSuffix(trimmed, "\\")
			continue
		}
		if _, ok := sectionHeader(text); ok {
			continue
		}
		out = append(out, ln)
	}
	return out
}

// ReadTranscript reads a result.txt style lab transcript:
//
//	==========================       banner lines of =, -, # or *
//	[D-2] passthrough STRICT         section header "[ID] title"
//	$ curl -s -o /dev/null \         echoed command, with \ continuations
//	    -w '...' https://...
//	CURL_EXIT=0 SIZE=409610 TIME=40.045811 CODE=200   key=value tokens
//	upstream_cx_destroy +1           counter delta "name +N"
//	upstream_cx_active: 0            gauge "name: value"
//	# comment
//
// Only numeric values are returned (see ParseCell); key=value tokens whose
// value is not a number (who=backend-a, an address, a version) are
// skipped. A key may end in a parenthesised quantile, as k6 writes
// p(90)=18.91ms; a unit written after a space is the value's
// ("time=134 ms", "rtt: 12.3 ms"). A value that looks numeric but cannot be
// read (Unreadable: "200,200,503", "12 ms/s") is a warning at its
// position, and every other number of a data line that no token reads
// (free text: "took 3 retries", "HTTP/1.1 200 OK") is an evidence-number
// warning: one per line, at its first such number, its range spanning
// them all. Banners, comments, commands and section headers are not data;
// an ID that is a number or a timestamp ("[200]", an access log's
// "[2020-11-25T21:26:18.409Z]") does not start a section. Fields that
// start with a letter or name things (addresses, versions, dates, clock
// times) are names. Commas follow
// opt.Decimal, else the file's other numbers, else an ambiguous "1,232"
// is an error (see Number.Resolve). Text that is not clean UTF-8 is an
// error (see CheckRawText).
func ReadTranscript(file string, src []byte, opt raw.ReadOptions) ([]Entry, diag.List) {
	ix := diag.NewLineIndex(file, src)
	if errs := raw.CheckRawText(ix, src); errs != nil {
		return nil, errs
	}
	var (
		out     []Entry
		errs    diag.List
		seen    raw.CommaSeen
		section string
	)
	lines := TranscriptLines(src)
	next := 0 // the next data line
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		if next < len(lines) && lines[next].Start == ln.Start {
			next++
		} else {
			if id, ok := sectionHeader(text); ok {
				section = id
			}
			continue
		}
		add := func(key string, vstart, vend int) {
			vend = raw.WithUnitAfter(text, vstart, vend)
			val := text[vstart:vend]
			n, ok := raw.ParseCell(val)
			if !ok {
				if why := raw.Unreadable(val); why != "" {
					errs = append(errs, diag.Diagnostic{Pos: ix.Pos(ln.Start + vstart), Severity: diag.Warning, Rule: diag.EvidenceNumber,
						Message: fmt.Sprintf("value %q of %s looks numeric but is not read (%s); expected one number such as 40.5, 1,234.5 or 12ms", val, key, why)})
				}
				return
			}
			seen.Add(n)
			tok := val[n.Start:n.End]
			pos := ix.Pos(ln.Start + vstart + n.Start)
			n.Start, n.End = 0, len(tok)
			out = append(out, Entry{Section: section, Key: key, Number: n, Raw: tok, Pos: pos})
		}
		if m := deltaLine.FindStringSubmatchIndex(text); m != nil {
			add(text[m[2]:m[3]], m[4], m[5])
			continue
		}
		if m := colonLine.FindStringSubmatchIndex(text); m != nil {
			add(text[m[2]:m[3]], m[4], m[5])
			continue
		}
		if m := colonUnit.FindStringSubmatchIndex(text); m != nil {
			if n, ok := raw.ParseCell(text[m[4]:m[5]]); ok && n.Unit != "" {
				add(text[m[2]:m[3]], m[4], m[5])
				continue
			}
		}
		for _, m := range kvToken.FindAllStringSubmatchIndex(text, -1) {
			add(text[m[2]:m[3]], m[4], m[5])
		}
	}
	out, errs = resolveEntries(out, errs, opt.Decimal, seen.Mark())
	rs := make([]raw.Reading, 0, len(out))
	for _, e := range out {
		rs = append(rs, raw.Reading{Key: e.Key, Raw: e.Raw, Pos: e.Pos})
	}
	errs = append(errs, raw.UnreadWarnings(ix, src, lines, rs, errs, "transcript", "key=value (such as n=42) or a line the transcript format reads: \"key: value\", \"name +N\"")...)
	errs.Sort()
	return out, errs
}

// resolveEntries resolves the commas of every entry (Number.Resolve),
// dropping those in error and reporting warnings and errors at the entry.
func resolveEntries(in []Entry, errs diag.List, dec, seen raw.Decimal) ([]Entry, diag.List) {
	out := in[:0]
	for _, e := range in {
		n, warning, err := e.Number.Resolve(e.Raw, dec, seen)
		switch {
		case err != "":
			errs = append(errs, diag.Errorf(e.Pos, diag.EvidenceDecimal, "%s", err))
			continue
		case warning != "":
			errs = append(errs, diag.Diagnostic{Pos: e.Pos, Severity: diag.Warning, Rule: diag.EvidenceNumber, Message: warning})
		}
		e.Number = n
		out = append(out, e)
	}
	errs.Sort()
	return out, errs
}

// ReadTranscriptAsReadings names transcript readings "<section>.<key>"
// ("<key>" before the first section); a key that repeats is numbered in
// file order, "#2", "#3", … (k6 prints avg= and p(90)= on every line).
func ReadTranscriptAsReadings(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	entries, errs := ReadTranscript(file, src, opt)
	out := make([]raw.Reading, 0, len(entries))
	seen := map[string]int{}
	for _, e := range entries {
		key := e.Key
		if e.Section != "" {
			key = e.Section + "." + e.Key
		}
		if seen[key]++; seen[key] > 1 {
			key = fmt.Sprintf("%s#%d", key, seen[key])
		}
		out = append(out, raw.Reading{Key: key, Number: e.Number, Raw: e.Raw, Pos: e.Pos})
	}
	return raw.ListOf(file, src, out), errs
}
