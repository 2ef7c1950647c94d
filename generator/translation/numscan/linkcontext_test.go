package numscan

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// linkContextOracle is linkContext with the words kept found by
// strings.LastIndexAny and strings.IndexAny, as it was written first.
func linkContextOracle(src string, c *claim.Claim) (string, string) {
	open := max(0, c.Pos.Offset-1)
	before := src[max(0, open-24):open]
	for len(before) > 0 && !isRuneStart(before[0]) {
		before = before[1:]
	}
	after := ""
	if c.RefPos.Offset > 0 && c.RefPos.Offset < len(src) {
		if j := strings.IndexByte(src[c.RefPos.Offset:], ')'); j >= 0 {
			e := c.RefPos.Offset + j + 1
			after = src[e:min(len(src), e+24)]
			for len(after) > 0 && !isRuneStart(after[len(after)-1]) {
				after = after[:len(after)-1]
			}
			if n := len(after); n > 0 && after[n-1] >= 0x80 {
				after = after[:n-1]
			}
		}
	}
	if i := strings.LastIndexAny(before, "0123456789\n"); i >= 0 {
		before = before[i+1:]
	}
	if i := strings.IndexAny(after, "0123456789\n"); i >= 0 {
		after = after[:i]
	}
	return before, after
}

// FuzzLinkContext: linkContext keeps the words the oracle keeps, for any
// page and any offsets of a claim's literal and reference in it.
func FuzzLinkContext(f *testing.F) {
	f.Add("지연은 최대 [3단계](ev:a/b)까지 1줄\n다음", 20, 30)
	f.Add("p99は[29.8ms](ev:a/p99)まで下がった。", 8, 22)
	f.Add("12 약 [40초](ev:x)\n7", 9, 20)
	f.Add("\xff\xfe[1](ev:a)\xe3\x81", 3, 8)
	f.Fuzz(func(t *testing.T, src string, lit, ref int) {
		if lit < 0 || lit > len(src) || ref < 0 || ref > len(src)+1 {
			return
		}
		c := &claim.Claim{Pos: diag.Position{Offset: lit}, RefPos: diag.Position{Offset: ref}}
		b, a := linkContext(src, c)
		wb, wa := linkContextOracle(src, c)
		if b != wb || a != wa {
			t.Fatalf("linkContext(%q, %d, %d) = %q, %q; want %q, %q", src, lit, ref, b, a, wb, wa)
		}
	})
}
