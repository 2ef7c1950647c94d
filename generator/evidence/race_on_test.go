//go:build race

package evidence

// raceEnabled: the race detector is on, and heap figures are not those
// of evdoc's build.
const raceEnabled = true
