//go:build !race

package translation

const raceEnabled = false
