//go:build race

package numscan

// raceEnabled: the race detector is on; sync.Pool then drops items at
// random (regexp's machine cache among them), so allocation counts say
// nothing about the code's own allocations.
const raceEnabled = true
