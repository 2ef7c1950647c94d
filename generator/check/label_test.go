package check

import "testing"

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
		return labelPercentileRe.MatchString(l) && percentileLabel(l[1:]) == l
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l := LabelBefore(s); !valid(l) {
			t.Errorf("LabelBefore(%q) = %q", s, l)
		}
		if l := LabelOfName(s); !valid(l) {
			t.Errorf("LabelOfName(%q) = %q", s, l)
		}
	})
}
