package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"strings"
	"testing"
	"unicode"
)

// isName reports whether a token that holds digits names something rather
// than quoting a number: it starts (after signs, quotes and emphasis) with
// a letter or other non-digit, is prose (a number followed by words), or
// has the shape of an identifier (address, version, date, clock time,
// hash, …).
func isName(tok string) bool {
	// The sweep reads a token in fields split at quotes and brackets
	// (fieldDelim) and at commas not between two digits: "0A0A'0A0" is the
	// names "0A0A" and "0A0", "0A0<" the name "0A0", "000A00,A" the name
	// "000A00", while "1'234" holds the numbers 1 and 234.
	if parts := sweepFields(tok); len(parts) != 1 || parts[0] != tok {
		for _, p := range parts {
			if hasDigit(p) && !isName(p) {
				return false
			}
		}
		return true
	}
	// Emphasis, a leading colon and trailing punctuation are not part of
	// a field ("0X0!" is the hexadecimal name 0X0).
	a, b := 0, len(tok)
	for a < b && (tok[a] == '*' || tok[a] == ':' && !strings.HasPrefix(tok[a:b], "::")) { // "::1" is an address
		a++
	}
	for b > a && strings.IndexByte("*:,.!?", tok[b-1]) >= 0 {
		b--
	}
	s, _ := raw.NormaliseCell(tok[a:b])
	s = strings.TrimLeft(strings.TrimSpace(s), "+-−Δ~≈")
	if s == "" || s[0] < '0' || s[0] > '9' {
		return true
	}
	if f := strings.Fields(s); len(f) > 1 && !(len(f) == 2 && raw.UnitWord.MatchString(f[1])) {
		for _, w := range f[1:] {
			if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
				return true // prose: a number followed by words
			}
		}
	}
	return raw.Identifier(s)
}

// sweepFields splits tok where the evidence-number sweep separates fields:
// at fieldDelim bytes and at a comma that does not sit between two digits.
func sweepFields(tok string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(tok); i++ {
		if i < len(tok) && !raw.FieldDelim(tok[i]) && !(tok[i] == ',' && !(raw.IsDigitBefore(tok, i) && raw.IsDigitAt(tok, i+1))) {
			continue
		}
		if i > start {
			out = append(out, tok[start:i])
		}
		start = i + 1
	}
	return out
}

// hasDigit reports whether s holds an ASCII or full-width digit.
func hasDigit(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' || r >= '０' && r <= '９' }) >= 0
}

// FuzzTokenNeverVanishes: in every reader of text people write (transcript
// values and free text, Markdown table cells, CSV cells, quoted or not,
// curl write-out prose), a token with a digit is a value, part of a name,
// or a diagnostic at the token, never silently absent.
func FuzzTokenNeverVanishes(f *testing.F) {
	for _, s := range []string{"40,045811", "1,232", "1e3", `"40.5"`, "１２", "1m0.5s", "200,50,503", "12qps", "1/3", "10.0.0.1",
		"1.2.3", "**18 (+1)**", "Δ+1", "1e999", "0x1f", "5xx", "1..2", "-.5", "1,234,567.5", "1.234,5", "３．５％", "7 ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if !hasDigit(tok) || isName(tok) || strings.ContainsAny(tok, "\r\n|\"=#\x00") || strings.TrimSpace(tok) != tok || tok == "" {
			return
		}
		cases := []struct {
			format string
			prefix string
			suffix string
		}{
			{"markdown-tables", "| k | v |\n|---|---|\n| x | ", " |\n"},
			{"csv", "k,v\nx,\"", "\"\n"},
		}
		if !strings.ContainsAny(tok, " \t") {
			cases = append(cases, struct{ format, prefix, suffix string }{"transcript", "K=", "\n"})
		}
		// free text reads fields without surrounding punctuation
		if t := strings.Trim(tok, "([{'\",;:.!?)]}"); !strings.ContainsAny(tok, " \t") && t == tok {
			// free text: a number outside key=value is a warning
			cases = append(cases, struct{ format, prefix, suffix string }{"transcript", "took ", " here\n"})
			cases = append(cases, struct{ format, prefix, suffix string }{"curl-writeout", "time_total: 1\nabout ", " seconds\n"})
		}
		for _, c := range cases {
			src := []byte(c.prefix + tok + c.suffix)
			read, _ := formats.ReaderFor(c.format)
			rs, errs := read("f", src, raw.ReadOptions{})
			start, end := len(c.prefix), len(c.prefix)+len(tok)
			accounted := false
			for _, r := range rs {
				if r.Pos.Offset >= start && r.Pos.Offset < end {
					accounted = true
				}
			}
			for _, e := range errs {
				if e.Pos.Offset >= start && e.Pos.Offset < end || e.Pos.Offset == start-1 {
					accounted = true
				}
			}
			if !accounted && strings.IndexFunc(tok, unicode.IsControl) < 0 {
				t.Errorf("%s: token %q vanished (readings %v, diagnostics %v)", c.format, tok, rs, errs)
			}
		}
	})
}
