package raw

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestReadWindowedMatchesWholeRead: reading an Envoy /stats dump in small
// windows gives the readings and errors of one whole read, positions
// included (issue 15, fault 8: bounded memory for large dumps).
func TestReadWindowedMatchesWholeRead(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "cluster.outbound|80||svc%d.ns.svc.cluster.local.upstream_rq_total: %d\n", i, i*7)
		if i%9 == 0 {
			b.WriteString("http.admin.downstream_rq_time:\n  totals=1,0.25:25, 2,0.25:9\n  summary=P0(1,1) P50(1.0625,1.034)\n")
		}
		if i == 17 {
			b.WriteString("not a stat line\n")
		}
	}
	src := []byte(b.String())
	whole, werrs := ReadEnvoyStats("a.stats", src, ReadOptions{})
	for _, window := range []int{1, 64, 200, 1000, len(src) + 1} {
		var got []Reading
		errs := ReadWindowed("envoy-stats", "a.stats", src, ReadOptions{}, window, nil, func(r Reading) { got = append(got, r) })
		if !reflect.DeepEqual(got, whole) {
			t.Errorf("window %d: %d readings differ from the whole read's %d", window, len(got), len(whole))
			for i := range min(len(got), len(whole)) {
				if !reflect.DeepEqual(got[i], whole[i]) {
					t.Errorf("first difference: %+v vs %+v", got[i], whole[i])
					break
				}
			}
		}
		if fmt.Sprint(errs) != fmt.Sprint(werrs) {
			t.Errorf("window %d: errors %v, want %v", window, errs, werrs)
		}
	}
	// keep drops readings before they are collected.
	n := 0
	ReadWindowed("envoy-stats", "a.stats", src, ReadOptions{}, 64, func(r Reading) bool {
		return r.Key == "cluster.outbound|80||svc3.ns.svc.cluster.local.upstream_rq_total"
	}, func(Reading) { n++ })
	if n != 1 {
		t.Errorf("kept %d readings, want 1", n)
	}
}
