package literal

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// Compound durations and clock times: one quantity written in parts, each
// a number and a time unit, judged at the precision of the last part.
//
//	143h25m  1h2m3s  1m30s  40ms500us  1hour2min   Go, kubectl
//	1분 30초  2시간 5분  11分16秒  1時間2分3秒        Korean, Japanese
//	PT1M30S  PT2H  P1DT2H                          ISO 8601
//	14:03:22  14:03                                clock (h:mm:ss)
//	오후 2시 3분  14시 3분  午後2時3分  14時3分        time of day

// Part is one component of a compound duration or clock time.
type Part struct {
	// Unit is the part's canonical time unit (h, min, s, ms …).
	Unit string `json:"unit"`
	// Width is how many digits the part's integer was written with and
	// Pad whether it had a leading zero (the 03 of 14:03): a rewrite
	// keeps the width.
	Width int  `json:"-"`
	Pad   bool `json:"-"`
	// Sep is the text from the end of the part's digits to the start of
	// the next part's digits ("h", "분 ", ":"); "" for the last part.
	Sep string `json:"-"`
	// Lead is the text before the first part's digits that belongs to the
	// number ("PT" of PT1M30S, "오후 " of 오후 2시 3분); "" for any other
	// part.
	Lead string `json:"-"`
	// Factor is the value of one in a part of a compound magnitude
	// (10000 for the 1 of 1만 2천, 1 for the 2000 of 1万2000, 10 for the
	// 3 of 3割5分, in percent); zero in a duration or clock time.
	Factor decimal.Decimal `json:"-"`
	// Word is the magnitude word after a part of a compound magnitude
	// (만, 천, 割, 分; "" for the 2000 of 1万2000).
	Word string `json:"-"`
}

// ClockUnit is the unit of a clock time read from a claim: seconds since
// midnight (unit "tod"). A clock time binds only to a value in that unit.
const ClockUnit = "tod"

// timeUnit returns the canonical time unit a unit word spells inside a
// compound ("m" is minutes there), or "".
func timeUnit(word string, u unit.Unit) string {
	if word == "m" {
		return "min"
	}
	if u.Dim == unit.Time {
		return u.Name
	}
	return ""
}

// ratio returns how many of unit b make one of unit a (60 for h, min), or
// false when a is not a whole multiple of b larger than it.
func ratio(a, b string) (decimal.Decimal, bool) {
	f, ok := unit.Factor(a, b)
	if !ok || !f.GreaterThan(decimal.NewFromInt(1)) || !f.Equal(f.Truncate(0)) {
		return decimal.Decimal{}, false
	}
	return f, true
}

