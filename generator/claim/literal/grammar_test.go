package literal

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// The literal grammar's accounting property: a literal ParseLiteral
// accepts is read to its last byte. Outside its quantities there is only
// space, punctuation and words the grammar knows, and no digit (a digit
// there would be a number nobody judged: "25m" of "143h25m" read as 143h);
// each quantity's own text reads as that quantity again. A literal it
// refuses is a LiteralError whose byte range lies inside the literal.

// knownGlue returns the words and marks that may stand outside the
// quantities of a literal, longest first: the oracle of the property,
// built from the grammar's own lists.
func knownGlue() []string {
	var ws []string
	for _, a := range approxWords {
		ws = append(ws, a.word)
	}
	for _, c := range cmpWords {
		ws = append(ws, c.word)
	}
	ws = append(ws, particles...)
	ws = append(ws, unit.RatePrefixes...)
	ws = append(ws, punctuation...)
	for w := range englishConnectors {
		ws = append(ws, w)
	}
	for w := range rangeSeps {
		ws = append(ws, w)
	}
	for _, sw := range signWords {
		ws = append(ws, sw.word)
	}
	ws = append(ws, " ", "\t", "\n", "\r", "\u00a0", "\u202f", "\u2009", "\u3000")
	// longest first: greedy matching takes "에서" before "에"
	for i := range ws {
		for j := i + 1; j < len(ws); j++ {
			if len(ws[j]) > len(ws[i]) {
				ws[i], ws[j] = ws[j], ws[i]
			}
		}
	}
	return ws
}

// checkAccounted fails t unless every byte of lit outside l's quantities
// is glue, and each quantity's text reads as one quantity of its value.
func checkAccounted(t *testing.T, glue []string, lit string, l Literal) {
	t.Helper()
	prev := 0
	gap := func(a, b int) {
		seg := lit[a:b]
		for i := 0; i < len(seg); {
			if n := labelLen(seg, i); n > 0 && a+i+n == b && b < len(lit) {
				i += n // a key= label right before a number
				continue
			}
			n := 0
			if r, size := utf8.DecodeRuneInString(seg[i:]); unicode.IsSpace(r) {
				n = size // any space, as the grammar skips it (U+2002 too)
			}
			for _, w := range glue {
				if n > 0 {
					break
				}
				// the grammar reads English words in any case ("vS", "Of")
				if len(seg)-i >= len(w) && strings.EqualFold(seg[i:i+len(w)], w) {
					n = len(w)
					break
				}
			}
			if n == 0 {
				t.Fatalf("ParseLiteral(%q) accepted it, but %q at byte %d is in no quantity and is no known word or mark (quantities %+v)", lit, seg[i:], a+i, l.Quantities)
			}
			for _, r := range seg[i : i+n] {
				if r >= '0' && r <= '9' {
					t.Fatalf("ParseLiteral(%q): digit outside every quantity at byte %d", lit, a+i)
				}
			}
			i += n
		}
	}
	for _, q := range l.Quantities {
		if q.Start < prev || q.End > len(lit) || q.Start >= q.End {
			t.Fatalf("ParseLiteral(%q): quantity [%d,%d) after %d", lit, q.Start, q.End, prev)
		}
		gap(prev, q.Start)
		prev = q.End
		if q.Word || q.Meridiem != "" {
			continue // a number word or 오후 2시 reads with its context
		}
		alone, err := ParseLiteral(lit[q.Start:q.End])
		if err == nil && (len(alone.Quantities) != 1 || !alone.Quantities[0].Value.Equal(q.Value)) {
			t.Fatalf("ParseLiteral(%q): quantity %q reads %s in the literal but %+v alone", lit, lit[q.Start:q.End], q.Value, alone.Quantities)
		}
	}
	gap(prev, len(lit))
}

// checkError fails t unless err is a LiteralError about bytes of lit.
func checkError(t *testing.T, lit string, err error) {
	t.Helper()
	var le *LiteralError
	if !errors.As(err, &le) {
		t.Fatalf("ParseLiteral(%q): error %v is not a LiteralError", lit, err)
	}
	if le.Offset < 0 || le.End > len(lit) || le.Offset > le.End || len(lit) > 0 && le.Offset >= len(lit) {
		t.Fatalf("ParseLiteral(%q): error range [%d,%d) outside the literal: %v", lit, le.Offset, le.End, err)
	}
	if !utf8.ValidString(lit[le.Offset:le.End]) && utf8.ValidString(lit) {
		t.Fatalf("ParseLiteral(%q): error range [%d,%d) splits a character", lit, le.Offset, le.End)
	}
}

