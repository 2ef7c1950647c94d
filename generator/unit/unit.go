// Package unit owns evdoc's units of measure: their canonical names, the
// Korean, Japanese and English words that spell them, their dimensions,
// the conversions between them, the counter words that mark a count, and
// the unit algebra of derived values. It is a leaf package: it imports
// nothing of evdoc, so claims, readers and derived values share it.
//
// Canonical names (what a Value.Unit or a parsed claim carries):
//
//	""                      plain number
//	ratio %                 a ratio (1 is all) and a percent (1 ratio = 100 %; convert into each other)
//	%p                      percentage points: a difference of two percentages (compares only with %p)
//	ns us ms s min h d wk   time (convert into each other)
//	mo yr                   calendar months and years (lengths vary: never convert)
//	B KiB MiB GiB TiB       binary sizes (powers of 1024)
//	KB MB GB TB             decimal sizes (SI: powers of 1000); every size converts into every other
//	core mcore ucore ncore  CPU (Kubernetes quantities: 74m, 329087452n; convert into each other)
//	/s                      per second (a rate)
//	B/s KiB/s MiB/s GiB/s TiB/s KB/s MB/s GB/s TB/s  bytes per second (throughput; convert as their sizes do)
//	count                   a count written with a counter word (회, 回, 件, 개, …)
//	x                       a multiple (배, 倍, ×)
//	tod                     a time of day in seconds since midnight (a clock time: 14:03:22)
package unit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Dim is the dimension of a unit: only units of the same dimension can
// be compared.
type Dim string

// Dimensions.
const (
	Plain      Dim = ""           // a plain number
	Percent    Dim = "percent"    // ratio and %
	Points     Dim = "points"     // %p
	Time       Dim = "time"       // ns … wk
	Calendar   Dim = "calendar"   // mo, yr
	Size       Dim = "size"       // B … TiB, KB … TB
	CPU        Dim = "cpu"        // core, mcore, ucore, ncore
	Rate       Dim = "rate"       // /s
	Throughput Dim = "throughput" // bytes per second: B/s … TiB/s, KB/s … TB/s
	Count      Dim = "count"      // counter words
	Multiple   Dim = "multiple"   // 배, 倍, x
	Clock      Dim = "clock"      // tod: a time of day, seconds since midnight
	// Ambiguous is the dimension of a word that spells units of several
	// dimensions ("m": minutes or millicores); see Resolve.
	Ambiguous Dim = "ambiguous"
)

// ambiguous maps a unit word that spells units of several dimensions to
// those units: "m" is minutes in a Go or kubectl duration (1m30s, 3h58m)
// and millicores in a Kubernetes CPU quantity (74m). The unit of the
// value a literal is compared with decides (Resolve).
var ambiguous = map[string][]string{"m": {"min", "mcore"}}

// Resolve returns the unit that literal unit lit stands for when compared
// with a value in unit val: for an ambiguous word ("m"), its reading of
// val's dimension ("min" for a value in s, "mcore" for one in ncore);
// otherwise, or when no reading fits, lit itself.
func Resolve(lit, val string) string {
	cands, ok := ambiguous[lit]
	if !ok {
		return lit
	}
	if v, ok := canonical[val]; ok {
		for _, c := range cands {
			if canonical[c].Dim == v.Dim && v.Dim != Plain {
				return c
			}
		}
	}
	return lit
}

// Unit is one canonical unit.
type Unit struct {
	// Name is the canonical name (see the package doc).
	Name string
	// Dim is its dimension.
	Dim Dim
	// Scale is the size of the unit in its dimension's base unit (a
	// second, a byte, a core, a ratio of 1); zero for a unit that does
	// not convert (mo, yr: no fixed length; %p).
	Scale decimal.Decimal
}

// Converts reports whether u converts to other units of its dimension
// (time units, sizes, throughputs, CPU units, ratio and % do).
func (u Unit) Converts() bool { return !u.Scale.IsZero() }

