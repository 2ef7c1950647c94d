package unit

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{"초", "s"}, {"秒", "s"}, {"秒間", "s"}, {"seconds", "s"}, {"ms", "ms"}, {"ミリ秒", "ms"}, {"µs", "us"},
		{"년", "yr"}, {"年", "yr"}, {"개월", "mo"}, {"ヶ月", "mo"}, {"か月", "mo"}, {"킬로바이트", "KB"}, {"キロバイト", "KB"},
		{"메가바이트", "MB"}, {"건", "count"}, {"件", "count"}, {"回", "count"}, {"つ", "count"}, {"명", "count"}, {"台", "count"},
		{"배", "x"}, {"倍", "x"}, {"%", "%"}, {"퍼센트포인트", "%p"}, {"rps", "/s"}, {"count", "count"},
		{"Mi", "MiB"}, {"Gi", "GiB"}, {"Ki", "KiB"}, {"n", "ncore"}, {"코어", "core"}, {"コア", "core"}, {"m", "m"},
		{"microseconds", "us"}, {"usec", "us"}, {"nanosecond", "ns"}, {"nsec", "ns"}, {"kilobytes", "KB"}, {"megabyte", "MB"}, {"gigabytes", "GB"},
	} {
		u, ok := Lookup(tc.word)
		if !ok || u.Name != tc.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tc.word, u.Name, ok, tc.want)
		}
	}
	if _, ok := Lookup("살"); ok {
		t.Errorf("Lookup(살) found a unit")
	}
}

func TestPrefix(t *testing.T) {
	for _, tc := range []struct{ s, word, unit string }{
		{"ms 정도", "ms", "ms"}, {"개월", "개월", "mo"}, {"개로", "개", "count"}, {"秒間", "秒間", "s"}, {"sect", "", ""},
		{"mine", "", ""}, {"min,", "min", "min"}, {"퍼센트포인트", "퍼센트포인트", "%p"}, {"KiB", "KiB", "KiB"}, {"", "", ""},
	} {
		w, u := Prefix(tc.s)
		if w != tc.word || u.Name != tc.unit {
			t.Errorf("Prefix(%q) = %q, %q; want %q, %q", tc.s, w, u.Name, tc.word, tc.unit)
		}
	}
}

func TestCompatibleAndConvert(t *testing.T) {
	for _, tc := range []struct {
		lit, val string
		want     bool
	}{
		{"", "s", true}, {"s", "s", true}, {"ms", "s", true}, {"min", "us", true}, {"%", "%p", false}, {"%p", "%", false}, {"%p", "%p", true},
		{"%", "ratio", true}, {"ratio", "%", true}, {"%p", "ratio", false}, {"", "ratio", true}, {"x", "ratio", false}, {"count", "ratio", false},
		{"count", "", true}, {"x", "", true}, {"count", "s", false}, {"s", "", false}, {"s", "count", false},
		{"yr", "s", false}, {"mo", "d", false}, {"KB", "B", true}, {"/s", "/s", true}, {"s", "%", false},
		{"MiB", "KiB", true}, {"GiB", "B", true}, {"KiB", "KB", true}, {"MiB", "s", false}, {"core", "ncore", true},
		{"MB/s", "MB/s", true}, {"MiB/s", "KiB/s", true}, {"MiB/s", "B/s", true}, {"MB/s", "KB/s", true}, {"MB/s", "MB", false},
		{"MB/s", "/s", false}, {"KiB/s", "KB/s", true}, {"MB/s", "B/s", true}, {"TB", "TiB", true},
		{"m", "s", true}, {"m", "ncore", true}, {"m", "mcore", true}, {"m", "", false}, {"m", "B", false}, {"s", "ncore", false},
	} {
		if got := Compatible(tc.lit, tc.val); got != tc.want {
			t.Errorf("Compatible(%q, %q) = %v; want %v", tc.lit, tc.val, got, tc.want)
		}
	}
	for _, tc := range []struct {
		v, from, to, want string
		ok                bool
	}{
		{"1", "MiB/s", "KiB/s", "1024", true}, {"1", "MB/s", "KB/s", "1000", true}, {"12392708.7", "B/s", "MB/s", "12.3927087", true},
		{"1", "MiB", "MB", "1.048576", true}, {"1", "ratio", "%", "100", true}, {"0.01", "ratio", "%", "1", true}, {"99.5", "%", "ratio", "0.995", true},
		{"7.4", "%p", "%", "7.4", false}, {"7.4", "%", "%p", "7.4", false},
		{"0.0192", "s", "ms", "19.2", true}, {"1500", "ms", "s", "1.5", true}, {"2", "min", "s", "120", true},
		{"1", "wk", "d", "7", true}, {"5", "KB", "B", "5000", true}, {"5", "yr", "d", "5", false}, {"7", "%", "%", "7", true},
		{"351232", "KiB", "MiB", "343", true}, {"2", "GiB", "B", "2147483648", true}, {"329087452", "ncore", "mcore", "329.087452", true},
		{"3", "m", "s", "180", true}, {"74", "m", "ncore", "74000000", true}, {"180", "s", "m", "3", true}, {"1", "MiB", "s", "1", false},
		{"1", "s", "ncore", "1", false},
	} {
		got, ok := Convert(decimal.RequireFromString(tc.v), tc.from, tc.to)
		if ok != tc.ok || !got.Equal(decimal.RequireFromString(tc.want)) {
			t.Errorf("Convert(%s %s → %s) = %s, %v; want %s, %v", tc.v, tc.from, tc.to, got, ok, tc.want, tc.ok)
		}
	}
	if f, ok := Factor("s", "ms"); !ok || !f.Equal(decimal.NewFromInt(1000)) {
		t.Errorf("Factor(s, ms) = %s, %v", f, ok)
	}
}

