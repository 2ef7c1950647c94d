package numscan

import (
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// TestNumberPairs is the table of ko/ja (and English) number pairs that
// parity relies on: each must agree, disagree, or agree with a warning.
func TestNumberPairs(t *testing.T) {
	for _, tc := range []struct {
		ko, ja string
		want   Verdict
	}{
		// plain values and grouping
		{"12,000", "12000", Agree},
		{"12,000", "1万2000", Agree},
		{"1만 2천", "12,000", Agree},
		{"1만2000", "1万2000", Agree},
		{"1.2만", "12,000", Agree},
		{"3억", "3億", Agree},
		{"12000", "１２０００", Agree},
		{"１２,０００", "12,000", Agree},
		{"5", "15", Disagree},
		{"15", "5", Disagree},
		{"1,250", "1250", Agree},
		{"1,250", "125", Disagree},
		{"0.21%", "0.21％", Agree},
		{"51.7%", "51.7%", Agree},
		{"51.7%", "51.6%", Disagree},
		{"86/86", "86/86", Agree},
		{"86개 중 86개", "86件中86件", Agree},
		{"86/86", "85/86", Disagree},
		// a multiplier letter scales the number; 4K and 5G are names
		{"10k", "1万", Agree},
		{"10k", "10M", Disagree},
		{"1.2k", "1,200", Agree},
		{"1.5Gbps", "1.5Gbps", Agree},
		{"1.5Gbps", "1.5Mbps", Disagree},
		{"3M", "300万", Agree},
		{"1_000", "1,000", Agree},
		{"1_000", "1_500", Disagree},
		// units
		{"40초", "40秒", Agree},
		{"40초", "40 s", Agree},
		{"40초", "40000ms", Agree},
		{"40초", "40分", Disagree},
		{"t=0", "0秒", Agree},
		{"40", "40秒", Agree},
		{"40000", "40秒", Disagree},
		{"2분", "120秒", Agree},
		{"1시간", "60分", Agree},
		{"19.2ms", "19.2ミリ秒", Agree},
		{"19.2ms", "12.4ms", Disagree},
		{"100Mi", "100Mi", Agree},
		{"1KB", "1,000バイト", Agree},
		{"1KiB", "1KB", Disagree},
		{"3배", "3倍", Agree},
		{"3배", "3x", Agree},
		{"3배", "3%", Disagree},
		{"초당 1,250", "毎秒1,250", Agree},
		{"초당 1,250건", "1,250 rps", Agree},
		{"1,250 rps", "毎秒1250件", Agree},
		{"44%", "44%p", Disagree},
		// 割/分/厘 are tenths, hundredths, thousandths: a percentage
		{"30%", "3割", Agree},
		{"약 30%", "約3割", Agree},
		{"35%", "3割5分", Agree},
		{"35.2%", "3割5分2厘", Agree},
		{"3%", "3割", Disagree},
		{"30%", "4割", Disagree},
		{"2%p", "2ポイント", Agree},
		// counting words agree with bare numbers
		{"3단계", "3つ", Agree},
		{"3회", "3回", Agree},
		{"3회", "3", Agree},
		{"2건", "2件", Agree},
		{"7개", "7個", Agree},
		// comparators
		{"최대 3", "3まで", Agree},
		{"최대 3", "at most 3", Agree},
		{"3まで", "up to 3", Agree},
		{"3 이상", "3以上", Agree},
		{"3 이상", "3未満", Disagree},
		{"3 이하", "3以下", Agree},
		{"2회 이하", "2回以上", Disagree},
		{"최대 3단계", "2つ以上", Disagree},
		{"최대 3단계", "3段階まで", Agree},
		{"3 미만", "3未満", Agree},
		{"3 초과", "3超", Agree},
		{"3 초과", "3以上", Disagree},
		{"최소 2", "少なくとも2", Agree},
		{"최소 2", "at least 2", Agree},
		{"3", "3以上", Disagree},
		{"5초 이내", "5秒以内", Agree},
		{"10초까지", "10秒まで", Agree},
		// 최소/最小 and 최대/最大 before a number read alike in both
		// languages (the claim grammar's comparators), noun or bound
		{"최소 5.1ms", "最小5.1ms", Agree},
		{"(최소 5.1ms)", "（最小5.1ms）", Agree},
		{"최대 6.3ms", "最大6.3ms", Agree},
		{"최소 5.1ms", "最大5.1ms", Disagree},
		{"최솟값은 5.1ms", "最小5.1ms", Agree},
		{"최소는 5.1ms", "最小値は5.1ms", Agree},
		{"최소 5.1ms", "5.1ms", Disagree},
		{"최대 처리량은 300", "最大スループットは300", Agree},
		// ≒ is an approximation sign
		{"약 40초", "≒40秒", Agree},
		{"40초", "≒40秒", Warn},
		{"≒40초", "≒41秒", Disagree},
		// an exponent is part of its number; a vulgar fraction is a number
		{"10²", "100", Agree},
		{"10^2", "10²", Agree},
		{"10³", "100", Disagree},
		{"10⁻³", "0.001", Agree},
		{"10^-3", "10⁻³", Agree},
		{"2^10", "1024", Agree},
		{"½", "0.5", Agree},
		{"1½", "1.5", Agree},
		{"½", "¼", Disagree},
		// circled and Roman numerals are marks compared by their value
		{"③", "③", Agree},
		{"③", "⑶", Agree},
		{"③", "②", Disagree},
		{"Ⅲ", "③", Agree},
		// approximations
		{"약 40초", "40秒", Warn},
		{"약 40초", "約40秒", Agree},
		{"40초 정도", "40秒ほど", Agree},
		{"대략 40초", "およそ40秒", Agree},
		{"약 40초", "about 40 s", Agree},
		{"40초", "40秒程度", Warn},
		{"~40초", "約40秒", Agree},
		{"약 40초", "約41秒", Disagree},
		// ranges are two numbers, not an approximation
		{"5~10초", "5〜10秒", Agree},
		{"5~10초", "5～10秒", Agree},
		{"5~10초", "5〜15秒", Disagree},
		// transitions
		{"51.7%→0.21%", "51.7%→0.21%", Agree},
		{"51.7%에서 0.21%로", "51.7%から0.21%に", Agree},
		{"17→18", "17→19", Disagree},
		// dates, versions, names
		{"2026-07-09", "2026年7月9日", Agree},
		{"2026년 7월 9일", "2026-07-09", Agree},
		{"2026-07-09", "2026年7月10日", Disagree},
		{"Istio 1.30.0", "Istio 1.30.0", Agree},
		{"1.30.0", "1.29.0", Disagree},
		{"p99", "p99", Agree},
		{"p99", "p50", Disagree},
		{"HTTP/2", "HTTP/2", Agree},
		{"10.0.0.1", "10.0.0.1", Agree},
		{"10.0.0.1", "10.0.0.2", Disagree},
		{"12:30", "12:30", Agree},
		// compound durations, clock times, versions
		{"1분 30초", "90秒", Agree},
		{"1分30秒", "1m30s", Agree},
		{"PT1M30S", "90秒", Agree},
		{"1분 30초", "100秒", Disagree},
		{"2시간 5분", "125分", Agree},
		{"오후 2시 3분", "午後2時3分", Agree},
		{"14時3分", "14:03", Agree},
		{"오후 2시 3분", "14:13", Disagree},
		{"v1.8.7", "バージョン1.8.7", Agree},
		{"버전 1.8.7", "v1.8.7", Agree},
		{"v1.8.7", "v1.8.8", Disagree},
		// number words
		{"두 번", "2回", Agree},
		{"두 번", "二回", Agree},
		{"세 시간", "3時間", Agree},
		{"하루", "1日", Agree},
		{"두 번", "3回", Disagree},
		// units of package unit
		{"400KB", "400キロバイト", Agree},
		{"100Mi", "100MiB", Agree},
		{"초당 1,250건", "1,250件", Disagree},
		{"0.5%p", "0.5%", Disagree},
		// signs
		{"+1건", "1件", Disagree},
		{"+1건", "+1件", Agree},
		{"Δ0", "△0", Disagree},
		{"-5", "△5", Agree},
		{"Δ+2", "+2", Agree},
		{"Δ5", "△5", Disagree},
		{"+12s", "12秒", Disagree}, // a sign lost
		{"+5ms", "5ms", Disagree},
		{"5ms", "+5ms", Disagree},
		{"+12s", "12秒の時点", Agree}, // a point on a timeline
		{"12초 후", "+12s", Agree},
		{"+12초", "12秒後", Agree},
		{"+12s", "各列の時点は12秒", Agree},   // a point word earlier in the sentence
		{"+12s", "時点です。12秒", Disagree}, // another sentence
		{"+12건", "12件後", Disagree},     // a count is no point in time
		{"-12s", "12秒後", Disagree},
		{"▲5", "▲5", Agree}, // no language known: the same mark
		{"▲5", "+5", Disagree},
		{"▼5", "△5", Agree},
		{"5-10", "5〜10", Agree},
		// approximation words of the claim grammar
		{"40초 남짓", "40秒余り", Agree},
		{"40초 남짓", "40秒近く", Warn},
		{"거의 40초", "ほぼ40秒", Agree},
		{"40초 내외", "40秒前後", Agree},
		{"40여 건", "40件余り", Agree},
		{"계약 3건", "3件", Agree},
		{"1위", "1位", Agree},
		// まで before a change verb is an end point
		{"0.21%로 떨어졌다", "0.21%まで下がった", Agree},
		{"3", "3まで", Disagree},
	} {
		if got := CompareText(tc.ko, tc.ja); got != tc.want {
			t.Errorf("%q vs %q: %v, want %v (%+v | %+v)", tc.ko, tc.ja, got, tc.want, ScanNumbers(tc.ko), ScanNumbers(tc.ja))
		}
	}
}

func FuzzScanNumbers(f *testing.F) {
	for _, s := range []string{"최대 3단계", "1万2000件", "약 40초 정도", "5~10초", "2026年7月9日", "p99는 19.2ms", "１２,０００", "3 초과", "1만 2천", "10.0.0.1:80",
		"1분 30초", "1h2m3s", "PT1M30S", "오후 2시 3분", "두 번, 二回, 三つ, ふたつ", "하루", "v1.8.7", "バージョン1.8.7", "+1건", "Δ0 △0 −5", "40여 건", "0.21%まで下がった",
		"30을 넘지 않는", "30を超えない", "최솟값은 5", "10²", "10^-3", "2^", "1½", "③ ⑶ Ⅻ m² H₂O ¹", "≒40秒"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Longer texts repeat the shapes of short ones (on long texts
		// see TestScanNumbersLinear), and minimizing one held a
		// 20-second run for 15 s.
		if len(s) > 256 {
			return
		}
		checkTrailingLeadByte(t, s)
		ns := ScanNumbers(s)
		for _, n := range ns {
			if n.Start < 0 || n.End > len(s) || n.Start >= n.End || s[n.Start:n.End] != n.Text || n.Key == "" {
				t.Fatalf("%q: bad token %+v", s, n)
			}
		}
		for i := 1; i < len(ns); i++ {
			if ns[i].Start < ns[i-1].End {
				t.Fatalf("%q: tokens overlap: %+v", s, ns)
			}
		}
		// the prefilters find what their expressions find wherever a
		// number starts
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				continue
			}
			if got, want := clockWordAt(s[i:]), clockWordRe.FindStringSubmatch(s[i:]); !slices.Equal(got, want) {
				t.Fatalf("clockWordAt(%q) = %q, the expression %q", s[i:], got, want)
			}
			if got, want := goDurationAt(s[i:]), goDurationRe.FindString(s[i:]); got != want {
				t.Fatalf("goDurationAt(%q) = %q, the expression %q", s[i:], got, want)
			}
		}
	})
}