var canonical = func() map[string]Unit {
	m := map[string]Unit{"": {Name: "", Dim: Plain}}
	add := func(d Dim, names ...string) {
		for _, n := range names {
			m[n] = Unit{Name: n, Dim: d}
		}
	}
	add(Points, "%p")
	add(Calendar, "mo", "yr")
	m["ratio"] = Unit{Name: "ratio", Dim: Percent, Scale: decimal.NewFromInt(1)}
	m["%"] = Unit{Name: "%", Dim: Percent, Scale: decimal.New(1, -2)}
	add(Rate, "/s")
	add(Count, "count")
	add(Multiple, "x")
	add(Clock, "tod")
	for n, s := range map[string]decimal.Decimal{
		"ns": decimal.New(1, -9), "us": decimal.New(1, -6), "ms": decimal.New(1, -3), "s": decimal.NewFromInt(1),
		"min": decimal.NewFromInt(60), "h": decimal.NewFromInt(3600), "d": decimal.NewFromInt(86400), "wk": decimal.NewFromInt(7 * 86400),
	} {
		m[n] = Unit{Name: n, Dim: Time, Scale: s}
	}
	for n, s := range map[string]decimal.Decimal{"B": decimal.NewFromInt(1), "KiB": decimal.NewFromInt(1 << 10), "MiB": decimal.NewFromInt(1 << 20), "GiB": decimal.NewFromInt(1 << 30), "TiB": decimal.NewFromInt(1 << 40),
		"KB": decimal.New(1, 3), "MB": decimal.New(1, 6), "GB": decimal.New(1, 9), "TB": decimal.New(1, 12)} {
		m[n] = Unit{Name: n, Dim: Size, Scale: s}
	}
	for n, u := range m {
		if u.Dim == Size {
			m[n+"/s"] = Unit{Name: n + "/s", Dim: Throughput, Scale: u.Scale}
		}
	}
	for n, s := range map[string]decimal.Decimal{"core": decimal.NewFromInt(1), "mcore": decimal.New(1, -3), "ucore": decimal.New(1, -6), "ncore": decimal.New(1, -9)} {
		m[n] = Unit{Name: n, Dim: CPU, Scale: s}
	}
	return m
}()

// spellings maps each canonical name to the words that write it, in
// English, Korean and Japanese. Counter words all mean "count".
var spellings = map[string][]string{
	"%":     {"%", "％", "percent", "퍼센트", "프로", "パーセント"},
	"%p":    {"%p", "％p", "pp", "퍼센트포인트", "퍼센트 포인트", "%포인트", "パーセントポイント", "ポイント"},
	"ns":    {"ns", "nsec", "nanoseconds", "nanosecond", "나노초", "ナノ秒"},
	"us":    {"us", "μs", "µs", "usec", "microseconds", "microsecond", "마이크로초", "マイクロ秒"},
	"ms":    {"ms", "msec", "milliseconds", "millisecond", "밀리초", "ミリ秒"},
	"s":     {"s", "sec", "secs", "seconds", "second", "초", "秒", "秒間"},
	"min":   {"min", "mins", "minutes", "minute", "분", "分", "分間"},
	"h":     {"h", "hr", "hrs", "hours", "hour", "시간", "時間"},
	"d":     {"days", "day", "일", "日", "日間"},
	"wk":    {"weeks", "week", "주", "주일", "週", "週間"},
	"mo":    {"months", "month", "개월", "달", "ヶ月", "か月", "カ月", "ヵ月", "ケ月", "箇月", "月"},
	"yr":    {"years", "year", "년", "年", "年間"},
	"B":     {"B", "bytes", "byte", "바이트", "バイト"},
	"KB":    {"KB", "kB", "kilobytes", "kilobyte", "킬로바이트", "キロバイト"},
	"KiB":   {"KiB", "Ki", "키비바이트", "キビバイト"},
	"MB":    {"MB", "megabytes", "megabyte", "메가바이트", "メガバイト"},
	"MiB":   {"MiB", "Mi", "메비바이트", "メビバイト"},
	"GB":    {"GB", "gigabytes", "gigabyte", "기가바이트", "ギガバイト"},
	"TB":    {"TB", "terabytes", "terabyte", "테라바이트", "テラバイト"},
	"GiB":   {"GiB", "Gi", "기비바이트", "ギビバイト"},
	"TiB":   {"TiB", "Ti", "테비바이트", "テビバイト"},
	"core":  {"cores", "core", "코어", "コア"},
	"mcore": {"millicores", "millicore", "mcores", "밀리코어", "ミリコア"},
	"ucore": {"microcores", "microcore", "마이크로코어", "マイクロコア"},
	"ncore": {"nanocores", "nanocore", "n", "나노코어", "ナノコア"},
	"/s":    {"/s", "/sec", "rps", "qps", "req/s"},
	"x":     {"x", "×", "배", "倍"},
	"count": Counters,
}