func TestAlgebra(t *testing.T) {
	if u, err := Sum("+", "s", "", "s"); err != nil || u != "s" {
		t.Errorf("Sum = %q, %v", u, err)
	}
	// units that convert meet in the finest one every other is a whole
	// multiple of, so converting stays exact
	for _, tc := range []struct {
		us   []string
		want string
	}{
		{[]string{"s", "ms", "us"}, "us"}, {[]string{"ms", "us"}, "us"}, {[]string{"min", "s"}, "s"}, {[]string{"ratio", "%"}, "%"},
		{[]string{"KiB", "B"}, "B"}, {[]string{"MiB", "KiB"}, "KiB"}, {[]string{"KB", "KiB"}, "B"}, {[]string{"MB/s", "KiB/s"}, "B/s"},
		{[]string{"MB", "KB"}, "KB"}, {[]string{"%", "%p"}, "%"}, {[]string{"core", "mcore"}, "mcore"},
	} {
		if u, err := Common("+", tc.us...); err != nil || u != tc.want {
			t.Errorf("Common(%v) = %q, %v; want %q", tc.us, u, err, tc.want)
		}
	}
	for _, us := range [][]string{{"s", "B"}, {"ms", "", "us"}, {"mo", "d"}, {"%p", "ratio"}, {"s", "%"}, {"count", "s"}, {"yr", "mo"}} {
		if u, err := Common("+", us...); err == nil {
			t.Errorf("Common(%v) = %q; want an error", us, u)
		}
	}
	// a difference of two percentages is in points; with a constant (1 - ratio) it is a complement
	for _, tc := range []struct {
		us      []string
		in, out string
	}{
		{[]string{"%", "%"}, "%", "%p"}, {[]string{"ratio", "ratio"}, "%", "%p"}, {[]string{"ratio", "%"}, "%", "%p"},
		{[]string{"", "ratio"}, "ratio", "ratio"}, {[]string{"%", ""}, "%", "%"}, {[]string{"ms", "us"}, "us", "us"},
		{[]string{"%p", "%p"}, "%p", "%p"}, {[]string{"%", "%p"}, "%", "%"},
	} {
		if in, out, err := Difference("-", tc.us...); err != nil || in != tc.in || out != tc.out {
			t.Errorf("Difference(%v) = %q, %q, %v; want %q, %q", tc.us, in, out, err, tc.in, tc.out)
		}
	}
	for _, tc := range []struct{ a, b, want string }{{"count", "s", "/s"}, {"", "s", "/s"}, {"s", "s", ""}, {"ms", "", "ms"}} {
		if u, err := Quotient(tc.a, tc.b); err != nil || u != tc.want {
			t.Errorf("Quotient(%q, %q) = %q, %v; want %q", tc.a, tc.b, u, err, tc.want)
		}
	}
	if _, err := Quotient("s", "ms"); err == nil {
		t.Errorf("Quotient(s, ms) accepted")
	}
	if _, err := Product("s", "s"); err == nil {
		t.Errorf("Product(s, s) accepted")
	}
	if u, _ := Product("", "ms"); u != "ms" {
		t.Errorf("Product(plain, ms) = %q", u)
	}
}

func TestEverySpellingIsCanonical(t *testing.T) {
	for name, ws := range spellings {
		if _, ok := canonical[name]; !ok {
			t.Errorf("spellings of %q: not a canonical unit", name)
		}
		for _, w := range ws {
			if u, ok := Lookup(w); !ok || u.Name != name {
				t.Errorf("Lookup(%q) = %q; want %q (a word spells one unit)", w, u.Name, name)
			}
		}
	}
}

