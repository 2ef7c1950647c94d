//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks
// that report it beside wall time (cpu-ms/op).
package cputime

import (
	"syscall"
	"time"
)

// Self returns the CPU time (user and system) the process has used,
// garbage collection included: on a loaded machine it says more about an
// operation's cost than wall time. It is 0 when it cannot be read.
func Self() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
