package cmdtools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The curl -w write-out reader ("curl-writeout", ReadCurlWriteout). The
// conventions of every lab-format reader are in readings.go.

// The shapes of curl write-out text: a "key: value" line, a key=value or
// "key: value" token inside a line, a value with a decimal comma that is a
// whole line, and the operators a line of unlabelled values may hold.
var (
	curlLineKV   = regexp.MustCompile(`^\s*([A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*)*)\s*:\s+(\S+)(?:[ \t]+(?:s|ms|secs?|seconds|B|bytes))?\s*$`)
	curlInlineKV = regexp.MustCompile(`([A-Za-z_][\w.-]*)(=|:[ \t]*)([^\s;]+)`)
	curlLocale   = regexp.MustCompile(`^-?\d+,(?:\d{3}|\d{6})(?:s|ms)?$`)
	curlOps      = map[string]bool{"+": true, "-": true, "=": true, "/": true, "*": true, "|": true, "x": true}
)

// curlNumber reads one curl write-out value with the number grammar of
// every reader (ParseCell): the token must be exactly one number, with an
// optional unit s or ms. curl never groups thousands: it prints times
// with the decimal mark of its locale (LC_NUMERIC) and sizes and codes as
// integers, so a comma or point in its value is a decimal mark, which
// resolves the ambiguity of "1,232" (1.232) and "1.232" by the format.
// Thousands commas ("1,234,567") are not a curl value.
func curlNumber(tok string) (raw.Number, bool) {
	n, ok := raw.ParseCell(tok)
	if !ok || n.Start != 0 || n.End != len(tok) || n.Unit != "" && n.Unit != "s" && n.Unit != "ms" && n.Unit != "B" {
		return raw.Number{}, false
	}
	switch n.Comma {
	case raw.CommaGroups:
		return raw.Number{}, false
	case raw.CommaAmbiguous:
		n.Value, n.Comma = n.Alt, raw.CommaDecimal
	case raw.PointAmbiguous:
		n.Alt, n.Comma = n.Value, raw.PointDecimal
	}
	return n, true
}

// curlValue records tok (at off) under key, its commas resolved under the
// declared decimal mark dec (Number.Resolve): a decimal comma the
// manifest did not declare is read with a warning (rule
// evidence-curl-locale), a mark contradicting the declaration is an
// error. It reports whether tok was a value.
func curlValue(r *raw.Recorder, key string, off int, tok string, dec raw.Decimal) bool {
	n, ok := curlNumber(tok)
	if !ok {
		return false
	}
	n, warning, err := n.Resolve(tok, dec, raw.DecimalUndeclared)
	switch {
	case err != "":
		r.Errs = append(r.Errs, diag.Errorf(r.Index.Pos(off), diag.EvidenceDecimal, "%s", err))
		return true
	case warning != "":
		r.Errs = append(r.Errs, diag.Diagnostic{Pos: r.Index.Pos(off), Severity: diag.Warning, Rule: diag.EvidenceCurlLocale,
			Message: fmt.Sprintf("decimal comma in %q read as %s; expected a decimal point (run curl with LC_NUMERIC=C) or decimal = \",\" in the manifest", tok, n.Value)})
	}
	r.Add(key, off, tok, n.Value, n.Unit)
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
// Keys are as written. A value is one number in the grammar of every
// reader (ParseCell; curl prints 3 decimals before 7.52 and 6 since) with
// an optional unit "s", "ms" or "B", also written after a space
// ("Average: 0.0035 secs", "Total data: 122400 bytes"). Tokens separated
// by commas are read one by one and double-quoted strings skipped, so an
// InfluxDB line ("ghz_run,n=1000,c=50 count=1000,total=50000556") gives
// every field. A key repeated by several
// requests is numbered in order: time_total, time_total#2, …; unlabelled
// values are value, value#2, …. A time_* variable (seconds) written as a
// whole number is an evidence-plausible warning: curl 7.74.0 printed them
// in integer microseconds (curl#6367).
//
// curl never groups thousands, so a comma is a decimal mark: "40,045811"
// and "1,232" (curl in a locale such as de_DE) are read as 40.045811 and
// 1.232 with a warning (severity warning, rule evidence-curl-locale) at
// their position unless the manifest declares decimal = ","; under
// decimal = "." they are evidence-decimal errors. Outside a key a
// comma value must be the whole line with 3 or 6 fraction digits, since
// commas otherwise separate values.
//
// Skipped: blank lines, "#" comments, "$ …" commands (with "\"
// continuations), curl -v lines starting with "*", "<", ">", "{" or "}"
// that are not %{json} objects. A line of prose (words that are not
// key/value pairs) is not read; its numbers, like every number no token
// reads, are one warning per line (rule evidence-number). A file with no
// value is an error.
func ReadCurlWriteout(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceCurlWriteout)
	if errs != nil {
		return nil, errs
	}
	cont := false
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
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
			if obj, errs := jsontree.ParseFile(r.Index, src, ln.Start+lead, ln.Start+lead+len(trimmed), r.Rule); errs == nil && obj.Kind == jsontree.Object {
				for _, m := range obj.Members {
					if m.Val.Kind == jsontree.Number {
						r.AddJSONNumber(m.Key, m.Val)
					}
				}
			}
			continue
		}
		if strings.IndexByte("*<>{}", trimmed[0]) >= 0 {
			continue
		}
		if m := curlLineKV.FindStringSubmatchIndex(text); m != nil && curlValue(r, text[m[2]:m[3]], ln.Start+m[4], text[m[4]:raw.WithUnitAfter(text, m[4], m[5])], opt.Decimal) {
			continue
		}
		if curlInline(r, ln.Start, text, opt.Decimal) {
			continue
		}
		curlValueLine(r, ln.Start, text, opt.Decimal)
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(0, "no curl write-out values; expected lines such as \"time_total: 0.982326\", \"TIME=40.045811 CODE=200\" or a line of numbers")
	}
	r.AttachUnits(curlUnit)
	checkCurlTimes(r)
	return r.Result()
}