// TestScanNumbersLinear: ScanNumbers's cost grows in proportion to its
// text, in allocations (a count, not a time): 16 times the text costs at
// most 20 times the allocations, for prose and for long runs of digits,
// digit groups and dotted numbers.
func TestScanNumbersLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under the race detector include sync.Pool's random drops")
	}
	for _, unit := range []string{"약 40초 정도 1万2000件 p99는 19.2ms 1,234 v1.2.3 ", "1", "1,", "1.", "1:"} {
		allocs := func(n int) float64 {
			s := strings.Repeat(unit, n)
			return testing.AllocsPerRun(2, func() { ScanNumbers(s) })
		}
		small, large := allocs(500), allocs(8000)
		if large > 20*small+20 {
			t.Errorf("%q: %v allocations at 500 repetitions, %v at 8,000", unit, small, large)
		}
	}
}

// TestScanCounts: how many numbers ScanNumbers reads in the shapes of
// claims and prose.
func TestScanCounts(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"40초", 1},
		{"86/86", 2},
		{"51.7%→0.21%", 2},
		{"1만 2천", 1},      // one compound
		{"2천 3만", 2},      // a larger magnitude after a smaller one: two numbers
		{"1만 20000", 2},   // 20000 ≥ 10000: not a continuation
		{"1만 9999", 1},    // 9999 < 10000: a continuation
		{"1.5만 2천", 1},    // decimals before a magnitude
		{"3割5分", 1},       // a percentage
		{"409610바이트", 1},  // a unit with a factor
		{"10ms 20μs", 1},  // a compound duration
		{"20μs 10ms", 2},  // not one: the larger unit second
		{"p99 19.2ms", 2}, // an id and a number
		{"2026年7月9日 12:30 v1.2.3 10.0.0.1", 4},
		{"ゼロ 3", 2},
		{"１２,０００", 1},
		{"a\xff1 2", 2},
		{"두 번, 세 개, 二回, 三つ", 4},
		{"1분 30초", 1},
		{"1h2m3s PT1M30S", 2},
		{"오후 2시 3분", 1},
	} {
		if got := len(ScanNumbers(tc.s)); got != tc.want {
			t.Errorf("ScanNumbers(%q) reads %d numbers, want %d: %+v", tc.s, got, tc.want, ScanNumbers(tc.s))
		}
	}
}

