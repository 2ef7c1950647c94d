//go:build race

package raw

// raceEnabled: the race detector is on; sync.Pool then drops items at
// random, so a read's allocations say nothing about what select saves
// (.ci/run runs the allocation tests without it too).
const raceEnabled = true
