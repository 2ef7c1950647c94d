// Command targets prints bench/run's final table: each target of issue 25
// with the value bench/run measured, the limit and PASS or FAIL.
//
// It reads measurements, one a line, "N KEY VALUE" (N the number of Korean
// pages of the generated site, VALUE a number), from the file named by
// its argument:
//
//	parse_wall, check_wall, check_cpu, hugo_wall, build_wall  seconds
//	check_rss, hugo_rss, build_rss                             MiB
//	evedit_wall                                                seconds an evidence edit (serve)
//	recheck_wall                                               seconds a page edit (serve)
//	lsp_wall                                                   seconds a keystroke (evdoc lsp)
//	serve_e2e_page, serve_e2e_findings                         seconds from a save to the served page changed
//	                                                           and to the findings printed, the worst save
//	                                                           (serveedit: evdoc serve end to end)
//	serve_e2e_page_median, serve_e2e_findings_median           the same, the median save
//	serve_e2e_findings_later                                   saves whose findings came after the page
//
// bench/run writes, for parse-only, Hugo, check and build, the fastest
// wall time of its rounds (--rounds) with that run's CPU, and the largest
// peak RSS. A target whose measurements are missing is listed as "not
// measured".
//
// Usage:
//
//	go run ./internal/benchsite/targets FILE
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: targets FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "targets:", err)
		os.Exit(2)
	}
	defer f.Close()
	m, err := read(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, "targets:", err)
		os.Exit(2)
	}
	fmt.Print(table(m))
}

// measurements are the values by page count and key.
type measurements map[int]map[string]float64

// read parses "N KEY VALUE" lines; blank lines and lines starting with #
// are skipped.
func read(r io.Reader) (measurements, error) {
	m := measurements{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: %q: expected N KEY VALUE", line, t)
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("line %d: page count %q: expected a positive integer", line, f[0])
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: value %q: expected a number", line, f[2])
		}
		if m[n] == nil {
			m[n] = map[string]float64{}
		}
		m[n][f[1]] = v
	}
	return m, sc.Err()
}

// row is one target's line of the table.
type row struct {
	target, limit, measured, status string
}

// sizes returns the page counts measured, ascending.
func (m measurements) sizes() []int {
	var out []int
	for n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// ratio returns m[n][a]/m[n][b], and false when either is missing or b
// is not positive.
func (m measurements) ratio(n int, a, b string) (float64, bool) {
	x, okx := m[n][a]
	y, oky := m[n][b]
	return x / y, okx && oky && y > 0
}

// worst checks value(n) ≤ limit at every size measured and returns the row
// with the largest value and the size it was measured at.
func (m measurements) worst(target string, limit float64, format string, value func(n int) (float64, bool)) row {
	r := row{target: target, limit: "≤ " + fmt.Sprintf(format, limit), measured: "not measured", status: "-"}
	best := -1.0
	for _, n := range m.sizes() {
		v, ok := value(n)
		if !ok || v <= best {
			continue
		}
		best = v
		r.measured = fmt.Sprintf(format+" at %d pages", v, n)
		r.status = verdict(v <= limit)
	}
	return r
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// table returns the Markdown table of every target of issue 25.
func table(m measurements) string {
	ratio := func(a, b string) func(n int) (float64, bool) {
		return func(n int) (float64, bool) { return m.ratio(n, a, b) }
	}
	rows := []row{
		m.worst("check wall / parse-only wall", 1.5, "%.2f×", ratio("check_wall", "parse_wall")),
		m.worst("check wall / check CPU (every core used)", 0.6, "%.2f×", ratio("check_wall", "check_cpu")),
		m.largest("check peak RSS", 200, 4000, "%.0f MiB", "check_rss"),
		m.worst("build wall / Hugo wall", 1.25, "%.2f×", ratio("build_wall", "hugo_wall")),
		m.worst("Hugo peak RSS staged (build) / plain", 1.15, "%.2f×", ratio("build_rss", "hugo_rss")),
		m.serveEdit(),
		m.scaling(),
		m.largest("serve: page edit re-check", 0.030, 4000, "%.3f s", "recheck_wall"),
		m.serveEndToEnd(),
		m.worst("lsp keystroke re-judge", 0.050, "%.3f s", func(n int) (float64, bool) { v, ok := m[n]["lsp_wall"]; return v, ok }),
	}
	var b strings.Builder
	b.WriteString("| target | limit | measured | status |\n|---|---|---|---|\n")
	pass, measured := 0, 0
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.target, r.limit, r.measured, r.status)
		if r.status != "-" {
			measured++
		}
		if strings.HasPrefix(r.status, "PASS") {
			pass++
		}
	}
	fmt.Fprintf(&b, "\n%d of %d targets measured, %d PASS\n", measured, len(rows), pass)
	return b.String()
}

