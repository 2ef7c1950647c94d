package staging

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
)

// TestPinClaimPositions: on a page with shortcodes every claim's
// destination gets its position in the page, so two tabs quoting the
// same sentence give two positions; the page parses to the same claims
// with nothing else changed (a destination in angle brackets gets its
// position inside them); a page without shortcodes and an exempt claim
// are left as they are.
func TestPinClaimPositions(t *testing.T) {
	src := "---\ntitle: t\n---\n\n{{% tabs %}}\n{{% tab %}}\n요청 [4건](ev:run/r.s1.n)\n{{% /tab %}}\n{{% tab %}}\n요청 [4건](ev:run/r.s1.n) [3 × 3 = 9](ev:exempt \"arithmetic\") [5건](<ev:run/r.s2.n>)\n{{% /tab %}}\n{{% /tabs %}}\n"
	out, ok := pinClaimPositions("content/ko/p.md", []byte(src))
	if !ok {
		t.Fatal("a page with shortcodes and claims was not pinned")
	}
	want := strings.Replace(src, "(ev:run/r.s1.n)", "(<ev:run/r.s1.n @7:9>)", 1)
	want = strings.Replace(want, "(ev:run/r.s1.n)", "(<ev:run/r.s1.n @10:9>)", 1)
	want = strings.Replace(want, "(<ev:run/r.s2.n>)", "(<ev:run/r.s2.n @10:68>)", 1)
	if string(out) != want {
		t.Errorf("pinned:\n%s\nwant:\n%s", out, want)
	}
	before, _ := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	after, _ := claim.Parse(claim.NewMarkdown(), "p.md", out)
	if len(before.Claims) != len(after.Claims) {
		t.Fatalf("%d claims after pinning, %d before", len(after.Claims), len(before.Claims))
	}
	for i, c := range after.Claims {
		if d, _, _ := strings.Cut(c.Destination, " @"); d != before.Claims[i].Destination || c.Literal != before.Claims[i].Literal {
			t.Errorf("claim %d: %q → %q after pinning; want %q → %q", i, c.Literal, c.Destination, before.Claims[i].Literal, before.Claims[i].Destination)
		}
	}
	// a claim whose text holds "(<": the "<" written around its
	// destination would pair with it and make an inner link (the claim
	// gone); it is left as written, and so is the next claim of its
	// paragraph (its "<" would pair with the same "(<"), while the
	// claim of the next paragraph is pinned
	odd := "{{% x %}}\n[0[0](<](ev:run/r.s1.n) [5건](ev:run/r.s2.n)\n\n[6건](ev:run/r.s3.n)\n"
	out, ok = pinClaimPositions("content/ko/p.md", []byte(odd))
	if want := strings.Replace(odd, "(ev:run/r.s3.n)", "(<ev:run/r.s3.n @4:2>)", 1); !ok || string(out) != want {
		t.Errorf("pinned %q:\n%q\nwant\n%q", odd, out, want)
	}
	plain := "요청 [4건](ev:run/r.s1.n)\n"
	if out, ok := pinClaimPositions("content/ko/q.md", []byte(plain)); ok || string(out) != plain {
		t.Errorf("a page without shortcodes was changed: %q", out)
	}
}

// FuzzPinClaimPositions: pinning never loses, adds or changes a claim:
// the pinned page parses to the same claims (literal, destination before
// its position) in the same order.
func FuzzPinClaimPositions(f *testing.F) {
	f.Add("{{% tab %}}\n요청 [4건](ev:run/r.s1.n)\n{{% /tab %}}\n")
	f.Add("{{< x >}} [1](<ev:a/b>) [2](ev:a/b \"t\") [3](ev:exempt \"r\") [4][r]\n\n[r]: ev:a/c\n")
	f.Add("{{ [5](ev:a/b\\_c) `[6](ev:a/b)` <span>[7](ev:a/b)</span>\n")
	f.Fuzz(func(t *testing.T, src string) {
		out, ok := pinClaimPositions("p.md", []byte(src))
		if !ok {
			if string(out) != src {
				t.Fatal("unpinned page changed")
			}
			return
		}
		before, _ := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
		after, _ := claim.Parse(claim.NewMarkdown(), "p.md", out)
		if len(before.Claims) != len(after.Claims) {
			t.Fatalf("%d claims after pinning %q, %d before", len(after.Claims), src, len(before.Claims))
		}
		for i, c := range after.Claims {
			if d, _, _ := strings.Cut(c.Destination, " @"); d != before.Claims[i].Destination || c.Literal != before.Claims[i].Literal {
				t.Fatalf("claim %d of %q: %q → %q after pinning; want %q → %q", i, src, c.Literal, c.Destination, before.Claims[i].Literal, before.Claims[i].Destination)
			}
		}
	})
}