// compound reads the parts after the first of a compound duration: q is
// the first part, read up to its unit word ending at s[k:]. It returns
// where the quantity ends. A digit glued to a time unit word that does not
// start a smaller part ("2h30", "40ms5", "1h2h") is an error; a spaced
// number that does not is left to the rest of the literal ("5초 30초").
func (lx *lexer) compound(q *Quantity, k int) (int, error) {
	s := lx.s
	first := timeUnit(q.UnitWord, unit.Unit{Name: q.Unit, Dim: dimOf(q.Unit)})
	if first == "" || q.Word || !IsOne(q.Magnitude) || q.MagnitudeWord != "" {
		return k, nil
	}
	prev := first
	parts := []Part{{Unit: first, Width: intWidth(s[q.NumStart+len(q.Sign) : q.NumEnd]), Pad: padded(s[q.NumStart+len(q.Sign) : q.NumEnd])}}
	total := q.Value.Abs()
	lastNumEnd, lastDecimals, lastWord := q.NumEnd, q.Decimals, q.UnitWord
	for {
		k2 := k
		if n := spaceAt(s, k); n > 0 {
			k2 = k + n
		}
		if !unit.IsDigitAt(s, k2) {
			break
		}
		d, err := unit.ScanDigits(s[k2:], unit.Style{})
		if err != nil || d.Len == 0 {
			break
		}
		e := k2 + d.Len
		w, u := unit.Prefix(s[e:])
		next := timeUnit(w, u)
		r, ok := ratio(prev, next)
		switch {
		case k2 > k && (next == "" || !ok):
			// "5초 30", "5초 30초": not a part; the literal goes on
		case next == "" || !ok:
			if next == "" {
				return 0, lx.errorf(k2, e, "%q is glued to %q with no unit; expected a smaller time unit after it (%s%s…) or a space", s[k2:e], s[q.Start:k], s[q.Start:e], smallerUnit(prev))
			}
			return 0, lx.errorf(k2, e+len(w), "%q after %q is not a smaller unit; expected the parts of a duration from the largest unit down (1h2m3s, 1분 30초)", s[k2:e+len(w)], s[q.Start:k])
		case lastDecimals > 0:
			return 0, lx.errorf(q.NumStart, lastNumEnd, "a part of a compound duration before the last has decimals; expected whole numbers before the last part (1m30.5s)")
		case !d.Value.LessThan(r):
			return 0, lx.errorf(k2, e+len(w), "%q after %q: expected fewer than %s %s", s[k2:e+len(w)], s[q.Start:k], r, next)
		}
		if next == "" || !ok {
			break
		}
		parts[len(parts)-1].Sep = s[lastNumEnd:k2]
		parts = append(parts, Part{Unit: next, Width: intWidth(s[k2:e]), Pad: padded(s[k2:e])})
		total = total.Mul(r).Add(d.Value)
		prev, lastNumEnd, lastDecimals, lastWord = next, e, d.Decimals, w
		k = e + len(w)
	}
	if len(parts) == 1 {
		return k, nil
	}
	if q.Value.IsNegative() {
		total = total.Neg()
	}
	q.Value, q.Unit, q.UnitWord, q.Decimals, q.NumEnd, q.Parts = total, prev, lastWord, lastDecimals, lastNumEnd, parts
	return k, nil
}

// dimOf returns the dimension of canonical unit name n.
func dimOf(n string) unit.Dim {
	u, _ := unit.Canonical(n)
	return u.Dim
}

// smallerUnit names the Go-style unit below u, for messages.
func smallerUnit(u string) string {
	switch u {
	case "h":
		return "m"
	case "min":
		return "s"
	case "s":
		return "ms"
	case "ms":
		return "us"
	}
	return "s"
}

// padded reports whether digits were written with a leading zero (03,
// ０３).
func padded(digits string) bool {
	return intWidth(digits) > 1 && (digits[0] == '0' || strings.HasPrefix(digits, "０"))
}

// intWidth is how many digits the integer part of digits has: 2 for
// "52.72", "１４" and "05".
func intWidth(digits string) int {
	n := 0
	for _, r := range digits {
		if r == '.' || r == '．' {
			break
		}
		if r >= '0' && r <= '9' || r >= '０' && r <= '９' {
			n++
		}
	}
	return n
}

