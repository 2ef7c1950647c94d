package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/impact"
)

// TestImpactMarkdownLimit: a change moving many thousands of claims still
// gives a job summary under GitHub's limit, cut at a line, with its
// <details> closed and a note saying where the whole list is.
func TestImpactMarkdownLimit(t *testing.T) {
	r := &impact.Report{Base: "origin/main"}
	for i := range 40000 {
		r.Values = append(r.Values, impact.Change{Ref: "set/v" + strings.Repeat("x", i%7), Kind: "changed", Old: &impact.Side{Value: "1"}, New: &impact.Side{Value: "2"}})
		r.Claims = append(r.Claims, impact.Claim{Page: "content/ko/p.md", Literal: "1건", Refs: []string{"set/v"}, OldOK: true})
	}
	var b bytes.Buffer
	if err := WriteImpact(&b, "markdown", r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if len(out) > SummaryLimit {
		t.Fatalf("%d bytes, over %d", len(out), SummaryLimit)
	}
	if !strings.Contains(out, "--format=json") {
		t.Error("a cut summary does not say where the whole list is")
	}
	if o, c := strings.Count(out, "<details>"), strings.Count(out, "</details>"); o != c {
		t.Errorf("%d <details> opened, %d closed", o, c)
	}
}
