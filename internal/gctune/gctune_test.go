package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, tt := range []struct {
		live, limit uint64
		most, want  int
	}{
		{0, 140 * mib, 400, 400},
		{20 * mib, 140 * mib, 400, 400},  // goal 100 MiB, under the limit
		{28 * mib, 140 * mib, 400, 400},  // goal exactly the limit
		{35 * mib, 140 * mib, 400, 300},  // goal the limit
		{50 * mib, 140 * mib, 400, 180},  // goal the limit
		{70 * mib, 140 * mib, 400, 100},  // goal the limit, Go's default
		{100 * mib, 140 * mib, 400, 100}, // the limit would need less than Go's default
		{200 * mib, 140 * mib, 400, 100}, // over the limit: Go's default
	} {
		if got := Percent(tt.live, tt.limit, tt.most); got != tt.want {
			t.Errorf("Percent(%d MiB, %d MiB, %d) = %d, want %d", tt.live/mib, tt.limit/mib, tt.most, got, tt.want)
		}
	}
}

// current returns the GC percent in force.
func current() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestStartPaces: after a collection the percent is Percent's for the
// live heap; stop restores the percent before Start; GOGC in the
// environment leaves the pace alone.
func TestStartPaces(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := current()
	keep := make([]byte, 8<<20) // a live heap of at least 8 MiB
	// a limit of 40 MiB over a live heap of 8 to 20 MiB: 100 to 400
	stop := Start(40<<20, 1000)
	if got := current(); got != 1000 {
		t.Errorf("percent %d at Start, want 1000", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for current() == 1000 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := current(); got < 100 || got > 400 {
		t.Errorf("percent %d after a collection with a live heap of 8 to 20 MiB and a limit of 40 MiB; want 100 to 400", got)
	}
	runtime.KeepAlive(keep)
	stop()
	if got := current(); got != before {
		t.Errorf("percent %d after stop, want %d", got, before)
	}
	t.Setenv("GOGC", "100")
	stop = Start(40<<20, 1000)
	if got := current(); got != before {
		t.Errorf("percent %d with GOGC set, want %d (untouched)", got, before)
	}
	stop()
}