// isoDurationAt reads an ISO 8601 duration at s[i:] (PT1M30S, PT0.5S,
// P1DT2H, P2W): days and weeks before T, hours, minutes and seconds
// after it. Years and months (P1Y, P1M) have no fixed length and are an
// error. It returns nil when s[i:] does not start one.
func (lx *lexer) isoDurationAt(i int) (*Quantity, error) {
	s := lx.s
	if i >= len(s) || s[i] != 'P' || i > 0 && (scriptOf(runeBefore(s, i)) == latin || unit.IsDigitAt(s, i-1)) {
		return nil, nil
	}
	j := i + 1
	if j >= len(s) || !(s[j] == 'T' || unit.IsDigitAt(s, j)) {
		return nil, nil
	}
	if s[j] != 'T' {
		// P1D, P2W, P1Y: a designator after the digits; P99 is a name
		e := j + digitLen(s, j)
		if e >= len(s) || !strings.ContainsRune("DWYM", rune(s[e])) || e+1 < len(s) && scriptOf(rune(s[e+1])) == latin && s[e+1] != 'T' {
			return nil, nil
		}
	}
	q := &lx.q
	*q = Quantity{Start: i, NumStart: i, Magnitude: one}
	var parts []Part
	var total decimal.Decimal
	prev, timePart := "", false
	lastNumEnd, decimals := i, 0
	for j < len(s) {
		if s[j] == 'T' && !timePart {
			timePart = true
			j++
			continue
		}
		if !unit.IsDigitAt(s, j) {
			break
		}
		d, err := unit.ScanDigits(s[j:], unit.Style{})
		if err != nil || d.Len == 0 || j+d.Len >= len(s) {
			return nil, lx.errorf(j, 0, "unreadable ISO 8601 duration; expected PT1M30S (P, then T and hours H, minutes M, seconds S)")
		}
		e := j + d.Len
		var u string
		switch c := s[e]; {
		case !timePart && c == 'W':
			u = "wk"
		case !timePart && c == 'D':
			u = "d"
		case timePart && c == 'H':
			u = "h"
		case timePart && c == 'M':
			u = "min"
		case timePart && c == 'S':
			u = "s"
		case !timePart && (c == 'Y' || c == 'M'):
			return nil, lx.errorf(j, e+1, "ISO 8601 years and months have no fixed length; expected weeks, days, hours, minutes or seconds (P1DT2H, PT1M30S)")
		default:
			return nil, lx.errorf(e, 0, "unreadable ISO 8601 duration; expected a designator after %q (D before T; H, M, S after it)", s[j:e])
		}
		if prev != "" {
			r, ok := ratio(prev, u)
			if !ok {
				return nil, lx.errorf(j, e+1, "ISO 8601 parts out of order; expected the largest unit first (P1DT2H3M4S)")
			}
			if decimals > 0 {
				return nil, lx.errorf(q.NumStart, lastNumEnd, "a part of an ISO 8601 duration before the last has decimals; expected whole numbers before the last part")
			}
			total = total.Mul(r)
			parts[len(parts)-1].Sep = s[lastNumEnd:j]
		}
		total = total.Add(d.Value)
		parts = append(parts, Part{Unit: u, Width: intWidth(s[j:e]), Pad: padded(s[j:e])})
		if len(parts) == 1 {
			parts[0].Lead = s[i:j]
		}
		prev, lastNumEnd, decimals = u, e, d.Decimals
		j = e + 1
	}
	if len(parts) == 0 {
		return nil, lx.errorf(i, j, "an ISO 8601 duration with no part; expected PT1M30S")
	}
	q.Value, q.Unit, q.UnitWord, q.Decimals, q.NumEnd, q.Parts = total, prev, s[lastNumEnd:j], decimals, lastNumEnd, parts
	q.End = j
	return q, nil
}

// meridiems are the words before a 12-hour clock time.
var meridiems = []struct {
	word string
	pm   bool
}{{"오전", false}, {"오후", true}, {"午前", false}, {"午後", true}, {"AM", false}, {"PM", true}, {"am", false}, {"pm", true}}

// timeZones may follow a clock time: the value is the time of day as
// written, in that zone.
var timeZones = []string{"UTC", "GMT", "KST", "JST", "Z"}

// pow60 is 60^n.
func pow60(n int) int {
	p := 1
	for range n {
		p *= 60
	}
	return p
}

// dateLen returns the length of a date at s[i:] (2026-07-09, 2026/07/09,
// 2026.07.09, 2026年7月9日, 2026년 7월 9일), or 0.
func dateLen(s string, i int) int {
	// dateLitRe starts with four ASCII digits (\d is [0-9])
	if len(s)-i < 4 || !isASCIIDigit(s[i]) || !isASCIIDigit(s[i+1]) || !isASCIIDigit(s[i+2]) || !isASCIIDigit(s[i+3]) {
		return 0
	}
	if m := dateLitRe.FindStringIndex(s[i:]); m != nil {
		return m[1]
	}
	return 0
}

// dateLitRe is a date with a four-digit year.
var dateLitRe = regexp.MustCompile(`^\d{4}(?:[-/.]\d{1,2}[-/.]\d{1,2}|\s?[年년]\s?\d{1,2}\s?[月월](?:\s?\d{1,2}\s?[日일])?)`)