// pieceSets are the pieces random literals are built of, by slot: numbers
// in every style (signs included), unit words (all of package unit's, and
// the parts of compounds and clocks), the glue the grammar knows, and
// junk it does not.
type pieceSets struct{ numbers, units, glue, junk []string }

func grammarPieces() pieceSets {
	return pieceSets{
		numbers: []string{"40", "143", "0.04", "1,234.5", "１２", "5 000", "25", "3", "0", "59", "03", "14", "+3", "−2", "-1", "Δ0", "Δ+1", "두 ", "二", "three", "PT1M", "P1D", "T", "△5", "▼3"},
		units: append([]string{"", "", "", "h", "m", "s", "ms", "us", "min", "hour", "분", "초", "시간", "時間", "分", "秒", "시", "時", ":", "H", "M", "S", "D",
			"만", "万", "천", "割", "여", "余", "%", "%p", "ポイント", "Mi", "Gi", "n", "코어", "±1", "±11%", " 감소", "減少", "/초", "/s", " per second",
			" ± 11.2ms", " ± 0.1", "+/-2", " ±3.5%", "±1.5초", "k", "G", "K", "k req/s", "M건"}, unit.Words()...),
		glue: append([]string{"", "", "", "오후 ", "午後", "exit=", "t=", "초당 "}, knownGlue()...),
		junk: []string{"x", "foo", "MID", "살", "代", "$", "‰", "_", ".", "&foo;", "=", "p99", "e3", "½", "연속", "#", "@", "P", "PT", "5", ":", "▲", "△"},
	}
}

// literalFrom builds a literal from b: bytes fill the slots number, unit,
// glue in turn, each picking a piece of its slot; a byte ≥ 0xE0 picks
// junk instead, and 0xFF glues the next byte in as it is.
func literalFrom(ps pieceSets, b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0xFF && i+1 < len(b):
			i++
			sb.WriteByte(b[i]) // random glue
		case c >= 0xE0:
			sb.WriteString(ps.junk[int(c)%len(ps.junk)])
		default:
			set := [][]string{ps.numbers, ps.units, ps.glue}[i%3]
			sb.WriteString(set[int(c)%len(set)])
		}
	}
	return sb.String()
}

// TestLiteralAccounting holds the property on random literals built from
// the grammar's own pieces plus random glue.
func TestLiteralAccounting(t *testing.T) {
	pieces, glue := grammarPieces(), knownGlue()
	rng := rand.New(rand.NewPCG(21, 52))
	accepted := 0 // how many the grammar read
	for n := 0; n < 20000; n++ {
		b := make([]byte, 1+rng.IntN(9))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		lit := literalFrom(pieces, b)
		l, err := ParseLiteral(lit)
		if err != nil {
			checkError(t, lit, err)
			continue
		}
		accepted++
		checkAccounted(t, glue, lit, l)
	}
	t.Logf("%d of 20000 random literals read", accepted)
	if accepted < 1000 {
		t.Fatalf("only %d of 20000 random literals were accepted: the generator tests little", accepted)
	}
}

// FuzzLiteralGrammar is TestLiteralAccounting's property under the
// fuzzer: go test -fuzz FuzzLiteralGrammar ./generator/claim.
func FuzzLiteralGrammar(f *testing.F) {
	for _, s := range [][]byte{{1, 3}, {1, 3, 0, 1, 10}, {4, 20, 3, 21}, {0xFF, '5', 3}, {2, 0xE5, 7}} {
		f.Add(s)
	}
	pieces, glue := grammarPieces(), knownGlue()
	// mean ± spread as tools print it: 143 ± 11.2ms, 0.04ms ± 0.1, 40+/-2초, 1,234.5 ±3.5%
	at := func(set []string, p string) byte {
		for i, s := range set {
			if s == p {
				return byte(i)
			}
		}
		f.Fatalf("no piece %q", p)
		return 0
	}
	n, u := pieces.numbers, pieces.units
	for _, s := range [][]byte{
		{at(n, "143"), at(u, " ± 11.2ms")},
		{at(n, "0.04"), at(u, "ms"), 0, at(n, "0.04"), at(u, " ± 0.1")},
		{at(n, "40"), at(u, "+/-2"), 0, at(n, "3"), at(u, "초")},
		{at(n, "1,234.5"), at(u, " ±3.5%")},
		{at(n, "40"), at(u, "±1.5초"), 0, at(n, "40"), at(u, "±11%")},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64 {
			return
		}
		lit := literalFrom(pieces, b)
		l, err := ParseLiteral(lit)
		if err != nil {
			checkError(t, lit, err)
			return
		}
		checkAccounted(t, glue, lit, l)
	})
}

