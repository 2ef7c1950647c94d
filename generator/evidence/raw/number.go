package raw

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// cellNumber matches a cell that is one number with decorations. Groups:
// 1 sign, 2 digits, 3 unit. Offsets are into the stripped text.
var cellNumber = regexp.MustCompile(`^(Δ?[+\-−]?|[+\-−]?Δ?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*(%|ms|min|s|KB|KiB|B|/s)?\s*(?:\(.*\))?\s*$`)

// Number is a numeric token read from raw text: its exact value, the unit
// written after it ("" for none, or one of %, s, ms, B, KB, KiB), and the
// byte range [Start, End) of the token (sign through unit) within the text
// it was read from.
type Number struct {
	Value      decimal.Decimal
	Unit       string
	Start, End int
	// Signed is set when the raw text wrote + or Δ: a difference.
	Signed bool
}

// ParseCell reads a table cell or transcript value that holds exactly one
// number with decorations (see the package doc). It reports false when the
// text is not such a number.
func ParseCell(text string) (Number, bool) {
	// Strip emphasis and code marks while remembering offsets.
	var b strings.Builder
	var orig []int
	for i := 0; i < len(text); i++ {
		if text[i] == '*' || text[i] == '`' {
			continue
		}
		b.WriteByte(text[i])
		orig = append(orig, i)
	}
	s := b.String()
	lead := len(s) - len(strings.TrimLeft(s, " \t"))
	m := cellNumber.FindStringSubmatchIndex(s[lead:])
	if m == nil {
		return Number{}, false
	}
	sign := strings.NewReplacer("Δ", "", "−", "-").Replace(s[lead+m[2] : lead+m[3]])
	digits := strings.ReplaceAll(s[lead+m[4]:lead+m[5]], ",", "")
	v, err := decimal.NewFromString(sign + digits)
	if err != nil {
		return Number{}, false
	}
	n := Number{Value: v, Signed: strings.ContainsAny(s[lead+m[2]:lead+m[3]], "+Δ")}
	end := lead + m[5]
	if m[6] >= 0 {
		n.Unit = s[lead+m[6] : lead+m[7]]
		end = lead + m[7]
	}
	n.Start = orig[lead+m[2]]
	if m[2] == m[3] {
		n.Start = orig[lead+m[4]]
	}
	n.End = orig[end-1] + 1
	return n, true
}
