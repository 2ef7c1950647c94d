package serve

import (
	"regexp"
	"slices"
	"sync"
	"time"
)

// Hugo's server (v0.165.0, commands/hugobuilder.go) takes the file
// events its watcher gathered at a fixed tick, every hugoTick from the
// watcher's start (watcher.New(500*time.Millisecond, …); no flag sets
// it), and rebuilds from them. The files of one edit written across a
// tick are two rebuilds: the first with part of the edit (the banner
// naming a page's new error over its old text), the second, 0.5 s or a
// whole rebuild later, with the rest, and a live reload after each.
// Writing them in one burst of system calls narrows that window to the
// burst's time, which on a loaded machine (the process held between two
// calls) is long enough to be hit. tickPhase learns where Hugo's ticks
// fall from the times Hugo prints after "Change detected" (its clock,
// to the millisecond, the moment its handler took the batch: the tick
// or, when Hugo was busy, later), and before a burst waits for a tick
// that would fall within tickGuard to pass.
const hugoTick = 500 * time.Millisecond

// A burst of writes may start no nearer to Hugo's next tick than its
// guard: nearer, it waits until the tick passed (tickAfter later), and
// the files are taken a whole tick later than they would have been had
// the burst ended before the tick: the guard costs about its own length
// on average, and half a second at worst. The guard is tickMargin (the
// error of the phase: Hugo prints its time to the millisecond, a little
// after the tick) and twice the longest of the last bursts: an idle
// burst takes well under a millisecond, where a tick that falls inside
// it is as rare as the wait would be costly; under load a process is
// held tens of milliseconds between two calls. At most tickGuardMax.
const (
	tickMargin   = 2 * time.Millisecond
	tickGuardMax = 50 * time.Millisecond
	tickAfter    = 3 * time.Millisecond
)

// tickWindow is how close together, modulo hugoTick, the observations
// of one tick must be to count as the same phase: Hugo's handler takes
// an idle batch within a millisecond of the tick.
const tickWindow = 10 * time.Millisecond

// hugoTimeLine is the line Hugo prints after "Change detected, rebuilding
// site": the time, to the millisecond, with the zone's offset.
var hugoTimeLine = regexp.MustCompile(`(?m)^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4})\s*$`)

// tickPhase estimates the phase of Hugo's watcher tick.
type tickPhase struct {
	mu sync.Mutex
	// seen are the last observations' offsets into the tick period
	// (time modulo hugoTick), newest last.
	seen []time.Duration
	// sleep waits (time.Sleep; tests replace it).
	sleep func(time.Duration)
	// now is the clock (time.Now; tests replace it).
	now func() time.Time
	// bursts are the durations of the last bursts of writes.
	bursts []time.Duration
}

// burst notes how long a burst of writes took, when Hugo's tick was seen
// already. A burst before that is no measure of those the guard keeps
// clear of a tick: the first staging writes the whole project (1,169
// files of the 500-page benchmark site in 16 ms, where an edit's four
// take 1–3 ms), before Hugo's server runs; counted, it made the guard
// 35 ms for the next eight bursts, and a save whose burst fell that near
// a tick waited for the tick after it: half a second.
func (p *tickPhase) burst(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) == 0 {
		return
	}
	p.bursts = append(p.bursts, d)
	if len(p.bursts) > 8 {
		p.bursts = slices.Delete(p.bursts, 0, len(p.bursts)-8)
	}
}

// guard is how near to a tick a burst may start (see tickMargin).
func (p *tickPhase) guard() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := tickMargin
	if len(p.bursts) > 0 {
		g += 2 * slices.Max(p.bursts)
	}
	return min(g, tickGuardMax)
}

// reset forgets the observations: a new Hugo server's watcher ticks at
// a phase of its own.
func (p *tickPhase) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = nil
}

// maxSeen is how many observations the estimate keeps.
const maxSeen = 16

// observe notes the times Hugo printed in text (its output).
func (p *tickPhase) observe(text string) {
	for _, m := range hugoTimeLine.FindAllStringSubmatch(text, -1) {
		t, err := time.Parse("2006-01-02 15:04:05.000 -0700", m[1])
		if err != nil {
			continue
		}
		p.note(t)
	}
}

// note notes one time Hugo's handler took a batch.
func (p *tickPhase) note(t time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, offset(t))
	if len(p.seen) > maxSeen {
		p.seen = slices.Delete(p.seen, 0, len(p.seen)-maxSeen)
	}
}

// offset is t's place in the tick period: t modulo hugoTick.
func offset(t time.Time) time.Duration {
	return time.Duration(t.UnixNano() % int64(hugoTick))
}

// phase returns the estimated offset of Hugo's ticks into the period
// and whether there is an estimate. A batch is taken at its tick or,
// when Hugo was busy, later, never earlier: the phase is the start of
// the tickWindow holding most observations (the earliest of them on a
// tie), which the late ones do not move.
func (p *tickPhase) phase() (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) == 0 {
		return 0, false
	}
	best, count := time.Duration(0), -1
	for _, c := range p.seen {
		n := 0
		for _, o := range p.seen {
			if d := (o - c + hugoTick) % hugoTick; d < tickWindow {
				n++
			}
		}
		if n > count || n == count && c < best {
			best, count = c, n
		}
	}
	return best, true
}

// untilTick returns the time from now to Hugo's next tick, and false
// when no tick was seen yet.
func (p *tickPhase) untilTick(now time.Time) (time.Duration, bool) {
	ph, ok := p.phase()
	if !ok {
		return 0, false
	}
	return (ph - offset(now) + 2*hugoTick) % hugoTick, true
}

// clear waits, when Hugo's next tick is less than the guard away, until
// just after it, so a burst of writes that starts then is taken whole by
// the tick after. It returns how long it waited.
func (p *tickPhase) clear() time.Duration {
	if p == nil {
		return 0
	}
	now, sleep := time.Now, time.Sleep
	if p.now != nil {
		now = p.now
	}
	if p.sleep != nil {
		sleep = p.sleep
	}
	d, ok := p.untilTick(now())
	if !ok || d >= p.guard() {
		return 0
	}
	sleep(d + tickAfter)
	return d + tickAfter
}
