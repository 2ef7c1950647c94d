package literal

import "testing"

// BenchmarkParseLiteral reads the claim literals of the reference site's
// shapes; the lexer reads each in one pass without regular expressions.
func BenchmarkParseLiteral(b *testing.B) {
	lits := []string{"86/86", "51.7%→0.21%", "약 40초", "約40秒", "Δ+1", "40.045811초", "1만 2천 건", "초당 1,250건",
		"0→46 (+46)", "409610바이트", "40秒弱", "43±1秒", "10∼20ms", "두 번", "2973 (+1)"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, l := range lits {
			if _, err := ParseLiteral(l); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(lits))*float64(b.N)/b.Elapsed().Seconds(), "claims/s")
}
