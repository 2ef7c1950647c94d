package literal

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// signAt reads a sign at s[i:]: Δ, +, -, −, full-width forms, and Δ
// combined with one of them; △ and ▼, which a Japanese or Korean reader
// reads as a minus (△5 in accounts, ▼5 a fall). It returns the sign's
// length and whether it marks a difference.
func signAt(s string, i int) (int, bool) {
	if strings.HasPrefix(s[i:], "±") {
		return len("±"), false // a spread: ±11% (see Quantity.Sign)
	}
	for _, m := range minusMarks {
		if strings.HasPrefix(s[i:], m) {
			return len(m), false
		}
	}
	j := i
	delta := false
	if strings.HasPrefix(s[j:], "Δ") {
		j += len("Δ")
		delta = true
		j = skipSpaces(s, j)
	}
	for _, sg := range []string{"+", "-", "−", "＋", "－"} {
		if strings.HasPrefix(s[j:], sg) {
			j += len(sg)
			if sg == "+" || sg == "＋" {
				delta = true
			}
			break
		}
	}
	if j == i {
		return 0, false
	}
	return j - i, delta
}

// minusMarks are the marks before a number that a Japanese or Korean
// reader reads as a minus sign: △5 is −5 in accounts, ▼5 a fall of 5.
var minusMarks = []string{"△", "▼"}