// TestNormalizeText holds NormalizeText to the mapping of full-width
// digits and signs it replaces (a strings.Replacer, once) and to its
// offset map.
func TestNormalizeText(t *testing.T) {
	repl := strings.NewReplacer("０", "0", "１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9",
		"％", "%", "，", ",", "．", ".", "：", ":", "＋", "+", "－", "-", "〜", "~", "～", "~", "∼", "~")
	for _, in := range []string{"", "abc 12.5%", "１２．５％ 약 ３초", "＋３〜５∼７～９ ：，", "한글 ８개 ∑ ≈ 5", "é０", "a\xffb１"} {
		norm, back := NormalizeText(in)
		var want strings.Builder
		for _, r := range in { // rune by rune, as NormalizeText once was
			want.WriteString(repl.Replace(string(r)))
		}
		if norm != want.String() {
			t.Errorf("NormalizeText(%q) = %q, want %q", in, norm, want.String())
		}
		if len(back) != len(norm)+1 || back[len(norm)] != len(in) {
			t.Errorf("NormalizeText(%q): offset map of %d entries for %d bytes", in, len(back), len(norm))
			continue
		}
		for i := range len(norm) {
			if norm[i] < 0x80 && in[back[i]] != norm[i] && repl.Replace(string([]rune(in[back[i]:])[0])) != string(norm[i]) {
				t.Errorf("NormalizeText(%q): byte %d %q maps back to offset %d", in, i, norm[i], back[i])
			}
		}
	}
}

