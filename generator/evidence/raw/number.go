package raw

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/unit"
	"github.com/shopspring/decimal"
)

// The number grammar of table cells, transcript values, CSV cells and
// curl write-out values: one number with decorations. It is shared by
// every reader of text written by people or printed under a locale
// (Markdown report tables, transcripts, CSV, istioctl tables, curl -w),
// and its digits, thousands separators and decimal marks are read by the
// scanner claims use (unit.ScanDigits), so "1,234", "40,045811", "１２"
// mean the same in a claim and in a raw file. The readers of machine
// formats that never print a comma or a locale (Envoy, fortio, dig,
// JSON, Prometheus) use the stricter grammar of the format they read
// (IsMachineNumber, the JSON number).

// Decimal is the decimal mark a manifest declares for a raw file: "" (not
// declared), "." or ",".
type Decimal string

// The decimal marks a manifest can declare.
const (
	DecimalUndeclared Decimal = ""
	DecimalPoint      Decimal = "."
	DecimalComma      Decimal = ","
)

// Comma says how a number token used commas and points.
type Comma uint8

// The ways a token can use commas and points.
const (
	// NoComma: the token has neither a comma nor a point ("17").
	NoComma Comma = iota
	// CommaGroups: commas that can only group thousands ("1,234,567",
	// "1,234.5").
	CommaGroups
	// CommaDecimal: a comma that can only be a decimal mark ("40,045811",
	// "0,5", "1.234,5").
	CommaDecimal
	// CommaAmbiguous: one comma followed by exactly three digits and no
	// point ("1,232"): thousands (1232) or a decimal comma (1.232).
	CommaAmbiguous
	// PointDecimal: a point that can only be a decimal mark ("0.5",
	// "1234.5").
	PointDecimal
	// PointAmbiguous: points followed by groups of exactly three digits
	// and no comma ("1.234"): a decimal point (1.234), or thousands
	// (1234) where the manifest declares decimal = ",".
	PointAmbiguous
)

// cellNumber matches a cell that is one number with decorations. Groups:
// 1 sign, 2 mantissa (digits, commas, points), 3 exponent, 4 unit. Offsets
// are into the normalised text (see normaliseCell).
var cellNumber = regexp.MustCompile(`^(Δ?[+\-−]?|[+\-−]?Δ?)(\d[\d,.]*)([eE][+-]?\d{1,4})?\s*(%|ms|min|s|secs?|seconds|us|µs|μs|ns|h|KB|KiB|MB|MiB|GB|GiB|B|bytes|/s)?\s*(?:\(.*\))?\s*$`)

// cellUnits maps a unit written in a cell to its canonical name (package
// unit): the micro sign and the Greek mu both write "us".
var cellUnits = map[string]string{"µs": "us", "μs": "us", "sec": "s", "secs": "s", "seconds": "s", "bytes": "B"}

// unitAfterSpace is a unit written after a value and a space ("time=134
// ms", "0.0035 secs"): the unit words of cellNumber, then the end of the
// text or a separator.
var unitAfterSpace = regexp.MustCompile(`^[ \t]+(?:%|ms|min|s|secs?|seconds|us|µs|μs|ns|h|KB|KiB|MB|MiB|GB|GiB|B|bytes|/s)(?:[\s,;)]|$)`)

// WithUnitAfter extends the value text[start:end] over a unit written
// after a space (unitAfterSpace) when the value alone is a number without
// a unit, returning the new end.
func WithUnitAfter(text string, start, end int) int {
	m := unitAfterSpace.FindStringIndex(text[end:])
	if m == nil {
		return end
	}
	if n, ok := ParseCell(text[start:end]); !ok || n.Unit != "" {
		return end
	}
	u := strings.TrimRight(text[end:end+m[1]], " \t\n\r,;)")
	return end + len(u)
}

// goDuration matches a Go time.Duration string of two or more components
// ("1m0.5s", "2h3m"); a single component ("60s", "500ms") is a number with
// a unit.
var goDuration = regexp.MustCompile(`^-?(?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns)){2,}$`)

// Number is a numeric token read from raw text: its exact value, its unit
// ("" for none; the unit written after it as a canonical name of package
// unit, one of %, h, min, s, ms, us, ns, B, KB, KiB, MB, MiB, GB, GiB, /s,
// or the unit its format defines, see units.go), and the
// byte range [Start, End) of the token (sign through unit) within the text
// it was read from.
type Number struct {
	Value      decimal.Decimal
	Unit       string
	Start, End int
	// Signed is set when the raw text wrote + or Δ: a difference.
	Signed bool
	// UnitFromName is set when Unit comes from a naming convention of the
	// file, not from the raw text or the format's definition: a CSV
	// column's suffix or bracketed unit ("latency_ms", "99_percent"). A
	// manifest declaration of another dimension overrides it (NBomber's
	// "99_percent" column holds a latency percentile in ms).
	UnitFromName bool
	// Implied is set when the format implies the value without writing it
	// (a proto3 zero that Envoy's JSON omits): Raw is the token that
	// implies it and Start = End = 0.
	Implied bool
	// Comma is how the token used commas. For CommaAmbiguous, Value reads
	// the comma as a thousands separator until Resolve decides.
	Comma Comma
	// alt is the value with the comma read as a decimal mark, for
	// CommaAmbiguous.
	Alt decimal.Decimal
}

