package unit

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Style says how a text groups digits and marks decimals.
type Style struct {
	// DecimalComma reads "," as the decimal mark (40,045811) and "." as a
	// thousands separator, as decimal-comma locales print numbers.
	DecimalComma bool
	// SpaceGrouping reads a space, no-break space or thin space between
	// digit groups of three as a thousands separator ("150 000").
	SpaceGrouping bool
}

// Digits is an unsigned number as written: ASCII or full-width digits,
// optional thousands separators, optional decimal part.
type Digits struct {
	// Value is the exact value.
	Value decimal.Decimal
	// Decimals is the number of digits written after the decimal mark.
	Decimals int
	// Grouped is set when thousands separators were written; Sep is the
	// separator ("," "." " " or the full-width "，").
	Grouped bool
	Sep     string
	// FullWidth is set when the digits were full-width (０-９).
	FullWidth bool
	// Len is the number of bytes read.
	Len int
}

// SyntaxError is a digit run that looks numeric but cannot be read, at
// byte Offset of the scanned text.
type SyntaxError struct {
	Offset int
	Text   string
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("cannot read %q: %s", Excerpt(e.Text, 0, len(e.Text), 40), e.Msg)
}

// Excerpt returns s[from:to] for a message: both ends moved out to whole
// UTF-8 characters (a byte range can cut one in half), and cut after max
// characters with "…" when longer.
func Excerpt(s string, from, to, max int) string {
	from, to = min(max0(from), len(s)), min(max0(to), len(s))
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	t := s[from:max0(to)]
	if utf8.RuneCountInString(t) <= max {
		return t
	}
	n := 0
	for i := range t {
		if n == max {
			return t[:i] + "…"
		}
		n++
	}
	return t
}

func max0(i int) int { return max(i, 0) }

