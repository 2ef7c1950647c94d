package slots

import (
	"strings"
	"testing"
)

// BenchmarkFill fills a page of 1,000 placeholders in 150 KB of prose,
// about a benchmark site page (internal/benchsite) as Hugo writes it.
func BenchmarkFill(b *testing.B) {
	tb := NewTable(1)
	p := tb.Page(0, "ko", "bench/p00001.md")
	var sb strings.Builder
	for i := range 1000 {
		id := p.Next()
		p.Add(i/4+9, 11, "ev:bench-006/t.r31.ok,t.r31.total", Role(i%3))
		sb.WriteString("요청은 성공했고 성공률은 카운터는 올라 되었다 응답은 사이에 끝났고 ")
		sb.WriteString(`<evdoc-c d="` + id + `--------------">27/200</evdoc-c>`)
	}
	f := `<span class="ev"><a class="ev-claim ev-raw" href="/evidence/bench-006/result-txt/#L31-9" data-ev-at="ko:%[1]s:%[2]d:%[3]d" data-ev="ev:bench-006/t.r31.ok,t.r31.total">%[4]s</a><span class="ev-pop" id="ev-0a1b2c3d-%[5]s-%[2]d-%[3]d" data-ev-s="bench-006"></span></span>`
	fl := &Filler{t: tb, formats: map[string]map[string]*[3]format{"ko": {"ev:bench-006/t.r31.ok,t.r31.total": {compile(f), compile(f), compile(f)}}}}
	page := []byte(sb.String())
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := fl.Fill("p.html", page); err != nil {
			b.Fatal(err)
		}
	}
}
