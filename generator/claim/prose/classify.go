package prose

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// classify applies the exemption rules to the number src[a:b].
func classify(src []byte, a, b int, atHeadingStart bool) string {
	num := string(src[a:b])
	rest := string(src[a:min(len(src), a+24)])
	dots := 0
	for _, c := range num {
		if c == '.' {
			dots++
		}
	}
	// Look at the raw source around the number: goldmark may have split
	// the text into nodes at "_" or "/".
	var prev, prev2 byte
	if a > 0 {
		prev = src[a-1]
	}
	if a > 1 {
		prev2 = src[a-2]
	}
	prevRune, _ := utf8.DecodeLastRune(src[max(0, a-4):a])
	var next byte
	if b < len(src) {
		next = src[b]
	}
	switch {
	case dots == 3:
		return "ip"
	case ipv6Around(src, a, b):
		return "ip"
	case prev == '/' && (ipv4Re.Match(src[max(0, a-16):a-1]) || a >= 2 && ipv6Around(src, a-2, a-1)):
		return "ip" // CIDR prefix length, 10.0.0.0/8, 2001:db8::/32
	case (next == 'e' || next == 'E') && b+1 < len(src) && (isDigitByte(src[b+1]) || (src[b+1] == '+' || src[b+1] == '-') && b+2 < len(src) && isDigitByte(src[b+2])):
		return "" // 1e3 is a number, not an identifier
	case dots >= 2 || prev == 'v' || prev == 'V':
		return "version"
	case dateRe.MatchString(rest) || cjkDateRe.MatchString(rest):
		return "date"
	case isASCIILetter(prev) || isASCIILetter(next) && !gluedQuantity(src, a, b):
		return "identifier"
	case (prev == '-' || prev == '/') && isASCIILetter(prev2):
		return "identifier" // D-1, HTTP/2
	case prevRune == '§' || prevRune == '#' || prevRune == '第' || prevRune == '제':
		return "numbering"
	case atHeadingStart && (next == '.' || next == ')'):
		return "numbering"
	case prev == ':' && a >= 2 && (isASCIILetter(src[a-2]) || src[a-2] >= '0' && src[a-2] <= '9' || src[a-2] == ']'):
		return "port"
	case statusCode(src, a, b):
		return "status"
	}
	return ""
}

// statusBefore and statusAfter are the words that make a three-digit
// number next to them an HTTP status code: "HTTP 503", "status 200",
// "응답 코드 503", "ステータス503", "503 응답", "200 OK", "503エラー".
var (
	statusBefore = []string{"HTTP", "http", "status", "Status", "code", "Code", "코드", "응답", "상태", "ステータス", "コード", "応答", "レスポンス"}
	statusAfter  = []string{"OK", "응답", "에러", "오류", "코드", "상태", "エラー", "応答", "レスポンス", "ステータス", "error", "Error", "response", "status",
		"Service", "Gateway", "Not Found", "Bad", "Internal", "Too Many", "Unavailable", "Forbidden", "Unauthorized"}
)

// codeBefore are the words after which 0 is a status code: Envoy and
// Istio log response code 0 when no response was sent (a downstream
// reset), and authors name it "응답 코드 0", "応答コード0", "response
// code 0", "status 0", "HTTP 0". 응답, 応答 and レスポンス alone are not
// among them: "응답 0" may count responses.
var codeBefore = []string{"HTTP", "http", "status", "Status", "code", "Code", "코드", "ステータス", "コード"}

