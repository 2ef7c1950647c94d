package staging

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// repeatsOf returns StageData.Repeats of page src (at rel) as check
// would give them, every claim bound to a value of the evidence.
func repeatsOf(rel string, src []byte) []stagedata.Repeat {
	p, _ := claim.Parse(claim.NewMarkdown(), rel, src)
	var rs []check.Result
	for _, c := range p.Claims {
		if c.Exempt || !strings.HasPrefix(c.Destination, claim.Scheme) {
			continue
		}
		rs = append(rs, check.Result{Claim: c, Bindings: []check.Binding{{Ref: c.Destination, Number: c.Literal, Evidence: &diag.Position{File: "e.txt", Line: 1}}}})
	}
	return stagedata.StageDataOf(rs).Repeats(nil)[rel]
}

// checkRepeatMarks fails unless marked, src with repeat marks, reads to
// the same claims as src (literal, destination without its marks) and
// each data key marked has one first ("@+", "@LINE:COL+") before every
// repeat of it ("@=", "@LINE:COL="). It returns the number of repeats.
func checkRepeatMarks(t *testing.T, src, marked []byte) int {
	t.Helper()
	before, _ := claim.Parse(claim.NewMarkdown(), "p.md", src)
	after, _ := claim.Parse(claim.NewMarkdown(), "p.md", marked)
	if i := sameClaims(before.Claims, after.Claims); i >= 0 {
		t.Fatalf("claim %d differs after marking %q:\n%q", i, src, marked)
	}
	firsts := map[string]bool{}
	n := 0
	for i, c := range after.Claims {
		k, at, _ := strings.Cut(c.Destination, " @")
		switch {
		case strings.HasSuffix(at, "+"):
			if firsts[k] {
				t.Fatalf("claim %d: a second first of %s in %q", i, k, marked)
			}
			firsts[k] = true
		case strings.HasSuffix(at, "="):
			if !firsts[k] {
				t.Fatalf("claim %d: a repeat of %s before its first in %q", i, k, marked)
			}
			n++
		}
	}
	return n
}

// TestMarkRepeats: from the check's reading of a page, the first claim
// of a data key the page has more than once is marked " @+" and each
// after it " @="; a claim of a key written once, an exempt claim and a
// reference-style claim are left as written; a destination in angle
// brackets gets the mark inside them; a claim on a line with a "<"
// before it is left as written (the brackets written around it could
// pair with it), and the next one of its key is the first. The marks of
// a fallback page land shift bytes later; a page changed since the
// check read it gets no mark where a destination moved.
func TestMarkRepeats(t *testing.T) {
	src := "---\ntitle: t\n---\n\n값 [4건](ev:r/a) 와 [5](ev:r/b), 다시 [4건](ev:r/a)\n\n[4건](<ev:r/a>) [4건][ref] [3 × 3 = 9](ev:exempt \"arithmetic\") [4](ev:r/a \"t\")\n[4](ev:r/a \"t\")\n\n<b>x</b> [7](ev:r/c)\n\n[7](ev:r/c) [7](ev:r/c)\n\n[ref]: ev:r/a\n"
	rs := repeatsOf("content/ko/p.md", []byte(src))
	out, ok := markRepeats([]byte(src), rs, 0, nil)
	// the fourth claim of r/a, after a "<" on its line, is left as
	// written, and so is the first of r/c: the next one is its first
	want := "---\ntitle: t\n---\n\n값 [4건](<ev:r/a @+>) 와 [5](ev:r/b), 다시 [4건](<ev:r/a @=>)\n\n[4건](<ev:r/a @=>) [4건][ref] [3 × 3 = 9](ev:exempt \"arithmetic\") [4](ev:r/a \"t\")\n[4](<ev:r/a @=> \"t\")\n\n<b>x</b> [7](ev:r/c)\n\n[7](<ev:r/c @+>) [7](<ev:r/c @=>)\n\n[ref]: ev:r/a\n"
	if !ok || string(out) != want {
		t.Errorf("marked:\n%s\nwant:\n%s", out, want)
	}
	if n := checkRepeatMarks(t, []byte(src), out); n != 4 {
		t.Errorf("%d repeats marked, want 4", n)
	}
	// a fallback: the same body after a longer front matter
	fm := "---\ntitle: t\nfallback: true\n---\n"
	fb := fm + strings.TrimPrefix(src, "---\ntitle: t\n---\n")
	out, _ = markRepeats([]byte(fb), rs, len("fallback: true\n"), nil)
	if w := fm + strings.TrimPrefix(want, "---\ntitle: t\n---\n"); string(out) != w {
		t.Errorf("marked fallback:\n%s\nwant:\n%s", out, w)
	}
	// the page changed since the check read it: the claims whose
	// destination moved are left as written, and a key left with one
	// claim is not marked
	changed := strings.Replace(src, "값 [4건]", "값은 [4건]", 1)
	out, _ = markRepeats([]byte(changed), rs, 0, nil)
	checkRepeatMarks(t, []byte(changed), out)
	if string(out) != changed {
		t.Errorf("marked after a change:\n%s", out)
	}
	// a page with no repeated key is left as written
	one := "[4](ev:r/a) [5](ev:r/b)\n"
	if out, ok := markRepeats([]byte(one), repeatsOf("content/ko/q.md", []byte(one)), 0, nil); ok || string(out) != one {
		t.Errorf("a page without repeats was changed: %q", out)
	}
}

