package translation

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
)

// oracleBlock is what readDoc read of a block before it read a block's
// prose again only when asked (blockProse): the block's text with its
// shortcode calls blanked when it holds a digit ("" otherwise), the page
// offset of each of its bytes, and the claims it holds by index.
type oracleBlock struct {
	prose  string
	back   []int
	claims []int
}

// oracleBlocks reads the heading, text and cell blocks of p as readDoc
// read them then: every block's text built with its offsets, claims
// found by a map of their offsets, shortcode calls blanked by the
// expression whether the text holds "{{" or not, and the prose and a
// copy of its offsets kept when the text holds a digit.
func oracleBlocks(p *Page) []oracleBlock {
	src := p.Parsed.Source
	claimAt := make(map[int]int, len(p.Parsed.Claims))
	for i, c := range p.Parsed.Claims {
		claimAt[c.Pos.Offset] = i
	}
	var out []oracleBlock
	for _, bl := range p.Parsed.Blocks {
		if bl.Kind != claim.BlockHeading && bl.Kind != claim.BlockText && bl.Kind != claim.BlockCell {
			continue
		}
		var ob oracleBlock
		var b strings.Builder
		var back []int
		for _, x := range bl.Inlines {
			switch x.Kind {
			case claim.InlineText, claim.InlineCode:
				var dec []byte
				var offs []int
				if x.Kind == claim.InlineText {
					dec, offs = prose.DecodeCharRefs(src[x.Start:x.Stop], x.Start, x.Stop)
				}
				if offs != nil {
					b.Write(dec)
					back = append(back, offs[:len(dec)]...)
				} else {
					b.Write(src[x.Start:x.Stop])
					for k := x.Start; k < x.Stop; k++ {
						back = append(back, k)
					}
				}
			case claim.InlineBreak:
				b.WriteByte(' ')
				back = append(back, x.Start)
			case claim.InlineString:
				b.WriteString(x.Value)
				for range len(x.Value) {
					back = append(back, -1)
				}
			case claim.InlineClaim:
				if ci, ok := claimAt[x.Start]; ok {
					ob.claims = append(ob.claims, ci)
				}
				b.WriteString(" ")
				back = append(back, -1)
			}
		}
		txt := b.String()
		for _, m := range shortcodeCallRe.FindAllStringIndex(txt, -1) {
			txt = txt[:m[0]] + strings.Repeat(" ", m[1]-m[0]) + txt[m[1]:]
		}
		if hasNumberRune([]byte(txt)) {
			ob.prose, ob.back = txt, slices.Clone(back)
		}
		out = append(out, ob)
	}
	return out
}

// compareWithOracle checks readDoc's blocks of p against oracleBlocks:
// the prose blockProse reads again and its offsets, and the block each
// claim is found in.
func compareWithOracle(t *testing.T, p *Page) {
	t.Helper()
	d := readDoc(p, nil)
	want := oracleBlocks(p)
	blockOf := map[int]int{}
	k := 0
	for bi, bl := range d.blocks {
		if bl.kind == "code" {
			continue
		}
		if k >= len(want) {
			t.Fatalf("%s: readDoc has more text blocks than the oracle's %d", p.Path, len(want))
		}
		txt, back := blockProse(d, bi)
		if txt != want[k].prose || !slices.Equal(back, want[k].back) && txt != "" {
			t.Errorf("%s: block %d (at %d): prose %q, offsets %v; the oracle reads %q, %v", p.Path, bi, bl.start, txt, back, want[k].prose, want[k].back)
		}
		for _, ci := range want[k].claims {
			blockOf[ci] = bi
		}
		k++
	}
	if k != len(want) {
		t.Errorf("%s: readDoc has %d text blocks, the oracle %d", p.Path, k, len(want))
	}
	for _, pc := range d.claims {
		ci := -1
		for i := range p.Parsed.Claims {
			if &p.Parsed.Claims[i] == pc.Claim {
				ci = i
			}
		}
		wantBlock, ok := blockOf[ci]
		if !ok {
			wantBlock = -1
		}
		if pc.block != wantBlock {
			t.Errorf("%s: claim %q at %d in block %d; the oracle finds it in %d", p.Path, pc.Literal, pc.Pos.Offset, pc.block, wantBlock)
		}
	}
}

