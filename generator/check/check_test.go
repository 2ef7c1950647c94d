package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		lit   string
		value string
		unit  string
		ok    bool
	}{
		{"44%", "43.9024390243902439", "%", true},
		{"44.0%", "43.9024390243902439", "%", false},
		{"43.9%", "43.9024390243902439", "%", true},
		{"51.7%", "51.7241379310344828", "%", true},
		{"51.7%", "51.75", "%", true},
		{"51.7%", "51.76", "%", false},
		{"0.21%", "0.2065404475043029", "%", true},
		{"0.2%", "0.2065404475043029", "%", true},
		{"0.20%", "0.2065404475043029", "%", false},
		{"56.1%", "56.0975609756097561", "%", true},
		{"86", "86", "", true},
		{"40초", "40", "", false},
		{"+1", "1", "", false},
		{"44초", "43.9", "%", false},
		{"400KB", "409610", "B", false},
		{"85", "86", "", false},
		{"+1", "+1", "", true},
		{"+2", "+1", "", false},
		{"Δ0", "Δ0", "", true},
		{"Δ0", "Δ1", "", false},
		{"40초", "40.045811", "s", true},
		{"40.05초", "40.045811", "s", true},
		{"40.04초", "40.045811", "s", false},
		{"약 40초", "43", "s", true},
		{"약 40초", "45", "s", false},
		{"~5 s", "5", "s", true},
		{"~5 s", "5.4", "s", true},
		{"1.5초", "1500", "ms", true},
		{"1500ms", "1.5", "s", true},
		{"1500ms", "1500", "ms", true},
		{"409610바이트", "409610", "B", true},
		{"409611바이트", "409610", "B", false},
	}
	opt := DefaultOptions()
	for _, tt := range tests {
		l, err := literal.ParseLiteral(tt.lit)
		if err != nil {
			t.Fatalf("%q: %v", tt.lit, err)
		}
		n, ok := raw.ParseCell(tt.value + tt.unit)
		if !ok {
			t.Fatalf("value %q", tt.value+tt.unit)
		}
		v := &evidence.Value{Value: n.Value, Unit: n.Unit, Delta: n.Signed}
		ok, want := Match(l.Quantities[0], l.Approx, v, opt)
		if ok != tt.ok {
			t.Errorf("Match(%q, %s%s) = %v (%s), want %v", tt.lit, tt.value, tt.unit, ok, want, tt.ok)
		}
	}
}

func TestApproxOption(t *testing.T) {
	l, _ := literal.ParseLiteral("약 40초")
	v := &evidence.Value{Value: decimal.RequireFromString("45"), Unit: "s"}
	opt := Options{Approx: decimal.RequireFromString("0.2")}
	if ok, _ := Match(l.Quantities[0], l.Approx, v, opt); !ok {
		t.Errorf("±20%% should accept 45 for 약 40초")
	}
}

func TestMismatchMessage(t *testing.T) {
	l, _ := literal.ParseLiteral("44.0%")
	v := &evidence.Value{Value: decimal.RequireFromString("43.9024"), Unit: "%"}
	_, want := Match(l.Quantities[0], l.Approx, v, DefaultOptions())
	if !strings.Contains(want, "43.9 at the precision written") {
		t.Errorf("want = %q", want)
	}
}

