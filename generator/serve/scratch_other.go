//go:build !linux

package serve

// memFree reports no tmpfs: serve stages in its own directory.
func memFree(string) (int64, bool) { return 0, false }
