package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// literalCases pairs claim literals, as Korean, Japanese and English
// pages write them, with evidence values (raw tokens, units included) and
// the expected verdict. Most values are the reference site's real numbers.
var literalCases = []struct {
	lit    string
	values []string
	ok     bool
}{
	// fractions and counts
	{"86/86", []string{"86", "86"}, true},
	{"86/86", []string{"85", "86"}, false},
	{"86개 중 86개", []string{"86", "86"}, true},
	{"86件中86件", []string{"86", "86"}, true},
	{"86 of 86", []string{"86", "86"}, true},
	{"2/2", []string{"2", "2"}, true},
	{"46/46", []string{"46", "46"}, true},
	{"3회", []string{"3"}, true},
	{"3回", []string{"3"}, true},
	{"1건", []string{"1"}, true},
	{"3件", []string{"2"}, false},
	{"8개", []string{"8"}, true},
	// percentages at written precision
	{"44%", []string{"43.9024390243902439%"}, true},
	{"44.0%", []string{"43.9024390243902439%"}, false},
	{"43.9%", []string{"43.9024390243902439%"}, true},
	{"44 ％", []string{"43.9024390243902439%"}, true},
	{"４４％", []string{"43.9024390243902439%"}, true},
	{"44퍼센트", []string{"43.9024390243902439%"}, true},
	{"44パーセント", []string{"43.9024390243902439%"}, true},
	{"56.1%", []string{"56.0975609756097561%"}, true},
	{"100%", []string{"100%"}, true},
	{"51.7%→0.21%", []string{"51.7%", "0.21%"}, true},
	{"51.7%→0.22%", []string{"51.7%", "0.21%"}, false},
	{"51.7% → 0.2%", []string{"51.7241%", "0.2065%"}, true},
	{"51.7%에서 0.21%로", []string{"51.7%", "0.21%"}, true},
	{"51.7%から0.21%に", []string{"51.7%", "0.21%"}, true},
	// a claim in points on a percentage the raw text writes: which it is
	// is not known (a manifest declares %p for a column of points)
	{"51.5%p", []string{"51.5%"}, false},
	{"51.5퍼센트포인트", []string{"51.5%"}, false},
	{"51.5ポイント", []string{"51.6%"}, false},
	// deltas and transitions of counters
	{"+1", []string{"+1"}, true},
	{"+2", []string{"+2"}, true},
	{"+1", []string{"+2"}, false},
	{"Δ0", []string{"Δ0"}, true},
	{"Δ+1", []string{"+1"}, true},
	{"Δ0", []string{"+1"}, false},
	{"−1", []string{"-1"}, true},
	{"-1", []string{"1"}, false},
	{"17→18", []string{"17", "18"}, true},
	{"17→19", []string{"17", "18"}, false},
	{"2973→2974", []string{"2973", "2974"}, true},
	{"4에서 5로", []string{"4", "5"}, true},
	{"4から5に", []string{"4", "5"}, true},
	// durations and sizes
	{"40초", []string{"40.045811s"}, true},
	{"40秒", []string{"40.045811s"}, true},
	{"40 s", []string{"40.045811s"}, true},
	{"40.05초", []string{"40.045811s"}, true},
	{"40.04秒", []string{"40.045811s"}, false},
	{"약 40초", []string{"43s"}, true},
	{"약 40초", []string{"45s"}, false},
	{"約40秒", []string{"40.045811s"}, true},
	{"およそ40秒", []string{"43.5s"}, true},
	{"40秒ほど", []string{"40.045811s"}, true},
	{"40초 정도", []string{"38s"}, true},
	{"~5 s", []string{"5s"}, true},
	{"≈5 s", []string{"5.4s"}, true},
	{"대략 5초", []string{"6s"}, false},
	{"1.5초", []string{"1500ms"}, true},
	{"1500ms", []string{"1.5s"}, true},
	{"1500밀리초", []string{"1.5s"}, true},
	{"1500ミリ秒", []string{"1.4s"}, false},
	{"2분", []string{"120s"}, true},
	{"2分", []string{"160s"}, false},
	{"409610바이트", []string{"409610B"}, true},
	{"409610バイト", []string{"409610B"}, true},
	{"409610 bytes", []string{"409611B"}, false},
	{"400KB", []string{"409610B"}, false},
	{"1,234", []string{"1234"}, true},
	// magnitudes
	{"2.9천 회", []string{"2905"}, true},
	{"3천", []string{"2905"}, true},
	{"1.2만", []string{"12345"}, true},
	{"1.2万件", []string{"12600"}, false},
	{"3억", []string{"300000000"}, true},
	{"3億", []string{"240000000"}, false},
	// ranges and comparators
	{"5~10초", []string{"7s"}, true},
	{"5〜10秒", []string{"12s"}, false},
	{"5～10秒", []string{"10.4s"}, true},
	{"40초 이상", []string{"40.045811s"}, true},
	{"41초 이상", []string{"40.045811s"}, false},
	{"1% 미만", []string{"0.21%"}, true},
	{"0.2% 未満", []string{"0.21%"}, false},
	{"2 이하", []string{"2"}, true},
	{"2以下", []string{"3"}, false},
	{"2900回超", []string{"2905"}, true},
	{"2905 초과", []string{"2905"}, false},
	{"≥ 86", []string{"86"}, true},
	// rates and multiples
	{"2517.8/s", []string{"2517.8/s"}, true},
	{"40초", []string{"40.045811"}, false},
	{"+18", []string{"18"}, false},
	{"44초", []string{"43.9%"}, false},
	{"409,6100바이트", []string{"409610B"}, false},
	{"40.04581100초", []string{"40.045811s"}, false},
	{"51.70%", []string{"51.7%"}, false},
	{"52%", []string{"51.7%"}, true},
	// units the evidence contradicts, and text that is not a number
	{"40 min", []string{"40s"}, false},
	{"2 min", []string{"120s"}, true},
	{"40h", []string{"40s"}, false},
	{"40시간", []string{"40s"}, false},
	{"40時間", []string{"40s"}, false},
	{"40일", []string{"40s"}, false},
	{"40μs", []string{"40s"}, false},
	{"40000000μs", []string{"40s"}, true},
	{"40MB", []string{"40s"}, false},
	{"17 percent", []string{"17"}, false},
	{"초당 40", []string{"40s"}, false},
	{"毎秒40", []string{"40/s"}, true},
	{"44배", []string{"44%"}, false},
	{"40회", []string{"40s"}, false},
	{"44件", []string{"44%"}, false},
	{"5_000", []string{"5000"}, false},
	{"5½", []string{"5"}, false},
	{"44%%", []string{"44%"}, false},
	{"10000e3", []string{"10000"}, false},
	{"10000k", []string{"10000"}, false},
	{"1e3", []string{"1"}, false},
	{"9〜9〜9", []string{"999"}, false},
	{"5-10초", []string{"7s"}, true},
	{"5-10초", []string{"12s"}, false},
	{"50~30초", []string{"40s"}, false},
	{"5초~10분", []string{"40s"}, true},
	{"40초 이상, 50초 이하", []string{"45s", "45s"}, false},
	{"40KB/s", []string{"40KB"}, false},
	{"40 KB per second", []string{"40KB"}, false},
	{"40초/회", []string{"40s"}, false},
	{"40 foo", []string{"40s"}, false},
	{"5 to 10", []string{"5", "10"}, true},
	{"초당 2518", []string{"2517.8/s"}, true},
	{"3배", []string{"3"}, true},
	{"9倍", []string{"9"}, true},
	// issue 9: compound magnitudes and space grouping (case 16)
	{"1万2000", []string{"12000"}, true},
	{"1만 2천", []string{"12000"}, true},
	{"1만 2천 건", []string{"12000"}, true},
	{"１万２０００", []string{"12000"}, true},
	{"1만2000건", []string{"12000"}, true},
	{"1万2千件", []string{"12000"}, true},
	{"1만 2000", []string{"12500"}, false},
	{"12만", []string{"12000"}, false},
	{"五千", []string{"5000"}, true},
	{"5 000", []string{"5000"}, true},
	{"150 000", []string{"150000"}, true},
	{"150 000", []string{"150"}, false},
	{"15만 개", []string{"150000"}, true},
	// number words (case 17)
	{"두 번", []string{"2"}, true},
	{"두 번", []string{"3"}, false},
	{"세 번", []string{"3"}, true},
	{"한 번", []string{"1"}, true},
	{"二回", []string{"2"}, true},
	{"三回", []string{"2"}, false},
	{"ふたつ", []string{"2"}, true},
	{"three", []string{"3"}, true},
	{"twice", []string{"2"}, true},
	{"하나", []string{"1"}, true},
	{"한 시간", []string{"3600s"}, true},
	// CJK unit words are units, not ignored (case 25)
	{"40년", []string{"40.2s"}, false},
	{"40年", []string{"40.2s"}, false},
	{"40ヶ月", []string{"40.2s"}, false},
	{"40개월", []string{"40.2s"}, false},
	{"40킬로바이트", []string{"40B"}, false},
	{"40キロバイト", []string{"40B"}, false},
	{"40메가바이트", []string{"40B"}, false},
	{"40살", []string{"40"}, false},
	{"40代", []string{"40"}, false},
	{"40명", []string{"40"}, true},
	{"40人", []string{"40"}, true},
	{"4台", []string{"4"}, true},
	{"40 일", []string{"40s"}, false},
	{"1주", []string{"604800s"}, true},
	// rates with counters (case 26)
	{"초당 1,250건", []string{"1250/s"}, true},
	{"毎秒1,250件", []string{"1250/s"}, true},
	{"秒間1,250件", []string{"1250/s"}, true},
	{"1,250건/초", []string{"1250/s"}, true},
	{"1,250件/秒", []string{"1250/s"}, true},
	{"1,250件/秒", []string{"1300/s"}, false},
	{"초당 1,250건", []string{"1250"}, false},
	{"40 per second", []string{"40/s"}, true},
	// approximation words, 割, ± and ∼ (case 27): evidence 43 s, 12 ms, 33 %
	{"40초가량", []string{"43s"}, true},
	{"40초 남짓", []string{"43s"}, true},
	{"40초쯤", []string{"43s"}, true},
	{"40秒くらい", []string{"43s"}, true},
	{"40秒ぐらい", []string{"43s"}, true},
	{"ほぼ40秒", []string{"43s"}, true},
	{"40秒前後", []string{"43s"}, true},
	{"40秒強", []string{"43s"}, true},
	{"40秒強", []string{"38s"}, false},
	{"40秒弱", []string{"38s"}, true},
	{"40秒弱", []string{"43s"}, false},
	{"40秒近く", []string{"38s"}, true},
	{"40秒近く", []string{"43s"}, false},
	// both sides of each word: 弱/近く/거의 reach 10% below and half a
	// unit above; 強/남짓 10% above and half a unit below; 가량/くらい/
	// 約 10% either side (36–44 s for 40 s).
	{"40秒弱", []string{"39.6s"}, true},
	{"40秒弱", []string{"36s"}, true},
	{"40秒弱", []string{"35.9s"}, false},
	{"40秒弱", []string{"40.5s"}, true},
	{"40秒弱", []string{"40.6s"}, false},
	{"40秒近く", []string{"39.6s"}, true},
	{"40秒近く", []string{"40.6s"}, false},
	{"거의 40초", []string{"39.6s"}, true},
	{"거의 40초", []string{"43s"}, false},
	{"40秒強", []string{"44s"}, true},
	{"40秒強", []string{"44.1s"}, false},
	{"40秒強", []string{"39.5s"}, true},
	{"40秒強", []string{"39.4s"}, false},
	{"40초 남짓", []string{"39.4s"}, false},
	{"40초 남짓", []string{"44.1s"}, false},
	{"40초가량", []string{"36s"}, true},
	{"40초가량", []string{"35.9s"}, false},
	{"40초가량", []string{"44.1s"}, false},
	{"40秒くらい", []string{"36.5s"}, true},
	{"40秒くらい", []string{"45s"}, false},
	{"40여 건", []string{"43"}, true},
	{"40여 건", []string{"38"}, false},
	{"約3割", []string{"33%"}, true},
	{"3割", []string{"33%"}, true},
	{"3割5分", []string{"35.2%"}, true},
	{"3割5分", []string{"33%"}, false},
	// A ± B on a value with no known spread (a transcript prints none):
	// a claim-spread finding, never a tolerance (spread_test.go judges
	// values that know their spread)
	{"43±1秒", []string{"43s"}, false},
	{"43±1秒", []string{"44.5s"}, false},
	{"43 ± 1 s", []string{"42.2s"}, false},
	{"42~44秒", []string{"42.2s"}, true}, // a tolerance written as the range it allows
	{"10∼20ms", []string{"12ms"}, true},
	{"10〜20ms", []string{"0.012s"}, true},
	{"10∼20ms", []string{"25ms"}, false},
	{"10～15ms", []string{"12ms"}, true},
	{"40초", []string{"43s"}, false},
	// every byte of a literal is read: prose after a unit and a space is
	// an error (it belongs outside the link); glued ordinals are read
	{"3회 연속", []string{"3"}, false},
	{"3回目", []string{"3"}, true},
	{"40 살", []string{"40"}, false},
	// comparators
	{"최대 3", []string{"3"}, true},
	{"3초 이내", []string{"2.5s"}, true},
	{"3秒以内", []string{"3.5s"}, false},
	// compound durations (case 52, 53): one quantity, at the precision of
	// the last part; text glued after a unit is an error, never skipped
	{"143h25m", []string{"513410s"}, false},
	{"143h5m", []string{"513410s"}, false},
	{"142h37m", []string{"513410s"}, true},
	{"142h36m50s", []string{"513410s"}, true},
	{"142h36m51s", []string{"513410s"}, false},
	{"143h", []string{"513410s"}, true},
	{"40ms5", []string{"0.0405s"}, false},
	{"0.04s5", []string{"0.0405s"}, false},
	{"2h30", []string{"9000s"}, false},
	{"1h2m3s", []string{"3723s"}, true},
	{"1h2m3s", []string{"3724s"}, false},
	{"40ms500us", []string{"0.0405s"}, true},
	{"40ms500us", []string{"0.0406s"}, false},
	{"1hour2min", []string{"3720s"}, true},
	{"1m30s", []string{"90s"}, true},
	{"3h58m", []string{"14280s"}, true},
	{"10m0s", []string{"600s"}, true},
	{"1m30.5s", []string{"90.5s"}, true},
	{"PT1M30S", []string{"90s"}, true},
	{"PT1M30S", []string{"91s"}, false},
	{"P1DT2H", []string{"93600s"}, true},
	{"1분 30초", []string{"90s"}, true},
	{"1분 30초", []string{"91s"}, false},
	{"1分30秒", []string{"90s"}, true},
	{"11分16秒", []string{"676s"}, true},
	{"11분 16초", []string{"676s"}, true},
	{"2시간 5분", []string{"7500s"}, true},
	{"2時間5分", []string{"7530s"}, true},
	{"2時間5分", []string{"7531s"}, false},
	{"약 2시간 5분", []string{"7900s"}, true},
	{"1h75m", []string{"9300s"}, false},
	{"1h2h", []string{"10800s"}, false},
	// m: minutes on a time value, millicores on a CPU value
	{"3m", []string{"180s"}, true},
	{"3m", []string{"3"}, false},
	// clock times bind to a time of day (seconds since midnight)
	{"14:03:22", []string{"50602tod"}, true},
	{"14:03:22", []string{"50603tod"}, false},
	{"14:03", []string{"50602tod"}, true},
	{"오후 2시 3분", []string{"50602tod"}, true},
	{"午後2時3分", []string{"50602tod"}, true},
	{"午後2時4分", []string{"50602tod"}, false},
	{"14時3分", []string{"50602tod"}, true},
	{"14:03:22", []string{"50602s"}, false},
	// a relative spread on a value with none known, and percentage points
	{"120ms ±11%", []string{"133ms"}, false},
	{"120ms ±11%", []string{"120ms"}, false},
	{"±11%", []string{"11%"}, true},
	{"±11%", []string{"-11.2%"}, true},
	{"±11%", []string{"12%"}, false},
	{"14:03:22 KST", []string{"50602tod"}, true},
	{"2:03 PM", []string{"50602tod"}, true},
	{"2026-07-09 14:03:22", []string{"50602tod"}, false},
	{"0.5%p", []string{"0.5%"}, false},
	{"0.5ポイント", []string{"0.5%"}, false},
	{"0.5%포인트", []string{"0.5%"}, false},
	// decrease and increase words carry the sign of a difference
	{"12% 감소", []string{"Δ-12%"}, true},
	{"12% 감소", []string{"-12%"}, false},
	{"12% 감소", []string{"+12%"}, false},
	{"12%減少", []string{"Δ-12%"}, true},
	{"12% 증가", []string{"+12%"}, true},
	{"12% 증가", []string{"Δ-12%"}, false},
	{"12%増加", []string{"12%"}, false},
	// counters
	{"3단계", []string{"3"}, true},
	{"3号", []string{"3"}, true},
	{"3장", []string{"3"}, true},
	{"3호", []string{"3"}, true},
	{"2마리", []string{"2"}, true},
	{"500円", []string{"500"}, true},
	{"500원", []string{"500"}, true},
	// labels quote a key=value line; other text is an error
	{"exit=28", []string{"28"}, true},
	{"MID1에서 +1", []string{"+1"}, false},
	{"응답 40초", []string{"40s"}, false},
	// multiplier letters (wrk's 2.76k): the number at the precision
	// written, 2.755k up to 2.765k; on a size the letter is 1000 or 1024
	{"2.76k", []string{"2760"}, true},
	{"2.76k", []string{"2764"}, true},
	{"2.76k", []string{"2766"}, false},
	{"2.76k", []string{"2750"}, false},
	{"1.2M", []string{"1200000"}, true},
	{"1.2M", []string{"1200000B"}, false},
	{"3G", []string{"3000000000"}, true},
	// power-of-1000 mistakes
	{"19.2s", []string{"0.0192s"}, false},
	{"0.028ms", []string{"0.028s"}, false},
}

