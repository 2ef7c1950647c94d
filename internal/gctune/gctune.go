// Package gctune paces the garbage collector of a one-shot run such as
// evdoc check: a larger GC percent than Go's default 100 while the heap
// is small, so the collector runs less often, and never a heap goal
// above a limit the run's memory target allows (unless the live heap
// itself needs more, where it paces as Go's default does).
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Percent returns the GC percent for a live heap of live bytes: the one
// whose heap goal, live × (1 + percent/100), is limit bytes, held between
// 100 (Go's default) and most.
func Percent(live, limit uint64, most int) int {
	if live == 0 {
		return most
	}
	if live >= limit {
		return 100
	}
	p := (limit - live) * 100 / live
	return int(min(max(p, 100), uint64(most)))
}

var (
	mu      sync.Mutex
	running bool
)

// Start paces the collector with Percent after every collection (the
// live heap as the last one measured it) until stop is called. It does
// nothing, and stop does nothing, when the environment sets GOGC or
// GOMEMLIMIT (the user's pace is kept) or when it is already running.
func Start(limit uint64, most int) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	mu.Lock()
	defer mu.Unlock()
	if running {
		return func() {}
	}
	running = true
	t := &tuner{limit: limit, most: most, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.prev = debug.SetGCPercent(most)
	t.percent = most
	t.arm()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(t.prev)
		running = false
	}
}

// tuner holds the pace; its sentinel's finalizer runs after each
// collection that finds the sentinel unreachable.
type tuner struct {
	limit   uint64
	most    int
	prev    int // the percent before Start
	percent int // the percent set last
	stopped bool
	sample  []metrics.Sample
}

// sentinel is an object of its own (not one the tiny allocator packs
// with others), made unreachable at once, whose finalizer runs after
// the next collection.
type sentinel struct {
	t *tuner
	_ [16]byte
}

func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{t: t}, func(s *sentinel) { s.t.collected() })
}

// collected sets the percent for the live heap the collection measured
// and arms the next sentinel.
func (t *tuner) collected() {
	mu.Lock()
	defer mu.Unlock()
	if t.stopped {
		return
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		if p := Percent(t.sample[0].Value.Uint64(), t.limit, t.most); p != t.percent {
			t.percent = p
			debug.SetGCPercent(p)
		}
	}
	t.arm()
}