// clockAt reads a clock time whose hour digits q holds (q.NumEnd is
// their end): 14:03, 14:03:22 (hh:mm, hh:mm:ss) or 2시 3분, 14時3分,
// 오후 2시 3분, 午後2時3分. The value is seconds since midnight (unit
// ClockUnit), judged at the precision of the last part. It reports false
// when no clock time starts here.
func (lx *lexer) clockAt(q *Quantity) (int, bool, error) {
	s := lx.s
	k := q.NumEnd
	if q.Decimals > 0 || q.Sign != "" || !IsOne(q.Magnitude) {
		return 0, false, nil
	}
	hour := q.Value
	var parts []Part
	units := []string{"h", "min", "s"}
	colon := k+1 < len(s) && s[k] == ':' && unit.IsDigitAt(s, k+1)
	cjkHour := ""
	for _, w := range []string{"시", "時"} {
		if strings.HasPrefix(s[k:], w) && !strings.HasPrefix(s[k:], w+"간") && !strings.HasPrefix(s[k:], w+"間") {
			cjkHour = w
		}
	}
	if !colon && cjkHour == "" {
		return 0, false, nil
	}
	// a meridiem before the hour: 오후 2시, 午後2時, 2:03 PM is not read
	pm, mer := false, ""
	before := strings.TrimRightFunc(s[:q.Start], isSpace)
	for _, m := range meridiems {
		if strings.HasSuffix(before, m.word) && cjkHour != "" {
			pm, mer = m.pm, m.word
			q.Start = len(before) - len(m.word)
		}
	}
	if hour.GreaterThan(decimal.NewFromInt(24)) || mer != "" && hour.GreaterThan(decimal.NewFromInt(12)) {
		return 0, false, lx.errorf(q.NumStart, q.NumEnd, "hour %s of a clock time; expected 0–24 (0–12 after %s)", hour, strings.TrimSpace(mer+" "))
	}
	if pm && hour.LessThan(decimal.NewFromInt(12)) {
		hour = hour.Add(decimal.NewFromInt(12))
	}
	parts = append(parts, Part{Unit: "h", Width: intWidth(s[q.NumStart:q.NumEnd]), Pad: padded(s[q.NumStart:q.NumEnd])})
	total := hour
	lastNumEnd, decimals, word := q.NumEnd, 0, ""
	if cjkHour != "" {
		word = cjkHour
		k += len(cjkHour)
	}
	ko := cjkHour == "시"
	for n := 1; n < len(units); n++ {
		var j int
		if colon {
			if k+1 >= len(s) || s[k] != ':' || !unit.IsDigitAt(s, k+1) {
				break
			}
			j = k + 1
		} else {
			j = skipSpaces(s, k)
			if !oneSpaceAtMost(s, k, j) || !unit.IsDigitAt(s, j) {
				break
			}
		}
		d, err := unit.ScanDigits(s[j:], unit.Style{})
		if err != nil || d.Len == 0 {
			break
		}
		e := j + d.Len
		w := ""
		if !colon {
			ws := map[bool][]string{true: {"분", "초"}, false: {"分", "秒"}}[ko]
			w = ws[n-1]
			if !strings.HasPrefix(s[e:], w) {
				break
			}
		}
		if decimals > 0 {
			return 0, false, lx.errorf(q.NumStart, lastNumEnd, "a part of a clock time before the last has decimals; expected whole numbers before the last part")
		}
		if !d.Value.LessThan(decimal.NewFromInt(60)) {
			return 0, false, lx.errorf(j, e, "%s in a clock time; expected fewer than 60", s[j:e])
		}
		parts[len(parts)-1].Sep = s[lastNumEnd:j]
		parts = append(parts, Part{Unit: units[n], Width: intWidth(s[j:e]), Pad: colon || padded(s[j:e])}) // 14:05:05
		total = total.Mul(decimal.NewFromInt(60)).Add(d.Value)
		lastNumEnd, decimals, word = e, d.Decimals, w
		k = e + len(w)
	}
	if colon && len(parts) == 1 {
		return 0, false, nil
	}
	if colon {
		// 2:03 PM, 14:03:22 KST: a meridiem, then a time zone, after it
		if k2 := skipSpaces(s, k); oneSpaceAtMost(s, k, k2) && mer == "" {
			for _, m := range meridiems {
				if e := k2 + len(m.word); strings.HasPrefix(s[k2:], m.word) && scriptOf(rune(m.word[0])) == latin && (e == len(s) || scriptOf(rune(s[e])) != latin) {
					if hour.GreaterThan(decimal.NewFromInt(12)) || hour.IsZero() {
						return 0, false, lx.errorf(q.NumStart, q.NumEnd, "hour %s before %s; expected 1–12", hour, m.word)
					}
					if m.pm != hour.Equal(decimal.NewFromInt(12)) {
						if m.pm {
							total = total.Add(decimal.NewFromInt(12 * int64(pow60(len(parts)-1))))
						} else {
							total = total.Sub(decimal.NewFromInt(12 * int64(pow60(len(parts)-1))))
						}
					}
					mer, k = m.word, e
					parts[len(parts)-1].Sep, lastNumEnd = s[lastNumEnd:e], e // rewritten with the time
					break
				}
			}
		}
		if k2 := skipSpaces(s, k); oneSpaceAtMost(s, k, k2) {
			for _, z := range timeZones {
				if e := k2 + len(z); strings.HasPrefix(s[k2:], z) && (e == len(s) || scriptOf(rune(s[e])) != latin) {
					k = e // the time of day as written, in its zone
					break
				}
			}
		}
	}
	last := parts[len(parts)-1].Unit
	f, _ := unit.Factor(last, "s")
	if mer != "" && q.Start < q.NumStart {
		// 오후 2시: the meridiem is rewritten with the time
		parts[0].Lead, q.NumStart = s[q.Start:q.NumStart], q.Start
	}
	q.Value, q.Unit, q.UnitWord, q.Decimals, q.NumEnd, q.Parts = total.Mul(f), ClockUnit, word, decimals, lastNumEnd, parts
	q.Magnitude, q.Meridiem = f, mer
	return k, true, nil
}

