package main

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{
			name: "every target, some failing",
			in: `# bench/run
500 parse_wall 1.0
500 check_wall 1.4
500 check_cpu 2.5
500 check_rss 50
500 hugo_wall 10
500 build_wall 12
500 hugo_rss 1000
500 build_rss 1100
500 evedit_wall 0.9
500 lsp_wall 0.04
2000 parse_wall 4.0
2000 check_wall 6.4
2000 check_cpu 10
2000 check_rss 90
2000 hugo_wall 40
2000 build_wall 52
2000 hugo_rss 4000
2000 build_rss 4800
2000 evedit_wall 1.5
2000 recheck_wall 0.02
500 serve_e2e_page 0.95
500 serve_e2e_findings 0.4
500 serve_e2e_page_median 0.7
500 serve_e2e_findings_median 0.3
500 serve_e2e_findings_later 0
`,
			want: `| target | limit | measured | status |
|---|---|---|---|
| check wall / parse-only wall | ≤ 1.50× | 1.60× at 2000 pages | FAIL |
| check wall / check CPU (every core used) | ≤ 0.60× | 0.64× at 2000 pages | FAIL |
| check peak RSS | ≤ 200 MiB at 4000 pages | 90 MiB at 2000 pages | PASS (at 2000, not 4000) |
| build wall / Hugo wall | ≤ 1.25× | 1.30× at 2000 pages | FAIL |
| Hugo peak RSS staged (build) / plain | ≤ 1.15× | 1.20× at 2000 pages | FAIL |
| serve: evidence edit re-check | ≤ 1 s at 500 pages, ≤ 2 s at 4000 | 0.90 s at 500 pages, 1.50 s at 2000 pages | PASS |
| check scaling: 4× pages | ≤ 4.2× time | 4.57× (500 → 2000 pages) | FAIL |
| serve: page edit re-check | ≤ 0.030 s at 4000 pages | 0.020 s at 2000 pages | PASS (at 2000, not 4000) |
| serve end to end: save → page shows the new verdict; findings no later | ≤ 1 s at 500 pages; findings first | page 0.95 s, findings 0.40 s (worst save; median 0.70 s, 0.30 s), findings later than the page 0 time(s), at 500 pages | PASS |
| lsp keystroke re-judge | ≤ 0.050 s | 0.040 s at 500 pages | PASS |

10 of 10 targets measured, 5 PASS
`,
		},
		{
			name: "at the limits, one size, partly measured",
			in:   "4000 parse_wall 2\n4000 check_wall 3\n4000 check_cpu 5\n4000 check_rss 200\n4000 evedit_wall 2.0\n4000 recheck_wall 0.030\n",
			want: `| target | limit | measured | status |
|---|---|---|---|
| check wall / parse-only wall | ≤ 1.50× | 1.50× at 4000 pages | PASS |
| check wall / check CPU (every core used) | ≤ 0.60× | 0.60× at 4000 pages | PASS |
| check peak RSS | ≤ 200 MiB at 4000 pages | 200 MiB at 4000 pages | PASS |
| build wall / Hugo wall | ≤ 1.25× | not measured | - |
| Hugo peak RSS staged (build) / plain | ≤ 1.15× | not measured | - |
| serve: evidence edit re-check | ≤ 1 s at 500 pages, ≤ 2 s at 4000 | 2.00 s at 4000 pages | PASS |
| check scaling: 4× pages | ≤ 4.2× time | not measured (needs N and 4N) | - |
| serve: page edit re-check | ≤ 0.030 s at 4000 pages | 0.030 s at 4000 pages | PASS |
| serve end to end: save → page shows the new verdict; findings no later | ≤ 1 s at 500 pages; findings first | not measured | - |
| lsp keystroke re-judge | ≤ 0.050 s | not measured | - |

5 of 10 targets measured, 5 PASS
`,
		},
		{
			name: "serve end to end: a page over 1 s fails",
			in:   "500 serve_e2e_page 1.2\n500 serve_e2e_findings 0.4\n500 serve_e2e_page_median 0.8\n500 serve_e2e_findings_median 0.3\n500 serve_e2e_findings_later 0\n",
			want: "| page 1.20 s, findings 0.40 s (worst save; median 0.80 s, 0.30 s), findings later than the page 0 time(s), at 500 pages | FAIL |",
		},
		{
			name: "serve end to end: findings after the page fail",
			in:   "500 serve_e2e_page 0.5\n500 serve_e2e_findings 0.6\n500 serve_e2e_page_median 0.4\n500 serve_e2e_findings_median 0.3\n500 serve_e2e_findings_later 1\n",
			want: "findings later than the page 1 time(s), at 500 pages | FAIL |",
		},
		{
			name: "serve end to end at another size says so",
			in:   "2000 serve_e2e_page 0.9\n2000 serve_e2e_findings 0.6\n2000 serve_e2e_page_median 0.8\n2000 serve_e2e_findings_median 0.5\n2000 serve_e2e_findings_later 0\n",
			want: "at 2000 pages | PASS (at 2000, not 500) |",
		},
		{
			name: "an evidence edit over 1 s at 500 pages fails",
			in:   "500 evedit_wall 1.01\n4000 evedit_wall 1.9\n",
			want: "| serve: evidence edit re-check | ≤ 1 s at 500 pages, ≤ 2 s at 4000 | 1.01 s at 500 pages, 1.90 s at 4000 pages | FAIL |",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := read(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got := table(m)
			if !strings.Contains(got, tc.want) {
				t.Errorf("table:\n%s\nwant it to hold:\n%s", got, tc.want)
			}
		})
	}
}

func TestReadRejects(t *testing.T) {
	for _, in := range []string{"500 check_wall", "x check_wall 1", "0 check_wall 1", "500 check_wall 1s", "500 a b c"} {
		if _, err := read(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("read(%q) = %v, want an error at line 1", in, err)
		}
	}
}