func TestJudgeLiterals(t *testing.T) {
	if len(literalCases) < 60 {
		t.Fatalf("only %d literal cases", len(literalCases))
	}
	root := t.TempDir()
	var tr, page strings.Builder
	for i, c := range literalCases {
		fmt.Fprintf(&tr, "[c%d] case\n", i)
		var refs []string
		for j, v := range c.values {
			key := fmt.Sprintf("v%d", j)
			if n, ok := strings.CutSuffix(v, "tod"); ok {
				key, v = fmt.Sprintf("tod%d", j), n // a time of day: the manifest declares its unit
			}
			fmt.Fprintf(&tr, "%s=%s\n", key, v)
			refs = append(refs, fmt.Sprintf("s/t.c%d.%s", i, key))
		}
		fmt.Fprintf(&page, "[%s](ev:%s)\n\n", c.lit, strings.Join(refs, ","))
	}
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "t.txt"), []byte(tr.String()), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte("id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n[[transcript]]\nfile = \"t.txt\"\nname = \"t\"\nunits = { \"*.tod0\" = \"tod\" }\n"), 0o644))
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(page.String()))
	if perrs != nil {
		t.Fatal(perrs)
	}
	results, _ := Claims(p, st, DefaultOptions())
	if len(results) != len(literalCases) {
		t.Fatalf("%d results for %d cases", len(results), len(literalCases))
	}
	for i, r := range results {
		c := literalCases[i]
		if r.Claim.Literal != c.lit {
			t.Fatalf("case %d: literal %q parsed as %q", i, c.lit, r.Claim.Literal)
		}
		if r.OK != c.ok {
			t.Errorf("%q with %v: ok = %v, want %v", c.lit, c.values, r.OK, c.ok)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
