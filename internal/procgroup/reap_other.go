//go:build !linux

package procgroup

// Reap is a no-op off Linux (no /proc to tell whose processes they are).
func Reap(pgid int, marker string) int { return 0 }
