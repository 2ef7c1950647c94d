package check

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestLabelBefore: the label the text right before a claim names, and
// the texts that name none (where reading one would be a guess).
func TestLabelBefore(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"p50은 ", "p50"},
		{"결과: p90은 ", "p90"},
		{"p99 ", "p99"},
		{"p99: ", "p99"},
		{"P99.9는 ", "p99.9"},
		{"p999는 ", "p99.9"},
		{"k6의 p(95)는 ", "p95"},
		{"99th: ", "p99"},
		{"99퍼센타일은 ", "p99"},
		{"99パーセンタイルは", "p99"},
		{"、p90は", "p90"},
		{"p99 지연은 ", "p99"},
		{"p95レイテンシは", "p95"},
		{"p99 latency: ", "p99"},
		{"평균 ", "mean"},
		{"평균은 ", "mean"},
		{"平均は", "mean"},
		{"중앙값은 ", "p50"},
		{"中央値は", "p50"},
		{"최댓값은 ", "max"},
		{"最大値は", "max"},
		{"최대는 ", "max"},
		{"最大は", "max"},
		{"최소: ", "min"},
		// a bound, not a label: 최대 [3회] is at most 3
		{"재시도는 최대 ", ""},
		{"最大", ""},
		{"min ", ""},
		// no label right before the claim
		{"p50과 비교해 ", ""},
		{"[35ms]がp50、", ""},
		{"요청은 ", ""},
		{"p99는 p50의 ", ""}, // relative to the p50: not the p50
		{"p50の", ""},
		{"p99/p50 비율은 ", ""},
		{"p99 대비 ", ""},
		{"p2는 ", ""},       // a pod's name more often than a percentile
		{"top99는 ", ""},    // inside a word
		{"불평균은 ", ""},      // inside a word
		{"xlatency: ", ""}, // not the noun latency
		{"", ""},
	} {
		if got := LabelBefore(tc.text); got != tc.want {
			t.Errorf("LabelBefore(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestLabelOfName: the statistic a value's name (or raw key) names, and
// the names that name none or two.
func TestLabelOfName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"h.latency.p50", "p50"},
		{"h.latency.p90", "p90"},
		{"r.latency.p99_9", "p99.9"},
		{"http_req_duration.p(95)", "p95"},
		{"http_req_duration.p(99.9)", "p99.9"},
		{"latencies.99th", "p99"},
		{"latency_50_percent", "p50"},
		{"latency.percentile_90", "p90"},
		{"rq_time.median", "p50"},
		{"p.rtt.avg", "mean"},
		{"w.req_sec.avg", "mean"},
		{"k.http_req_duration.max", "max"},
		{"maximum_resident_set_size", "max"},
		{"p.rtt.min", "min"},
		{"p.gzip.mean_sd", ""},         // a spread, not the mean
		{"r.p99_over_p50", ""},         // two percentiles
		{"f.function_time.stddev", ""}, // a spread
		{"r.hop4.loss", ""},
		{"pod.p2.latency", ""}, // p2: a name
		{"r.s1.p99", "p99"},
		{"", ""},
	} {
		if got := LabelOfName(tc.name); got != tc.want {
			t.Errorf("LabelOfName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// percentileOracleRe is the percentile labels of text as a regular
// expression: percentileAtEnd reads them by hand (the expression,
// unanchored at its start, backtracked over every claim's line: a quarter
// of check's time) and is tested against it.
var percentileOracleRe = regexp.MustCompile(`(?i)(?:^|[^0-9a-z_.])(?:p(\d+(?:\.\d+)?)|p\((\d+(?:\.\d+)?)\)|(\d+(?:\.\d+)?) ?(?:th|퍼센타일|パーセンタイル|百分位|percentile))$`)

// labelBeforeOracle is LabelBefore with the expression and the whole
// text lowered.
func labelBeforeOracle(text string) string {
	atEnd := func(s string, particle bool) string {
		if m := percentileOracleRe.FindStringSubmatch(s); m != nil {
			return percentileLabel(m[1] + m[2] + m[3])
		}
		low := strings.ToLower(s)
		words := labelWords
		for pass := 0; pass < 2; pass++ {
			for _, w := range words {
				if strings.HasSuffix(low, w.word) && !gluedWord(low[:len(low)-len(w.word)], w.word) {
					return w.label
				}
			}
			if !particle {
				break
			}
			words = boundWords
		}
		return ""
	}
	s := strings.TrimRightFunc(text, unicode.IsSpace)
	particle := false
	for _, p := range labelParticles {
		if strings.HasSuffix(s, p) {
			s, particle = strings.TrimRightFunc(strings.TrimSuffix(s, p), unicode.IsSpace), true
			break
		}
	}
	if l := atEnd(s, particle); l != "" {
		return l
	}
	low := strings.ToLower(s)
	for _, n := range labelNouns {
		if strings.HasSuffix(low, n) && !glued(low[:len(low)-len(n)], n) {
			return atEnd(strings.TrimRightFunc(s[:len(s)-len(n)], unicode.IsSpace), true)
		}
	}
	return ""
}

// checkAgainstOracle fails when percentileAtEnd, lowerTail or
// LabelBefore read s otherwise than the expression and strings.ToLower.
func checkAgainstOracle(t *testing.T, s string) {
	t.Helper()
	want, wantOK := "", false
	if m := percentileOracleRe.FindStringSubmatch(s); m != nil {
		want, wantOK = m[1]+m[2]+m[3], true
	}
	if got, ok := percentileAtEnd(s); got != want || ok != wantOK {
		t.Errorf("percentileAtEnd(%q) = %q, %v; the expression reads %q, %v", s, got, ok, want, wantOK)
	}
	if low := lowerTail(s); !strings.HasSuffix(strings.ToLower(s), low) {
		t.Errorf("lowerTail(%q) = %q, not a suffix of the text lowered", s, low)
	}
	i, n := len(s), 0
	for i > 0 && n < tailRunes {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i, n = i-size, n+1
	}
	if low, want := lowerTail(s), strings.ToLower(s[i:]); low != want {
		t.Errorf("lowerTail(%q) = %q, want %q: its last %d runes lowered", s, low, want, tailRunes)
	}
	if got, want := LabelBefore(s), labelBeforeOracle(s); got != want {
		t.Errorf("LabelBefore(%q) = %q; with the expression and the whole text lowered %q", s, got, want)
	}
}

// TestPercentileAtEndEqualsExpression compares the hand reading of a
// percentile label with the expression on texts made to reach each of
// its branches, the ones a wrong reading would get wrong among them.
func TestPercentileAtEndEqualsExpression(t *testing.T) {
	heads := []string{"", " ", "x", "X", "_", ".", "-", "1", "가", "지연 ", "\u212A", "\u017F", "\xff", "응답 시간은 p", "a.", "1."}
	bodies := []string{"p99", "P99", "p99.9", "p.9", "p9.", "p(95)", "P(99.9)", "p()", "p(.5)", "p95)", "(95)",
		"99th", "99TH", "99 th", "99  th", "99.9th", ".9th", "99퍼센타일", "99 パーセンタイル", "99百分位", "99 percentile",
		"99PERCENTILE", "percentile", "th", "99", "p1.2.3", "pp99", "p99 ", "99tH", "1.5 percentile"}
	tails := []string{"", " 지연은 ", "는 ", ": ", "\u0130", "レイテンシは"}
	for _, h := range heads {
		for _, b := range bodies {
			for _, tl := range tails {
				checkAgainstOracle(t, h+b+tl)
			}
		}
	}
	if d, ok := percentileAtEnd("xp99"); ok {
		t.Errorf("percentileAtEnd(xp99) = %q: p99 glued to a letter is no label", d)
	}
	if d, ok := percentileAtEnd("지연 p(99.9)"); !ok || d != "99.9" {
		t.Errorf("percentileAtEnd(지연 p(99.9)) = %q, %v; want 99.9", d, ok)
	}
}

// FuzzLabels: LabelBefore and LabelOfName read any text without panic and
// return no label or one of the labels they document (p and a percentile
// from 10 to 100, mean, max, min).
func FuzzLabels(f *testing.F) {
	for _, s := range []string{"p50은 ", "p999는 ", "k6의 p(95)는 ", "99パーセンタイルは", "최대는 ", "h.latency.p99_9", "latencies.99th", "latency_50_percent", "p(99.9)", "p.", "p1.", "99th"} {
		f.Add(s)
	}
	valid := func(l string) bool {
		switch l {
		case "", "mean", "max", "min":
			return true
		}
		return percentileOracleRe.MatchString(l) && percentileLabel(l[1:]) == l
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAgainstOracle(t, s)
		if l := LabelBefore(s); !valid(l) {
			t.Errorf("LabelBefore(%q) = %q", s, l)
		}
		if l := LabelOfName(s); !valid(l) {
			t.Errorf("LabelOfName(%q) = %q", s, l)
		}
	})
}

// TestCachedLabelOfName: the cache gives LabelOfName's label, the second
// time too, and after it was emptied for being full.
func TestCachedLabelOfName(t *testing.T) {
	for _, name := range []string{"h.latency.p50", "rtt.avg", "mean_sd", "t.r15.pct", "h.latency.p50"} {
		for range 2 {
			if got, want := cachedLabelOfName(name), LabelOfName(name); got != want {
				t.Errorf("cachedLabelOfName(%q) = %q, LabelOfName %q", name, got, want)
			}
		}
	}
	for i := range maxNameLabels + 1 {
		cachedLabelOfName(fmt.Sprintf("v%d.p99", i))
	}
	if n := len(nameLabels.m); n > maxNameLabels {
		t.Errorf("the cache holds %d names, more than %d", n, maxNameLabels)
	}
	if got := cachedLabelOfName("latencies.99th"); got != "p99" {
		t.Errorf("cachedLabelOfName(latencies.99th) = %q after the cache was emptied, want p99", got)
	}
}

// TestLabelBeforeEndings: LabelBefore, which rejects a text whose last
// rune no label or noun ends with (endingsOf), reads what the oracle
// reads on every label word, bound word and noun of the lists, in lower,
// upper and title case, after a percentile, alone and before a
// particle: a rune missing from labelEnds makes one of them differ.
func TestLabelBeforeEndings(t *testing.T) {
	var words []string
	for _, w := range labelWords {
		words = append(words, w.word)
	}
	for _, w := range boundWords {
		words = append(words, w.word)
	}
	words = append(words, labelNouns...)
	found := 0
	for _, w := range words {
		for _, form := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			for _, head := range []string{"", "p99 ", "응답 ", "x"} {
				for _, tail := range append([]string{"", " ", "\u00a0"}, labelParticles...) {
					s := head + form + tail
					got, want := LabelBefore(s), labelBeforeOracle(s)
					if got != want {
						t.Errorf("LabelBefore(%q) = %q; the oracle reads %q", s, got, want)
					}
					if want != "" {
						found++
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no text of the lists names a label: the test compares nothing")
	}
}

// TestOwnLower: every rune ownLower calls its own lower case is one
// strings.ToLower leaves as it is, and an invalid byte is not one.
func TestOwnLower(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		if s := string(r); ownLower(r, len(s)) && strings.ToLower(s) != s {
			t.Fatalf("ownLower(%U) but strings.ToLower gives %q", r, strings.ToLower(s))
		}
	}
	if ownLower(utf8.RuneError, 1) {
		t.Error("ownLower(RuneError, 1): strings.ToLower replaces an invalid byte")
	}
	for _, s := range []string{"\xff", "a\xe3\x81", "지연\xed", "p99 \x80"} {
		if low := lowerTail(s); low != strings.ToLower(s) {
			t.Errorf("lowerTail(%q) = %q, want %q", s, low, strings.ToLower(s))
		}
	}
}

// TestParticlesOneRune: isParticle reports exactly the runes of
// labelParticles, each of which is one rune (LabelBefore tests the last
// rune of a text for a particle, not each particle as a suffix).
func TestParticlesOneRune(t *testing.T) {
	set := map[rune]bool{}
	for _, p := range labelParticles {
		r, size := utf8.DecodeRuneInString(p)
		if size != len(p) {
			t.Errorf("particle %q is more than one rune", p)
		}
		set[r] = true
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if isParticle(r) != set[r] {
			t.Errorf("isParticle(%q) = %v, labelParticles say %v", r, isParticle(r), set[r])
		}
	}
}

// TestTrimSpaceRight: trimSpaceRight trims what strings.TrimRightFunc
// with unicode.IsSpace trims, for every rune at the end of a text.
func TestTrimSpaceRight(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		for _, s := range []string{string(r), "a" + string(r), string(r) + " \t", "가 " + string(r) + string(r)} {
			if got, want := trimSpaceRight(s), strings.TrimRightFunc(s, unicode.IsSpace); got != want {
				t.Fatalf("trimSpaceRight(%q) = %q, want %q", s, got, want)
			}
		}
	}
	for _, s := range []string{"", "\xff", "a\xff ", "a\xe3\x80", " \xe3\x80\x80", "\u3000\u00a0\u0085x\u2028"} {
		if got, want := trimSpaceRight(s), strings.TrimRightFunc(s, unicode.IsSpace); got != want {
			t.Errorf("trimSpaceRight(%q) = %q, want %q", s, got, want)
		}
	}
}