// largest checks the value of key at the largest size measured against
// limit; the target is stated at size want, and a row measured at another
// size says so.
func (m measurements) largest(target string, limit float64, want int, format, key string) row {
	r := row{target: target, limit: fmt.Sprintf("≤ "+format+" at %d pages", limit, want), measured: "not measured", status: "-"}
	sizes := m.sizes()
	for i := len(sizes) - 1; i >= 0; i-- {
		n := sizes[i]
		if v, ok := m[n][key]; ok {
			r.measured = fmt.Sprintf(format+" at %d pages", v, n)
			r.status = verdict(v <= limit)
			if n != want {
				r.status += fmt.Sprintf(" (at %d, not %d)", n, want)
			}
			break
		}
	}
	return r
}

// serveEdit checks the evidence edit in serve: ≤ 1 s up to 500 pages,
// ≤ 2 s above, at every size measured.
func (m measurements) serveEdit() row {
	r := row{target: "serve: evidence edit re-check", limit: "≤ 1 s at 500 pages, ≤ 2 s at 4000", measured: "not measured", status: "-"}
	var parts []string
	ok := true
	for _, n := range m.sizes() {
		v, has := m[n]["evedit_wall"]
		if !has {
			continue
		}
		limit := 2.0
		if n <= 500 {
			limit = 1
		}
		parts = append(parts, fmt.Sprintf("%.2f s at %d pages", v, n))
		ok = ok && v <= limit
	}
	if len(parts) > 0 {
		r.measured = strings.Join(parts, ", ")
		r.status = verdict(ok)
	}
	return r
}

// serveEndToEnd checks evdoc serve end to end: from a save (of an
// evidence file or a page) to the served page changed, the worst save, at
// 500 pages; and the terminal's findings no later than the page on every
// save. It is read at the smallest size measured, marked when that is
// not 500.
func (m measurements) serveEndToEnd() row {
	const want = 500
	r := row{target: "serve end to end: save → page shows the new verdict; findings no later", limit: fmt.Sprintf("≤ 1 s at %d pages; findings first", want), measured: "not measured", status: "-"}
	for _, n := range m.sizes() {
		page, ok := m[n]["serve_e2e_page"]
		findings, ok2 := m[n]["serve_e2e_findings"]
		later, ok3 := m[n]["serve_e2e_findings_later"]
		if !ok || !ok2 || !ok3 {
			continue
		}
		r.measured = fmt.Sprintf("page %.2f s, findings %.2f s (worst save; median %.2f s, %.2f s), findings later than the page %.0f time(s), at %d pages",
			page, findings, m[n]["serve_e2e_page_median"], m[n]["serve_e2e_findings_median"], later, n)
		r.status = verdict(page <= 1 && later == 0)
		if n != want {
			r.status += fmt.Sprintf(" (at %d, not %d)", n, want)
		}
		break
	}
	return r
}

// scaling checks check's wall time at 4× the pages against 4.2× the time,
// for every pair of sizes measured whose ratio is 4.
func (m measurements) scaling() row {
	r := row{target: "check scaling: 4× pages", limit: "≤ 4.2× time", measured: "not measured (needs N and 4N)", status: "-"}
	var parts []string
	ok := true
	for _, n := range m.sizes() {
		a, okA := m[n]["check_wall"]
		b, okB := m[4*n]["check_wall"]
		if !okA || !okB || a <= 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%.2f× (%d → %d pages)", b/a, n, 4*n))
		ok = ok && b/a <= 4.2
	}
	if len(parts) > 0 {
		r.measured = strings.Join(parts, ", ")
		r.status = verdict(ok)
	}
	return r
}
