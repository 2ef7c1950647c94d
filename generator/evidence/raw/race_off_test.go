//go:build !race

package raw_test

const raceEnabled = false
