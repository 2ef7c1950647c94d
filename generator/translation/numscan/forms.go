package numscan

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// signBefore reads a sign written right before the digits at norm[i]
// (and after lastEnd, where the previous number ended): +, - or −, Δ
// (with or without a sign after it), ± and △, ▼ or ▲. It returns where
// the number starts with its sign and the sign: "+" for a difference (+,
// Δ, ±), "-" for a minus (-, −, △, ▼: a Japanese or Korean reader reads
// △5 as −5). ▲ says the opposite in the two languages: a rise to a
// Korean reader (▲5 is +5), a minus in Japanese accounts (▲5 is −5); in
// a page of lang it is read so, in text of no known language it is the
// sign "▲", equal only to itself. A "-" after a digit or a letter is a
// range dash or part of a name, not a sign.
func signBefore(norm string, i, lastEnd int, lang string) (int, string) {
	start, sign := i, ""
	if i > lastEnd {
		r, n := utf8.DecodeLastRuneInString(norm[lastEnd:i])
		switch r {
		case '+', '±':
			start, sign = i-n, "+"
		case '-', '−':
			start, sign = i-n, "-"
		case 'Δ':
			return i - n, "+"
		case '△', '▼':
			return i - n, "-"
		case '▲':
			return i - n, triangleUp(lang)
		}
	}
	if sign == "" {
		return i, ""
	}
	if start > lastEnd {
		r, n := utf8.DecodeLastRuneInString(norm[lastEnd:start])
		switch {
		case r == 'Δ':
			return start - n, sign
		case r < utf8.RuneSelf && (isASCIIAlnum(byte(r)) || strings.ContainsRune(".,)]%/:~", r)):
			return i, "" // 5-10, D-1, (3)-2: not a sign
		}
	} else if start == lastEnd && lastEnd > 0 {
		return i, "" // right after the previous number: 5-10
	}
	return start, sign
}

// triangleUp is the sign ▲ before a number gives it in a page of lang:
// "+" in Korean (a rise), "-" in Japanese (a minus in accounts), "▲"
// where the language is not known.
func triangleUp(lang string) string {
	switch {
	case strings.HasPrefix(lang, "ko"):
		return "+"
	case strings.HasPrefix(lang, "ja"):
		return "-"
	}
	return "▲"
}

// versionWordBefore reports whether text (between the previous number
// and this one) ends with a version word: 버전 1.8.7, バージョン1.8.7,
// version 1.8.7, ver. 1.8.
func versionWordBefore(text string) bool {
	t := strings.TrimRight(text, " ")
	for _, w := range []string{"버전", "バージョン", "version", "Version", "ver.", "Ver."} {
		if strings.HasSuffix(t, w) {
			return true
		}
	}
	return false
}

// isoDuration reads an ISO 8601 duration (PT1M30S) as seconds.
func isoDuration(s string) (decimal.Decimal, bool) {
	m := isoDurationRe.FindStringSubmatch(s)
	if m == nil || len(s) < 3 {
		return decimal.Decimal{}, false
	}
	total := decimal.Zero
	for i, f := range []int64{86400, 3600, 60, 1} {
		if p := m[i+1]; p != "" {
			v, err := decimal.NewFromString(p)
			if err != nil {
				return decimal.Decimal{}, false
			}
			total = total.Add(v.Mul(decimal.NewFromInt(f)))
		}
	}
	return total, true
}

// clockPrefix returns where a clock time written with words starts (at
// a 오전/오후/午前/午後 before its digits, after lastEnd) and the hours
// that word adds (12 for the afternoon).
func clockPrefix(norm string, i, lastEnd int) (int, int) {
	before := norm[lastEnd:i]
	t := strings.TrimRight(before, " ")
	for _, w := range []struct {
		word string
		pm   int
	}{{"오후", 12}, {"午後", 12}, {"오전", 0}, {"午前", 0}} {
		if strings.HasSuffix(t, w.word) {
			return lastEnd + len(t) - len(w.word), w.pm
		}
	}
	return i, 0
}

// clockKey is the normal form of a clock time: hours (plus pm, for an
// afternoon hour before 12) and minutes in two digits, and seconds when
// written: "14:03", "09:05:07".
func clockKey(h, m, sec string, pm int) string {
	hh, _ := strconv.Atoi(h)
	if hh < 12 {
		hh += pm
	}
	if m == "" {
		m = "0"
	}
	key := pad2(strconv.Itoa(hh)) + ":" + pad2(m)
	if sec != "" {
		key += ":" + pad2(sec)
	}
	return key
}

