package literal

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseLiteral(t *testing.T) {
	tests := []struct {
		lit    string
		want   string // "value/decimals/unit/delta" per number, space separated
		approx bool
	}{
		{"86/86", "86/0//false 86/0//false", false},
		{"44%", "44/0/%/false", false},
		{"51.7%→0.21%", "51.7/1/%/false 0.21/2/%/false", false},
		{"+1", "1/0//true", false},
		{"Δ0", "0/0//true", false},
		{"Δ+1", "1/0//true", false},
		{"−2", "-2/0//false", false},
		{"~5 s", "5/0/s/false", true},
		{"약 40초", "40/0/s/false", true},
		{"約40秒", "40/0/s/false", true},
		{"40秒ほど", "40/0/s/false", true},
		{"409610바이트", "409610/0/B/false", false},
		{"409610バイト", "409610/0/B/false", false},
		{"1500ms", "1500/0/ms/false", false},
		{"3회", "3/0/count/false", false},
		{"3回", "3/0/count/false", false},
		{"86件中86件", "86/0/count/false 86/0/count/false", false},
		{"86개 중 86개", "86/0/count/false 86/0/count/false", false},
		{"17→18", "17/0//false 18/0//false", false},
		{"８６％", "86/0/%/false", false},
		{"1,234", "1234/0//false", false},
		{"40.045811", "40.045811/6//false", false},
		// a rate prefix, then an approximation word, then the number
		{"초당 1,250건", "1250/0//s/false", false},
		{"약 초당 38건", "38/0//s/false", true},
		{"초당 약 38건", "38/0//s/false", true},
		{"毎秒約38件", "38/0//s/false", true},
		{"秒間約38件", "38/0//s/false", true},
		{"毎秒 およそ 38件", "38/0//s/false", true},
		// a size per second is a throughput
		{"1.23 MB/s", "1.23/2/MB/s/false", false},
		{"1.2MB/초", "1.2/1/MB/s/false", false},
		{"12.9MB/秒", "12.9/1/MB/s/false", false},
		{"초당 40KB", "40/0/KB/s/false", false},
		{"毎秒約3.5GiB", "3.5/1/GiB/s/false", true},
		{"498 kB per second", "498/0/KB/s/false", false},
		// a multiplier letter a tool prints (wrk's 2.76k): the number it
		// scales, at the precision written; a unit word that starts with
		// one (kB, Mi) stays a unit
		{"2.76k", "2760/2//false", false},
		{"2.76k req/s", "2760/2//s/false", false},
		{"1.20M", "1200000/2//false", false},
		{"3G", "3000000000/0//false", false},
		{"2.5k~3.31k", "2500/1//false 3310/2//false", false},
		{"약 2.8k", "2800/1//false", true},
		{"12Mi", "12/0/MiB/false", false},
		{"5kB", "5/0/KB/false", false},
	}
	for _, tt := range tests {
		l, err := ParseLiteral(tt.lit)
		if err != nil {
			t.Errorf("ParseLiteral(%q): %v", tt.lit, err)
			continue
		}
		var got []string
		for _, q := range l.Quantities {
			got = append(got, q.Value.String()+"/"+itoa(q.Decimals)+"/"+q.Unit+"/"+boolStr(q.Delta))
		}
		if strings.Join(got, " ") != tt.want || (l.Approx != "") != tt.approx {
			t.Errorf("ParseLiteral(%q) = %s approx=%v, want %s approx=%v", tt.lit, strings.Join(got, " "), l.Approx, tt.want, tt.approx)
		}
	}
}

func TestParseLiteralErrors(t *testing.T) {
	for _, lit := range []string{"없음", "", "1.30.0", "10.0.0.1", "MID1에서 +1", "40초/회", "3%/s", "40ms/초"} {
		if _, err := ParseLiteral(lit); err == nil {
			t.Errorf("ParseLiteral(%q) succeeded; want error", lit)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestQuantityFormat(t *testing.T) {
	tests := []struct{ lit, value, want string }{
		{"44%", "43.9024", "44"},
		{"51.7%", "52.1341", "52.1"},
		{"0.21%", "0.3", "0.30"},
		{"+1", "2", "+2"},
		{"+1", "-1", "-1"},
		{"−1", "-3", "−3"},
		{"Δ0", "0", "Δ0"},
		{"Δ0", "1", "Δ+1"},
		{"Δ+1", "0", "Δ0"},
		{"1,234", "12345", "12,345"},
		{"８６％", "87", "８７"},
		{"＋３", "1", "＋１"},
		{"－３", "-1", "－１"},
		{"약 40초", "45.2", "45"},
		{"40.045811", "40.1", "40.100000"},
		{"2.76k", "2814", "2.81"},
	}
	for _, tt := range tests {
		l, err := ParseLiteral(tt.lit)
		if err != nil {
			t.Fatal(err)
		}
		q := l.Quantities[0]
		if got := q.Format(decimal.RequireFromString(tt.value)); got != tt.want {
			t.Errorf("%q.Format(%s) = %q, want %q", tt.lit, tt.value, got, tt.want)
		}
	}
}

// TestGuideListsGrammarWords: the claim grammar page (docs/guide/claims.md) lists every
// approximation word, comparator, particle and number word the lexer knows.
func TestGuideListsGrammarWords(t *testing.T) {
	b, err := os.ReadFile("../../../docs/guide/claims.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.ReplaceAll(string(b), "\n", " ")
	var words []string
	for _, a := range approxWords {
		words = append(words, a.word)
	}
	for _, c := range cmpWords {
		words = append(words, c.word)
	}
	for w := range NumberWords() {
		words = append(words, w)
	}
	for _, sw := range signWords {
		words = append(words, sw.word)
	}
	for _, m := range meridiems {
		words = append(words, m.word)
	}
	words = append(words, timeZones...)
	for _, w := range words {
		if !strings.Contains(readme, "`"+w+"`") {
			t.Errorf("docs/guide/claims.md does not list %q", w)
		}
	}
	for _, p := range particles {
		if !strings.Contains(readme, " "+p+" ") && !strings.Contains(readme, "`"+p+" ") && !strings.Contains(readme, " "+p+"`") {
			t.Errorf("docs/guide/claims.md does not list particle %q", p)
		}
	}
}