// normaliseCell strips emphasis and code marks (* and `) and one pair of
// surrounding double quotes, and maps full-width digits, signs, point,
// comma and percent (U+FF10–FF19, ＋, －, ．, ，, ％) to ASCII. It returns
// the normalised text and, for each of its bytes, the offset in text of
// the byte or character it came from.
func normaliseCell(text string) (string, []int) {
	var b strings.Builder
	var orig []int
	quoted := len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"'
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case text[i] == '*' || text[i] == '`':
		case quoted && (i == 0 || i == len(text)-1):
		case r >= '０' && r <= '９':
			b.WriteByte(byte('0' + r - '０'))
			orig = append(orig, i)
		case r == '．' || r == '，' || r == '＋' || r == '－' || r == '％':
			b.WriteByte(map[rune]byte{'．': '.', '，': ',', '＋': '+', '－': '-', '％': '%'}[r])
			orig = append(orig, i)
		default:
			for k := 0; k < n; k++ {
				b.WriteByte(text[i+k])
				orig = append(orig, i+k)
			}
		}
		i += n
	}
	return b.String(), orig
}

// ParseCell reads a table cell or transcript value that holds exactly one
// number with decorations (see the package doc of evidence): an optional
// sign (+, -, U+2212, Δ), digits with an optional fraction after "." and
// commas (see Comma), an optional e-notation exponent (1e3, 8.9e-05), an
// optional unit (%, h, min, s, sec, secs or seconds, ms, us or µs, ns, B
// or bytes, KB, KiB, MB, MiB, GB, GiB, /s), written after the number or a
// space ("134 ms"), and an optional trailing
// parenthesised note. Emphasis and code marks, one pair of surrounding
// double quotes ("40.5") and full-width digits (１２) are read through. A
// Go duration of two or more components ("1m0.5s") is read in seconds.
// It reports false when the text is not such a number; Unreadable says
// whether such a text still looks numeric.
//
// A CommaAmbiguous number must be resolved (Resolve) before its Value is
// used.
func ParseCell(text string) (Number, bool) {
	s, orig := normaliseCell(text)
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	body := strings.TrimRight(s[lead:], " \t")
	if goDuration.MatchString(body) {
		d, err := time.ParseDuration(strings.ReplaceAll(body, "µs", "us"))
		if err != nil {
			return Number{}, false
		}
		return Number{Value: decimal.New(int64(d), -9), Unit: "s", Start: orig[lead], End: orig[lead+len(body)-1] + 1,
			Signed: false}, true
	}
	m := cellNumber.FindStringSubmatchIndex(s[lead:])
	if m == nil {
		return Number{}, false
	}
	signText := s[lead+m[2] : lead+m[3]]
	sign := strings.ReplaceAll(strings.ReplaceAll(signText, "Δ", ""), "−", "-") // no allocation when neither is written
	exp := ""
	if m[6] >= 0 {
		exp = s[lead+m[6] : lead+m[7]]
		if !expInRange(exp) {
			return Number{}, false
		}
	}
	v, alt, comma, ok := readMantissa(s[lead+m[4]:lead+m[5]], sign, exp)
	if !ok {
		return Number{}, false
	}
	n := Number{Value: v, Alt: alt, Comma: comma, Signed: strings.ContainsAny(signText, "+Δ")}
	end := lead + m[7]
	if m[6] < 0 {
		end = lead + m[5]
	}
	if m[8] >= 0 {
		n.Unit = s[lead+m[8] : lead+m[9]]
		if c, ok := cellUnits[n.Unit]; ok {
			n.Unit = c
		}
		end = lead + m[9]
	}
	n.Start = orig[lead+m[2]]
	if m[2] == m[3] {
		n.Start = orig[lead+m[4]]
	}
	last := orig[end-1]
	_, size := utf8.DecodeRuneInString(text[last:])
	n.End = last + size
	return n, true
}

// expInRange reports whether an exponent ("e-05") is within ±MaxExponent.
func expInRange(exp string) bool {
	var e int
	if _, err := fmt.Sscanf(strings.TrimLeft(exp[1:], "+-"), "%d", &e); err != nil {
		return false
	}
	return e <= MaxExponent
}