func TestNumberSplitByMarkup(t *testing.T) {
	p, errs := claim.Parse(claim.NewMarkdown(), "p.md", []byte("[9~9~9](ev:s/a) [8**6**](ev:s/a) [**86**](ev:s/a)\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	_, ds := Claims(p, &evidence.Store{}, DefaultOptions())
	var split int
	for _, d := range ds {
		if d.Rule == "claim-literal" && strings.Contains(d.Message, "split by inline markup") {
			split++
		}
	}
	if split != 2 {
		t.Errorf("diagnostics: %v", ds)
	}
}

// TestIdenticalClaimsOwnPositions: two identical claims on one page are
// reported at their own positions, each with the range of its number
// (issue 8).
func TestIdenticalClaimsOwnPositions(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "t.txt"), []byte("t=41s\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte("id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n[[transcript]]\nfile = \"t.txt\"\nname = \"r\"\n"), 0o644))
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	src := "응답은 [40초](ev:s/r.t), 다시 [40초](ev:s/r.t).\n[없음](ev:s/r.t) [없음](ev:s/r.t)\n"
	p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	if perrs != nil {
		t.Fatal(perrs)
	}
	_, ds := Claims(p, st, DefaultOptions())
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s-%d:%d %s", d.Pos, d.End.Line, d.End.Column, d.Rule))
	}
	want := []string{
		"p.md:1:12-1:17 claim-mismatch", "p.md:1:38-1:43 claim-mismatch", // byte columns
		"p.md:2:2-2:8 claim-literal", "p.md:2:21-2:27 claim-literal",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestScaleHint: a claim off by a power of 1000 from its value (a unit
// mistake) says which unit was meant, and gets no fix (issue 9, case 28).
func TestScaleHint(t *testing.T) {
	for _, tc := range []struct{ lit, value, unit, want string }{
		{"19.2s", "0.0192", "s", "written in s, evidence is 0.0192 s = 19.2 ms; did you mean ms?"},
		{"0.028ms", "0.0281", "s", "written in ms, evidence is 28.1 ms = 0.0281 s; did you mean s?"},
		{"100억 초", "10004567890", "ns", "did you mean ns?"},
		{"28ms", "28000", "us", ""},
		// The raw number is in a finer unit than the value's (curl 7.74.0
		// printed time_total in µs): said, never "no finer than 1000".
		{"75ms", "74602", "s", "75 ms vs 74602 s: 10⁶× apart; is the raw value in µs?"},
		{"74.6ms", "74602", "s", "10⁶× apart; is the raw value in µs?"},
		{"3s", "3000", "s", "3 s vs 3000 s: 10³× apart; is the raw value in ms?"},
	} {
		l, err := literal.ParseLiteral(tc.lit)
		if err != nil {
			t.Fatal(err)
		}
		v := &evidence.Value{Ref: "s/v", Value: decimal.RequireFromString(tc.value), Unit: tc.unit}
		ok, msg := Match(l.Quantities[0], l.Approx, v, DefaultOptions())
		if tc.want == "" {
			if !ok {
				t.Errorf("%s on %s %s: %s; want a match", tc.lit, tc.value, tc.unit, msg)
			}
			continue
		}
		if ok || !strings.Contains(msg, tc.want) {
			t.Errorf("%s on %s %s: ok=%v %q; want %q", tc.lit, tc.value, tc.unit, ok, msg, tc.want)
		}
	}
}

// TestHintNeverProposesTheClaimsUnit: a value without a unit is not
// "fixed" by declaring the claim's own unit (that made [0.028ms] pass on
// fortio seconds); the hint points at the raw file's unit instead.
func TestHintNeverProposesTheClaimsUnit(t *testing.T) {
	l, _ := literal.ParseLiteral("28ms")
	v := &evidence.Value{Ref: "f/h.p99", Value: decimal.RequireFromString("0.028")}
	ok, msg := Match(l.Quantities[0], l.Approx, v, DefaultOptions())
	if ok || strings.Contains(msg, `"ms"`) || !strings.Contains(msg, "the unit the raw file records") {
		t.Errorf("ok=%v %q", ok, msg)
	}
}

// TestUnitOutsideLink: a unit glued after a claim link ("[40](ev:…)ms") is
// not part of the literal, so the judgement would ignore it; it is a
// claim-unit-outside error at the unit, whatever the value. Counters,
// multiples and words that merely start with a unit's spelling are prose;
// a Korean/Japanese unit after a space, no-break space or in emphasis is
// still the claim's unit.
func TestUnitOutsideLink(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "t.txt"), []byte("t=40s n=40\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte("id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n[[transcript]]\nfile = \"t.txt\"\nname = \"r\"\n"), 0o644))
	st, errs := evidence.Load(root, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	tests := []struct {
		src  string
		want string // position and unit of the finding, "" for none
	}{
		{"다운로드는 [40](ev:s/r.n)ms짜리\n", `p.md:1:31 "ms"`},
		{"took [40](ev:s/r.n) ms\n", `p.md:1:21 "ms"`},
		{"[40](ev:s/r.n)초 걸렸다\n", `p.md:1:15 "초"`},
		{"[40](ev:s/r.n)秒かかった\n", `p.md:1:15 "秒"`},
		{"[40](ev:s/r.n)%\n", `p.md:1:15 "%"`},
		{"[40](ev:s/r.n)KB\n", `p.md:1:15 "KB"`},
		{"[40](ev:s/r.n)회 재시도\n", ""}, // a counter: a count binds to a plain number
		{"[40](ev:s/r.n)배\n", ""},     // a multiple
		{"[40](ev:s/r.n) 초\n", `p.md:1:16 "초"`},
		{"응답은 [40](ev:s/r.n) 밀리초\n", `p.md:1:26 "밀리초"`},
		{"[40](ev:s/r.n) 밀리초가 걸렸다\n", `p.md:1:16 "밀리초"`},
		{"[2](ev:s/r.n) 시간 동안\n", `p.md:1:15 "시간"`},
		{"[30](ev:s/r.n) 퍼센트\n", `p.md:1:16 "퍼센트"`},
		{"[40](ev:s/r.n) ミリ秒\n", `p.md:1:16 "ミリ秒"`},
		{"[2](ev:s/r.n) 時間かかった\n", `p.md:1:15 "時間"`},
		{"[40](ev:s/r.n)&nbsp;ms\n", `p.md:1:21 "ms"`},
		{"[40](ev:s/r.n)\u00a0ms\n", `p.md:1:17 "ms"`},
		{"[40](ev:s/r.n) *ms*\n", `p.md:1:17 "ms"`},
		{"[40](ev:s/r.n) **초**\n", `p.md:1:18 "초"`},
		{"[40](ev:s/r.n) 분\n", `p.md:1:16 "분"`},
		{"[40](ev:s/r.n) 건\n", ""},     // a counter keeps the count
		{"[40](ev:s/r.n) 번 재시도\n", ""}, // a counter
		{"[40](ev:s/r.n) 초과\n", ""},    // "more than 40", not seconds
		{"[3](ev:s/r.n) 분석\n", ""},     // a word starting with 분
		{"[3](ev:s/r.n) 주요 지표\n", ""},  // a word starting with 주
		{"[3](ev:s/r.n) 일부\n", ""},     // a word starting with 일
		{"[3](ev:s/r.n) 달라졌다\n", ""},   // a word starting with 달
		{"[3](ev:s/r.n) 분의 1\n", ""},   // a fraction
		{"[3](ev:s/r.n) 分析\n", ""},     // a word starting with 分
		{"[3](ev:s/r.n) 프로그램\n", ""},   // a word starting with 프로
		{"[40](ev:s/r.n)分の1\n", ""},    // a fraction, not minutes
		{"[40초](ev:s/r.t)초\n", ""},     // the literal has its unit
		{"[40](ev:s/r.n) minutes later\n", `p.md:1:16 "minutes"`},
		{"[40](ev:s/r.n) more requests\n", ""}, // not a unit word
		{"[40](ev:s/r.n) microseconds\n", `p.md:1:16 "microseconds"`},
		{"[40](ev:s/r.n) nanoseconds\n", `p.md:1:16 "nanoseconds"`},
		{"[1](ev:s/r.n) megabytes\n", `p.md:1:15 "megabytes"`},
		// 분: minutes after a numeral, spaced (the unit noun written
		// apart, as Korean spacing writes it) or not; the honorific
		// counter of persons only with 들/께.
		{"[3](ev:s/r.n) 분이 지났다\n", `p.md:1:15 "분"`},
		{"[3](ev:s/r.n)분이 지났다\n", `p.md:1:14 "분"`},
		{"[3](ev:s/r.n) 분을 기다렸다\n", `p.md:1:15 "분"`},
		{"[3](ev:s/r.n) 분간 재시도\n", `p.md:1:15 "분"`},
		{"[3](ev:s/r.n) 분들이 참석했다\n", ""},
		{"[3](ev:s/r.n)분들이 참석했다\n", ""},
		{"[3](ev:s/r.n) 분께서 답했다\n", ""},
		{"[3](ev:s/r.n) 분위기\n", ""}, // a word starting with 분
		// 分: minutes, unless it is the verb 分かる/分かれる.
		{"[3](ev:s/r.n)分かかった\n", `p.md:1:14 "分"`},
		{"[3](ev:s/r.n)分かけて転送\n", `p.md:1:14 "分"`},
		{"[3](ev:s/r.n) 分で終わる\n", `p.md:1:15 "分"`},
		{"[3](ev:s/r.n)分かる\n", ""},
		{"[3](ev:s/r.n) 分かった\n", ""},
		{"[3](ev:s/r.n)分かりにくい\n", ""},
		{"[3](ev:s/r.n)分かれる\n", ""},
		// A unit glued to the claim is still read by the word it starts:
		// 분할, 분기 (3분기 is the third quarter), 分割, 分析 are other
		// words; particles, bound nouns and kanji suffixes keep the unit.
		{"[3](ev:s/r.n)분할로 보냈다\n", ""},
		{"[3](ev:s/r.n)분기 실적\n", ""},
		{"[3](ev:s/r.n)분산\n", ""},
		{"[3](ev:s/r.n)분기점\n", ""},
		{"[40](ev:s/r.n)초과\n", ""},
		{"[3](ev:s/r.n)分割した\n", ""},
		{"[3](ev:s/r.n)分岐\n", ""},
		{"[3](ev:s/r.n)分析\n", ""},
		{"[3](ev:s/r.n)分散\n", ""},
		{"[3](ev:s/r.n)分子\n", ""},
		{"[3](ev:s/r.n)분간\n", `p.md:1:14 "분"`},
		{"[3](ev:s/r.n)분후\n", `p.md:1:14 "분"`},
		{"[3](ev:s/r.n)분.\n", `p.md:1:14 "분"`},
		{"[3](ev:s/r.n)분 30초\n", `p.md:1:14 "분"`},
		{"[3](ev:s/r.n)分間\n", `p.md:1:14 "分間"`},
		{"[3](ev:s/r.n)分。\n", `p.md:1:14 "分"`},
		{"[5](ev:s/r.n)秒後に\n", `p.md:1:14 "秒"`},
		{"[10](ev:s/r.n)分以内\n", `p.md:1:15 "分"`},
		{"[3](ev:s/r.n) 分間\n", `p.md:1:15 "分間"`},
	}
	for _, tt := range tests {
		p, perrs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(tt.src))
		if perrs != nil {
			t.Fatal(perrs)
		}
		_, ds := Claims(p, st, DefaultOptions())
		var got []string
		for _, d := range ds {
			if d.Rule == diag.ClaimUnitOutside {
				got = append(got, fmt.Sprintf("%s %q", d.Pos, tt.src[d.Pos.Offset:d.End.Offset]))
			}
		}
		if strings.Join(got, ";") != tt.want {
			t.Errorf("%q: got %q, want %q (all: %v)", tt.src, got, tt.want, ds)
		}
	}
}

