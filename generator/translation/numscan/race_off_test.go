//go:build !race

package numscan

const raceEnabled = false
