//go:build !race

package raw

const raceEnabled = false