// TestMarkClaimsRefs: on a page markClaims parses (shortcodes, precision
// marks), the first claim of a data key (its destination and precision)
// the page has more than once is marked "+" and each after it "=",
// after its position; claims of one destination at two precisions are
// two keys, each with its own first.
func TestMarkClaimsRefs(t *testing.T) {
	src := "{{% tab %}}\n[52%](ev:d/p) [51.72%](ev:d/p) [52%](ev:d/p)\n{{% /tab %}}\n[51.72%](ev:d/p) [3건](ev:d/n)\n"
	marks := map[int]string{}
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	for _, c := range p.Claims {
		if c.Destination == "ev:d/p" {
			marks[c.Pos.Offset] = map[string]string{"52%": "0", "51.72%": "2"}[c.Literal]
		}
	}
	out, ok := markClaims(claim.MarkdownConfig{}, "p.md", []byte(src), true, true, marks, 0, nil)
	want := "{{% tab %}}\n[52%](<ev:d/p ~0 @2:2+>) [51.72%](<ev:d/p ~2 @2:16+>) [52%](<ev:d/p ~0 @2:33=>)\n{{% /tab %}}\n[51.72%](<ev:d/p ~2 @4:2=>) [3건](<ev:d/n @4:19>)\n"
	if !ok || string(out) != want {
		t.Errorf("marked:\n%s\nwant:\n%s", out, want)
	}
	// without refs (pinClaimPositions) no repeat is marked
	if out, _ := markClaims(claim.MarkdownConfig{}, "p.md", []byte(src), true, false, marks, 0, nil); strings.Contains(string(out), "=>") {
		t.Errorf("marked without refs:\n%s", out)
	}
	// on a page without shortcodes only the repeated key's claims are
	// marked, and no position is pinned
	plain := "[4](ev:r/a) [5](ev:r/b) [4](ev:r/a)\n"
	if out, _ := markClaims(claim.MarkdownConfig{}, "p.md", []byte(plain), true, true, nil, 0, nil); string(out) != "[4](<ev:r/a @+>) [5](ev:r/b) [4](<ev:r/a @=>)\n" {
		t.Errorf("marked %q:\n%s", plain, out)
	}
}

// FuzzMarkRepeats: marking a page's repeats, from the check's reading
// or markClaims's own, never loses, adds or changes a claim, and every
// repeat comes after the one first of its key.
func FuzzMarkRepeats(f *testing.F) {
	f.Add("값 [4건](ev:r/a) [4건](ev:r/a)\n")
	f.Add("[0[0](<](ev:r/a) [5건](ev:r/a)\n\n[6건](ev:r/a)\n")
	f.Add("[1](<ev:a/b>) [2](ev:a/b \"t\") [3](ev:exempt \"r\") [4][r] [5](ev:a/b)\n\n[r]: ev:a/b\n")
	f.Add("{{< x >}} [5](ev:a/b\\_c) `[6](ev:a/b)` <span>[7](ev:a/b)</span> [8](ev:a/b)\n")
	f.Fuzz(func(t *testing.T, src string) {
		out, ok := markRepeats([]byte(src), repeatsOf("p.md", []byte(src)), 0, nil)
		if !ok && string(out) != src {
			t.Fatal("unmarked page changed")
		}
		checkRepeatMarks(t, []byte(src), out)
		out, _ = markClaims(claim.MarkdownConfig{}, "p.md", []byte(src), true, true, nil, 0, nil)
		checkRepeatMarks(t, []byte(src), out)
	})
}

// BenchmarkMarkRepeats: staging's cost of the repeat marks on a
// generated page of about 500 claims (benchgen), from the check's reading
// (markRepeats), beside one parse of the page (claim.Parse), which is
// what marking by a parse of its own would cost at least.
func BenchmarkMarkRepeats(b *testing.B) {
	dir := b.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 1, ClaimsPerPage: 480, PagesPerSet: 50}); err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "content", "ko", "bench", "p00001.md"))
	if err != nil {
		b.Fatal(err)
	}
	rs := repeatsOf("content/ko/bench/p00001.md", src)
	b.Run("markRepeats", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			markRepeats(src, rs, 0, nil)
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		m := claim.NewMarkdown()
		for b.Loop() {
			claim.Parse(m, "p.md", src)
		}
	})
}