func TestScanDigits(t *testing.T) {
	for _, tc := range []struct {
		s     string
		st    Style
		value string
		dec   int
		n     int
		grp   bool
		fw    bool
		err   bool
	}{
		{"1,234.5ms", Style{}, "1234.5", 1, 7, true, false, false},
		{"40", Style{}, "40", 0, 2, false, false, false},
		{"１２．５", Style{}, "12.5", 1, 12, false, true, false},
		{"１，２００", Style{}, "1200", 0, 15, true, true, false},
		{"409,6100", Style{}, "", 0, 0, false, false, true},
		{"1,23", Style{}, "", 0, 0, false, false, true},
		{"4096,100", Style{}, "", 0, 0, false, false, true},
		{"1, 2", Style{}, "1", 0, 1, false, false, false},
		{"150 000", Style{SpaceGrouping: true}, "150000", 0, 7, true, false, false},
		{"5 000건", Style{SpaceGrouping: true}, "5000", 0, 5, true, false, false},
		{"5 10", Style{SpaceGrouping: true}, "5", 0, 1, false, false, false},
		{"150 000", Style{}, "150", 0, 3, false, false, false},
		{"40,045811", Style{DecimalComma: true}, "40.045811", 6, 9, false, false, false},
		{"1.234,5", Style{DecimalComma: true}, "1234.5", 1, 7, true, false, false},
		{"1.2.3", Style{}, "1.2", 1, 3, false, false, false},
		{"x1", Style{}, "0", 0, 0, false, false, false},
		{"0,534", Style{}, "", 0, 0, false, false, true},
		{"0.534", Style{DecimalComma: true}, "", 0, 0, false, false, true},
		{"0,534", Style{DecimalComma: true}, "0.534", 3, 5, false, false, false},
		{"0.534", Style{}, "0.534", 3, 5, false, false, false},
		{"0 500", Style{SpaceGrouping: true}, "0", 0, 1, false, false, false},
	} {
		d, err := ScanDigits(tc.s, tc.st)
		if (err != nil) != tc.err {
			t.Errorf("ScanDigits(%q) error = %v; want error %v", tc.s, err, tc.err)
			continue
		}
		if tc.err {
			continue
		}
		if d.Len != tc.n || d.Decimals != tc.dec || d.Grouped != tc.grp || d.FullWidth != tc.fw || !d.Value.Equal(decimal.RequireFromString(tc.value)) {
			t.Errorf("ScanDigits(%q) = %+v; want %s dec %d len %d grouped %v fw %v", tc.s, d, tc.value, tc.dec, tc.n, tc.grp, tc.fw)
		}
	}
}

func FuzzScanDigits(f *testing.F) {
	for _, s := range []string{"1,234.5", "１２", "150 000", "40,045811", "409,6100", "1.2.3"} {
		f.Add(s, false, true)
	}
	f.Fuzz(func(t *testing.T, s string, comma, space bool) {
		d, err := ScanDigits(s, Style{DecimalComma: comma, SpaceGrouping: space})
		sh, shErr := ScanDigitsShape(s, Style{DecimalComma: comma, SpaceGrouping: space})
		if (err == nil) != (shErr == nil) || err == nil && (sh.Len != d.Len || sh.Grouped != d.Grouped || sh.Decimals != d.Decimals || sh.FullWidth != d.FullWidth || sh.Sep != d.Sep) {
			t.Fatalf("ScanDigitsShape(%q) = %+v, %v; ScanDigits = %+v, %v", s, sh, shErr, d, err)
		}
		if err != nil {
			return
		}
		if d.Len < 0 || d.Len > len(s) {
			t.Fatalf("Len %d out of range for %q", d.Len, s)
		}
		if d.Len > 0 && !IsDigitAt(s, 0) {
			t.Fatalf("read %d bytes of %q, which does not start with a digit", d.Len, s)
		}
		if d.Value.IsNegative() {
			t.Fatalf("negative value %s from %q", d.Value, s)
		}
	})
}

// TestGuideListsEveryWord: the claim grammar page (docs/guide/claims.md) lists every
// spelling of every unit (`word`, or `word(s)` for an English plural).
func TestGuideListsEveryWord(t *testing.T) {
	b, err := os.ReadFile("../../docs/guide/claims.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, name := range Names() {
		for _, w := range Spellings(name) {
			if strings.Contains(readme, "`"+w+"`") || strings.Contains(readme, "`"+w+"(s)`") ||
				strings.HasSuffix(w, "s") && strings.Contains(readme, "`"+strings.TrimSuffix(w, "s")+"(s)`") {
				continue
			}
			if w == "％" || w == "％p" || w == "count" {
				continue // full-width forms are read as ASCII; count is canonical only
			}
			t.Errorf("docs/guide/claims.md does not list unit word %q (%s)", w, name)
		}
	}
}

