package claim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSlabAcrossChunks: a page with more claims than one chunk of the
// page's slab holds reads every claim's literal, offsets, references and
// quantities (one page-wide slice: each claim's capped to its own) as a
// page with one claim does; links that are not claims, and images,
// leave nothing behind.
func TestSlabAcrossChunks(t *testing.T) {
	var src strings.Builder
	src.WriteString("---\ntitle: t\n---\n")
	for i := range 700 {
		fmt.Fprintf(&src, "[%d](https://example.com/%d) ![i%d](ev:s/img) [%d.%d초](ev:s/a%d,b%d) [약 &nbsp;%d%%](ev:s/c%d)\n\n", i, i, i, i, i%10, i, i, i, i)
	}
	md := NewMarkdown()
	p, _ := Parse(md, "p.md", []byte(src.String()))
	if len(p.Claims) != 1400 {
		t.Fatalf("%d claims, want 1400", len(p.Claims))
	}
	for k, c := range p.Claims {
		i := k / 2
		one, _ := Parse(md, "p.md", []byte(src.String()[c.Pos.Offset-1:c.DestEnd.Offset+1]))
		if len(one.Claims) != 1 {
			t.Fatalf("claim %d: %d claims alone", k, len(one.Claims))
		}
		alone := one.Claims[0]
		wantRefs := []string{fmt.Sprintf("s/c%d", i)}
		if k%2 == 0 {
			wantRefs = []string{fmt.Sprintf("s/a%d", i), fmt.Sprintf("b%d", i)}
			wantRefs[1] = "s/" + wantRefs[1]
		}
		if c.Literal != alone.Literal || !slices.Equal(c.Refs, wantRefs) || len(c.Offsets) != len(alone.Offsets) || c.ParseErr != nil || len(c.Parsed.Quantities) != 1 || cap(c.Parsed.Quantities) != 1 || !c.Parsed.Quantities[0].Value.Equal(alone.Parsed.Quantities[0].Value) {
			t.Fatalf("claim %d: %q %v %d offsets (%v); alone: %q, %d offsets; want refs %v", k, c.Literal, c.Refs, len(c.Offsets), c.ParseErr, alone.Literal, len(alone.Offsets), wantRefs)
		}
		for j, o := range c.Offsets {
			if o >= 0 && o != alone.Offsets[j]+c.Pos.Offset-1 {
				t.Fatalf("claim %d: offset %d is %d, alone %d", k, j, o, alone.Offsets[j])
			}
		}
	}
}