// TestReadDocEqualsOracle compares readDoc with oracleBlocks on a
// generated page and its translation, and on the reference site's pages.
func TestReadDocEqualsOracle(t *testing.T) {
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Options{Pages: 1, Seed: 2, ClaimsPerPage: 120}); err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "content", "ko", "bench", "p00001.md"), filepath.Join(dir, "content", "ja", "bench", "p00001.md")}
	err := filepath.WalkDir("../../content", func(path string, e fs.DirEntry, err error) error {
		if err == nil && filepath.Ext(path) == ".md" {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	md := claim.NewMarkdown()
	prose := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := claim.Parse(md, path, src)
		page := &Page{Lang: "ko", Path: path, Parsed: p, FrontMatter: map[string]any{}}
		compareWithOracle(t, page)
		for _, ob := range oracleBlocks(page) {
			if ob.prose != "" {
				prose++
			}
		}
	}
	if len(paths) < 10 || prose == 0 {
		t.Fatalf("%d pages, %d blocks of prose: the test compares too little", len(paths), prose)
	}
}

// FuzzReadDocProse compares readDoc with oracleBlocks on any page.
func FuzzReadDocProse(f *testing.F) {
	for _, s := range []string{
		"# 3 → 5\n\n약 [40초](ev:r/x) 동안 `p99 40ms` 였다 {{< evfigure name=\"a\" >}} 12&#52;0\n",
		"| a | b |\n|---|---|\n| [1분 30초](ev:r/t.x) | 두 번 |\n\n[1](ev:a)[2](ev:b) 3\\\n4  \n5\n",
		"[a](ev:r/x) [b](ev:r/y) [1.5](ev:r/z) <b>9</b> &amp; &#x31;\n\n[1]: ev:r/w\n",
	} {
		f.Add(s)
	}
	md := claim.NewMarkdown()
	f.Fuzz(func(t *testing.T, body string) {
		if got, want := hasNumberRuneString(body), hasNumberRune([]byte(body)); got != want {
			t.Errorf("hasNumberRuneString(%q) = %v, hasNumberRune %v", body, got, want)
		}
		src := []byte("---\ntitle: t\n---\n\n" + body)
		p, _ := claim.Parse(md, "content/ko/p.md", src)
		compareWithOracle(t, &Page{Lang: "ko", Path: "content/ko/p.md", Parsed: p, FrontMatter: map[string]any{}})
	})
}

// TestHasNumberRuneStringEveryRune compares hasNumberRuneString with
// hasNumberRune (each rune decoded) on every rune between Hangul and
// kana, and on every lead byte of three with every second byte and a
// few third bytes, before a digit and not: a block passed over must hold
// no number, and no digit after an invalid sequence may be passed over.
func TestHasNumberRuneStringEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		s := "한" + string(r) + "か"
		if got, want := hasNumberRuneString(s), hasNumberRune([]byte(s)); got != want {
			t.Fatalf("hasNumberRuneString(%U) = %v, hasNumberRune %v", r, got, want)
		}
	}
	for lead := 0xE0; lead <= 0xEF; lead++ {
		for b1 := 0; b1 <= 0xFF; b1++ {
			for _, b2 := range []byte{0x00, '7', 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xE3} {
				for _, tail := range []string{"", "5", "か"} {
					s := string([]byte{byte(lead), byte(b1), b2}) + tail
					if got, want := hasNumberRuneString(s), hasNumberRune([]byte(s)); got != want {
						t.Fatalf("hasNumberRuneString(%q) = %v, hasNumberRune %v", s, got, want)
					}
				}
			}
		}
	}
}
