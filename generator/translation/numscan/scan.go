package numscan

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/shopspring/decimal"
)

// ScanNumbers reads the numbers of text (plain text: no Markdown) as
// typed tokens. Full-width digits, thousands separators and magnitude
// words (1万2000, 1만 2천, 1.2만) are read as one number; so are compound
// durations (1분 30초, 1分30秒, 1m30s, PT1M30S) and clock times written
// with words (오후 2시 3분, 14時3分). Number words are read where the
// claim grammar reads them, with a counter or a unit (두 번, 二回, 三つ,
// ふたつ, 세 시간). A sign before the digits is kept (+1, −5, Δ0, △0).
// "5" never matches inside "15".
func ScanNumbers(text string) []Number { return ScanLang(text, "") }

// ScanLang is ScanNumbers for a page in language lang, which decides
// what ▲ before a number says (see signBefore).
func ScanLang(text, lang string) []Number {
	// offsets in norm are offsets in text unless full-width characters
	// (or invalid UTF-8) were mapped
	norm, back := text, []int(nil)
	if hasFullWidth(text) || !utf8.ValidString(text) {
		norm, back = NormalizeText(text)
	}
	at := func(i int) int {
		if back == nil {
			return i
		}
		return back[i]
	}
	var out []Number
	// emit adds n, read at norm[start:end], qualified by the words around it
	emit := func(n Number, start, end int, qualifyIt bool) {
		if qualifyIt {
			qualify(&n, norm, start, end)
		} else {
			n.Key = n.Kind + ":" + n.Key
		}
		n.Start, n.End = at(start), at(end)
		n.Text = text[n.Start:n.End]
		out = append(out, n)
	}
	lastEnd := 0
	for i := 0; i < len(norm); {
		if c := norm[i]; (c < '0' || c > '9') && c != zeroText[0] {
			if symbolLead(norm, i) {
				if n, w := symbolAt(norm, i); w > 0 {
					emit(n, i, i+w, n.Kind == "number")
					i += w
					lastEnd = i
					continue
				}
			}
			i++ // neither a digit nor the start of ゼロ: nothing starts here
			continue
		}
		if w := zeroWord(norm[i:]); w > 0 {
			emit(Number{Kind: "number", Value: decimal.Zero}, i, i+w, true)
			i += w
			lastEnd = i
			continue
		}
		c := norm[i]
		if c < '0' || c > '9' {
			i++
			continue
		}
		// part of a name (p99, L7, MID1, HTTP/2, D-1), a version after v
		// (v1.8.7) or an ISO 8601 duration (PT1M30S)?
		if i > 0 && (isASCIIAlnum(norm[i-1]) || (norm[i-1] == '-' || norm[i-1] == '/') && i > 1 && isASCIILetterByte(norm[i-2])) {
			if (norm[i-1] == 'v' || norm[i-1] == 'V') && (i == 1 || !isASCIIAlnum(norm[i-2])) {
				if m := shortVersionRe.FindString(norm[i:]); m != "" {
					emit(Number{Kind: "version", Key: m}, i-1, i+len(m), false)
					i += len(m)
					lastEnd = i
					continue
				}
			}
			j := i
			for j < len(norm) && isASCIIAlnum(norm[j]) {
				j++
			}
			k := i
			for k > lastEnd && (isASCIIAlnum(norm[k-1]) || (norm[k-1] == '-' || norm[k-1] == '/') && k > 1 && isASCIIAlnum(norm[k-2])) {
				k--
			}
			if v, ok := isoDuration(norm[k:j]); ok {
				emit(Number{Kind: "number", Value: v, Unit: "s"}, k, j, true)
			} else {
				emit(Number{Kind: "id", Key: strings.ToLower(norm[k:j])}, k, j, false)
			}
			i = j
			lastEnd = i
			continue
		}
		rest := norm[i:]
		if vw := versionWordBefore(norm[lastEnd:i]); vw {
			if m := shortVersionRe.FindString(rest); m != "" {
				emit(Number{Kind: "version", Key: m}, i, i+len(m), false)
				i += len(m)
				lastEnd = i
				continue
			}
		}
		if mayBeDateLike(norm, i) {
			// each expression is tried only where its digits and
			// separator stand (dateFormsAt)
			f := dateFormsAt(norm, i)
			if m := findIf(f.ip, ipRe, rest); m != "" {
				emit(Number{Kind: "ip", Key: m}, i, i+len(m), false)
				i += len(m)
				lastEnd = i
				continue
			}
			if m := findSubmatchIf(f.isoDate, isoDateRe, rest); m != nil {
				emit(Number{Kind: "date", Key: m[1] + "-" + pad2(m[2]) + "-" + pad2(m[3])}, i, i+len(m[0]), false)
				i += len(m[0])
				lastEnd = i
				continue
			}
			if m := findSubmatchIf(f.cjkDate, cjkDateRe, rest); m != nil && (m[1] != "" || m[3] != "") {
				emit(Number{Kind: "date", Key: m[1] + "-" + pad2(m[2]) + "-" + pad2(m[3])}, i, i+len(m[0]), false)
				i += len(m[0])
				lastEnd = i
				continue
			}
			if m := findSubmatchIf(f.clock, clockRe, rest); m != nil {
				emit(Number{Kind: "time", Key: clockKey(m[1], m[2], m[3], 0)}, i, i+len(m[0]), false)
				i += len(m[0])
				lastEnd = i
				continue
			}
			if m := findIf(f.version, versionRe, rest); m != "" {
				emit(Number{Kind: "version", Key: strings.TrimPrefix(m, "v")}, i, i+len(m), false)
				i += len(m)
				lastEnd = i
				continue
			}
		}
		if m := clockWordAt(rest); m != nil && !strings.HasPrefix(rest[len(m[0]):], "간") && !strings.HasPrefix(rest[len(m[0]):], "間") {
			// 2시 3분 (not 2시간), after 오전/오후, 午前/午後
			start, pm := clockPrefix(norm, i, lastEnd)
			emit(Number{Kind: "time", Key: clockKey(m[1], m[2], m[3], pm)}, start, i+len(m[0]), false)
			i += len(m[0])
			lastEnd = i
			continue
		}
		if m := goDurationAt(rest); m != "" && (len(m) == len(rest) || !isASCIIAlnum(rest[len(m)])) {
			if d, err := time.ParseDuration(strings.ReplaceAll(m, "μ", "µ")); err == nil {
				start, sign := signBefore(norm, i, lastEnd, lang)
				n := Number{Kind: "number", Value: decimal.New(d.Nanoseconds(), -9), Unit: "s", Sign: sign}
				if sign == "-" {
					n.Value = n.Value.Neg()
				}
				emit(n, start, i+len(m), true)
				i += len(m)
				lastEnd = i
				continue
			}
		}
		n, end, scale := readQuantity(norm, i)
		lowerEndUnit(norm, end, &n)
		if n.Unit == "" && end < len(norm) && isASCIILetterByte(norm[end]) {
			// 10k, 3M, 1.5Gbps: a multiplier letter scales the number, as
			// coverage reads it (10k = 10,000 = 1만); 4K and 5G are names
			w := end
			for w < len(norm) && isASCIILetterByte(norm[w]) {
				w++
			}
			if exp := prose.GluedMultiplier(norm[i:end], norm[end:w]); exp > 0 {
				n.Value = n.Value.Shift(int32(exp))
				end++
			}
		}
		// a compound duration: 1분 30초, 1分30秒, 2시간 5분 (each part in
		// a smaller unit than the one before, at most one space between)
		for n.Unit == "s" && n.Approx == literal.Exact && scale.Sign() > 0 {
			k := end
			if k < len(norm) && norm[k] == ' ' {
				k++
			}
			if k >= len(norm) || norm[k] < '0' || norm[k] > '9' {
				break
			}
			m, mend, mscale := readQuantity(norm, k)
			if m.Unit != "s" || !mscale.LessThan(scale) || m.Approx != literal.Exact {
				break
			}
			n.Value, end, scale = n.Value.Add(m.Value), mend, mscale
		}
		start, sign := signBefore(norm, i, lastEnd, lang)
		n.Sign = sign
		if sign == "-" {
			n.Value = n.Value.Neg()
		}
		emit(n, start, end, true)
		i = end
		lastEnd = i
	}
	return addWordNumbers(out, text, norm, at)
}
