package benchgen

import (
	"fmt"
	"math"
	"strings"
)

// claimsPerSection is the number of bound claims each page section holds.
const claimsPerSection = 8

// words are the per-language words of a page.
type words struct {
	title, q, a, sec, unitS, about, rangeSep, note, tableHead, code string
}

var lang = map[string]words{
	"ko": {title: "벤치마크 Q&A %s", q: "질문 [%d](ev:exempt \"question number\"): 카운터는 어떻게 바뀌었나", a: "답", sec: "초", unitS: "초", about: "약 ", rangeSep: "~",
		note: "위 숫자는 합성 데이터다.", tableHead: "| 항목 | 값 |\n|---|---|\n", code: "실행 예"},
	"ja": {title: "ベンチマークQ&A %s", q: "質問[%d](ev:exempt \"question number\"): カウンターはどう変わったか", a: "答え", sec: "秒", unitS: "秒", about: "約", rangeSep: "〜",
		note: "上の数値は合成データです。", tableHead: "| 項目 | 値 |\n|---|---|\n", code: "実行例"},
}

// page returns page p of language lg quoting set s from row offset off.
func page(lg string, p int, s set, off, sections int) []byte {
	w := lang[lg]
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: %q\ntranslationKey: \"bench-%05d\"\nweight: %d\n---\n\n", fmt.Sprintf(w.title, letters(p)), p+1, p+1)
	ref := func(names ...string) string {
		return "ev:" + s.id + "/" + strings.Join(names, ",")
	}
	for k := 0; k < sections; k++ {
		i := (off + k) % rowsPerSet
		r := s.rows[i]
		j := (i + 7) % rowsPerSet
		r2 := s.rows[j]
		n := func(f string, a ...any) string { return fmt.Sprintf(f, a...) }
		id := func(f string) string { return n("t.r%d.%s", i, f) }
		fmt.Fprintf(&b, "## "+w.q+"\n\n", k+1)
		frac := n("[%d/%d](%s)", r.ok, total, ref(id("ok"), id("total")))
		pct := n("[%.1f%%](%s)", float64(r.ok)/2, ref(id("pct")))
		delta := n("[+%d](%s)", r.after-r.before, ref(id("d")))
		trans := n("[%d→%d](%s)", r.before, r.after, ref(id("before"), id("after")))
		lo, hi := int(math.Floor(r.time))-1, int(math.Floor(r.time))+2
		rng := n("[%d%s%d%s](%s)", lo, w.rangeSep, hi, w.unitS, ref(n("curl.s%d.time", i)))
		approx := n("[%s%d%s](%s)", w.about, int(math.Round(r2.time)), w.unitS, ref(n("curl.s%d.time", j)))
		lat := n("[%dms](%s)", r.lat, ref(n("lat.run%d.latency_ms", i)))
		before := n("[%d](%s)", r2.before, ref(n("t.r%d.before", j)))
		if lg == "ko" {
			fmt.Fprintf(&b, "요청은 %s 성공했고 성공률은 %s였다. `r%d` 카운터는 %s 올라 %s가 되었다.\n", frac, pct, i, delta, trans)
			fmt.Fprintf(&b, "응답은 %s 사이에 끝났고, 다른 런은 %s 걸렸다. 지연은 %s, 비교 런의 BEFORE는 %s였다.\n\n", rng, approx, lat, before)
		} else {
			fmt.Fprintf(&b, "リクエストは%s成功し、成功率は%sだった。`r%d`カウンターは%s増えて%sになった。\n", frac, pct, i, delta, trans)
			fmt.Fprintf(&b, "応答は%sの間に終わり、別の実行は%sかかった。遅延は%s、比較実行のBEFOREは%sだった。\n\n", rng, approx, lat, before)
		}
		if k%4 == 3 {
			b.WriteString(w.tableHead)
			fmt.Fprintf(&b, "| before | %s |\n| after | %s |\n| ok | %s |\n\n",
				n("[%d](%s)", r.before, ref(id("before"))), n("[%d](%s)", r.after, ref(id("after"))), frac)
			fmt.Fprintf(&b, "%s:\n\n```sh\n$ curl -s -o /dev/null -w '%%{http_code} %%{time_total}' http://bench-%d.lab:8080/\n200 %.3f\n```\n\n", w.code, k, r.time)
			b.WriteString(w.note + "\n\n")
		}
	}
	return []byte(b.String())
}

// letters names page p with Latin letters (a, b, …, z, ba, …) so its title
// holds no number a check would warn about.
func letters(p int) string {
	s := ""
	for {
		s = string(rune('a'+p%26)) + s
		p /= 26
		if p == 0 {
			return s
		}
	}
}
