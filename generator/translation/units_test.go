package translation

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestClaimsInValueUnits: a claim's number written without a unit is
// compared in the unit of the evidence value it cites, as the judge
// reads it. On a ratio [0.9975] says what [99.75%] says (×100), at each
// claim's precision; on a percentage it says 0.9975 %, which [99.75%]
// does not; on percentage points [7.4] is 7.4 %p, which [7.4%] (a
// relative change) is not. Without the value's unit a bare number and a
// percentage disagree. Each wrong reading fails a row.
func TestClaimsInValueUnits(t *testing.T) {
	md := claim.NewMarkdown()
	page := func(lang, body string) *Page {
		src := "---\ntitle: t\ntranslationKey: p\n---\n\n" + body + "\n"
		p, _ := claim.Parse(md, "content/"+lang+"/p.md", []byte(src))
		return &Page{Lang: lang, Path: "content/" + lang + "/p.md", Parsed: p, FrontMatter: map[string]any{}}
	}
	for _, tc := range []struct {
		unit   string // the cited value's unit; "-" for not known
		ko, ja string
		agree  bool
	}{
		{"ratio", "[0.9975](ev:k/c.rate)", "[99.75%](ev:k/c.rate)", true},
		{"ratio", "[99.75%](ev:k/c.rate)", "[0.9975](ev:k/c.rate)", true},
		{"ratio", "[0.9975](ev:k/c.rate)", "[99.8%](ev:k/c.rate)", true}, // the coarser precision: 99.75 to 99.85 holds 0.9975
		{"ratio", "[0.9975](ev:k/c.rate)", "[99.6%](ev:k/c.rate)", false},
		{"ratio", "[0.9975](ev:k/c.rate)", "[99.57%](ev:k/c.rate)", false},
		{"ratio", "[0.9975](ev:k/c.rate)", "[0.9975%](ev:k/c.rate)", false},
		{"ratio", "[0.9975](ev:k/c.rate)", "[99.75ポイント](ev:k/c.rate)", false},
		{"ratio", "[0.25%](ev:k/c.rate)", "[0.0025](ev:k/c.rate)", true},
		{"ratio", "[1](ev:k/c.rate)", "[100%](ev:k/c.rate)", true},
		{"%", "[0.9975](ev:k/c.rate)", "[99.75%](ev:k/c.rate)", false},
		{"%", "[99.75](ev:k/c.rate)", "[99.75%](ev:k/c.rate)", true},
		{"%p", "[7.4](ev:k/c.rate)", "[7.4%](ev:k/c.rate)", false},
		{"%p", "[7.4](ev:k/c.rate)", "[7.4ポイント](ev:k/c.rate)", true},
		{"-", "[0.9975](ev:k/c.rate)", "[99.75%](ev:k/c.rate)", false},
		{"-", "[99.75](ev:k/c.rate)", "[99.75%](ev:k/c.rate)", false},
		{"ms", "[40](ev:k/c.rate)", "[0.04秒](ev:k/c.rate)", true},
		{"ms", "[40](ev:k/c.rate)", "[40秒](ev:k/c.rate)", false},
		// two references: each number in its own value's unit
		{"ratio", "[0.9975 ± 0.001](ev:k/c.rate,k/c.sd)", "[99.75 ± 0.1%](ev:k/c.rate,k/c.sd)", true},
	} {
		var units ValueUnits
		if tc.unit != "-" {
			units = func(string) (string, bool) { return tc.unit, true }
		}
		ds := CheckPair(PagePair{Source: page("ko", tc.ko), Target: page("ja", tc.ja)}, units)
		var claims []diag.Diagnostic
		for _, d := range ds {
			if d.Rule == diag.TranslationClaims {
				claims = append(claims, d)
			}
		}
		if got := len(claims) == 0; got != tc.agree {
			var msgs []string
			for _, d := range ds {
				msgs = append(msgs, d.Message)
			}
			t.Errorf("%s value: ko %s, ja %s: agree = %v, want %v (%s)", tc.unit, tc.ko, tc.ja, got, tc.agree, strings.Join(msgs, "; "))
		}
	}
}