// formatParts writes v (in q.Unit) in the parts of q: the digits of every
// part with the text between them, up to the last part's digits ("142h37"
// for 142h37m, "14:05" for 14:05), which replaces lit[q.NumStart:q.NumEnd].
func (q Quantity) formatParts(v decimal.Decimal) string {
	n := len(q.Parts)
	last := q.Parts[n-1].Unit
	from := q.Unit
	if from == ClockUnit {
		from = "s"
	}
	x, ok := unit.Convert(v, from, last)
	if !ok {
		return v.String()
	}
	if q.Unit == ClockUnit {
		// a clock shows the minute it is in: 14:03:52 is 14:03
		x = x.Truncate(int32(q.Decimals))
	} else {
		x = x.Round(int32(q.Decimals))
	}
	neg := x.IsNegative()
	x = x.Abs()
	var b strings.Builder
	if neg {
		b.WriteString(q.minus())
	} else if q.Delta {
		b.WriteString("+")
	}
	lead, trail := q.Parts[0].Lead, q.Parts[n-1].Sep
	for i, p := range q.Parts[:n-1] {
		r, _ := unit.Factor(p.Unit, last)
		d := x.Div(r).Truncate(0)
		x = x.Sub(d.Mul(r))
		if i == 0 {
			lead, trail, d = q.meridiemFor(lead, trail, d)
			b.WriteString(lead)
		}
		writePart(&b, d.String(), p)
		b.WriteString(p.Sep)
	}
	if n == 1 {
		var h decimal.Decimal
		lead, trail, h = q.meridiemFor(lead, trail, x)
		x = h
		b.WriteString(lead)
	}
	writePart(&b, x.StringFixed(int32(q.Decimals)), q.Parts[n-1])
	b.WriteString(trail)
	out := b.String()
	if q.FullWidth {
		out = toFullWidth.Replace(out)
	}
	return out
}