// TestMismatchMessageCompound: a compound number (1만 2천, 1万2千) that does
// not match says the evidence value in full digits, not its rounded first
// part ("expected 1").
func TestMismatchMessageCompound(t *testing.T) {
	for _, tt := range []struct{ lit, val, want string }{
		{"1만 2천건", "1250", "1,250 at the precision written"},
		{"1万2千件", "1250", "1,250 at the precision written"},
		{"약 1만 2천건", "9800", "about 9,800 at the precision written"},
		{"12만", "9800", "1만 at the precision written"},
	} {
		l, err := literal.ParseLiteral(tt.lit)
		if err != nil {
			t.Fatal(err)
		}
		v := &evidence.Value{Value: decimal.RequireFromString(tt.val), Unit: "count"}
		ok, msg := Match(l.Quantities[0], l.Approx, v, DefaultOptions())
		if ok || msg != tt.want {
			t.Errorf("%s against %s: ok=%v %q, want %q", tt.lit, tt.val, ok, msg, tt.want)
		}
	}
}

// TestHalfStepMatchesDivision: halfStep equals q.Step().Div(2) for steps
// of every exponent around the division precision, and IsOne-guarded
// Step equals the product it replaces.
func TestHalfStepMatchesDivision(t *testing.T) {
	for dec := 0; dec <= 24; dec++ {
		for _, mag := range []decimal.Decimal{decimal.NewFromInt(1), decimal.NewFromInt(1000), decimal.NewFromInt(10000), decimal.New(1, -2), decimal.New(10, -1), {}} {
			q := literal.Quantity{Decimals: dec, Magnitude: mag}
			want := decimal.New(1, int32(-dec)).Mul(mag)
			if got := q.Step(); !got.Equal(want) || got.String() != want.String() {
				t.Errorf("Step(%d decimals, magnitude %v) = %v, want %v", dec, mag, got, want)
			}
			if got, want := halfStep(q), q.Step().Div(decimal.NewFromInt(2)); !got.Equal(want) || got.String() != want.String() {
				t.Errorf("halfStep(%d decimals, magnitude %v) = %v, want %v", dec, mag, got, want)
			}
		}
	}
}