// TestMayBeDateLike holds mayBeDateLike to what it stands for: wherever
// one of the five regular expressions it lets ScanNumbers skip matches at
// a digit, it must say true (over crafted strings and the reference
// site's pages).
func TestMayBeDateLike(t *testing.T) {
	texts := []string{"192.168.0.1", "10.0.0.0/8:443", "2026-07-09", "2026/7/9", "2026.07.09", "2026년 7월 9일", "2026 年 7 月 9 日",
		"7월", "07月3日", "12:30", "1:05:09", "v1.22.3", "1.22.3-rc.1", "3 월", "2026\t年", "123월", "12345年", "5.5%", "3-4", "1/2"}
	pages, _ := filepath.Glob("../../../content/*/docs/*/*/*.md")
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	res := []*regexp.Regexp{ipRe, isoDateRe, cjkDateRe, clockRe, versionRe}
	for _, text := range texts {
		norm, _ := NormalizeText(text)
		for i := 0; i < len(norm); i++ {
			if norm[i] < '0' || norm[i] > '9' || mayBeDateLike(norm, i) {
				continue
			}
			for _, re := range res {
				if m := re.FindStringSubmatch(norm[i:]); m != nil && (re != cjkDateRe || m[1] != "" || m[3] != "") {
					t.Errorf("%s matches %q at %q, but mayBeDateLike says no", re, m[0], norm[i:min(len(norm), i+20)])
				}
			}
		}
	}
	if len(pages) == 0 {
		t.Error("no reference pages found")
	}
}

// TestNumberScannersMatchExpressions holds numberLen, magnitudeAt and
// parseNumber to the regular expressions and decimal parsing they
// replace, on random strings over the bytes that matter.
var (
	numberLenRe = regexp.MustCompile(`^(?:\d{1,3}(?:[,_]\d{3})+|\d+)(?:\.\d+)?`)
	magnitudeRe = regexp.MustCompile(`^\s?(천|만|억|千|万|億)`)
)

// checkNumberScanners fails t unless numberLen, parseNumber and
// magnitudeAt read s as the regular expressions they stand for.
func checkNumberScanners(t testing.TB, s string) {
	t.Helper()
	m := numberLenRe.FindString(s)
	if got := s[:numberLen(s)]; got != m {
		t.Fatalf("numberLen(%q) reads %q, want %q", s, got, m)
	}
	if m != "" {
		want, _ := decimal.NewFromString(strings.NewReplacer(",", "", "_", "").Replace(m))
		if got := parseNumber(m); got.String() != want.String() || got.Exponent() != want.Exponent() || !got.Equal(want) {
			t.Fatalf("parseNumber(%q) = %v (exp %d), want %v (exp %d)", m, got, got.Exponent(), want, want.Exponent())
		}
	}
	w, n := magnitudeAt(s)
	if mm := magnitudeRe.FindStringSubmatch(s); mm != nil {
		if w != mm[1] || n != len(mm[0]) {
			t.Fatalf("magnitudeAt(%q) = %q, %d, want %q, %d", s, w, n, mm[1], len(mm[0]))
		}
	} else if n != 0 {
		t.Fatalf("magnitudeAt(%q) = %q, %d, want none", s, w, n)
	}
}