// digitAt returns the value of the ASCII or full-width digit at s[i] and
// its length in bytes, or -1.
func digitAt(s string, i int) (int, int, bool) {
	if i >= len(s) {
		return -1, 0, false
	}
	if c := s[i]; c >= '0' && c <= '9' {
		return int(c - '0'), 1, false
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r >= '０' && r <= '９' {
		return int(r - '０'), n, true
	}
	return -1, 0, false
}

// IsDigitAt reports whether s has an ASCII or full-width digit at byte i.
func IsDigitAt(s string, i int) bool {
	d, _, _ := digitAt(s, i)
	return d >= 0
}

// run reads a run of digits at s[i:], appending them (ASCII) to b when
// collect is set; it returns the bytes read, the count of digits, whether
// any was full-width and b.
func run(s string, i int, b []byte, collect bool) (n, count int, fw bool, out []byte) {
	for {
		d, l, f := digitAt(s, i+n)
		if d < 0 {
			return n, count, fw, b
		}
		if collect {
			b = append(b, byte('0'+d))
		}
		n += l
		count++
		fw = fw || f
	}
}

// sepAt returns the separator at s[i:] that st allows between groups of
// three, and its length.
func sepAt(s string, i int, st Style) (string, int) {
	for _, sep := range []string{",", "，", ".", "．", " ", "\u00a0", "\u202f", "\u2009"} {
		if !strings.HasPrefix(s[i:], sep) {
			continue
		}
		switch sep {
		case ",", "，":
			if st.DecimalComma {
				return "", 0
			}
		case ".", "．":
			if !st.DecimalComma {
				return "", 0
			}
		default:
			if !st.SpaceGrouping {
				return "", 0
			}
		}
		return sep, len(sep)
	}
	return "", 0
}

// ScanDigits reads the number at the start of s. It returns Len = 0 and no
// error when s does not start with a digit. A separator followed by digits
// that do not form groups of three ("409,6100", "1,23"), or that follows
// a leading 0 ("0,534"), is a SyntaxError;
// a space followed by digits that are not a group of three ends the
// number (two numbers "5 10"). The decimal mark must be followed by a
// digit; the value is exact.
func ScanDigits(s string, st Style) (Digits, error) {
	var buf [32]byte // the digits of most numbers, on the stack
	return scanDigits(s, st, buf[:0], true)
}

// ScanDigitsShape is ScanDigits without the value (Value is zero): it
// reads the same digits, separators and decimal mark, and reports the
// same errors, without allocating. Readers use it to test a token's shape.
func ScanDigitsShape(s string, st Style) (Digits, error) {
	return scanDigits(s, st, nil, false)
}

// scanDigits implements ScanDigits, collecting the digits in b; without
// collect it does not compute Value.
func scanDigits(s string, st Style, b []byte, collect bool) (Digits, error) {
	n, count, fw, b := run(s, 0, b, collect)
	if n == 0 {
		return Digits{}, nil
	}
	out := Digits{FullWidth: fw}
	total := count // digits read, bounded by MaxDigits in both modes
	// Thousands groups; a number that starts with 0 has none ("0,534").
	if d, _, _ := digitAt(s, 0); d == 0 {
		if sep, sl := sepAt(s, n, st); sep != "" && !isSpaceSep(sep) && IsDigitAt(s, n+sl) {
			return out, &SyntaxError{Offset: 0, Text: s[:n+sl+1], Msg: "a number that starts with 0 has no thousands separator; expected a decimal mark (0.5)"}
		}
	} else if count <= 3 {
		for {
			sep, sl := sepAt(s, n, st)
			if sep == "" {
				break
			}
			gn, gc, gfw, _ := run(s, n+sl, nil, false)
			if gc == 0 {
				break
			}
			space := strings.TrimSpace(sep) == "" || sep == "\u00a0" || sep == "\u202f" || sep == "\u2009"
			if gc != 3 || out.Sep != "" && out.Sep != sep {
				if space {
					break // "5 10": two numbers
				}
				return out, &SyntaxError{Offset: 0, Text: s[:n+sl+gn], Msg: "expected digit groups of three after a thousands separator (1,234)"}
			}
			if space {
				// "150 000" only when the group is not continued by a
				// decimal or another digit run of another length.
				if _, l, _ := digitAt(s, n+sl+gn); l > 0 {
					break
				}
			}
			out.Grouped, out.Sep = true, sep
			if collect {
				_, _, _, b = run(s, n+sl, b, true)
			}
			n += sl + gn
			total += gc
			out.FullWidth = out.FullWidth || gfw
		}
	} else if sep, sl := sepAt(s, n, st); sep != "" && !isSpaceSep(sep) && IsDigitAt(s, n+sl) {
		return out, &SyntaxError{Offset: 0, Text: s[:n+sl+1], Msg: "expected digit groups of three after a thousands separator (1,234)"}
	}
	// Decimal part.
	mark := []string{".", "．"}
	if st.DecimalComma {
		mark = []string{",", "，"}
	}
	for _, m := range mark {
		if !strings.HasPrefix(s[n:], m) || !IsDigitAt(s, n+len(m)) {
			continue
		}
		if collect {
			b = append(b, '.')
		}
		var fn, fc int
		var ffw bool
		fn, fc, ffw, b = run(s, n+len(m), b, collect)
		n += len(m) + fn
		out.Decimals = fc
		total += fc
		out.FullWidth = out.FullWidth || ffw
		break
	}
	out.Len = n
	if total > MaxDigits {
		return out, &SyntaxError{Text: s[:n], Msg: fmt.Sprintf("a number of %d digits; expected at most %d", total, MaxDigits)}
	}
	if !collect {
		return out, nil
	}
	v, err := parseDecimal(b)
	if err != nil {
		return out, &SyntaxError{Text: s[:n], Msg: err.Error()}
	}
	out.Value = v
	return out, nil
}

// MaxDigits bounds the digits of one number: far more than any
// measurement has, and little enough that reading one stays cheap
// (converting a decimal string to binary costs time quadratic in its
// length: 4 MB of digits took about 50 s).
const MaxDigits = 1000

// parseDecimal is decimal.NewFromString for the ASCII digits, with an
// optional "." and fraction, that scanDigits collects: up to 18 digits it
// builds the same decimal (coefficient and exponent) from an int64
// without parsing through math/big.
func parseDecimal(str []byte) (decimal.Decimal, error) {
	var v int64
	digits, scale, frac := 0, int32(0), false
	for i := 0; i < len(str); i++ {
		switch c := str[i]; {
		case c >= '0' && c <= '9':
			v = v*10 + int64(c-'0')
			digits++
			if frac {
				scale++
			}
		case c == '.' && !frac:
			frac = true
		default:
			return decimal.NewFromString(string(str))
		}
	}
	if digits > MaxDigits {
		// Parsing through math/big costs time quadratic in the digits.
		return decimal.Decimal{}, fmt.Errorf("a number of %d digits; expected at most %d", digits, MaxDigits)
	}
	if digits == 0 || digits > 18 {
		return decimal.NewFromString(string(str))
	}
	return NewDecimal(v, -scale), nil
}

// The coefficients and exponents NewDecimal shares a value for: 0 to
// 9,999 with 0 to 3 decimals, the numbers of most claims and prose.
const smallCoefficients, smallScales = 10000, 4

// smallDecimals holds decimal.New(v, -s) at s*smallCoefficients+v, made on
// first use.
var smallDecimals = sync.OnceValue(func() []decimal.Decimal {
	t := make([]decimal.Decimal, smallCoefficients*smallScales)
	for s := range smallScales {
		for v := range smallCoefficients {
			t[s*smallCoefficients+v] = decimal.New(int64(v), -int32(s))
		}
	}
	return t
})

// NewDecimal returns decimal.New(v, exp). For a small coefficient and
// exponent it returns one value made once, instead of a new big.Int for
// every number read: a decimal.Decimal is immutable (every operation
// makes a new coefficient), so its values may share one.
func NewDecimal(v int64, exp int32) decimal.Decimal {
	if v >= 0 && v < smallCoefficients && exp <= 0 && exp > -smallScales {
		return smallDecimals()[int(-exp)*smallCoefficients+int(v)]
	}
	return decimal.New(v, exp)
}

func isSpaceSep(sep string) bool {
	return sep == " " || sep == "\u00a0" || sep == "\u202f" || sep == "\u2009"
}
