//go:build !unix

// Package cputime reads the CPU time the process has used, for benchmarks
// that report it beside wall time (cpu-ms/op).
package cputime

import "time"

// Self is not measured here: it returns 0.
func Self() time.Duration { return 0 }