// TestMarkClaimPrecisions: a claim of marks gets its precision written
// after its destination, inside angle brackets, also on a page without
// shortcodes, with the position after it on a page with them; marks
// name claims by their offset in the source page, shift bytes before
// their offset in the staged one (a fallback's own front matter).
func TestMarkClaimPrecisions(t *testing.T) {
	src := "값 [52%](ev:d/p) [51.72%](ev:d/p) [3건](ev:d/n)\n"
	marks := map[int]string{strings.Index(src, "52%"): "0", strings.Index(src, "51.72%"): "2"}
	out, ok := markClaims(claim.MarkdownConfig{}, "p.md", []byte(src), true, false, marks, 0, nil)
	if want := "값 [52%](<ev:d/p ~0>) [51.72%](<ev:d/p ~2>) [3건](ev:d/n)\n"; !ok || string(out) != want {
		t.Errorf("marked:\n%s\nwant:\n%s", out, want)
	}
	shifted := "---\nx: 1\n---\n" + src
	out, _ = markClaims(claim.MarkdownConfig{}, "p.md", []byte(shifted), false, false, marks, len("---\nx: 1\n---\n"), nil)
	if want := "---\nx: 1\n---\n값 [52%](<ev:d/p ~0>) [51.72%](<ev:d/p ~2>) [3건](ev:d/n)\n"; string(out) != want {
		t.Errorf("marked with a shift:\n%s\nwant:\n%s", out, want)
	}
	tabbed := "{{% tab %}}\n[52%](<ev:d/p>)\n{{% /tab %}}\n"
	out, _ = markClaims(claim.MarkdownConfig{}, "p.md", []byte(tabbed), true, false, map[int]string{strings.Index(tabbed, "52%"): "0"}, 0, nil)
	if want := "{{% tab %}}\n[52%](<ev:d/p ~0 @2:2>)\n{{% /tab %}}\n"; string(out) != want {
		t.Errorf("marked and pinned:\n%s\nwant:\n%s", out, want)
	}
	after, _ := claim.Parse(claim.NewMarkdown(), "p.md", out)
	if len(after.Claims) != 1 || after.Claims[0].Destination != "ev:d/p ~0 @2:2" {
		t.Errorf("the marked page parses to %+v", after.Claims)
	}
}

// TestMarkClaimsReadsWithSiteConfig: the staging reads a page with the
// site's goldmark configuration, as check does: a link written inside a
// passthrough formula is the formula's text, which Hugo passes through
// untouched, so the staged page leaves it as written (read with Hugo's
// defaults it would be a claim and get a position written into the
// formula); the claim outside is pinned.
func TestMarkClaimsReadsWithSiteConfig(t *testing.T) {
	src := "---\ntitle: t\n---\n\n{{< note >}}x{{< /note >}}\n식 \\( [4](ev:run/r.s1.n) \\) 와 [4건](ev:run/r.s1.n)\n"
	math := claim.MarkdownConfig{PassthroughInline: [][2]string{{`\(`, `\)`}}}
	out, _ := markClaims(math, "p.md", []byte(src), true, false, nil, 0, nil)
	want := strings.Replace(src, "[4건](ev:run/r.s1.n)", "[4건](<ev:run/r.s1.n @6:35>)", 1)
	if string(out) != want {
		t.Errorf("staged with the site's config:\n%s\nwant:\n%s", out, want)
	}
	if out, _ := markClaims(claim.MarkdownConfig{}, "p.md", []byte(src), true, false, nil, 0, nil); !strings.Contains(string(out), `\( [4](<ev:run/r.s1.n @`) {
		t.Errorf("with Hugo's defaults the formula's link is a claim; the test no longer tells the two apart:\n%s", out)
	}
}