// checkDateLike fails t when mayBeDateLike rules out s, a text starting
// with a digit, although one of the date, clock, version or address
// expressions matches it.
func checkDateLike(t testing.TB, s string) {
	t.Helper()
	if s == "" || s[0] < '0' || s[0] > '9' || mayBeDateLike(s, 0) {
		return
	}
	for _, re := range []*regexp.Regexp{ipRe, isoDateRe, clockRe, versionRe} {
		if re.MatchString(s) {
			t.Fatalf("mayBeDateLike(%q) = false, but %v matches", s, re)
		}
	}
	if m := cjkDateRe.FindStringSubmatch(s); m != nil && (m[1] != "" || m[3] != "") {
		t.Fatalf("mayBeDateLike(%q) = false, but %v matches", s, cjkDateRe)
	}
}

// checkTrailingLeadByte fails t unless s followed by the lead byte of a
// multi-byte rune cut short reads as s alone.
func checkTrailingLeadByte(t testing.TB, s string) {
	t.Helper()
	want := ScanNumbers(s)
	for _, lead := range []string{"\xec", "\xe3", "\xc3", "\xf0", "\xf9", "\xef", "\xe2"} {
		if got := ScanNumbers(s + lead); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q + %q: %+v\nwant %+v", s, lead, got, want)
		}
	}
}

// FuzzNumberScanners holds the byte scanners to the expressions they
// replace, on any text (the tests below run a fixed random sample).
func FuzzNumberScanners(f *testing.F) {
	for _, s := range []string{"", "1,234.5", "1234,567", " 만", "\v만", "12.5千", "2026-12-02", "10.0.0.1", "v1.8.7", "14:03:22", "2026年7月9日", "1.2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Longer texts only repeat what these scanners do on short ones,
		// and minimizing one (parseNumber's decimal costs time with the
		// square of its digits) held a 20-second run for 12 s.
		if len(s) > 256 {
			return
		}
		checkNumberScanners(t, s)
		checkDateLike(t, s)
	})
}

// TestNumberScannersMatchExpressions: numberLen, parseNumber and
// magnitudeAt read what their regular expressions read, on edge cases
// and random strings of number pieces (FuzzNumberScanners goes further).
func TestNumberScannersMatchExpressions(t *testing.T) {
	pieces := []string{"0", "1", "2", "5", "9", ",", ".", " ", "\t", "\v", "만", "千", "億", "천", "a", "초", "12", "345", ",000", "_000", ".5"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []string{"", "1,234.5", "1234,567", "1,2345", "12,345,67", "0012.50", "1234567890123456789012.25", " 만", "  만", "\v만", "1.", ".5"} {
		checkNumberScanners(t, s)
	}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkNumberScanners(t, b.String())
	}
}