// TestLiteralErrorsAt: text the grammar cannot read is an error at its
// byte, saying what was expected.
func TestLiteralErrorsAt(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		at   string // the text the error is about
		want string // part of the message
	}{
		{"40ms5", "5", "glued"},
		{"0.04s5", "5", "glued"},
		{"2h30", "30", "smaller time unit"},
		{"1h2h", "2h", "not a smaller unit"},
		{"1h75m", "75m", "fewer than 60"},
		{"1.5h30m", "1.5", "whole numbers"},
		{"40%5", "5", "glued"},
		{"3회 연속", "연속", "prose belongs outside"},
		{"응답 40초", "응답", "not part of"},
		{"MID1에서 +1", "MID1", "not part of"},
		{"40 foo", "foo", "unknown word"},
		{"P1Y", "1Y", "no fixed length"},
		{"14:70", "70", "fewer than 60"},
		{"25:10", "25", "expected 0–24"},
		{"오후 14시", "14", "expected 0–24"},
		{"5~10초 정도 그", "그", "not part of"},
		{"2026-07-09 14:03:22", "2026-07-09", "is a date"},
		{"13:05 PM", "13", "expected 1–12"},
		{"▲5%", "▲", "a rise to a Korean reader"},
		{"−△5", "−△", "two signs"},
		// K: a thousand to some tools, 1024 to others (ls -h)
		{"10K", "K", "1024"},
		{"2.5K req/s", "K", "expected k for a thousand"},
		{"1.5Gbps", "G", "unknown unit"},
	} {
		_, err := ParseLiteral(tc.lit)
		var le *LiteralError
		if !errors.As(err, &le) {
			t.Errorf("ParseLiteral(%q) = %v; want a LiteralError at %q", tc.lit, err, tc.at)
			continue
		}
		if got := tc.lit[le.Offset:le.End]; got != tc.at || !strings.Contains(le.Msg, tc.want) {
			t.Errorf("ParseLiteral(%q): error at %q (%s); want at %q saying %q", tc.lit, got, le.Msg, tc.at, tc.want)
		}
	}
}

// TestCompoundQuantities: a compound duration or clock time is one
// quantity in the unit and at the precision of its last part.
func TestCompoundQuantities(t *testing.T) {
	for _, tc := range []struct {
		lit, value, unit string
		decimals, parts  int
	}{
		{"143h25m", "8605", "min", 0, 2},
		{"1h2m3s", "3723", "s", 0, 3},
		{"40ms500us", "40500", "us", 0, 2},
		{"1m30.5s", "90.5", "s", 1, 2},
		{"1hour2min", "62", "min", 0, 2},
		{"−1h30m", "-90", "min", 0, 2},
		{"1분 30초", "90", "s", 0, 2},
		{"11分16秒", "676", "s", 0, 2},
		{"2시간 5분", "125", "min", 0, 2},
		{"PT1M30S", "90", "s", 0, 2},
		{"PT0.5S", "0.5", "s", 1, 1},
		{"P1DT2H", "26", "h", 0, 2},
		{"14:03:22", "50602", ClockUnit, 0, 3},
		{"14:03", "50580", ClockUnit, 0, 2},
		{"오후 2시 3분", "50580", ClockUnit, 0, 2},
		{"午前9時", "32400", ClockUnit, 0, 1},
		{"3m", "3", "m", 0, 0},
		{"74m", "74", "m", 0, 0},
		{"343Mi", "343", "MiB", 0, 0},
		{"2:03 PM", "50580", ClockUnit, 0, 2},
		{"14:03:22 KST", "50602", ClockUnit, 0, 3},
		{"±11%", "11", "%", 0, 0},
		{"329087452n", "329087452", "ncore", 0, 0},
	} {
		l, err := ParseLiteral(tc.lit)
		if err != nil || len(l.Quantities) != 1 {
			t.Errorf("ParseLiteral(%q) = %+v, %v; want one quantity", tc.lit, l.Quantities, err)
			continue
		}
		q := l.Quantities[0]
		if q.Value.String() != tc.value || q.Unit != tc.unit || q.Decimals != tc.decimals || len(q.Parts) != tc.parts || q.End != len(tc.lit) {
			t.Errorf("ParseLiteral(%q) = %s %s, %d decimals, %d parts, end %d; want %s %s, %d, %d", tc.lit, q.Value, q.Unit, q.Decimals, len(q.Parts), q.End, tc.value, tc.unit, tc.decimals, tc.parts)
		}
	}
}

