package serve

import (
	"testing"
	"time"
)

// TestTickPhase: the phase of Hugo's watcher tick is learnt from the
// times Hugo prints after "Change detected", and a burst of writes about
// to meet a tick (nearer than the margin and twice the longest of the
// last bursts) waits until it passed; one that ends well before the tick
// does not wait (it would be taken a whole tick later). Batches Hugo
// took late (it was busy building) must not move the phase: taking their
// time for the tick would place the burst across the real one.
func TestTickPhase(t *testing.T) {
	base := time.Date(2026, 12, 7, 5, 13, 46, 0, time.UTC) // a multiple of 500 ms
	at := func(ms int) time.Time { return base.Add(time.Duration(ms) * time.Millisecond) }
	for _, tc := range []struct {
		name   string
		seen   []int           // ms after base Hugo printed
		bursts []time.Duration // the last bursts' durations
		now    int             // ms after base the burst starts
		want   time.Duration
	}{
		{"no tick seen: no wait", nil, nil, 430, 0},
		{"far from the tick", []int{436, 936, 1436}, nil, 100, 0},
		// No burst timed yet: the margin alone.
		{"just before the tick", []int{436, 936, 1436}, nil, 2435, time.Millisecond + tickAfter},
		{"margin's edge", []int{436, 936, 1436}, nil, 2434, 0},
		{"just after the tick", []int{436, 936, 1436}, nil, 2440, 0},
		// Idle bursts (well under a millisecond): a burst 20 ms before
		// the tick ends long before it, and waiting would cost a tick.
		{"idle bursts", []int{436}, []time.Duration{300 * time.Microsecond, 500 * time.Microsecond}, 416, 0},
		// Loaded bursts: the guard is twice the longest of the last.
		{"loaded bursts", []int{436}, []time.Duration{2 * time.Millisecond, 12 * time.Millisecond}, 416, 20*time.Millisecond + tickAfter},
		{"loaded bursts' edge", []int{436}, []time.Duration{2 * time.Millisecond, 12 * time.Millisecond}, 410, 0},
		{"at most tickGuardMax", []int{436}, []time.Duration{400 * time.Millisecond}, 387, 49*time.Millisecond + tickAfter},
		{"beyond tickGuardMax", []int{436}, []time.Duration{400 * time.Millisecond}, 386, 0},
		// Late batches (Hugo building) fall anywhere; the ticks' cluster wins.
		{"late ones before the phase", []int{936, 1436, 1936, 2790, 3250, 4436}, []time.Duration{20 * time.Millisecond}, 4900, 36*time.Millisecond + tickAfter},
		{"late ones do not lead", []int{936, 1436, 1936, 2790, 3250, 4436}, []time.Duration{20 * time.Millisecond}, 4760, 0},
		// A tick taken 1 ms late next to one 0 ms late: the earlier one is the phase.
		{"earliest of the cluster", []int{937, 1436, 1937}, []time.Duration{20 * time.Millisecond}, 2400, 36*time.Millisecond + tickAfter},
		// A burst before any tick was seen (the first staging, before
		// Hugo's server runs) does not count: the margin and the idle
		// bursts since.
		{"bursts before any tick", []int{436}, []time.Duration{0, 300 * time.Microsecond}, 430, 0},
		{"bursts before any tick, the guard", []int{436}, []time.Duration{0, 300 * time.Microsecond}, 2434, 2*time.Millisecond + tickAfter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var slept time.Duration
			p := &tickPhase{now: func() time.Time { return at(tc.now) }, sleep: func(d time.Duration) { slept += d }}
			// a zero burst stands for the first staging's, before any
			// tick was seen: 400 ms
			for _, d := range tc.bursts {
				if d == 0 {
					p.burst(400 * time.Millisecond)
				}
			}
			for _, ms := range tc.seen {
				p.note(at(ms))
			}
			for _, d := range tc.bursts {
				if d != 0 {
					p.burst(d)
				}
			}
			if got := p.clear(); got != tc.want || slept != tc.want {
				t.Errorf("clear() = %v (slept %v), want %v", got, slept, tc.want)
			}
		})
	}
}

// TestTickPhaseObserve: the times are read from Hugo's output as it
// prints them, whole lines only, in the zone it names.
func TestTickPhaseObserve(t *testing.T) {
	var p tickPhase
	p.observe("\nChange detected, rebuilding site (#1).\n2026-12-07 05:13:46.936 +0000\nData changed /evdoc/claims.json\n")
	p.observe("2026-12-07 14:13:47.436 +0900\n") // the same phase in another zone
	p.observe("Total in 263 ms 2026-12-07 05:13:47.111 +0000\n")
	p.observe("2026-12-07 05:13:47.1 +0000\n")
	if len(p.seen) != 2 {
		t.Fatalf("observed %v, want the two time lines", p.seen)
	}
	if ph, ok := p.phase(); !ok || ph != 436*time.Millisecond {
		t.Errorf("phase = %v, %v; want 436ms", ph, ok)
	}
	p.reset()
	if _, ok := p.phase(); ok {
		t.Error("a phase after reset")
	}
	for i := 0; i < 3*maxSeen; i++ {
		p.note(time.Unix(0, int64(i)*int64(hugoTick)+int64(7*time.Millisecond)))
	}
	if len(p.seen) != maxSeen {
		t.Errorf("kept %d observations, want %d", len(p.seen), maxSeen)
	}
}