// TestMatchClock: a clock time is read by truncation at every precision,
// as a clock shows it (14:03 stands for 14:03:00 up to 14:04, left out);
// approximate, it stands for the times nearest it. The evidence is
// 14:03:52.713 (50632.713 s since midnight).
func TestMatchClock(t *testing.T) {
	for _, tt := range []struct {
		lit string
		ok  bool
	}{
		{"14시", true}, {"15시", false}, {"13시", false}, {"午後2時", true}, {"오후 3시", false},
		{"14:03", true}, {"14:04", false}, {"14:02", false}, {"오후 2시 3분", true}, {"오후 2시 4분", false}, {"14時3分", true}, {"2:03 PM", true}, {"2:04 PM", false},
		{"14:03:52", true}, {"14:03:53", false}, {"14:03:51", false},
		{"14:03:52.7", true}, {"14:03:52.8", false}, {"14:03:52.71", true}, {"14:03:52.72", false}, {"14:03:52.713", true}, {"14:03:52.714", false},
		{"약 14:04", true}, {"약 14:03", true}, {"약 14:05", false}, {"약 14:02", false}, {"약 14시", true}, {"약 15시", false}, {"14시쯤", true},
		{"14:03:52 KST", true},
	} {
		l, err := literal.ParseLiteral(tt.lit)
		if err != nil {
			t.Fatalf("%q: %v", tt.lit, err)
		}
		v := &evidence.Value{Ref: "s/t", Value: decimal.RequireFromString("50632.713"), Unit: literal.ClockUnit}
		if ok, want := Match(l.Quantities[0], l.Approx, v, DefaultOptions()); ok != tt.ok {
			t.Errorf("Match(%q, 14:03:52.713) = %v (%s), want %v", tt.lit, ok, want, tt.ok)
		}
	}
	// the end of a truncated interval is left out: 14:04:00 is not 14:03
	l, _ := literal.ParseLiteral("14:03")
	if ok, _ := Match(l.Quantities[0], l.Approx, &evidence.Value{Value: decimal.NewFromInt(50640), Unit: literal.ClockUnit}, DefaultOptions()); ok {
		t.Error("14:03 matches 14:04:00")
	}
	// a range of clock times: from the first's start to the last's end
	l, _ = literal.ParseLiteral("14:00~14:03")
	v := &evidence.Value{Value: decimal.RequireFromString("50632.713"), Unit: literal.ClockUnit}
	if ok, want := MatchRange(l.Quantities[0], l.Quantities[1], l.Approx, v, DefaultOptions()); !ok {
		t.Errorf("14:00~14:03 does not contain 14:03:52.713: %s", want)
	}
}