// TestParseDecimal holds parseDecimal to decimal.NewFromString: the same
// coefficient and exponent, short and long.
func TestParseDecimal(t *testing.T) {
	for _, s := range []string{"0", "7", "0012", "12.50", "0.000", "999999999999999999", "1234567890123456789", "1.000000000000000001", "86", "40.045811", "12345678901234567890.5"} {
		want, werr := decimal.NewFromString(s)
		got, err := parseDecimal([]byte(s))
		if (err != nil) != (werr != nil) || got.Exponent() != want.Exponent() || got.Coefficient().Cmp(want.Coefficient()) != 0 {
			t.Errorf("parseDecimal(%q) = %v (exp %d), %v; want %v (exp %d), %v", s, got, got.Exponent(), err, want, want.Exponent(), werr)
		}
	}
}

// TestScanDigitsLong: digits past the 32 ScanDigits collects on the stack
// are read as well.
func TestScanDigitsLong(t *testing.T) {
	for _, s := range []string{"1234567890123456789012345678901", "12345678901234567890123456789012", "123456789012345678901234567890123.25", "1,234,567,890,123,456,789,012,345,678,901,234.5", "０１２３４５６７８９０１２３４５６７８９０１２３４５６７８９０１２３"} {
		d, err := ScanDigits(s, Style{})
		want, werr := decimal.NewFromString(strings.NewReplacer(",", "", "０", "0", "１", "1", "２", "2", "３", "3", "４", "4", "５", "5", "６", "6", "７", "7", "８", "8", "９", "9").Replace(s))
		if err != nil || werr != nil || !d.Value.Equal(want) || d.Value.Exponent() != want.Exponent() || d.Len != len(s) {
			t.Errorf("ScanDigits(%q) = %+v, %v; want %v (%v)", s, d, err, want, werr)
		}
	}
}

func TestPerSecondOf(t *testing.T) {
	for _, tc := range []struct{ size, want string }{{"B", "B/s"}, {"KB", "KB/s"}, {"MiB", "MiB/s"}, {"TiB", "TiB/s"}, {"s", ""}, {"/s", ""}, {"MB/s", ""}, {"", ""}} {
		got, ok := PerSecondOf(tc.size)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("PerSecondOf(%q) = %q, %v; want %q", tc.size, got, ok, tc.want)
		}
		if ok {
			if u, known := Canonical(got); !known || u.Dim != Throughput {
				t.Errorf("%s is not a canonical throughput unit: %+v", got, u)
			}
		}
	}
}

// TestNewDecimalEqualsNew: NewDecimal gives what decimal.New gives, in
// the table of shared values, at its edges and outside it, and a shared
// value stays as it was after arithmetic on it.
func TestNewDecimalEqualsNew(t *testing.T) {
	for _, v := range []int64{0, 1, 7, 9999, 10000, 123456789, -1, -9999} {
		for exp := int32(-5); exp <= 1; exp++ {
			if got, want := NewDecimal(v, exp), decimal.New(v, exp); !reflect.DeepEqual(got, want) || got.String() != want.String() {
				t.Errorf("NewDecimal(%d, %d) = %s (%#v), want %s", v, exp, got, got, want)
			}
		}
	}
	d := NewDecimal(42, -1)
	_ = d.Neg().Add(d).Mul(decimal.NewFromInt(3)).Sub(d).Abs()
	if got := NewDecimal(42, -1); got.String() != "4.2" || !got.Equal(decimal.New(42, -1)) {
		t.Errorf("the shared 4.2 became %s after arithmetic on it", got)
	}
}

// TestToolWord: the shared vocabulary of the unit words tools print; a
// word outside it (bits, a multiple, a counter) is not a unit reading.
func TestToolWord(t *testing.T) {
	for _, tc := range []struct{ w, want string }{
		{"nsec", "ns"}, {"usec", "us"}, {"µs", "us"}, {"μs", "us"}, {"msec", "ms"}, {"secs", "s"}, {"min", "min"},
		{"bytes", "B"}, {"kB", "KB"}, {"KiB", "KiB"}, {"Ki", "KiB"}, {"KiB/s", "KiB/s"}, {"kB/s", "KB/s"}, {"MB/sec", "MB/s"},
		{"MBps", "MB/s"}, {"KBytes", "KiB"}, {"MBytes", "MiB"}, {"B/s", "B/s"}, {"req/s", "/s"}, {"req/sec", "/s"}, {"%", "%"},
		{"TB", "TB"}, {"d", "d"},
	} {
		if got, ok := ToolWord(tc.w); !ok || got != tc.want {
			t.Errorf("ToolWord(%q) = %q, %v; want %q", tc.w, got, ok, tc.want)
		}
	}
	for _, w := range []string{"Mbits/sec", "Mbps", "bits", "m", "x", "×", "회", "count", "", "foo", "ms/sec"} {
		if got, ok := ToolWord(w); ok {
			t.Errorf("ToolWord(%q) = %q; want none", w, got)
		}
	}
}
