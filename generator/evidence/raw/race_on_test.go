//go:build race

package raw_test

// raceEnabled: the race detector is on; sync.Pool then drops items at
// random, so a read's heap figures are not those of evdoc's build
// (.ci/run runs the memory tests without it too).
const raceEnabled = true
