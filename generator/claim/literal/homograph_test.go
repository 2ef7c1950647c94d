package literal

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// A number word is a number only where the grammar is sure of it: a
// Korean determiner (한, 두 … 열) before a counter Korean writes after a
// native number, standing as a word of its own; a Korean numeral (하나,
// 둘 …) alone, never with a unit; とお not inside a longer word (とおり);
// a kanji numeral not with 番 (一番, "most"); "once" as a count, not as a
// conjunction.

// wordReading returns how WordNumbers reads text: each number as
// "VALUE UNIT [TEXT]".
func wordReading(text string) []string {
	var out []string
	for _, w := range WordNumbers(text, len(text)) {
		out = append(out, fmt.Sprintf("%s %s [%s]", w.Value, w.Unit, text[w.Start:w.End]))
	}
	return out
}

// TestNumberWordHomographs: ordinary words that start like a number word
// and a unit are no quantity; the counts they resemble still are.
func TestNumberWordHomographs(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // WordNumbers' reading, "; "-joined ("" for none)
	}{
		// Korean: a numeral takes no unit; 한 is also "did"
		{"하나 주의할 점", "1  [하나]"}, // one thing to note, not one week
		{"열 초과 시", "10  [열]"},   // over ten (or: column overflow), not ten seconds
		{"내가 한 일", ""},          // what I did
		{"내가 한 번역", ""},         // the translation I did
		{"두 개발자", ""},           // 개 + 발: a longer word
		{"세 분과 함께", ""},         // with three persons
		{"한 회의", ""},            // a meeting held
		{"열 번호", "10  [열]"},     // column number: 열 a bare numeral at most
		{"네 장애", ""},            // 장 + 애
		{"두 시가", ""},            // 시 is no duration
		{"한 분이 오셨다", ""},        // one person (honorific), not one minute
		{"열 초", "10  [열]"},      // seconds count in Sino-Korean numbers (십 초)
		// Korean counts
		{"두 번", "2 count [두 번]"},
		{"세 번의 시도", "3 count [세 번]"},
		{"두번", "2 count [두번]"},
		{"한 달", "1 mo [한 달]"},
		{"한 주의 시작", "1 wk [한 주]"},
		{"두 시간", "2 h [두 시간]"},
		{"열 명이", "10 count [열 명]"},
		{"다섯 단계", "5 count [다섯 단계]"},
		{"하나가", "1  [하나]"},
		// Japanese
		{"次のとおり", ""}, // as follows, not ten
		{"とおく", ""},   // far
		{"ひとつも", "1 count [ひとつ]"},
		{"ふたりで", "2 count [ふたり]"},
		{"一番速い", ""}, // fastest
		{"一番", ""},   // (the) most
		{"一回目", "1 count [一回]"},
		{"二回実行した", "2 count [二回]"}, // a counter runs on into a word
		{"ふたつある", "2 count [ふたつ]"},
		{"三日間", "3 d [三日間]"},
		{"一日中", "1 d [一日]"},
		{"一部", ""},
		// English
		{"once the pod restarts", ""},
		{"once a day", "1 count [once]"},
		{"only once.", "1 count [once]"},
		{"twice", "2 count [twice]"},
	} {
		if got := strings.Join(wordReading(tc.text), "; "); got != tc.want {
			t.Errorf("WordNumbers(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

// unitAt0 is the unit of the number word WordNumbers reads at the start
// of text, "" for none.
func unitAt0(text string) string {
	for _, w := range WordNumbers(text, len(text)) {
		if w.Start == 0 {
			return w.Unit
		}
	}
	return ""
}

// TestDeterminerCounterIsAWord holds for every Korean determiner and
// every Hangul unit word: glued to a syllable that starts no particle
// (번+역, 개+발, 주+간…) the unit is the start of a longer word and the
// determiner counts nothing; before a particle it counts, when
// Korean counts that unit with native numbers; a numeral (하나, 둘 …)
// never takes the unit.
func TestDeterminerCounterIsAWord(t *testing.T) {
	lx := &lexer{}
	var hangulUnits []string
	for _, w := range unit.Words() {
		if r, _ := utf8.DecodeRuneInString(w); scriptOf(r) == hangul && !strings.Contains(w, " ") {
			hangulUnits = append(hangulUnits, w)
		}
	}
	if len(hangulUnits) < 20 {
		t.Fatalf("only %d Hangul unit words", len(hangulUnits))
	}
	glued := []string{"역", "발", "선", "애", "석", "작"} // no particle starts with them
	for _, dv := range koDeterminerList {
		for _, uw := range hangulUnits {
			w, u := unit.Prefix(uw)
			if w != uw {
				continue // read as a longer or other unit word
			}
			for _, g := range glued {
				text := dv.word + " " + uw + g
				lx.s = text
				if lx.knownWord(len(dv.word) + 1 + len(uw)) {
					continue
				}
				if unitAt0(text) != "" {
					t.Errorf("WordNumbers(%q) = %v; want no count of %s (%s%s is a word)", text, wordReading(text), uw, uw, g)
				}
			}
			text := dv.word + " " + uw + "의"
			if want := nativeCounter(uw, u); want != (unitAt0(text) == u.Name) {
				t.Errorf("WordNumbers(%q) = %v; want a count of %s: %v", text, wordReading(text), uw, want)
			}
		}
	}
	for _, nv := range koNumeralList {
		if _, det := koDeterminers[nv.word]; det {
			continue // 다섯 … 열 are determiners too: the loop above
		}
		for _, uw := range hangulUnits {
			text := nv.word + " " + uw
			for _, w := range WordNumbers(text, len(text)) {
				if w.Unit != "" && w.Start == 0 {
					t.Errorf("WordNumbers(%q): the numeral %s read with unit %s", text, nv.word, w.Unit)
				}
			}
		}
	}
}
