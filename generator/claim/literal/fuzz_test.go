package literal

import "testing"

func FuzzParseLiteral(f *testing.F) {
	for _, s := range []string{"86/86", "51.7%→0.21%", "약 40초", "約40秒", "Δ+1", "８６％", "1,234.5ms",
		"1万2000", "1만 2천 건", "150 000", "두 번", "二回", "ふたつ", "초당 1,250건", "1,250件/秒", "約3割", "3割5分",
		"43±1秒", "10∼20ms", "40秒弱", "40여 건", "五千", "3초 이내", "MID1에서 +1", "t=0",
		"104035637\u00a0ms", "1만\u202f2천 건", "86\u3000%", "두\u2009번", "86 &foo;", "86$",
		"143h25m", "40ms5", "1분 30초", "PT1M30S", "14:03:22", "오후 2시 3분", "12% 감소", "120ms ±11%", "exit=28", "74m", "343Mi",
		"319.5 ± 11.2ms", "319.5ms ± 11.2ms", "330.7ms ± 11.2 ms", "5.3 ± 0.1", "825µs ±11%", "1.718µs ± 1%", "60.74 +/- 2.49", "0.3195s ± 11.2ms", "44% ± 2%", "43±1秒~45秒"} {
		f.Add(s)
	}
	glue := knownGlue()
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLiteral(s)
		if err != nil {
			checkError(t, s, err)
			return
		}
		checkAccounted(t, glue, s, l)
		prev := 0
		for _, q := range l.Quantities {
			if q.Start < prev || q.Start > q.NumStart || q.NumStart > q.NumEnd || q.NumEnd > q.End || q.End > len(s) || q.Start >= q.End {
				t.Fatalf("ParseLiteral(%q): quantity ranges [%d,%d) number [%d,%d) after %d", s, q.Start, q.End, q.NumStart, q.NumEnd, prev)
			}
			if sp := q.Spread; sp != nil && (sp.Start < q.NumEnd || sp.Start != sp.NumStart || sp.NumStart >= sp.NumEnd || sp.NumEnd > sp.End || sp.End > q.End) {
				t.Fatalf("ParseLiteral(%q): spread [%d,%d) number [%d,%d) inside quantity [%d,%d)", s, sp.Start, sp.End, sp.NumStart, sp.NumEnd, q.Start, q.End)
			}
			prev = q.End
		}
		// A rewrite fix accepts keeps the literal's reading.
		for i, q := range l.Quantities {
			nw := q.Format(q.Value.Add(q.Step()))
			if !q.Rewritable() || !RewriteKeepsReading(s, q, nw) {
				continue
			}
			again := s[:q.NumStart] + nw + s[q.NumEnd:]
			l2, err := ParseLiteral(again)
			if err != nil || len(l2.Quantities) != len(l.Quantities) || l2.Quantities[i].Unit != q.Unit {
				t.Fatalf("ParseLiteral(%q): rewritten as %q it reads %v, %v", s, again, l2.Quantities, err)
			}
		}
		// A rewrite of a spread's digits keeps its mean, and reads as written.
		for i, q := range l.Quantities {
			sp := q.Spread
			if sp == nil {
				continue
			}
			nw := sp.Format(sp.Value.Add(sp.Step()))
			if !RewriteKeepsReading(s, *sp, nw) {
				continue
			}
			again := s[:sp.NumStart] + nw + s[sp.NumEnd:]
			l2, err := ParseLiteral(again)
			if err != nil || len(l2.Quantities) != len(l.Quantities) || l2.Quantities[i].Spread == nil || !l2.Quantities[i].Value.Equal(q.Value) ||
				!l2.Quantities[i].Spread.Value.Equal(sp.Value.Add(sp.Step())) {
				t.Fatalf("ParseLiteral(%q): spread rewritten as %q it reads %v, %v", s, again, l2.Quantities, err)
			}
		}
	})
}
