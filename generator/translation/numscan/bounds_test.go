package numscan

import (
	"strings"
	"testing"
)

// boundWords are prose numbers with a comparator word around them, in
// Korean, Japanese and English, and the bound each states; a bare number
// states none.
var boundWords = map[string][]struct{ text, cmp string }{
	"ko": {
		{"30 이하", "<="}, {"30 이내", "<="}, {"30초 안에", "<="}, {"30초 내에", "<="}, {"30까지", "<="}, {"최대 30", "<="}, {"최댓값은 30", "<="}, {"30을 넘지 않는", "<="}, {"30을 초과하지 않는", "<="},
		{"30 미만", "<"}, {"30을 밑도는", "<"},
		{"30 초과", ">"}, {"30을 넘는", ">"}, {"30 넘게", ">"}, {"30이 넘는", ">"}, {"30을 초과하는", ">"}, {"30을 웃도는", ">"},
		{"30 이상", ">="}, {"최소 30", ">="}, {"최솟값은 30", ">="}, {"최저 30", ">="}, {"30을 밑돌지 않는", ">="},
		{"30", ""},
	},
	"ja": {
		{"30以下", "<="}, {"30以内", "<="}, {"30まで", "<="}, {"最大30", "<="}, {"最大値は30", "<="}, {"30を超えない", "<="}, {"30を上回らない", "<="},
		{"30未満", "<"}, {"30を下回る", "<"},
		{"30超", ">"}, {"30を超える", ">"}, {"30超え", ">"}, {"30を超えた", ">"}, {"30を超過する", ">"}, {"30を上回る", ">"},
		{"30以上", ">="}, {"最小30", ">="}, {"最小値は30", ">="}, {"最低30", ">="}, {"少なくとも30", ">="}, {"30を下回らない", ">="},
		{"30", ""},
	},
	"en": {
		{"at most 30", "<="}, {"up to 30", "<="}, {"no more than 30", "<="}, {"not more than 30", "<="}, {"the maximum is 30", "<="},
		{"under 30", "<"}, {"less than 30", "<"}, {"fewer than 30", "<"}, {"below 30", "<"},
		{"over 30", ">"}, {"more than 30", ">"}, {"greater than 30", ">"}, {"above 30", ">"},
		{"at least 30", ">="}, {"no less than 30", ">="}, {"a minimum of 30", ">="},
		{"30", ""},
	},
}

// TestBoundWords: each comparator word is part of its number: the number
// reads the bound the word states, and two numbers in different
// languages agree exactly when they state the same bound (30 이하 and
// 30未満 disagree, ≤ against <; 30을 넘는 and 30を超える agree, both >),
// compared either way round.
func TestBoundWords(t *testing.T) {
	for lang, words := range boundWords {
		for _, w := range words {
			ns := ScanNumbers(w.text)
			if len(ns) != 1 || ns[0].Cmp != w.cmp || !ns[0].Value.Equal(ns[0].Value.Truncate(0)) || ns[0].Value.IntPart() != 30 {
				t.Errorf("%s %q: read %+v, want one number 30 with comparator %q", lang, w.text, ns, w.cmp)
			}
		}
	}
	langs := []string{"ko", "ja", "en"}
	for i, la := range langs {
		for _, lb := range langs[i+1:] {
			for _, a := range boundWords[la] {
				for _, b := range boundWords[lb] {
					want := Disagree
					if a.cmp == b.cmp {
						want = Agree
					}
					if got := CompareText(a.text, b.text); got != want {
						t.Errorf("%q vs %q: %v, want %v", a.text, b.text, got, want)
					}
					if got := CompareText(b.text, a.text); got != want {
						t.Errorf("%q vs %q: %v, want %v", b.text, a.text, got, want)
					}
				}
			}
		}
	}
}

// TestNotBounds: words that look like comparators but are not one
// around the number state no bound (a word inside another, a change that
// ended somewhere), and a comparator word is never read as a number.
func TestNotBounds(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // the keys read
	}{
		{"cover 30", []string{"30"}},
		{"recover 30", []string{"30"}},
		{"leftover 30", []string{"30"}},
		{"0.21%まで下がった", []string{"0.21|%"}},
		{"0.21%까지 떨어졌다", []string{"0.21|%"}},
		{"최대 처리량은 300", []string{"300"}}, // the noun is throughput, not the maximum
		{"3 초과", []string{">|3"}},        // 초 of 초과 is no second
		{"30초 이상", []string{">=|30|s"}},
		{"이하 3", []string{"3"}},
		{"하나 이상", nil},
		{"一つ以上の", []string{">=|1"}}, // a number word with its bound
		{"30을 넘버로", []string{"30"}},
	} {
		var got []string
		for _, n := range ScanNumbers(tc.text) {
			got = append(got, n.Key)
		}
		if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
			t.Errorf("%q: read %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestNumericSymbols: a Unicode numeric symbol is read (a fraction as
// its value, a circled or Roman numeral as a mark, another as a mark of
// its text), except a superscript or subscript after a letter, which is
// part of a unit or a name (m², H₂O).
func TestNumericSymbols(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"5m²", []string{"5|m"}},
		{"H₂O", nil},
		{"결과¹", []string{"mark:¹"}},
		{"③ 단계", []string{"mark:3"}},
		{"Ⅻ", []string{"mark:12"}},
		{"½", []string{"0.5"}},
		{"⅓", []string{"0.3333333333333333"}},
		{"〇", nil}, // the Han zero is a number word
		{"𐄇", []string{"mark:𐄇"}},
	} {
		var got []string
		for _, n := range ScanNumbers(tc.text) {
			got = append(got, n.Key)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: read %q, want %q", tc.text, got, tc.want)
		}
	}
}