// TestMismatchMessageClock: a mismatched clock time says the evidence
// value and what the claim should read as clock times in the claim's own
// style (meridiem, Korean or Japanese words, colons), never as seconds
// since midnight.
func TestMismatchMessageClock(t *testing.T) {
	for _, tt := range []struct{ lit, val, want string }{
		{"14:04", "50632.713", "expected 14:03 at the precision written; value 14:03:52.713"},
		{"오후 2시 4분", "50632.713", "expected 오후 2시 3분 at the precision written; value 오후 2시 3분 52.713초"},
		{"오전 11시", "50632.713", "expected 오후 2시 at the precision written; value 오후 2시 3분 52.713초"},
		{"午前8時16分", "29702.113", "expected 午前8時15分 at the precision written; value 午前8時15分2.113秒"},
		{"2:04 PM", "50632", "expected 2:03 PM at the precision written; value 2:03:52 PM"},
		{"12:30 AM", "43800", "expected 12:10 PM at the precision written; value 12:10:00 PM"},
		{"14:03:52.72", "50632.713", "expected 14:03:52.71 at the precision written; value 14:03:52.713"},
		{"１４:０４", "50632", "expected １４:０３ at the precision written; value １４:０３:５２"},
	} {
		l, err := literal.ParseLiteral(tt.lit)
		if err != nil {
			t.Errorf("%q: %v", tt.lit, err)
			continue
		}
		q := l.Quantities[0]
		v := &evidence.Value{Ref: "s/t", Value: decimal.RequireFromString(tt.val), Unit: literal.ClockUnit}
		ok, want := Match(q, l.Approx, v, DefaultOptions())
		got := "expected " + want + "; value " + valueText(&q, v)
		if ok || got != tt.want {
			t.Errorf("%s against %s: ok=%v\n got %q\nwant %q", tt.lit, tt.val, ok, got, tt.want)
		}
	}
}
