package claim

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// literalOracle fails t unless every claim of p holds what reading its
// literal alone gives (literal.ParseInto, strict unless the claim is an
// exemption): Parse reads a literal written again on a page once.
func literalOracle(t *testing.T, p *Page) {
	t.Helper()
	for i := range p.Claims {
		c := &p.Claims[i]
		want, werr := literal.ParseInto(c.Literal, nil, !c.Exempt)
		if fmt.Sprint(werr) != fmt.Sprint(c.ParseErr) {
			t.Fatalf("claim %d %q: error %v, alone %v", i, c.Literal, c.ParseErr, werr)
		}
		if !reflect.DeepEqual(c.Parsed, want) {
			t.Fatalf("claim %d %q: read %+v, alone %+v", i, c.Literal, c.Parsed, want)
		}
		if qs := c.Parsed.Quantities; cap(qs) != len(qs) {
			t.Fatalf("claim %d %q: %d quantities with room for %d", i, c.Literal, len(qs), cap(qs))
		}
	}
}

// TestRepeatedLiteralsReadOnce: a literal written again on a page reads
// as it does alone (its quantities, shape, error), an exemption's text
// is read without strictness and a claim's with it whichever comes
// first, and each claim's quantities are its own.
func TestRepeatedLiteralsReadOnce(t *testing.T) {
	src := `---
title: t
---
[3ms 외](ev:exempt "a count") [3ms 외](ev:s/a) [3ms 외](ev:exempt "again")

[12 hz](ev:s/b) [12 hz](ev:exempt "a label") [12 hz](ev:s/b)

[약 38초](ev:s/c) [세 번](ev:s/d) [319.5 ± 11.2ms](ev:s/e) [1분 30초](ev:s/f) [86/86](ev:s/g)

| a | b |
|---|---|
| [약 38초](ev:s/c) | [세 번](ev:s/d) |
| [319.5 ± 11.2ms](ev:s/e) | [1분 30초](ev:s/f) |

[86/86](ev:s/g) [약 38초](ev:s/h) [12 hz](ev:s/b)
`
	p, _ := Parse(NewMarkdown(), "p.md", []byte(src))
	if len(p.Claims) != 18 {
		t.Fatalf("%d claims, want 18", len(p.Claims))
	}
	literalOracle(t, p)
	// the strict claim between two exemptions is an error, the
	// exemptions not: "외" is read only outside strictness
	if p.Claims[0].ParseErr != nil || p.Claims[1].ParseErr == nil || p.Claims[2].ParseErr != nil {
		t.Fatalf("errors %v, %v, %v; want only the second", p.Claims[0].ParseErr, p.Claims[1].ParseErr, p.Claims[2].ParseErr)
	}
	// each claim's quantities are its own: writing one leaves the
	// same literal's other claims as they were
	var same []int
	for i, c := range p.Claims {
		if c.Literal == "약 38초" {
			same = append(same, i)
		}
	}
	if len(same) != 3 {
		t.Fatalf("약 38초 %d times, want 3", len(same))
	}
	p.Claims[same[0]].Parsed.Quantities[0].Unit = "changed"
	for _, i := range same[1:] {
		if u := p.Claims[i].Parsed.Quantities[0].Unit; u != "s" {
			t.Fatalf("claim %d: unit %q after another claim's changed", i, u)
		}
	}
}

// TestRepeatedLiteralsGeneratedAndReference: on a generated page (480
// claims, most literals written several times) and on the reference
// site's pages, every claim holds what its literal reads alone.
func TestRepeatedLiteralsGeneratedAndReference(t *testing.T) {
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 3, ClaimsPerPage: 480}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "content", "*", "*", "*.md"))
	ref, _ := filepath.Glob("../../content/*/docs/*/*/*.md")
	files = append(files, ref...)
	md := NewMarkdown()
	repeated := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := Parse(md, f, b)
		seen := map[string]bool{}
		for _, c := range p.Claims {
			if seen[c.Literal] {
				repeated++
			}
			seen[c.Literal] = true
		}
		literalOracle(t, p)
	}
	if len(files) < 3 || repeated < 100 {
		t.Fatalf("%d pages, %d literals written again: the test reads too little", len(files), repeated)
	}
}