// TestFormatParts: a compound is rewritten in its own parts and style.
func TestFormatParts(t *testing.T) {
	for _, tc := range []struct {
		lit, value, want string
	}{
		{"143h25m", "8557", "142h37"},     // 142h37m
		{"1분 30초", "95", "1분 35"},         // 1분 35초
		{"11分16秒", "676", "11分16"},        // unchanged
		{"PT1M30S", "61", "PT1M1"},        // PT1M1S
		{"14:03:22", "50705", "14:05:05"}, // zero-padded parts keep their width
		{"1m30.5s", "125.25", "2m5.3"},    // rounded at the last part's decimals
		{"40ms500us", "41000", "41ms0"},   // 41ms0us
		{"2시간 5분", "65", "1시간 5"},         // 1시간 5분
		{"−1h30m", "-150", "−2h30"},       // a sign stays on the first part, as written
		{"△1h30m", "-150", "△2h30"},
		{"△5%", "-6", "△6"}, // △ is a minus (accounts), ▼ a fall
		{"▼5", "-6", "▼6"},
		{"△5", "3", "3"},
		{"12% 감소", "-13", "13"}, // the word carries the sign
		{"±11%", "-12", "±12"},
		{"40ms500us", "40005", "40ms5"}, // 500 had no leading zero
		// a clock is read by truncation, its parts keep their integer
		// width (not the decimals'), 오전/오후 changes with the hour
		{"14:03", "50632.713", "14:03"},
		{"14:03:52.72", "50632.713", "14:03:52.71"},
		{"14:03:05.5", "50585.25", "14:03:05.2"},
		{"１４:０３", "50705", "１４:０５"},
		{"오후 2시 3분", "40632.713", "오전 11시 17"},
		{"오전 11시", "50632", "오후 2"},
		{"午後2時", "43300", "午後12"},
		{"오전 0시", "600", "오전 0"},
		{"2:03 PM", "3632", "1:00 AM"},
		{"12:30 AM", "43800", "12:10 PM"},
		// a compound magnitude keeps its words, rounded at the last part
		{"1만 2천 건", "13042", "1만 3"},
		{"1만2천건", "13042", "1만3"},
		{"1万2000件", "13042", "1万3042"},
		{"12만 3천", "1234567", "123만 5"},
		{"１万２千", "13042", "１万３"},
		{"−1만 2천", "-13042", "−1만 3"},
		{"3割5分", "36.2", "3割6"},
		{"3割5分2厘", "36.27", "3割6分3"},
		{"1만 2천 건", "10042", "1만 0"}, // see ZeroPart
	} {
		l, err := ParseLiteral(tc.lit)
		if err != nil {
			t.Fatalf("ParseLiteral(%q): %v", tc.lit, err)
		}
		q := l.Quantities[0]
		v := decimal.RequireFromString(tc.value)
		if got := q.Format(v); got != tc.want {
			t.Errorf("Format(%q, %s) = %q; want %q", tc.lit, tc.value, got, tc.want)
		}
	}
}

// TestZeroPart: a compound magnitude that would be rewritten with a zero
// part is reported, so that fix leaves it to a person.
func TestZeroPart(t *testing.T) {
	for _, tc := range []struct {
		lit, value string
		zero       bool
	}{
		{"1만 2천 건", "13042", false},
		{"1만 2천 건", "10042", true},
		{"1만 2천 건", "9800", true}, // rounds to 10 thousand: 1만 0천
		{"1만 2천 건", "8800", true},
		{"1万2000件", "10000", true},
		{"3割5分", "30", true},
		{"40초", "0", false},
	} {
		l, err := ParseLiteral(tc.lit)
		if err != nil {
			t.Fatalf("ParseLiteral(%q): %v", tc.lit, err)
		}
		if got := l.Quantities[0].ZeroPart(decimal.RequireFromString(tc.value)); got != tc.zero {
			t.Errorf("ZeroPart(%q, %s) = %v; want %v", tc.lit, tc.value, got, tc.zero)
		}
	}
}