// checkCurlTimes warns (rule evidence-plausible) at each time_* value in
// seconds written as a whole number other than 0: curl prints seconds
// with a fraction (%.6f since 7.52), while curl 7.74.0 printed these
// variables in integer microseconds (curl#6367), so "time_total=74602"
// is 0.074602 s read as 20.7 hours.
func checkCurlTimes(r *raw.Recorder) {
	r.Out.Flush()
	for i := range r.Out.Len() {
		rd := r.Out.At(i)
		if curlUnit(raw.BaseKey(rd.Key)) != "s" || strings.ContainsAny(rd.Raw, ".,s") || rd.Number.Value.IsZero() {
			continue
		}
		r.Errs = append(r.Errs, diag.Diagnostic{Pos: rd.Pos, Severity: diag.Warning, Rule: diag.EvidencePlausible,
			Message: fmt.Sprintf("%s = %s is read in seconds (%s s), but curl prints seconds with a fraction; curl 7.74.0 printed time_* in integer microseconds (curl#6367), which would make it %s s; expected a value in seconds such as 0.074602, or the file of a curl that prints them", rd.Key, rd.Raw, rd.Number.Value, rd.Number.Value.Shift(-6))})
	}
}

// curlValueLine reads a line of unlabelled values (see ReadCurlWriteout)
// starting at byte offset base.
func curlValueLine(r *raw.Recorder, base int, text string, dec raw.Decimal) {
	trimmed := strings.TrimSpace(text)
	lead := strings.Index(text, trimmed)
	if curlLocale.MatchString(trimmed) {
		curlValue(r, "value", base+lead, trimmed, dec)
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
		if _, ok := curlNumber(tok); ok {
			nums = append(nums, field{f.off, tok})
			continue
		}
		if curlOps[tok] || strings.Contains(tok, "://") {
			continue
		}
		return // prose: its numbers are not read, which the sweep (accountFor) reports
	}
	for _, f := range nums {
		curlValue(r, "value", base+f.off, f.tok, dec)
	}
}

// curlInline reads the key=value and "key: value" tokens of a line
// starting at byte offset base (see ReadCurlWriteout), and reports
// whether it read one. A token starts the line or follows a blank, comma,
// semicolon or parenthesis; a value is a number (with a unit written
// after a space: "0.0035 secs"), a double-quoted string (skipped whole,
// so its commas and equals signs are not tokens), or text up to the next
// blank, semicolon or comma, after which reading goes on: InfluxDB line
// protocol ("ghz_run,n=1000,c=50 count=1000,total=50000556") writes its
// fields that way.
func curlInline(r *raw.Recorder, base int, text string, dec raw.Decimal) bool {
	found := false
	for at := 0; at < len(text); {
		m := curlInlineKV.FindStringSubmatchIndex(text[at:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += at
			}
		}
		at = m[1]
		if m[0] > 0 && strings.IndexByte(" \t,;(", text[m[0]-1]) < 0 {
			at = m[0] + 1
			continue
		}
		key, vs, tok := text[m[2]:m[3]], m[6], text[m[6]:m[7]]
		if tok[0] == '"' {
			at = quotedEnd(text, vs)
			continue
		}
		if _, ok := curlNumber(tok); !ok {
			if i := strings.IndexByte(tok, ','); i > 0 {
				tok = tok[:i]
				at = vs + i
			}
		}
		if _, ok := curlNumber(tok); ok && vs+len(tok) == m[7] {
			tok = text[vs:raw.WithUnitAfter(text, vs, vs+len(tok))]
			at = max(at, vs+len(tok))
		}
		if curlValue(r, key, base+vs, tok, dec) {
			found = true
		}
	}
	return found
}

// quotedEnd returns the offset just past the double-quoted string starting
// at text[i] (backslash escapes read through), or len(text).
func quotedEnd(text string, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(text)
}

// curlTimeKey and curlTimeUSKey are curl -w's time variables: seconds
// (time_total: 0.534), or integer microseconds for the _us forms.
var (
	curlTimeKey   = regexp.MustCompile(`^time_[a-z]+$`)
	curlTimeUSKey = regexp.MustCompile(`^time_[a-z]+_us$`)
	curlSizeKey   = regexp.MustCompile(`^size_[a-z]+$`)
)

// curlUnit: curl's time_* write-out variables are seconds, time_*_us
// microseconds, size_* bytes. Keys the user chose (TIME=%{time_total})
// carry no unit: the manifest declares it.
func curlUnit(key string) string {
	switch {
	case curlTimeUSKey.MatchString(key):
		return "us"
	case curlTimeKey.MatchString(key):
		return "s"
	case curlSizeKey.MatchString(key):
		return "B"
	}
	return ""
}