// TestToLowerAndDecimalString: the shortcuts give what strings.ToLower
// and decimal's String give.
func TestToLowerAndDecimalString(t *testing.T) {
	for _, s := range []string{"", "약 ", "최대 ", "At Most ", "up to", "ＡＢＣ", "ΣΑΣ", "İ", "K", "\xff약", "約", "about 約", "ÀB"} {
		if got, want := toLower(s), strings.ToLower(s); got != want {
			t.Errorf("toLower(%q) = %q, want %q", s, got, want)
		}
	}
	for _, d := range []decimal.Decimal{decimal.Zero, decimal.NewFromInt(40), decimal.NewFromInt(-7), decimal.New(1250, 0), decimal.New(5, -1), decimal.New(12, 3),
		decimal.RequireFromString("123456789012345678901234"), decimal.RequireFromString("999999999999999999"), decimal.RequireFromString("-1000000000000000000"),
		decimal.New(-5, -3), decimal.New(100, -2), decimal.New(120, -2), decimal.New(-120, -1), decimal.New(-999999999999999999, -18), decimal.New(7, -20), decimal.New(0, -28)} {
		if got, want := decimalString(d), d.String(); got != want {
			t.Errorf("decimalString(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestNumberShortcuts: caseless runes are their own lower case,
// decimalString prints what decimal's String prints, and mayBeDateLike
// is false only where none of the five expressions matches.
func TestNumberShortcuts(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if caseless(r) && unicode.ToLower(r) != r {
			t.Fatalf("caseless(%U) but it has a lower case", r)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		digits := rng.IntN(19)
		c := int64(0)
		for range digits {
			c = c*10 + int64(rng.IntN(10))
		}
		if rng.IntN(2) == 0 {
			c = -c
		}
		d := decimal.New(c, int32(rng.IntN(26)-22))
		if got, want := decimalString(d), d.String(); got != want {
			t.Fatalf("decimalString(%d e%d) = %q, want %q", c, d.Exponent(), got, want)
		}
	}
	pieces := []string{"1", "12", "2026", "123", ".", "-", "/", ":", "5", "年", "월", " ", "v", "a", "07", "9"}
	for range 20000 {
		var b strings.Builder
		b.WriteString(strconv.Itoa(rng.IntN(3000)))
		for range rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkDateLike(t, b.String())
	}
}

// TestTrailingLeadByte: a text ending in the lead byte of a multi-byte
// rune cut short (ClaimNumbers' 24 bytes after a link) reads the numbers
// the text without that byte reads, offsets, values, units and
// qualifiers alike: no word ScanNumbers reads holds the U+FFFD it maps
// the byte to.
func TestTrailingLeadByte(t *testing.T) {
	pieces := []string{"0", "1", "2", "5", "9", "10", "9999", ",", ".", " ", "만", "千", "億", "천", "割", "分", "초", "ms", "s", "KB", "바이트", "%", "p", "v", "-", "/", ":", "年", "月", "ゼロ", "１", "約", "이상", "이", "以", "まで", "정도", "or", " or more", "per second", "초당", "×", "x", "~", "A", "\xff", "가"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkTrailingLeadByte(t, b.String())
	}
}

// TestQualifyIndexes: qualify, reading the comparator and approximation
// words from lists indexed by a byte, finds what the plain lists find,
// on random words around a number.
func TestQualifyIndexes(t *testing.T) {
	var pieces []string
	for _, q := range cmpBefore {
		pieces = append(pieces, q.word)
	}
	for _, q := range cmpAfter {
		pieces = append(pieces, q.word)
	}
	for _, w := range literal.ApproxWords() {
		pieces = append(pieces, w.Word)
	}
	pieces = append(pieces, " ", "1", "A", "AT MOST", "Up To", "가", "の", "x", "\xff", "~", "계", "About")
	lists := func(before, after string) (cmp string, approx literal.Approx) {
		lb, la := toLower(before), toLower(after)
		for _, q := range cmpBefore {
			if strings.HasSuffix(lb, q.word) && wordStartsAt(lb, len(lb)-len(q.word), q.word) {
				cmp = q.cmp
				break
			}
		}
		if cmp == "" {
			cmp = extremumBefore(lb)
		}
		if c := cmpVerbAfter(la); c != "" {
			cmp = c
		} else {
			for _, q := range cmpAfter {
				if strings.HasPrefix(la, q.word) {
					cmp = q.cmp
					break
				}
			}
		}
		for _, w := range literal.ApproxWords() {
			word := strings.ToLower(w.Word)
			switch {
			case w.Glued:
			case w.Before:
				if strings.HasSuffix(lb, word) && wordStartsAt(lb, len(lb)-len(word), word) {
					approx = joinApprox(approx, w.Approx)
				}
			default:
				e := len(word)
				if strings.HasPrefix(la, word) && !(isASCIILetterByte(word[e-1]) && e < len(la) && isASCIILetterByte(la[e])) &&
					!(len(word) == 3 && word[0] >= 0xE4 && word[0] <= 0xE9) {
					approx = joinApprox(approx, w.Approx)
				}
			}
		}
		if strings.HasSuffix(before, "~") && !(len(before) > 1 && before[len(before)-2] >= '0' && before[len(before)-2] <= '9') {
			approx = joinApprox(approx, literal.About)
		}
		return cmp, approx
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		var b, a strings.Builder
		for range rng.IntN(4) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		for range rng.IntN(4) {
			a.WriteString(pieces[rng.IntN(len(pieces))])
		}
		norm := b.String() + "5" + a.String()
		n := Number{Kind: "number", Value: decimal.NewFromInt(5)}
		start := b.Len()
		qualify(&n, norm, start, start+1)
		before := strings.TrimRight(norm[max(0, start-24):start], " ")
		after := strings.TrimLeft(norm[start+1:min(len(norm), start+25)], " ")
		if cmp, approx := lists(before, after); n.Cmp != cmp || n.Approx != approx {
			t.Fatalf("qualify(%q) = %q, %v; the lists read %q, %v", norm, n.Cmp, n.Approx, cmp, approx)
		}
	}
}

// TestOtherScriptDigits: every decimal digit of Unicode (unicode.Nd) is
// read as the ASCII digit of its value, as coverage reads it, so that an
// exemption's 𝟒𝟎 and 𝟒𝟏 differ between ko and ja.
func TestOtherScriptDigits(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !unicode.IsDigit(r) {
			continue
		}
		if !hasFullWidth(string(r)) {
			t.Fatalf("%U %c: hasFullWidth is false", r, r)
		}
		a := fullWidthASCII(r)
		v := rune(a - '0')
		// its run of ten starts v digits before it
		if a < '0' || a > '9' || !unicode.IsDigit(r-v) || v < 9 && !unicode.IsDigit(r-v+9) {
			t.Fatalf("%U %c: read as %q", r, r, a)
		}
	}
	for _, tc := range []struct {
		ko, ja string
		want   Verdict
	}{
		{"𝟒𝟎초", "40秒", Agree},
		{"𝟒𝟎초", "𝟒𝟏秒", Disagree},
		{"٣", "3", Agree},
		{"४२", "42", Agree},
		{"४२", "43", Disagree},
	} {
		a, b := ScanNumbers(tc.ko), ScanNumbers(tc.ja)
		if len(a) != 1 || len(b) != 1 {
			t.Fatalf("%q / %q: read %v / %v", tc.ko, tc.ja, a, b)
		}
		if got := Compare(a[0], b[0]); got != tc.want {
			t.Errorf("%q vs %q: %v, want %v", tc.ko, tc.ja, got, tc.want)
		}
	}
}

// TestHasFullWidthEveryRune: hasFullWidth, which looks at a rune only
// when its first bytes may start one fullWidthASCII maps, finds every
// rune fullWidthASCII maps and no other, alone and between kana and
// Hangul (whose first bytes it skips).
func TestHasFullWidthEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		want := fullWidthASCII(r) != 0
		if got := hasFullWidth(string(r)); got != want {
			t.Fatalf("hasFullWidth(%U %q) = %v, fullWidthASCII %q", r, r, got, fullWidthASCII(r))
		}
		if got := hasFullWidth("かな" + string(r) + "한"); got != want {
			t.Fatalf("hasFullWidth(かな %U 한) = %v, expected %v", r, got, want)
		}
	}
}

// TestRegexpPrefilters: clockWordAt and goDurationAt, which run their
// expression only where it may match, find what the expression finds on
// every text of digits, points, spaces and the units' and hours' bytes
// up to a length, and on the scanner's test texts.
func TestRegexpPrefilters(t *testing.T) {
	parts := []string{"1", "12", "123", ".", ".5", " ", "시", "時", "분", "分", "초", "秒", "h", "m", "s", "ms", "us", "µs", "μs", "ns", "x", "간"}
	var texts []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		texts = append(texts, s)
		if n == 0 {
			return
		}
		for _, p := range parts {
			grow(s+p, n-1)
		}
	}
	for _, d := range []string{"0", "1", "12", "123", "1.5"} {
		grow(d, 3)
	}
	check := func(s string) {
		if got, want := clockWordAt(s), clockWordRe.FindStringSubmatch(s); !slices.Equal(got, want) {
			t.Fatalf("clockWordAt(%q) = %q, the expression %q", s, got, want)
		}
		if got, want := goDurationAt(s), goDurationRe.FindString(s); got != want {
			t.Fatalf("goDurationAt(%q) = %q, the expression %q", s, got, want)
		}
	}
	for _, s := range texts {
		check(s)
	}
	if len(texts) < 50000 {
		t.Fatalf("%d texts: the test compares too few", len(texts))
	}
}

