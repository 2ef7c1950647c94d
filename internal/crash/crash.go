// Package crash gives a Go panic its own exit status. The Go runtime
// ends a process on an unrecovered panic with status 2, which evdoc uses
// for "cannot run" (no project, bad flags, Hugo failed); a script or CI
// step could not tell a bug from a refusal. Every goroutine evdoc starts
// defers Guard (TestEveryGoroutineGuarded holds it), so a panic anywhere
// prints what happened and its stack and exits with ExitStatus.
package crash

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// ExitStatus is the exit status of a run that panicked: an internal
// error of evdoc, never a verdict on the project.
const ExitStatus = 3

// Guard, deferred first in a goroutine, turns a panic of that goroutine
// into a report on standard error and exit status ExitStatus.
func Guard() {
	if r := recover(); r != nil {
		Report(os.Stderr, r, debug.Stack())
		os.Exit(ExitStatus)
	}
}

// Report writes what a panic with value r and stack says, as evdoc prints
// it: the value, what to do, and the stack.
func Report(w io.Writer, r any, stack []byte) {
	fmt.Fprintf(w, "evdoc: internal error (a bug in evdoc, exit status %d): panic: %v\n"+
		"evdoc: please report it with this message and the stack below; the next run removes what this one left\n%s", ExitStatus, r, stack)
}