// mayBeDateLike reports whether the digits at norm[i:] can start an IP
// address, a date, a clock time or a version (ipRe, isoDateRe, cjkDateRe,
// clockRe, versionRe): each needs the digit run followed by ".", "-",
// "/" or ":", or, for a CJK date, a run of 1, 2 or 4 digits followed by
// blanks and 年, 년, 月 or 월. Most numbers are neither, and skip the
// five regular expressions.
func mayBeDateLike(norm string, i int) bool {
	j := i
	for j < len(norm) && norm[j] >= '0' && norm[j] <= '9' {
		j++
	}
	if j < len(norm) {
		switch norm[j] {
		case '.':
			// an IP address, a version or a date with "." needs a
			// second separator after the next digits ("40.5" is none)
			k := j + 1
			for k < len(norm) && norm[k] >= '0' && norm[k] <= '9' {
				k++
			}
			return k > j+1 && k < len(norm) && (norm[k] == '.' || norm[k] == '-' || norm[k] == '/')
		case '-', '/', ':':
			return true
		}
	}
	if n := j - i; n > 2 && n != 4 {
		return false
	}
	for j < len(norm) && (norm[j] == ' ' || norm[j] == '\t' || norm[j] == '\n' || norm[j] == '\f' || norm[j] == '\r') {
		j++
	}
	r := norm[j:]
	return strings.HasPrefix(r, "年") || strings.HasPrefix(r, "년") || strings.HasPrefix(r, "月") || strings.HasPrefix(r, "월")
}

// dateForms tells which of ipRe, isoDateRe, cjkDateRe, clockRe and
// versionRe may match at a run of digits: false where its digit count
// or the separator after the run rules it out.
type dateForms struct{ ip, isoDate, cjkDate, clock, version bool }

// dateFormsAt returns the dateForms of the run of digits at norm[i:]:
// ipRe needs 1 to 3 digits and "."; isoDateRe 4 and "-", "/" or ".";
// clockRe 1 or 2 and ":"; versionRe "." (the v it allows is not a
// digit); cjkDateRe 1, 2 or 4 and, after blanks (\s), 年, 년, 月 or 월.
// Each expression starts with its digits and \d is ASCII, so none
// can match where its form is false (FuzzDateForms).
func dateFormsAt(norm string, i int) dateForms {
	j := i
	for j < len(norm) && norm[j] >= '0' && norm[j] <= '9' {
		j++
	}
	n := j - i
	var c byte
	if j < len(norm) {
		c = norm[j]
	}
	f := dateForms{
		ip:      n >= 1 && n <= 3 && c == '.',
		isoDate: n == 4 && (c == '-' || c == '/' || c == '.'),
		clock:   n >= 1 && n <= 2 && c == ':',
		version: n >= 1 && c == '.',
	}
	if n >= 1 && n <= 2 || n == 4 {
		for j < len(norm) && (norm[j] == ' ' || norm[j] == '\t' || norm[j] == '\n' || norm[j] == '\f' || norm[j] == '\r') {
			j++
		}
		r := norm[j:]
		f.cjkDate = strings.HasPrefix(r, "年") || strings.HasPrefix(r, "년") || strings.HasPrefix(r, "月") || strings.HasPrefix(r, "월")
	}
	return f
}

// findIf is re.FindString(s) when may is true, else "".
func findIf(may bool, re *regexp.Regexp, s string) string {
	if !may {
		return ""
	}
	return re.FindString(s)
}

// findSubmatchIf is re.FindStringSubmatch(s) when may is true, else nil.
func findSubmatchIf(may bool, re *regexp.Regexp, s string) []string {
	if !may {
		return nil
	}
	return re.FindStringSubmatch(s)
}

// zeroWord returns the length of a word for zero (ゼロ) at the start
// of s, or 0: "호스트 0개" translates as "ホストがゼロ".
func zeroWord(s string) int {
	if len(s) > 0 && s[0] == zeroText[0] && strings.HasPrefix(s, zeroText) {
		return len(zeroText)
	}
	return 0
}

// zeroText is the word for zero zeroWord reads.
const zeroText = "ゼロ"

func isASCIILetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func pad2(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}

// clockWordAt is clockWordRe.FindStringSubmatch(rest), rest starting
// with a digit: the expression runs only where its one or two digits are
// followed by 시 or 時, with a space between or none (most numbers are
// not an hour: TestRegexpPrefilters).
func clockWordAt(rest string) []string {
	j := 0
	for j < len(rest) && j < 2 && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j < len(rest) && rest[j] == ' ' {
		j++
	}
	if j == 0 || !strings.HasPrefix(rest[j:], "시") && !strings.HasPrefix(rest[j:], "時") {
		return nil
	}
	return clockWordRe.FindStringSubmatch(rest)
}

// goDurationAt is goDurationRe.FindString(rest), rest starting with a
// digit: the expression runs only where the number (its digits, a point
// and digits) is followed by the first byte of one of its units (h, m,
// u, n, s, µ, μ).
func goDurationAt(rest string) string {
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j+1 < len(rest) && rest[j] == '.' && rest[j+1] >= '0' && rest[j+1] <= '9' {
		j++
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
	}
	if j == 0 || j >= len(rest) {
		return ""
	}
	switch rest[j] {
	case 'h', 'm', 'u', 'n', 's', 0xC2, 0xCE: // µ is C2 B5, μ CE BC
		return goDurationRe.FindString(rest)
	}
	return ""
}