// TestAppendDecimalEqualsString: appendDecimal writes every decimal as
// its String does, for coefficients of every length to 20 digits, both
// signs and exponents from -30 to 70 (an integer written with its
// zeros, as 1.3만 is 13E3).
func TestAppendDecimalEqualsString(t *testing.T) {
	coefs := []int64{0, 1, 7, 10, 12, 100, 1234, 120000, 999999999, 1000000007, 123456789012345678, 999999999999999999}
	for _, c := range coefs {
		for _, sign := range []int64{1, -1} {
			for exp := int32(-30); exp <= 70; exp++ {
				d := decimal.New(c*sign, exp)
				if got, want := string(appendDecimal([]byte("k|"), d)), "k|"+d.String(); got != want {
					t.Fatalf("appendDecimal(%de%d) = %q, String %q", c*sign, exp, got, want)
				}
			}
		}
	}
	big := decimal.RequireFromString("123456789012345678901234567890")
	for exp := int32(-40); exp <= 40; exp += 7 {
		d := big.Shift(exp)
		if got, want := string(appendDecimal(nil, d)), d.String(); got != want {
			t.Fatalf("appendDecimal(%s) = %q, String %q", d, got, want)
		}
	}
}

// FuzzAppendDecimal compares appendDecimal with String on any
// coefficient and exponent.
func FuzzAppendDecimal(f *testing.F) {
	f.Add(int64(13), int32(3))
	f.Add(int64(-5), int32(-2))
	f.Add(int64(0), int32(9))
	f.Fuzz(func(t *testing.T, c int64, exp int32) {
		if exp < -100 || exp > 100 {
			return
		}
		d := decimal.New(c, exp)
		if got, want := string(appendDecimal(nil, d)), d.String(); got != want {
			t.Fatalf("appendDecimal(%de%d) = %q, String %q", c, exp, got, want)
		}
	})
}

