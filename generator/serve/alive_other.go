//go:build !unix

package serve

// processAlive cannot tell off Unix: a directory is treated as another
// run's, and left alone.
func processAlive(pid int) bool { return true }