// statusCode reports whether src[a:b] is an HTTP status code: a
// three-digit integer 100–599 with a status word right before it
// (spaces, ":" or "=" between) or right after it (after optional spaces),
// or 0 right after a code word (codeBefore), and no unit or counter
// after it ("응답 200건" counts responses). A status code is an
// identifier, like a port: it needs no evidence.
func statusCode(src []byte, a, b int) bool {
	zero := b-a == 1 && src[a] == '0'
	if !zero && (b-a != 3 || src[a] < '1' || src[a] > '5') {
		return false
	}
	rest := strings.TrimLeft(string(src[b:min(len(src), b+32)]), " ")
	if w, _ := unit.Prefix(rest); w != "" && b < len(src) && src[b] != ' ' {
		return false
	}
	if w, u := unit.Prefix(rest); w != "" && u.Dim != unit.Plain && !hasAnyPrefix(rest, statusAfter) {
		return false
	}
	before := strings.TrimRight(string(src[max(0, a-32):a]), " :=")
	if zero {
		return hasAnySuffix(before, codeBefore)
	}
	for _, w := range statusBefore {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return hasAnyPrefix(rest, statusAfter)
}

func hasAnySuffix(s string, words []string) bool {
	for _, w := range words {
		if strings.HasSuffix(s, w) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// ipv6Around reports whether src[a:b] sits in an IPv6 address: the run of
// hex digits and colons around it holds "::" or at least two colons.
func ipv6Around(src []byte, a, b int) bool {
	isHexColon := func(c byte) bool {
		return isDigitByte(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':'
	}
	i, j := a, b
	for i > 0 && isHexColon(src[i-1]) {
		i--
	}
	for j < len(src) && isHexColon(src[j]) {
		j++
	}
	run := string(src[i:j])
	return strings.Contains(run, "::") || strings.Count(run, ":") >= 2 && !timeRe.MatchString(run)
}

// gluedQuantity reports whether the number src[a:b], with ASCII letters
// right after it and none before, is a quantity rather than part of a
// name. It is a quantity when
//
//   - the number has a decimal fraction or digit groups (1.2k, 1.5Gbps,
//     1,000rps): names are written with whole numbers;
//   - the letters are a unit spelling package unit knows (40ms, 3sec,
//     4GiB, 5cores, 2x), a measure word of measureWords (60fps, 40dB), or
//     either after an SI or binary multiplier k K M G T (10k, 3M, 1Gbps,
//     2kHz);
//   - the letters are followed by /s, /sec, /초 or /秒 (5req/s, 3msg/sec):
//     a rate of anything.
//
// The whole numbers of nameShapes stay names although their letters are
// a multiplier (4K, 5G), and so do the other letters (2FA, 3DES, 3rd,
// 64bit). A number after letters (p99, L7, h2, x86) is a name before
// gluedQuantity is asked.
func gluedQuantity(src []byte, a, b int) bool {
	e := b
	for e < len(src) && isASCIILetter(src[e]) && src[e] != '_' {
		e++
	}
	word := string(src[b:e])
	if word == "" && b+1 < len(src) && src[b] == '_' && isDigitByte(src[b+1]) {
		return true // 1_0000: digits grouped, not in threes
	}
	if e < len(src) && src[e] == '/' && hasAnyPrefix(string(src[e+1:min(len(src), e+8)]), []string{"s", "sec", "초", "秒"}) {
		rest := src[e+1:]
		w := 1
		if bytes.HasPrefix(rest, []byte("sec")) {
			w = 3
		} else if !bytes.HasPrefix(rest, []byte("s")) {
			w = 0 // 초 or 秒: a non-letter follows by itself
		}
		if w == 0 || len(rest) == w || !isASCIILetter(rest[w]) {
			return true
		}
	}
	for _, c := range src[a:b] {
		if c == '.' || c == ',' || c == '_' {
			return true
		}
	}
	if nameShapes[string(src[a:b])+word] {
		return false
	}
	return measureLetters(word)
}

// measureLetters reports whether word, the ASCII letters glued after a
// number, measures it: a unit spelling or measure word, alone or after
// one multiplier letter, or the multiplier letter alone.
func measureLetters(word string) bool {
	if word == "" {
		return false
	}
	if _, ok := unit.Lookup(word); ok || measureWords[word] {
		return true
	}
	if !strings.ContainsRune("kKMGT", rune(word[0])) {
		return false
	}
	if len(word) == 1 {
		return true // 10k, 3M
	}
	_, ok := unit.Lookup(word[1:])
	return ok || measureWords[word[1:]]
}

// GluedMultiplier returns the power of ten of the SI multiplier letter
// (k and K 3, M 6, G 9, T 12) that word, the ASCII letters glued right
// after the number num, starts with, when gluedQuantity reads it as one:
// the letter alone (10k, 3M) or before a unit or measure word (1.5Gbps).
// It returns 0 for other letters and for the names of nameShapes (4K, 5G).
// The translation checks scale the number by it (10k = 10,000 = 1만).
func GluedMultiplier(num, word string) int {
	if word == "" || nameShapes[num+word] {
		return 0
	}
	var exp int
	switch word[0] {
	case 'k', 'K':
		exp = 3
	case 'M':
		exp = 6
	case 'G':
		exp = 9
	case 'T':
		exp = 12
	default:
		return 0
	}
	if len(word) > 1 {
		if _, ok := unit.Lookup(word); ok {
			return 0 // a unit of its own (KB, MiB, Gi): no multiplier
		}
		if _, ok := unit.Lookup(word[1:]); !ok && !measureWords[word[1:]] {
			return 0
		}
	}
	return exp
}

// measureWords are the units of measurement written glued to a number
// that the claim grammar does not read (a claim cannot quote them) but
// that make a prose number a quantity: frames, decibels, bits, hertz,
// operations, packets and revolutions (per second or minute), watts,
// volts.
var measureWords = map[string]bool{
	"fps": true, "dB": true, "dBm": true, "bps": true, "Bps": true, "bit/s": true,
	"Hz": true, "ops": true, "iops": true, "IOPS": true, "tps": true, "TPS": true,
	"pps": true, "rpm": true, "QPS": true, "RPS": true, "W": true, "Wh": true, "V": true,
}

// nameShapes are the whole numbers glued to letters that are names of
// things, not quantities, although their letters are a multiplier: mobile
// network generations (2G … 6G) and display resolutions (2K, 4K, 5K, 8K).
var nameShapes = map[string]bool{
	"2G": true, "3G": true, "4G": true, "5G": true, "6G": true,
	"2K": true, "4K": true, "5K": true, "8K": true,
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// NumeralMark returns the value of a circled, parenthesized, full-stop,
// dingbat or Roman numeral (① ⑴ ⒈ ⓫ ❶ ➀ ➊ ㉑ ㊱ Ⅰ ⅰ): a mark that numbers
// an item, not a measurement.
func NumeralMark(r rune) (int, bool) {
	for _, b := range []struct {
		lo, hi rune
		from   int
	}{
		{0x2460, 0x2473, 1}, {0x2474, 0x2487, 1}, {0x2488, 0x249B, 1}, {0x24EA, 0x24EA, 0}, {0x24EB, 0x24F4, 11},
		{0x24F5, 0x24FE, 1}, {0x24FF, 0x24FF, 0}, {0x2776, 0x277F, 1}, {0x2780, 0x2789, 1}, {0x278A, 0x2793, 1},
		{0x3251, 0x325F, 21}, {0x32B1, 0x32BF, 36}, {0x2160, 0x216B, 1}, {0x2170, 0x217B, 1},
	} {
		if r >= b.lo && r <= b.hi {
			return b.from + int(r-b.lo), true
		}
	}
	return 0, false
}

// isScript reports whether r is a superscript or subscript digit.
func isScript(r rune) bool {
	return r == '¹' || r == '²' || r == '³' || r >= '⁰' && r <= '⁹' || r >= '₀' && r <= '₉'
}

// symbolRule classifies a numeric symbol proseNumber matched alone at
// src[a:] (r, of unicode.No or Nl, not a vulgar fraction): a numeral
// mark (③, Ⅻ) numbers an item ("numbering"); a superscript or subscript
// after an ASCII letter is part of a unit or a name (m², H₂O:
// "identifier"), after anything else a footnote mark ("numbering"); any
// other symbol ("" : bound to no evidence) must be written as a claim
// or an exemption marker, so no number is invisible. ok is false for
// 〇, the Han zero, a number word read as the others (一, 二) are.
func symbolRule(src []byte, a int, r rune) (rule string, ok bool) {
	switch {
	case r == '〇':
		return "", false
	case isScript(r):
		if a > 0 && isASCIILetter(src[a-1]) && src[a-1] != '_' {
			return "identifier", true
		}
		return "numbering", true
	}
	if _, mark := NumeralMark(r); mark {
		return "numbering", true
	}
	return "", true
}

// isFractionRune reports whether r is a vulgar fraction: ¼ ½ ¾, ⅐ … ⅞,
// ↉ (unicode.No characters with a numeric value below one).
func isFractionRune(r rune) bool {
	return r >= '¼' && r <= '¾' || r >= '⅐' && r <= '⅞' || r == '↉'
}