// TestParityUnitsShortest: every factor of parityUnits is the value
// unit.Factor gives, with a coefficient without trailing zeros, and
// shortest keeps any value's value.
func TestParityUnitsShortest(t *testing.T) {
	for name, bu := range parityUnits {
		if c := bu.factor.Coefficient(); c.Sign() != 0 && new(big.Int).Rem(c, big.NewInt(10)).Sign() == 0 {
			t.Errorf("%s: factor %s has the coefficient %s", name, bu.factor, c)
		}
		for _, to := range []string{"s", "core"} {
			if f, ok := unit.Factor(name, to); ok && bu.name == to && !f.Equal(bu.factor) {
				t.Errorf("%s: factor %s, unit.Factor %s", name, bu.factor, f)
			}
		}
	}
	for _, s := range []string{"0", "0.001", "-1200", "60", "1E25", "0.0010000", "123.4500"} {
		d := decimal.RequireFromString(s)
		if got := shortest(d); !got.Equal(d) || got.String() != d.String() {
			t.Errorf("shortest(%s) = %s", s, got)
		}
	}
}

// TestMulEqualsDecimal: mul gives decimal's Mul, the same coefficient
// and exponent, for coefficients of every length to 20 digits, both
// signs, and exponents around zero and far from it.
func TestMulEqualsDecimal(t *testing.T) {
	coefs := []int64{0, 1, 3, 10, 999, 1000, 123456789, 999999999, 1000000000, 9999999999, 99999999999, 1234567890123, 999999999999999999}
	exps := []int32{-28, -9, -3, -1, 0, 1, 2, 9, -1000000, 1000000}
	var ds []decimal.Decimal
	for _, c := range coefs {
		for _, e := range exps {
			ds = append(ds, decimal.New(c, e), decimal.New(-c, e))
		}
	}
	ds = append(ds, decimal.RequireFromString("123456789012345678901234567890"))
	for _, a := range ds {
		for _, b := range ds {
			got, want := mul(a, b), a.Mul(b)
			if got.Exponent() != want.Exponent() || got.Coefficient().Cmp(want.Coefficient()) != 0 {
				t.Fatalf("mul(%s, %s) = %se%d, Mul %se%d", a, b, got.Coefficient(), got.Exponent(), want.Coefficient(), want.Exponent())
			}
		}
	}
}

// FuzzMul compares mul with decimal's Mul on any two decimals.
func FuzzMul(f *testing.F) {
	f.Add(int64(123), int32(-1), int64(1), int32(-3))
	f.Add(int64(-999999999), int32(0), int64(999999999), int32(5))
	f.Fuzz(func(t *testing.T, ca int64, ea int32, cb int64, eb int32) {
		if ea < -1e9 || ea > 1e9 || eb < -1e9 || eb > 1e9 {
			return // decimal's Mul panics when the exponents' sum overflows
		}
		a, b := decimal.New(ca, ea), decimal.New(cb, eb)
		got, want := mul(a, b), a.Mul(b)
		if got.Exponent() != want.Exponent() || got.Coefficient().Cmp(want.Coefficient()) != 0 {
			t.Fatalf("mul(%de%d, %de%d) = %se%d, Mul %se%d", ca, ea, cb, eb, got.Coefficient(), got.Exponent(), want.Coefficient(), want.Exponent())
		}
	})
}

// TestUpperASCII: upperASCII lowers what toLower lowers, and takes every
// ASCII text with an upper-case letter that fits its buffer (else the
// lowering would allocate), and no other.
func TestUpperASCII(t *testing.T) {
	parts := []string{"P", "p", "Z", "@", "[", "99", " ", "MID", "최대", "À", "İ", "K", "\xff", "Ω"}
	var texts []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		texts = append(texts, s)
		if n > 0 {
			for _, p := range parts {
				grow(s+p, n-1)
			}
		}
	}
	grow("", 4)
	texts = append(texts, strings.Repeat("A", 32), strings.Repeat("A", 33), strings.Repeat("a", 31)+"B")
	for _, s := range texts {
		var buf [32]byte
		b, ok := upperASCII(buf[:0], s)
		ascii, upper := true, false
		for i := 0; i < len(s); i++ {
			ascii = ascii && s[i] < utf8.RuneSelf
			upper = upper || s[i] >= 'A' && s[i] <= 'Z'
		}
		if want := ascii && upper && len(s) <= 32; ok != want {
			t.Fatalf("upperASCII(%q) takes it: %v, expected %v", s, ok, want)
		}
		if ok && string(b) != toLower(s) {
			t.Fatalf("upperASCII(%q) = %q, toLower %q", s, b, toLower(s))
		}
	}
}