// readMantissa reads digits with commas and points (ASCII: see
// normaliseCell) with the digit scanner claims use (unit.ScanDigits),
// once with "." and once with "," as the decimal mark; the whole mantissa
// must be read. v reads the point as the decimal mark and commas as
// thousands separators where that reading exists; alt is the other
// reading for CommaAmbiguous and PointAmbiguous.
func readMantissa(mant, sign, exp string) (v, alt decimal.Decimal, comma Comma, ok bool) {
	pt, errPt := unit.ScanDigits(mant, unit.Style{})
	cm, errCm := unit.ScanDigits(mant, unit.Style{DecimalComma: true})
	ptOK := errPt == nil && pt.Len == len(mant) && pt.Len > 0
	// "1.234.567" (dot groups without a decimal comma) is an identifier
	// (a version, an address) rather than a number.
	cmOK := errCm == nil && cm.Len == len(mant) && cm.Len > 0 && (cm.Decimals > 0 || !cm.Grouped || ptOK)
	scale := func(d decimal.Decimal) (decimal.Decimal, bool) {
		if sign == "-" {
			d = d.Neg()
		}
		if exp == "" {
			return d, true
		}
		e, err := strconv.Atoi(strings.TrimPrefix(exp[1:], "+"))
		if err != nil {
			return decimal.Decimal{}, false
		}
		return d.Shift(int32(e)), true
	}
	switch {
	case ptOK && cmOK && pt.Grouped: // 1,234
		comma = CommaAmbiguous
	case ptOK && cmOK && pt.Decimals > 0: // 1.234
		comma = PointAmbiguous
	case ptOK && pt.Grouped:
		comma = CommaGroups
	case ptOK && pt.Decimals > 0:
		comma = PointDecimal
	case ptOK:
		comma = NoComma
	case cmOK:
		v, ok = scale(cm.Value)
		return v, v, CommaDecimal, ok
	default:
		return decimal.Decimal{}, decimal.Decimal{}, NoComma, false
	}
	v, ok1 := scale(pt.Value)
	alt, ok2 := v, true
	if comma == CommaAmbiguous || comma == PointAmbiguous {
		alt, ok2 = scale(cm.Value)
	}
	return v, alt, comma, ok1 && ok2
}

// Unreadable reports whether text, which ParseCell rejects, still looks
// like a number (and so must not be skipped silently), and why it cannot
// be read. Text that starts with a letter, identifiers that start with
// digits (IPv4 and IPv6 addresses with optional port or prefix length,
// versions such as 1.2.3, dates, clock times, hexadecimal, "5xx") and
// prose (more than a number and a unit word) are not numbers: it returns
// "".
func Unreadable(text string) string {
	s, _ := normaliseCell(text)
	s = strings.TrimSpace(s)
	t := strings.TrimLeft(s, "+-−Δ~≈")
	if len(t) > 1 && t[0] == '.' && t[1] >= '0' && t[1] <= '9' && !strings.ContainsAny(t[1:], ". \t") {
		return "no digit before the decimal point (write 0.5)"
	}
	if t == "" || t[0] < '0' || t[0] > '9' {
		return ""
	}
	if f := strings.Fields(t); len(f) > 1 && !(len(f) == 2 && unitWord.MatchString(f[1])) {
		for _, w := range f[1:] {
			if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
				return "" // prose that holds numbers, such as "46/46 ok (retried)"
			}
		}
	}
	if bigExponent.MatchString(t) {
		return "an exponent beyond ±400"
	}
	if Identifier(t) {
		return ""
	}
	switch {
	case numberList.MatchString(t):
		return "a list of numbers separated by commas"
	case unknownUnit.MatchString(t):
		return "an unknown unit"
	}
	return "not one number"
}

// Shapes Unreadable names in its reason.
var (
	numberList  = regexp.MustCompile(`^\d[\d.]*(?:,\d[\d.]*){2,}$`)
	bigExponent = regexp.MustCompile(`^\d[\d,.]*[eE][+-]?\d+$`)
	unitWord    = regexp.MustCompile(`^[A-Za-zµ/%]{1,6}$`)
	unknownUnit = regexp.MustCompile(`^\d[\d,.]*\s*[A-Za-zµ]`)
)

