package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/envoy"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"

	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
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
	whole, werrs := rawtest.AllOf(envoy.ReadEnvoyStats("a.stats", src, raw.ReadOptions{}))
	for _, window := range []int{1, 64, 200, 1000, len(src) + 1} {
		var got []raw.Reading
		errs := formats.ReadWindowed("envoy-stats", "a.stats", src, raw.ReadOptions{}, window, nil, func(r raw.Reading) { got = append(got, r) })
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
	formats.ReadWindowed("envoy-stats", "a.stats", src, raw.ReadOptions{}, 64, func(r raw.Reading) bool {
		return r.Key == "cluster.outbound|80||svc3.ns.svc.cluster.local.upstream_rq_total"
	}, func(raw.Reading) { n++ })
	if n != 1 {
		t.Errorf("kept %d readings, want 1", n)
	}
}

// TestReadWindowedFromMatchesReadWindowed: reading from an io.Reader,
// whatever its read sizes, gives what ReadWindowed gives on the whole
// content, for every window size (records longer than the window, a
// final line without a newline, indented continuation lines), and a
// read error is returned.
func TestReadWindowedFromMatchesReadWindowed(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "cluster.outbound|80||svc%d.ns.svc.cluster.local.upstream_rq_total: %d\n", i, i*7)
		if i%9 == 0 {
			b.WriteString("http.admin.downstream_rq_time:\n  totals=1,0.25:25, 2,0.25:9\n  summary=P0(1,1) P50(1.0625,1.034)\n")
		}
		if i == 17 {
			b.WriteString("not a stat line\n")
		}
	}
	b.WriteString("last.stat: 5")
	src := []byte(b.String())
	for _, window := range []int{1, 7, 64, 200, 1000, len(src), len(src) + 1} {
		var want []raw.Reading
		werrs := formats.ReadWindowed("envoy-stats", "a.stats", src, raw.ReadOptions{}, window, nil, func(r raw.Reading) { want = append(want, r) })
		for name, r := range map[string]io.Reader{"whole": bytes.NewReader(src), "bytewise": iotest.OneByteReader(bytes.NewReader(src)), "halves": iotest.HalfReader(bytes.NewReader(src))} {
			var got []raw.Reading
			errs, err := formats.ReadWindowedFrom("envoy-stats", "a.stats", r, raw.ReadOptions{}, window, nil, func(r raw.Reading) { got = append(got, r) })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("window %d, %s reads: %d readings differ from ReadWindowed's %d", window, name, len(got), len(want))
			}
			if fmt.Sprint(errs) != fmt.Sprint(werrs) {
				t.Errorf("window %d, %s reads: errors %v, want %v", window, name, errs, werrs)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := formats.ReadWindowedFrom("envoy-stats", "a.stats", iotest.ErrReader(boom), raw.ReadOptions{}, 64, nil, func(raw.Reading) {}); !errors.Is(err, boom) {
		t.Errorf("read error: %v, want %v", err, boom)
	}
}