// writePart writes digits, padded with zeros to p's width when p was
// written with a leading zero.
func writePart(b *strings.Builder, digits string, p Part) {
	intLen := len(digits)
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		intLen = i
	}
	for ; p.Pad && intLen < p.Width; intLen++ {
		b.WriteByte('0')
	}
	b.WriteString(digits)
}

// meridiemPairs are the words of a 12-hour clock, before noon and after.
var meridiemPairs = [][2]string{{"오전", "오후"}, {"午前", "午後"}, {"AM", "PM"}, {"am", "pm"}}

// meridiemFor returns the text before the first part of a 12-hour clock
// time (lead: "오후 " of 오후 2시 3분), the text after its last (trail: " PM"
// of 2:03 PM) and its hour for hour (0–23), with the meridiem the hour
// needs in the words q was written with. A time of day of another kind
// returns them as they are. Written back, the result reads as the same
// hour: 오후 12시 is noon, 오전 0시 midnight (Korean, Japanese); 12 AM is
// midnight and 12 PM noon (English).
func (q Quantity) meridiemFor(lead, trail string, hour decimal.Decimal) (string, string, decimal.Decimal) {
	if q.Meridiem == "" || q.Unit != ClockUnit {
		return lead, trail, hour
	}
	h := hour.IntPart()
	pm := h >= 12
	word := q.Meridiem
	for _, mp := range meridiemPairs {
		if mp[0] == q.Meridiem || mp[1] == q.Meridiem {
			word = mp[btoi(pm)]
		}
	}
	latin := scriptOf(rune(word[0])) == latin
	switch {
	case latin && h%12 == 0:
		h = 12
	case latin || pm && h > 12:
		h %= 12
	}
	if strings.HasPrefix(lead, q.Meridiem) {
		lead = word + lead[len(q.Meridiem):]
	}
	if strings.HasSuffix(trail, q.Meridiem) {
		trail = trail[:len(trail)-len(q.Meridiem)] + word
	}
	return lead, trail, decimal.NewFromInt(h)
}

// ClockText writes the time of day v (seconds since midnight) as the
// clock time q is written, down to the second and at v's own decimals,
// with its meridiem: 14:03:52.713 for 14:03, 오후 2시 3분 52.713초 for
// 오후 2시 3분, 午後2時3分52秒 for 午後2時. It is how a message shows an
// evidence value next to such a claim; for any other quantity it returns
// "", false.
func (q Quantity) ClockText(v decimal.Decimal) (string, bool) {
	if q.Unit != ClockUnit || len(q.Parts) == 0 {
		return "", false
	}
	parts := append([]Part(nil), q.Parts...)
	words := []string{"", "", ""} // colon style: 14:03:52
	space := ""
	switch {
	case strings.HasPrefix(q.UnitWord, "시") || strings.HasPrefix(q.UnitWord, "분") || strings.HasPrefix(q.UnitWord, "초"):
		words, space = []string{"시", "분", "초"}, " "
	case q.UnitWord != "":
		words = []string{"時", "分", "秒"}
	}
	if len(parts) > 1 {
		space = strings.TrimPrefix(parts[0].Sep, words[0])
	}
	trail := parts[len(parts)-1].Sep // " PM" of 2:03 PM
	for len(parts) < 3 {
		i := len(parts)
		sep := ":"
		if words[0] != "" {
			sep = words[i-1] + space
		}
		parts[i-1].Sep = sep
		parts = append(parts, Part{Unit: []string{"h", "min", "s"}[i], Width: 2, Pad: words[0] == ""})
	}
	parts[2].Sep = trail
	c := q
	c.Parts, c.Decimals, c.UnitWord = parts, max(0, int(-v.Exponent())), words[2]
	return c.Format(v) + c.UnitWord, true
}

// isASCIIDigit reports whether b is 0–9.
func isASCIIDigit(b byte) bool { return '0' <= b && b <= '9' }
