//go:build !linux

package procgroup

import "errors"

// Identify needs Linux's /proc: off Linux no process can be named beyond
// the reuse of its id, so none is.
func Identify(pid int) (Ident, error) {
	return Ident{}, errors.New("process identity needs Linux's /proc")
}

// Reap is a no-op off Linux (no /proc to tell whose processes they are).
func Reap(leader Ident, marker string) int { return 0 }
