package staging

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/viewer"
)

// pinClaimPositions returns page src (at rel) with the position of each
// of its claims in the page written after the claim's destination, as
// evdoc's claim render hook reads it ("[4건](<ev:SET/NAME @LINE:COL>)"),
// and true, when the page has a shortcode call: Hugo gives a link inside
// a shortcode's inner content ({{% tab %}}…{{% /tab %}}) a position
// counted from the shortcode, so two tabs quoting the same sentence would
// give two claims one position and one popover id. The positions are the
// claim parser's (the AST's). Another page, and a claim whose
// destination is not written as goldmark read it (escapes, a reference
// link), is left as it is: Hugo's position is right there, or the claim
// keeps it.
func pinClaimPositions(rel string, src []byte) ([]byte, bool) {
	return markClaims(claim.MarkdownConfig{}, rel, src, true, nil, 0)
}

// markClaims is pinClaimPositions (when pin is set) that also writes
// the precision of each claim of marks (by its literal's offset in the
// page, shift bytes before its offset in src) into its destination, as
// the render hook reads it ("[40.3초](<ev:SET/NAME ~1>)": its data key,
// see precisionKey). The page is read with the site's goldmark
// configuration md, as check reads it: a link inside a passthrough
// formula is the formula's text, not a claim to mark.
func markClaims(md claim.MarkdownConfig, rel string, src []byte, pin bool, marks map[int]string, shift int) ([]byte, bool) {
	pin = pin && bytes.Contains(src, []byte("{{"))
	if !pin && len(marks) == 0 || !bytes.Contains(src, []byte("ev:")) {
		return src, false
	}
	m := claim.NewMarkdownWith(md)
	parsed, _ := claim.Parse(m, rel, src)
	// The brackets written around a destination can pair with brackets
	// in the claim's own text ("[0[0](<](ev:x)": the "(<" in the text
	// and the new "<" make an inner link, and the claim is gone), so
	// the marked page is parsed again and must hold the same claims in
	// the same order; a claim whose marking changes the parse is left
	// as written (its position then is Hugo's, which the output check
	// verifies), and the page is marked again without it.
	skip := map[int]bool{}
	for {
		out, n := appendMarks(parsed.Claims, src, pin, marks, shift, skip)
		if n == 0 {
			return src, false
		}
		again, _ := claim.Parse(m, rel, out)
		bad := sameClaims(parsed.Claims, again.Claims)
		if bad < 0 {
			return out, true
		}
		// the claim that differs, else the next one still marked (its
		// brackets can pair with text of a claim before it), else the
		// nearest one before
		k := bad
		for k < len(parsed.Claims) && skip[k] {
			k++
		}
		if k == len(parsed.Claims) {
			for k = bad; k >= 0 && skip[k]; k-- {
			}
		}
		if k < 0 {
			return src, false
		}
		skip[k] = true
	}
}

// appendMarks writes src with the position (pin) and precision (marks)
// of each claim written after its destination, but the claims of skip
// (by index); n counts the claims marked.
func appendMarks(claims []claim.Claim, src []byte, pin bool, marks map[int]string, shift int, skip map[int]bool) (out []byte, n int) {
	last := 0
	for i, c := range claims {
		a, e := c.RefPos.Offset, c.DestEnd.Offset
		if skip[i] || c.Exempt || !strings.HasPrefix(c.Destination, claim.Scheme) || a < last || e > len(src) || a >= e ||
			string(src[a:e]) != c.Destination || strings.Contains(c.Destination, " @") || strings.Contains(c.Destination, " ~") {
			continue
		}
		p, marked := marks[c.Pos.Offset-shift]
		if !pin && !marked {
			continue
		}
		// in angle brackets already (<ev:…>): the marks go inside
		bracketed := a > 0 && src[a-1] == '<' && e < len(src) && src[e] == '>'
		if !bracketed && strings.ContainsAny(c.Destination, "<>") {
			// "ev:>" would end the <…> it is put in; no set or value
			// is named with them, so check has already reported it
			continue
		}
		out = append(out, src[last:a]...)
		if !bracketed {
			out = append(out, '<')
		}
		out = append(out, c.Destination...)
		if marked {
			out = append(out, " ~"...)
			out = append(out, p...)
		}
		if pin {
			out = fmt.Appendf(out, " @%d:%d", c.Pos.Line, c.Pos.Column)
		}
		if !bracketed {
			out = append(out, '>')
		}
		last = e
		n++
	}
	if n == 0 {
		return src, 0
	}
	return append(out, src[last:]...), n
}

// sameClaims returns the index of the first claim of after that differs
// from before's (its literal, or its destination without the marks
// markClaims writes), the index where one list ends early, or -1 when
// both hold the same claims.
func sameClaims(before, after []claim.Claim) int {
	for i := range min(len(before), len(after)) {
		d, _, _ := strings.Cut(after[i].Destination, " ~")
		d, _, _ = strings.Cut(d, " @")
		if d != before[i].Destination || after[i].Literal != before[i].Literal {
			return i
		}
	}
	if len(before) != len(after) {
		return min(len(before), len(after))
	}
	return -1
}

func stageClaims(s *project.Site, stage string, v *viewer.Viewer, data *stagedata.StageData, multi map[string]bool, tables []project.EvtableShown) error {
	sets, err := json.MarshalIndent(v.Sets(s.Store, tables), "", " ")
	if err != nil {
		return err
	}
	if err := WriteFile(filepath.Join(stage, "data", "evdoc", "sets.json"), sets); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v.Claims(data, multi, s.Store), "", " ")
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(stage, "data", "evdoc", "claims.json"), b)
}
