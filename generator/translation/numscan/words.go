package numscan

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

var (
	isoDateRe = regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})`)
	cjkDateRe = regexp.MustCompile(`^(?:(\d{4})\s*[年년]\s*)?(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日일])?`)
	clockRe   = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2}))?`)
	versionRe = regexp.MustCompile(`^v?\d+\.\d+\.\d+(?:[-+.\w]*)`)
	ipRe      = regexp.MustCompile(`^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?:/\d{1,2})?(?::\d+)?`)
	// a version after "v" or a version word: two parts are enough (v1.30)
	shortVersionRe = regexp.MustCompile(`^\d+(?:\.\d+)+(?:[-+][.\w]*)?`)
	// a Go or kubectl duration of two parts or more (1m30s, 1h2m3s, 143h25m)
	goDurationRe = regexp.MustCompile(`^(?:\d+(?:\.\d+)?(?:h|ms|us|µs|μs|ns|m|s)){2,}`)
	// an ISO 8601 duration (PT1M30S, P1DT2H)
	isoDurationRe = regexp.MustCompile(`^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$`)
	// a clock time written with words: 2시 3분, 14時3分5秒 (after 오후/午後)
	clockWordRe = regexp.MustCompile(`^(\d{1,2}) ?(?:시|時)(?: ?(\d{1,2}) ?(?:분|分))?(?: ?(\d{1,2}) ?(?:초|秒))?`)

	magnitudeOf = map[string]int64{"천": 1e3, "千": 1e3, "만": 1e4, "万": 1e4, "억": 1e8, "億": 1e8}

	// parityUnits maps each canonical unit of package unit to the base
	// unit parity compares it in and the factor to it.
	parityUnits = func() map[string]baseUnit {
		m := map[string]baseUnit{"": {"", decimal.NewFromInt(1)}, "count": {"", decimal.NewFromInt(1)}}
		// sizes: KB is 1000 B here (a translation writes 400KB as
		// 400キロバイト or 400,000バイト, never in KiB)
		sizes := map[string]int64{"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
		for _, name := range unit.Names() {
			if _, ok := m[name]; ok {
				continue
			}
			if f, ok := sizes[name]; ok {
				m[name] = baseUnit{"B", decimal.NewFromInt(f)}
				continue
			}
			if u, _ := unit.Canonical(name); u.Dim == unit.Time {
				f, _ := unit.Factor(name, "s")
				m[name] = baseUnit{"s", f}
				continue
			}
			if f, ok := unit.Factor(name, "core"); ok {
				m[name] = baseUnit{"core", f}
				continue
			}
			m[name] = baseUnit{name, decimal.NewFromInt(1)}
		}
		// a ratio (1 is all) compares in percent, as the judge converts
		// it: a claim [0.9975] of a ratio says what [99.75%] says
		m["ratio"] = baseUnit{"%", decimal.NewFromInt(100)}
		for name, bu := range m {
			bu.factor = shortest(bu.factor) // the same value, a short coefficient
			m[name] = bu
		}
		return m
	}()
	// extraUnits are words parity reads that package unit does not
	// spell (yet): Kubernetes' Ki/Mi/Gi, Korean 포인트, 단계 and 段階.
	extraUnits = map[string]string{"포인트": "%p", "단계": "count", "段階": "count", "Ki": "KiB", "Mi": "MiB", "Gi": "GiB"}

	// Qualifiers written before a number (the text ending at it) and
	// after it (the text starting after it and its unit).
	//
	// 최대, 最大, 최소, 最小 (and 最低) right before a number are read as
	// the claim grammar reads them (package claim's comparators), in both
	// languages alike: whether a sentence uses them as a noun (the minimum
	// was 5.1 ms) or as a bound (at least 5.1 ms), both say that no value
	// lies below (above) the number. So do the extremum nouns with a
	// particle (최솟값은, 最小値は: see extremumBefore).
	cmpBefore = []cmpWord{
		{"최대", "<="}, {"最大", "<="}, {"at most", "<="}, {"up to", "<="}, {"no more than", "<="}, {"not more than", "<="},
		{"최소", ">="}, {"最小", ">="}, {"最低", ">="}, {"少なくとも", ">="}, {"at least", ">="}, {"no less than", ">="}, {"not less than", ">="},
		{"more than", ">"}, {"greater than", ">"}, {"over", ">"}, {"above", ">"}, {"exceeding", ">"},
		{"less than", "<"}, {"fewer than", "<"}, {"under", "<"}, {"below", "<"},
		{"≥", ">="}, {">=", ">="}, {"≤", "<="}, {"<=", "<="}, {"<", "<"}, {">", ">"},
	}
	cmpAfter = []cmpWord{
		{"이상", ">="}, {"以上", ">="}, {"or more", ">="},
		{"이하", "<="}, {"以下", "<="}, {"까지", "<="}, {"まで", "<="}, {"이내", "<="}, {"以内", "<="}, {"안에", "<="}, {"내에", "<="}, {"or less", "<="}, {"or fewer", "<="},
		{"미만", "<"}, {"未満", "<"},
		{"초과", ">"}, {"超", ">"},
	}
	// cmpVerbs are the verbs of a bound after a number, with a particle
	// (을, 를, 이, 가, を, が) or none between: 30을 넘는, 30 넘게, 30을
	// 초과하는, 30を超える, 30超え, 30を上回る. Negated (30을 넘지 않는,
	// 30を超えない) they state the opposite bound: see cmpVerbAfter.
	cmpVerbs = []cmpWord{
		{"넘", ">"}, {"초과", ">"}, {"웃돌", ">"}, {"웃도", ">"}, {"상회", ">"}, {"밑돌", "<"}, {"밑도", "<"}, {"하회", "<"},
		{"超え", ">"}, {"超過", ">"}, {"越え", ">"}, {"上回", ">"}, {"下回", "<"},
	}
	// cmpNegations right after a verb of cmpVerbs negate it.
	cmpNegations = []string{
		"지 않", "지않", "지 못", "지못", "하지 않", "하지않", "하지 못", "하지못",
		"ない", "なかっ", "ず", "ません", "らない", "らなかっ", "らず", "りません", "しない", "しなかっ", "せず", "しません",
	}
	// cmpParticles may stand between a number and a verb of cmpVerbs.
	cmpParticles = []string{"을", "를", "이", "가", "を", "が"}
	// extremumWords are the words for the least and the greatest value,
	// read as the bound they state when they stand before a number with
	// a topic or subject particle, or none, between (see extremumBefore).
	extremumWords = []cmpWord{
		{"최솟값", ">="}, {"최소값", ">="}, {"최소치", ">="}, {"최저치", ">="}, {"최저", ">="}, {"최소", ">="},
		{"最小値", ">="}, {"最低値", ">="}, {"最小", ">="}, {"最低", ">="}, {"minimum", ">="},
		{"최댓값", "<="}, {"최대값", "<="}, {"최대치", "<="}, {"최대", "<="}, {"最大値", "<="}, {"最大", "<="}, {"maximum", "<="},
	}
	// extremumParticles may follow an extremum word before its number.
	extremumParticles = []string{"은", "는", "이", "가", "は", "が", ":", "：", "=", " is", " was", " of"}

	// The approximation words of the claim grammar (one list, package
	// claim's), by the side of the number they stand on.
	approxBefore, approxAfter, approxGlued = approxSides()

	// The qualifiers by the byte a text must end with (before a number)
	// or start with (after it) to hold them, in their lists' order.
	cmpBeforeByLast    = indexBy(cmpBefore, func(q cmpWord) byte { return q.word[len(q.word)-1] })
	cmpAfterByFirst    = indexBy(cmpAfter, func(q cmpWord) byte { return q.word[0] })
	approxBeforeByLast = indexBy(approxBefore, func(w literal.ApproxWord) byte { return w.Word[len(w.Word)-1] })
	approxAfterByFirst = indexBy(approxAfter, func(w literal.ApproxWord) byte { return w.Word[0] })
)

// baseUnit is the unit parity compares a unit's values in and the
// factor that takes a value there.
type baseUnit struct {
	name   string
	factor decimal.Decimal
}

// approxSides splits literal.ApproxWords by the side of the number they
// stand on; English words are matched in lower case.
func approxSides() (before, after, glued []literal.ApproxWord) {
	for _, w := range literal.ApproxWords() {
		w.Word = strings.ToLower(w.Word)
		switch {
		case w.Glued:
			glued = append(glued, w)
		case w.Before:
			before = append(before, w)
		default:
			after = append(after, w)
		}
	}
	// ≒ (nearly equal) is an approximation sign, as 約 and 약 are
	before = append(before, literal.ApproxWord{Word: "≒", Approx: literal.About, Before: true})
	return before, after, glued
}

// cmpWord is a comparator word and the comparator it states.
type cmpWord struct{ word, cmp string }

// indexBy groups xs by the byte key gives, keeping their order.
func indexBy[T any](xs []T, key func(T) byte) [256][]T {
	var ix [256][]T
	for _, x := range xs {
		k := key(x)
		ix[k] = append(ix[k], x)
	}
	return ix
}