// quantityAt reads a quantity starting at s[i:]. It returns nil and a
// length > 0 for digits that belong to a name (MID1, v1.2) and nil, 0 when
// nothing numeric starts here.
func (lx *lexer) quantityAt(i int) (*Quantity, int, error) {
	s := lx.s
	if strings.HasPrefix(s[i:], "▲") && unit.IsDigitAt(s, i+len("▲")) {
		return nil, 0, lx.errorf(i, i+len("▲"), "▲ before a number says a rise to a Korean reader (▲5 is +5) and a minus to a Japanese one (▲5 is −5 in accounts); expected + or Δ for a rise (or 5%% 증가, 5%%増加), − or △ for a minus")
	}
	sl, delta := signAt(s, i)
	if sl > 0 {
		sign := s[i : i+sl]
		if (sign == "-" || sign == "－") && i == lx.prevEnd && len(lx.out.Quantities) > 0 {
			return nil, 0, nil // "5-10": a range dash
		}
		if !unit.IsDigitAt(s, i+sl) {
			return nil, 0, nil
		}
		if prev := runeBefore(s, i); i > 0 && strings.ContainsRune("+-−＋－△▼", prev) {
			// "−−5": reading the last sign alone would turn the number's
			// sign around when fixed (−−5 → −40).
			return nil, 0, lx.errorf(i-utf8.RuneLen(prev), i+sl, "two signs before the number at %q; expected one sign", s[i-utf8.RuneLen(prev):i+sl+1])
		}
	}
	j := i + sl
	if !unit.IsDigitAt(s, j) {
		if sl == 0 {
			return lx.wordNumberAt(i)
		}
		return nil, 0, nil
	}
	if n := dateLen(s, j); n > 0 {
		return nil, 0, lx.errorf(j, j+n, "%q is a date, not a number evdoc judges; expected a measured number, a time of day (14:03:22), or the date outside the claim (or in [%s](ev:exempt \"reason\"))", s[j:j+n], s[j:j+n])
	}
	if i > 0 {
		prev := runeBefore(s, i)
		switch {
		case prev < utf8.RuneSelf && scriptOf(prev) == latin:
			// A digit run glued to a letter ("MID1", "v1.2") is part of
			// a name, not a quantity.
			k := j
			for k < len(s) && (unit.IsDigitAt(s, k) || s[k] == '.' || s[k] == ',' || s[k] == '_' || scriptOf(rune(s[k])) == latin) {
				_, n := utf8.DecodeRuneInString(s[k:])
				k += n
			}
			return nil, k - i, nil
		case prev == '_' || prev == '.' || prev == '．':
			return nil, 0, lx.errorf(i-1, i, "cannot read the number at %q; expected plain digits such as 1,234.5", unit.Excerpt(s, i-1, j+4, 40))
		}
	}
	d, err := unit.ScanDigits(s[j:], unit.Style{SpaceGrouping: true})
	if err != nil {
		return nil, 0, lx.errorf(j, j+len(s[j:min(len(s), j+12)]), "malformed digit grouping at %q; expected groups of three digits (1,234) and a decimal point, not a comma", unit.Excerpt(s, j, j+12, 40))
	}
	k := j + d.Len
	if k < len(s) && (s[k] == '.' || strings.HasPrefix(s[k:], "．")) && unit.IsDigitAt(s, k+1+2*btoi(s[k] != '.')) {
		return nil, 0, lx.errorf(j, k+1, "%q looks like a version or address, not a measured number; expected one decimal point", s)
	}
	lx.q = Quantity{Start: i, NumStart: i, NumEnd: k, Value: d.Value, Decimals: d.Decimals, FullWidth: d.FullWidth,
		Grouped: d.Grouped, Sep: d.Sep, Magnitude: one, Delta: delta}
	q := &lx.q
	if sl > 0 {
		q.Sign = s[i : i+sl]
		if strings.ContainsAny(q.Sign, "-−－△▼") {
			q.Value = q.Value.Neg()
		}
	}
	if end, ok, err := lx.clockAt(q); err != nil || ok {
		q.End = end
		return q, 0, err
	}
	k, err = lx.magnitudes(q, k)
	if err != nil {
		return nil, 0, err
	}
	return q, 0, lx.unitAfter(q, k)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// magnitudeAt reads a magnitude word at s[k:] (after optional spaces).
func magnitudeAt(s string, k int) (int64, int) {
	k2 := skipSpaces(s, k)
	for _, m := range magnitudeWords {
		if strings.HasPrefix(s[k2:], m.word) {
			end := k2 + len(m.word)
			return m.f, end - k
		}
	}
	return 0, 0
}

// magnitudes reads magnitude words and compound parts after the digits at
// s[k:] ("1만 2천", "1万2000", "3割5分") and the 여/余 of "40여 건".
func (lx *lexer) magnitudes(q *Quantity, k int) (int, error) {
	s := lx.s
	// the parts of a compound, made when its second part is read
	var parts []Part
	lastNumEnd := q.NumEnd
	addPart := func(f decimal.Decimal, sep string, a, b int, word string) {
		digits := s[q.NumStart+len(q.Sign) : q.NumEnd]
		if strings.ContainsAny(digits, ".．") {
			return // 1.5만 2천: no rewrite in parts (see Rewritable)
		}
		if parts == nil {
			parts = append(make([]Part, 0, 3), Part{Factor: q.Magnitude, Width: intWidth(digits), Pad: padded(digits), Word: q.MagnitudeWord})
		}
		parts[len(parts)-1].Sep = sep
		parts = append(parts, Part{Factor: f, Width: intWidth(s[a:b]), Pad: padded(s[a:b]), Word: word})
		lastNumEnd = b
	}
	if strings.HasPrefix(s[k:], "割") {
		q.Value, q.Magnitude, q.Unit, q.UnitWord, q.MagnitudeWord = q.Value.Mul(decimal.NewFromInt(10)), decimal.NewFromInt(10), "%", "割", "割"
		k += len("割")
		for _, part := range []struct {
			word string
			f    decimal.Decimal
		}{{"分", decimal.NewFromInt(1)}, {"厘", decimal.New(1, -1)}} {
			d, err := unit.ScanDigits(s[k:], unit.Style{})
			if err != nil || d.Len == 0 || d.Decimals > 0 || !strings.HasPrefix(s[k+d.Len:], part.word) {
				continue
			}
			addPart(part.f, s[lastNumEnd:k], k, k+d.Len, part.word)
			q.Value = q.Value.Add(d.Value.Mul(part.f))
			q.Magnitude, q.Compound, q.Decimals = part.f, true, 0
			k += d.Len + len(part.word)
		}
		q.setMagParts(parts, lastNumEnd)
		return k, nil
	}
	f, n := magnitudeAt(s, k)
	if f == 0 {
		if m, err := lx.multiplierLetter(q, k); err != nil || m > 0 {
			return k + m, err
		}
		return lx.yeo(q, k), nil
	}
	mag := decimal.NewFromInt(f)
	q.Value, q.Magnitude = q.Value.Mul(mag), mag
	q.MagnitudeWord = strings.TrimSpace(s[k : k+n])
	k += n
	for {
		// A compound: a smaller part follows ("1만 2천", "1万2000").
		k2 := skipSpaces(s, k)
		if !oneSpaceAtMost(s, k, k2) || !unit.IsDigitAt(s, k2) {
			break
		}
		d, err := unit.ScanDigits(s[k2:], unit.Style{})
		if err != nil || d.Len == 0 {
			break
		}
		f2, n2 := magnitudeAt(s, k2+d.Len)
		part, pmag := d.Value, one
		if f2 > 0 {
			pmag = decimal.NewFromInt(f2)
			part = part.Mul(pmag)
		}
		if !part.LessThan(mag) {
			break
		}
		addPart(pmag, s[lastNumEnd:k2], k2, k2+d.Len, strings.TrimSpace(s[k2+d.Len:k2+d.Len+n2]))
		q.Value = q.Value.Add(part.Mul(decimal.NewFromInt(int64(q.Value.Sign() | 1))))
		q.Magnitude, q.Decimals, q.Compound = pmag, d.Decimals, true
		mag = pmag
		k = k2 + d.Len + n2
		if f2 == 0 {
			break
		}
	}
	q.setMagParts(parts, lastNumEnd)
	return lx.yeo(q, k), nil
}

// multiplierLetters are the SI multiplier letters tools print glued to
// a number (wrk's Req/Sec 2.76k, 1.20M requests) and the power of ten
// each stands for. K is not one: to some tools it is a thousand (10K
// requests), to others 1024 (ls -h and du -h print 4.0K for 4096
// bytes), so a claim writing it is an error naming both readings; m is
// a unit (minutes, millicores, read by the value's dimension), never
// milli.
var multiplierLetters = map[byte]int32{'k': 3, 'M': 6, 'G': 9}

// MultiplierLetter reports whether word, a quantity's MagnitudeWord, is
// a multiplier letter of multiplierLetters (2.76k: "k").
func MultiplierLetter(word string) bool {
	return len(word) == 1 && multiplierLetters[word[0]] != 0
}

// multiplierLetter reads a multiplier letter glued to the digits ending
// at s[k:] (2.76k, 1.2M, 3G), alone or before a space, a sign or a
// word of another script (2.76k req/s, 1.2M건): it scales q, keeps the
// letter as q's magnitude word (so the precision written is 2.76
// thousands) and returns its length. A letter that starts a unit word
// (kB, MiB, Gi) or an ASCII word (1.5Gbps, 3Mx) is no multiplier (0).
// K is an error naming both readings (see multiplierLetters).
func (lx *lexer) multiplierLetter(q *Quantity, k int) (int, error) {
	s := lx.s
	if k >= len(s) || s[k] != 'K' && multiplierLetters[s[k]] == 0 {
		return 0, nil
	}
	if k+1 < len(s) && (isASCIILetter(s[k+1]) || isDigitByte(s[k+1])) {
		return 0, nil // a word: kB, Gbps, Mi, or an unknown one
	}
	if w, _ := unit.Prefix(s[k:]); w != "" {
		return 0, nil
	}
	if s[k] == 'K' {
		return 0, lx.errorf(k, k+1, "K after a number is a thousand to some tools (10K requests) and 1024 to others (ls -h, du -h: 4.0K is 4096 bytes); expected k for a thousand (%sk), or a size unit (KB for 1000 bytes, KiB for 1024)", s[q.NumStart:q.NumEnd])
	}
	mag := decimal.New(1, multiplierLetters[s[k]])
	q.Value, q.Magnitude, q.MagnitudeWord = q.Value.Mul(mag), mag, s[k:k+1]
	return 1, nil
}

// setMagParts keeps the parts of a compound magnitude (1만 2천, 1万2000,
// 3割5分) and makes [NumStart, NumEnd) run from the first part's digits
// to the last part's, which Format rewrites in the same parts.
func (q *Quantity) setMagParts(parts []Part, lastNumEnd int) {
	if q.Compound && parts != nil {
		q.MagParts, q.NumEnd = parts, lastNumEnd
	}
}

// yeo reads the 여 of "40여 건" and the 余 of "40余件": a little over.
func (lx *lexer) yeo(q *Quantity, k int) int {
	for _, w := range yeoWords {
		if !strings.HasPrefix(lx.s[k:], w) {
			continue
		}
		end := k + len(w)
		next, _ := utf8.DecodeRuneInString(lx.s[end:])
		if end == len(lx.s) || scriptOf(next) != hangul && w == "여" || scriptOf(next) != han && w == "余" {
			lx.setApprox(Over, w)
			return end
		}
		if word, _ := unit.Prefix(lx.s[end:]); word != "" {
			lx.setApprox(Over, w)
			return end
		}
	}
	return k
}

func (lx *lexer) setApprox(a Approx, word string) {
	switch {
	case lx.out.Approx == Exact:
		lx.out.Approx, lx.out.ApproxWord = a, word
	case lx.out.Approx != a:
		lx.out.Approx, lx.out.ApproxWord = About, lx.out.ApproxWord+" "+word
	}
}

// unitAfter reads the unit word after a number ending at s[k:], the rate
// forms (초당 N, N건/초, N per second) and a ± tolerance, and sets q.End.
func (lx *lexer) unitAfter(q *Quantity, k int) error {
	s := lx.s
	if q.UnitWord == "" {
		k2 := skipSpaces(s, k)
		if w, u := unit.Prefix(s[k2:]); w != "" && !(w == "x" && k2 > k) {
			q.Unit, q.UnitWord = u.Name, w
			k = k2 + len(w)
			var err error
			if k, err = lx.compound(q, k); err != nil {
				return err
			}
		} else if w := unit.OpCounter(s[k2:]); w != "" {
			q.Unit, q.UnitWord = "count", w // 1 allocs/op
			k = k2 + len(w)
		}
		k = perOp(q, k, s)
	}
	return lx.qualifiers(q, k)
}

// perOp reads the "/op" of a Go benchmark's per-operation unit after a
// time or size unit or a count (24,889ns/op, 64B/op, 1 allocs/op): the
// number compares in that unit. It returns where the unit ends.
func perOp(q *Quantity, k int, s string) int {
	rest, ok := strings.CutPrefix(s[k:], unit.PerOperation)
	if !ok || rest != "" && scriptOf(rune(rest[0])) == latin || len(q.Parts) > 0 {
		return k
	}
	if u, _ := unit.Canonical(q.Unit); u.Dim != unit.Time && u.Dim != unit.Size && q.Unit != "count" {
		return k
	}
	q.UnitWord += unit.PerOperation
	return k + len(unit.PerOperation)
}

// qualifiers reads what may follow a number ending (with its unit) at
// s[k:]: the rate forms (초당 N, N건/초, N per second), a ± tolerance and
// a sign word, and sets q.End.
func (lx *lexer) qualifiers(q *Quantity, k int) error {
	s := lx.s
	// Rate prefix: 초당 1,250건, 毎秒1,250件, 秒間1,250件, also with an
	// approximation word between prefix and number (초당 약 38건, 毎秒約38件).
	before := strings.TrimRightFunc(s[:q.Start], isSpace)
	for _, a := range approxWords {
		if strings.HasSuffix(before, a.word) {
			before = strings.TrimRightFunc(before[:len(before)-len(a.word)], isSpace)
			break
		}
	}
	for _, p := range unit.RatePrefixes {
		if strings.HasSuffix(before, p) {
			if err := lx.makeRate(q, p, len(before)-len(p)); err != nil {
				return err
			}
		}
	}
	// Rate suffix: 1,250건/초, 1,250件/秒, 40/sec.
	if k < len(s) && (s[k] == '/' || strings.HasPrefix(s[k:], "／")) {
		sl := 1
		if s[k] != '/' {
			sl = len("／")
		}
		for _, w := range unit.PerSecond {
			rest := s[k+sl:]
			if strings.HasPrefix(rest, w) && (len(rest) == len(w) || scriptOf(rune(rest[len(w)])) != latin) {
				if err := lx.makeRate(q, s[k:k+sl+len(w)], k); err != nil {
					return err
				}
				k += sl + len(w)
				break
			}
		}
	}
	// English "per second".
	if k2 := skipSpaces(s, k); k2 > k {
		for _, w := range []string{"per second", "per sec", "a second"} {
			if strings.HasPrefix(s[k2:], w) {
				if err := lx.makeRate(q, w, k2); err != nil {
					return err
				}
				k = k2 + len(w)
				break
			}
		}
	}
	// ± spread: 319.5 ± 11.2ms, 43±1秒, 43秒±1秒, 120ms ±11%.
	k2 := skipSpaces(s, k)
	for _, pm := range []string{"±", "+/-", "+-"} {
		if !strings.HasPrefix(s[k2:], pm) {
			continue
		}
		t := skipSpaces(s, k2+len(pm))
		d, err := unit.ScanDigits(s[t:], unit.Style{})
		if err != nil || d.Len == 0 {
			return lx.errorf(t, 0, "expected a number after %q", pm)
		}
		e := t + d.Len
		sp := &Quantity{Value: d.Value, Decimals: d.Decimals, Start: t, NumStart: t, NumEnd: e, Magnitude: one, Grouped: d.Grouped, Sep: d.Sep, FullWidth: d.FullWidth}
		e2 := skipSpaces(s, e)
		if w, u := unit.Prefix(s[e2:]); w != "" {
			sp.Unit, sp.UnitWord, e = u.Name, w, e2+len(w)
		}
		switch {
		case sp.Unit == "" || sp.Unit == q.Unit:
			sp.Unit = q.Unit
		case q.Unit == "":
			q.Unit = sp.Unit // 319.5 ± 11.2ms: one unit for both
		case sp.Unit == "%" && q.Unit != "%p":
			// a relative spread: 120ms ±11%
		case sp.Unit == "%p" && q.Unit == "%":
			// points after a percentage: 44% ± 2%p
		default:
			if _, ok := unit.Convert(sp.Value, sp.Unit, q.Unit); !ok {
				return lx.errorf(e2, e2+len(sp.UnitWord), "the spread after %q is in %s, the number in %s", pm, sp.Unit, q.Unit)
			}
		}
		if q.UnitWord == "" && sp.Unit == q.Unit {
			q.UnitWord = sp.UnitWord
		}
		sp.End = e
		q.Spread = sp
		k = e
		break
	}
	// A sign word: 12% 감소, 12%減少, 12% increase.
	if k2 := skipSpaces(s, k); oneSpaceAtMost(s, k, k2) && q.Sign == "" && !q.Word {
		for _, sw := range signWords {
			if !strings.HasPrefix(s[k2:], sw.word) || scriptOf(rune(sw.word[0])) == latin && (k2 == k || k2+len(sw.word) < len(s) && scriptOf(rune(s[k2+len(sw.word)])) == latin) {
				continue
			}
			if sw.neg {
				q.Value = q.Value.Neg()
			}
			q.Delta, q.SignWord = true, sw.word
			k = k2 + len(sw.word)
			break
		}
	}
	q.End = k
	return nil
}

// makeRate turns q into a rate per second: a plain number or a count
// (/s), or a size (KB gives KB/s).
func (lx *lexer) makeRate(q *Quantity, word string, at int) error {
	switch q.Unit {
	case "", "count", "/s":
		q.Unit = "/s"
		return nil
	}
	if u, ok := unit.PerSecondOf(q.Unit); ok { // 1.2MB/s, 1.2MB/초, 초당 1.2MB: a throughput
		q.Unit = u
		return nil
	}
	if u, _ := unit.Canonical(q.Unit); u.Dim == unit.Throughput {
		return nil // 초당 1.2MB/s: a rate written twice, as 초당 1,250건/초
	}
	return lx.errorf(at, at+len(word), "%q makes a rate of %s; expected a count or a size per second (1,250건/초, 毎秒1,250件, 1.2MB/s) — other compound units are not read", word, q.Unit)
}

// after checks what follows a quantity: a Latin letter, digit, "_", "%"
// or a Unicode fraction glued to it is unreadable; a word is allowed when
// it is a particle, connector, approximation word or comparator; any other
// Hangul, kana or Han word is an unknown unit.
func (lx *lexer) after(q *Quantity) error {
	s := lx.s
	k := q.End
	if k >= len(s) {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	switch {
	case scriptOf(r) == latin, r == '_', r == '%', r == '％', r > 127 && unicode.IsNumber(r) && !unit.IsDigitAt(s, k),
		unitLike(r), r == '&', r == '\\', r == '#', r == '@', r > 127 && scriptOf(r) == other && unicode.IsLetter(r):
		return lx.errorf(k, 0, "unknown unit or unreadable number at %q; expected a unit such as %%, s, ms, 초, 秒, 바이트, 회", s[q.Start:min(len(s), k+12)])
	case q.UnitWord != "" && unit.IsDigitAt(s, k):
		return lx.errorf(k, k+digitLen(s, k), "a number glued to %q; expected a space, a connector or a unit after it, or the parts of a duration (1h2m3s)", s[q.Start:k])
	case r == '/' || r == '／':
		after := strings.TrimLeftFunc(s[k+utf8.RuneLen(r):], isSpace)
		if after == "" || !unit.IsDigitAt(after, 0) {
			return lx.errorf(k, 0, "unknown unit at %q: compound units (KB/s, 초/회) are not read; expected a number, a unit, or a count per second (건/초)", s[q.Start:min(len(s), k+12)])
		}
		return nil
	}
	k2 := skipSpaces(s, k)
	if k2 >= len(s) {
		return nil
	}
	if r2, _ := utf8.DecodeRuneInString(s[k2:]); unitLike(r2) {
		return lx.errorf(k2, 0, "unknown unit at %q; expected a unit such as %%, s, ms, 초, 秒, 바이트, 회", s[q.Start:min(len(s), k2+12)])
	}
	w := wordAt(s, k2)
	if w == "" {
		return nil
	}
	r2, _ := utf8.DecodeRuneInString(w)
	if scriptOf(r2) == latin {
		if k2 == k {
			return lx.errorf(k, k+len(w), "unknown unit or unreadable number at %q; expected a unit such as s, ms, %%, or a space before a word", s[q.Start:min(len(s), k+12)])
		}
		if englishConnectors[strings.ToLower(w)] || lx.knownWord(k2) {
			return nil
		}
		return lx.errorf(k2, k2+len(w), "unknown word %q after %q; expected a unit such as s, ms, %%, or a connector (of, to)", w, s[q.Start:q.End])
	}
	if lx.knownWord(k2) || k2 > k && q.UnitWord != "" {
		return nil // after a unit and a space, words are prose: 3회 연속
	}
	// A kanji numeral after a unit starts the next number (1万二千 is not
	// read; 二回 after a number is a list).
	if _, n, _ := lx.wordNumberAt(k2); n > 0 {
		return nil
	}
	return lx.errorf(k2, k2+len(w), "unknown word %q after %q; expected a unit (초, 秒, ms, %%, 바이트, 年 …), a counter (회, 回, 건, 件, 개, 個, 명, 人 …) or a particle", w, s[q.Start:q.End])
}

// unitLike reports whether r is a symbol that reads as a unit the grammar
// does not know: a currency sign, per mille, per ten thousand, degree.
func unitLike(r rune) bool {
	return r == '‰' || r == '‱' || r == '°' || r > 127 && unicode.Is(unicode.Sc, r) || r == '$'
}

// knownWord reports whether s[k:] starts with a particle, connector,
// approximation word, comparator or magnitude.
func (lx *lexer) knownWord(k int) bool {
	rest := lx.s[k:]
	for _, a := range approxWords {
		if strings.HasPrefix(rest, a.word) {
			return true
		}
	}
	for _, c := range cmpWords {
		if strings.HasPrefix(rest, c.word) {
			return true
		}
	}
	for _, p := range particles {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	for _, p := range unit.RatePrefixes {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}