// Counters are the counter words: a number followed by one is a count and
// binds to a plain number. Korean: 회 건 개 번 명 대 차례 가지 곳 줄 개소
// 단계 장 호 마리 원; Japanese: 回 件 個 つ 人 名 台 番 度 本 枚 行 種類 箇所
// か所 ヶ所 号 円 (a currency amount is a plain number with its word);
// English: times.
var Counters = []string{
	"회", "건", "개", "번", "명", "대", "차례", "가지", "곳", "줄", "개소", "단계", "장", "호", "마리", "원",
	"回", "件", "個", "つ", "人", "名", "台", "番", "度", "本", "枚", "行", "種類", "箇所", "か所", "ヶ所", "号", "円",
	"times",
}

// toolWords are the unit words tools print that no claim spelling
// covers: iperf's KBytes, MBytes and GBytes (binary: 1024-based), the
// words of a size or throughput with "/sec" (MB/sec), "Bytes".
var toolWords = map[string]string{
	"KBytes": "KiB", "MBytes": "MiB", "GBytes": "GiB", "TBytes": "TiB", "Bytes": "B",
	"KiBytes": "KiB", "MiBytes": "MiB", "GiBytes": "GiB",
}

// ToolWord returns the canonical unit a unit word printed by a tool
// means, from the one vocabulary every reader shares: every spelling of
// this package (ms, µs, usec, nsec, secs, min, bytes, kB, Ki, %, …), a
// size with /s, /sec or ps (KiB/s, kB/s, MB/sec: a throughput), and the
// tool words of toolWords (iperf's KBytes). It reports false for a word
// outside the vocabulary (Mbits/sec: bits have no unit here), which a
// reader reports at its position rather than drop. A format that defines
// a word otherwise (wrk's KB is 1024 B) says so in its reader; the
// dimension stays the vocabulary's.
func ToolWord(w string) (string, bool) {
	if n, ok := toolWords[w]; ok {
		return n, true
	}
	for _, per := range []string{"/s", "/sec", "ps"} {
		if size, ok := strings.CutSuffix(w, per); ok && size != "" {
			if n, ok := ToolWord(size); ok {
				if u := canonical[n]; u.Dim == Size {
					return n + "/s", true
				}
			}
			if per != "ps" && (size == "req" || size == "requests" || size == "ops") {
				return "/s", true
			}
		}
	}
	if w == "" || w == "x" || w == "×" || w == "count" {
		return "", false // not a unit a tool prints after a measurement
	}
	u, ok := Lookup(w)
	if !ok || u.Dim == Ambiguous || u.Name == "count" || u.Dim == Multiple {
		return "", false
	}
	return u.Name, true
}

// PerOperation is the suffix of the per-operation units Go benchmarks
// print (ns/op, B/op, allocs/op): a number written with it compares in
// the unit before it (24,889ns/op in ns).
const PerOperation = "/op"

// OpCounter returns "allocs" when s starts with "allocs/op", the count of
// allocations a Go benchmark prints per operation, and "" otherwise: the
// word is a counter only before /op.
func OpCounter(s string) string {
	if strings.HasPrefix(s, "allocs"+PerOperation) {
		return "allocs"
	}
	return ""
}

// RatePrefixes are the words written before a number that make it a rate
// per second: 초당 1,250건, 毎秒1,250件, 秒間1,250件.
var RatePrefixes = []string{"초당", "毎秒", "每秒", "秒間", "秒あたり"}

// PerSecond are the words that make "N word/PER" a rate when written after
// a "/": 1,250건/초, 1,250件/秒, 1,250/sec.
var PerSecond = []string{"초", "秒", "s", "sec"}

type entry struct {
	word string
	unit Unit
}

// words is every spelling, longest first, so that a prefix match finds
// "ms" before "s" and "개월" before "개".
var words = func() []entry {
	var es []entry
	for name, ws := range spellings {
		for _, w := range ws {
			es = append(es, entry{w, canonical[name]})
		}
	}
	for w := range ambiguous {
		es = append(es, entry{w, Unit{Name: w, Dim: Ambiguous}})
	}
	sort.Slice(es, func(i, j int) bool {
		if len(es[i].word) != len(es[j].word) {
			return len(es[i].word) > len(es[j].word)
		}
		return es[i].word < es[j].word
	})
	return es
}()

// wordsByByte lists the entries of words by the first byte of their word,
// in the order of words: Prefix tries only those a text can start with.
var wordsByByte = func() (ix [256][]entry) {
	for _, e := range words {
		ix[e.word[0]] = append(ix[e.word[0]], e)
	}
	return ix
}()

// resolve2 resolves whichever of a and b is ambiguous against the other.
func resolve2(a, b string) (string, string) {
	return Resolve(a, b), Resolve(b, a)
}

// Canonical returns the unit with canonical name name.
func Canonical(name string) (Unit, bool) {
	u, ok := canonical[name]
	return u, ok
}