// identifierShapes are texts that start with digits but name things.
var identifierShapes = []*regexp.Regexp{
	regexp.MustCompile(`^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:/\d+)?(?:\(.*\))?$`), // IPv4[:port][/len]
	regexp.MustCompile(`^[0-9a-fA-F]*:[0-9a-fA-F:]*:[0-9a-fA-F:.]*(?:/\d+)?$`),   // IPv6
	regexp.MustCompile(`^\d+(?:\.\d+){2,}(?:[-+][\w.-]*)?$`),                     // version 1.2.3
	regexp.MustCompile(`^\d{4}([-/])\d{2}[-/]\d{2}(?:[T ][\d:.]+Z?)?`),           // date
	regexp.MustCompile(`^\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?$`),                   // clock time
	regexp.MustCompile(`^0[xX][0-9a-fA-F]+$`),                                    // hexadecimal
	regexp.MustCompile(`^\d+(?:xx|XX|st|nd|rd|th)$`),                             // 5xx, 2nd
	regexp.MustCompile(`^\d+[A-Za-z_]+\d[\w.-]*$`),                               // 1a2b3c, 2x3
	regexp.MustCompile(`^\d+(?:[-_]\w+)+$`),                                      // 1-2, 2_a: name-like
	regexp.MustCompile(`^\d+(?:\.\d+)*\.[A-Za-z_]`),                              // 15001.downstream_cx_total: a dotted name
}

// Resolve decides what the commas of n mean under the decimal mark of the
// file: dec as declared by the manifest, else seen (the mark the file's
// other numbers show, DecimalUndeclared when they show none or both). It
// returns the resolved number, a warning when it read a comma as a
// decimal mark the manifest did not declare, and an error when the commas
// cannot be read under the declaration or are ambiguous.
func (n Number) Resolve(raw string, dec, seen Decimal) (_ Number, warning, err string) {
	switch n.Comma {
	case CommaGroups:
		if dec == DecimalComma {
			return n, "", fmt.Sprintf("%q groups thousands with commas but the manifest declares decimal = \",\"; expected a decimal comma", raw)
		}
	case CommaDecimal:
		switch dec {
		case DecimalPoint:
			return n, "", fmt.Sprintf("%q has a decimal comma but the manifest declares decimal = \".\"; expected a decimal point", raw)
		case DecimalUndeclared:
			return n, fmt.Sprintf("decimal comma in %q read as %s; declare decimal = \",\" in the manifest to say so", raw, n.Value), ""
		}
	case PointDecimal:
		if dec == DecimalComma {
			return n, "", fmt.Sprintf("%q has a decimal point but the manifest declares decimal = \",\"; expected a decimal comma", raw)
		}
	case PointAmbiguous:
		if dec == DecimalComma {
			n.Value = n.Alt // 1.234 groups thousands under a decimal comma
		}
	case CommaAmbiguous:
		switch {
		case dec == DecimalPoint:
		case dec == DecimalComma:
			n.Value = n.Alt
		case seen == DecimalComma:
			n.Value = n.Alt
			return n, fmt.Sprintf("comma in %q read as a decimal mark (%s), as the file's other numbers write it; declare decimal = \",\" in the manifest to say so", raw, n.Value), ""
		case seen == DecimalPoint:
			return n, fmt.Sprintf("comma in %q read as a thousands separator (%s), as the file's other numbers write it; declare decimal = \".\" in the manifest to say so", raw, n.Value), ""
		default:
			return n, "", fmt.Sprintf("%q is ambiguous: %s with a thousands separator or %s with a decimal comma; expected decimal = \".\" or \",\" in the manifest entry", raw, n.Value, n.Alt)
		}
	}
	n.Alt = n.Value
	return n, "", ""
}

// CommaSeen accumulates the decimal mark a file's unambiguous numbers
// show: a decimal comma (CommaDecimal), or thousands commas or a decimal
// point (CommaGroups, PointDecimal).
type CommaSeen struct{ decimal, groups bool }

// Add records n's commas.
func (c *CommaSeen) Add(n Number) {
	switch n.Comma {
	case CommaDecimal:
		c.decimal = true
	case CommaGroups, PointDecimal:
		c.groups = true
	}
}

// Mark returns the decimal mark the file shows, or DecimalUndeclared when
// it shows none or both.
func (c CommaSeen) Mark() Decimal {
	switch {
	case c.decimal && !c.groups:
		return DecimalComma
	case c.groups && !c.decimal:
		return DecimalPoint
	}
	return DecimalUndeclared
}

// ResolveCommas resolves the commas of every reading (Number.Resolve)
// under the declared decimal mark dec and the mark seen in the file,
// dropping readings in error and reporting warnings and errors (rule
// diag.EvidenceNumber for warnings, diag.EvidenceDecimal for errors) at the
// reading.
func ResolveCommas(in []Reading, dec, seen Decimal) ([]Reading, diag.List) {
	var errs diag.List
	out := in[:0]
	for _, r := range in {
		n, warning, err := r.Number.Resolve(r.Raw, dec, seen)
		switch {
		case err != "":
			errs = append(errs, diag.Errorf(r.Pos, diag.EvidenceDecimal, "%s", err))
			continue
		case warning != "":
			errs = append(errs, diag.Diagnostic{Pos: r.Pos, Severity: diag.Warning, Rule: diag.EvidenceNumber, Message: warning})
		}
		r.Number = n
		out = append(out, r)
	}
	return out, errs
}