// Names returns the canonical names, sorted, without the plain "".
func Names() []string {
	var out []string
	for n := range canonical {
		if n != "" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Spellings returns the words that write canonical unit name, in the
// order English, Korean, Japanese as listed in this package.
func Spellings(name string) []string { return append([]string(nil), spellings[name]...) }

// Lookup returns the unit a word spells ("초" → s, "件" → count). The
// canonical names are spellings of themselves.
func Lookup(word string) (Unit, bool) {
	for _, e := range words {
		if e.word == word {
			return e.unit, true
		}
	}
	if u, ok := canonical[word]; ok && word != "" {
		return u, true
	}
	return Unit{}, false
}

// Prefix returns the longest unit word that s starts with and its unit,
// or "" when s starts with none. Latin words must end at a non-letter
// ("ms" in "ms," but not "s" in "sec2" or "min" in "mine").
func Prefix(s string) (string, Unit) {
	if s == "" {
		return "", Unit{}
	}
	for _, e := range wordsByByte[s[0]] {
		if !strings.HasPrefix(s, e.word) {
			continue
		}
		last := e.word[len(e.word)-1]
		if isLatin(last) && len(s) > len(e.word) && isLatin(s[len(e.word)]) {
			continue
		}
		return e.word, e.unit
	}
	return "", Unit{}
}

func isLatin(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Compatible reports whether a number written in unit lit can be compared
// with a value in unit val: equal units; a literal with no unit; a count
// or multiple of a plain number; two units of one dimension that convert
// (time, sizes, throughputs, CPU, ratio and %). An ambiguous word ("m") is
// read in val's dimension (Resolve). A literal with a physical unit
// cannot bind to a value whose unit is unknown; % and %p (a percent and
// percentage points) are not comparable.
func Compatible(lit, val string) bool {
	lit, val = resolve2(lit, val)
	switch {
	case lit == "" || lit == val:
		return true
	case lit == "count" || lit == "x":
		return val == ""
	case val == "" || val == "count":
		return false
	}
	a, ok1 := canonical[lit]
	b, ok2 := canonical[val]
	if !ok1 || !ok2 {
		return false
	}
	return a.Dim == b.Dim && a.Converts() && b.Converts()
}

// Binary returns the binary size unit of the same rank as a decimal one
// (KB → KiB, MB/s → MiB/s), and false for any other unit: a decimal size
// converts with SI factors (1 MB = 10⁶ B), and a claim that matches only
// under the binary reading is reported with both readings.
func Binary(u string) (string, bool) {
	base, rate := strings.CutSuffix(u, "/s")
	b, ok := map[string]string{"KB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB"}[base]
	if !ok {
		return "", false
	}
	if rate {
		b += "/s"
	}
	return b, true
}

// Factor returns the number to multiply a value in unit from by to get it
// in unit to: 1000 for s → ms, 1024 for MiB → KiB. Units of one
// dimension convert when both have a Scale; equal units give 1.
func Factor(from, to string) (decimal.Decimal, bool) {
	from, to = resolve2(from, to)
	if from == to {
		return decimal.NewFromInt(1), true
	}
	a, ok1 := canonical[from]
	b, ok2 := canonical[to]
	if !ok1 || !ok2 || a.Dim != b.Dim || !a.Converts() || !b.Converts() {
		return decimal.Decimal{}, false
	}
	return a.Scale.DivRound(b.Scale, 28), true
}

// Convert returns v, in unit from, expressed in unit to. It reports false
// when the units do not convert (see Factor).
func Convert(v decimal.Decimal, from, to string) (decimal.Decimal, bool) {
	from, to = resolve2(from, to)
	if from == to {
		return v, true
	}
	a, ok1 := canonical[from]
	b, ok2 := canonical[to]
	if !ok1 || !ok2 || a.Dim != b.Dim || !a.Converts() || !b.Converts() {
		return v, false
	}
	return v.Mul(a.Scale).DivRound(b.Scale, 28), true
}

// Sum returns the unit of a sum, difference, delta, min, max or mean of
// operands in units us (op names the operation in the error); see Common.
func Sum(op string, us ...string) (string, error) {
	u, err := Common(op, us...)
	return u, err
}

// Common returns the unit in which operands in units us are added,
// subtracted or compared (op names the operation in the error): their one
// unit, which a plain number (a constant such as the 1 in "x - 1") takes;
// for units of one dimension that convert (ms and us, KiB and B, ratio and
// %), the finest of them when every other is a whole multiple of it (s,
// ms, us → us; ratio, % → %), else the dimension's base unit, so that
// converting every operand into it (Convert) stays exact. A plain operand
// among several units, or units that do not convert into each other, is
// an error. A percentage (%) plus or minus percentage points (%p) is a
// percentage.
func Common(op string, us ...string) (string, error) {
	u, mixed, plain := "", false, false
	for _, x := range us {
		switch {
		case x == "":
			plain = true
		case u == "" || x == u:
			u = x
		default:
			mixed = true
		}
	}
	if !mixed {
		return u, nil
	}
	var dim Dim
	best := Unit{}
	pointsAndPercent := true
	for _, x := range us {
		if x == "" {
			continue
		}
		pointsAndPercent = pointsAndPercent && (x == "%" || x == "%p")
	}
	if pointsAndPercent {
		return "%", nil
	}
	for _, x := range us {
		if x == "" {
			continue
		}
		c, ok := canonical[x]
		if !ok || !c.Converts() || dim != "" && c.Dim != dim {
			return "", fmt.Errorf("%s cannot combine %s; expected operands in one unit, or in units that convert into each other (ms and us, KiB and B, ratio and %%)", op, describeAll(us))
		}
		dim = c.Dim
		if best.Name == "" || c.Scale.LessThan(best.Scale) {
			best = c
		}
	}
	if plain {
		return "", fmt.Errorf("%s cannot combine a plain number with %s: its unit is unknown; expected operands in one unit, or constants with operands of one unit", op, describeAll(us))
	}
	for _, x := range us {
		if !canonical[x].Scale.Mod(best.Scale).IsZero() {
			for n, c := range canonical {
				if c.Dim == dim && c.Scale.Equal(decimal.NewFromInt(1)) {
					return n, nil
				}
			}
		}
	}
	return best.Name, nil
}

// Difference returns the units of a difference (a - b, delta) of operands
// in units us: the unit in to convert them into (Common) and the unit of
// the result. A difference of two values in percent or ratio is in
// percentage points: both are converted into % and the result is %p
// (52% - 44.6% is 7.4 %p). With a plain operand (a constant: 1 - ratio,
// 100 - %) the result keeps its unit, a complement and not a difference
// of percentages.
func Difference(op string, us ...string) (in, out string, err error) {
	in, err = Common(op, us...)
	if err != nil {
		return "", "", err
	}
	for _, x := range us {
		if c, ok := canonical[x]; !ok || c.Dim != Percent {
			return in, in, nil
		}
	}
	if len(us) == 0 {
		return in, in, nil
	}
	return "%", "%p", nil
}

// describeAll lists the distinct units of us for messages.
func describeAll(us []string) string {
	var out []string
	seen := map[string]bool{}
	for _, u := range us {
		if !seen[u] {
			seen[u] = true
			out = append(out, Describe(u))
		}
	}
	if len(out) == 2 {
		return out[0] + " and " + out[1]
	}
	return strings.Join(out, ", ")
}

// Product returns the unit of a * b: one factor must be a plain number.
func Product(a, b string) (string, error) {
	if a != "" && b != "" {
		return "", fmt.Errorf("cannot multiply %s by %s; expected one plain factor", a, b)
	}
	return a + b, nil
}

// Quotient returns the unit of a / b: equal units cancel, anything divided
// by a plain number keeps its unit, a count or plain number per second is
// a rate.
func Quotient(a, b string) (string, error) {
	switch {
	case a == b:
		return "", nil
	case a == "%p" && b == "%":
		return "", nil // a change in points over the percentage it is taken from
	case b == "":
		return a, nil
	case (a == "" || a == "count") && b == "s":
		return "/s", nil
	}
	return "", fmt.Errorf("cannot divide %s by %s; expected equal units, a plain divisor, or a count per second", Describe(a), Describe(b))
}

// PerSecondOf returns the throughput unit of size unit size ("MB" gives
// "MB/s", "KiB" "KiB/s"): what a claim's "40KB/s", "초당 40KB" or
// "40KB/秒" and a tool's "Transfer/sec: 12.89MB" mean. It reports false
// for a unit that is not a size.
func PerSecondOf(size string) (string, bool) {
	if u, ok := canonical[size]; ok && u.Dim == Size {
		return size + "/s", true
	}
	return "", false
}

// Describe names a unit for messages: "a plain number" for "".
func Describe(u string) string {
	if u == "" {
		return "a plain number"
	}
	return u
}

// Words returns every unit word (all spellings of all units, counters
// included), longest first.
func Words() []string {
	out := make([]string, len(words))
	for i, e := range words {
		out[i] = e.word
	}
	return out
}
