// Package procgroup runs a child program (Hugo) in a process group of its
// own, so that evdoc can stop it together with everything it started: on
// cancellation (SIGINT, SIGTERM), on a timeout, and — where the system
// allows (Linux) — when evdoc itself dies, even by SIGKILL.
package procgroup

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// ErrTimeout is wrapped by Run's error when the program ran longer than
// its timeout and was stopped.
var ErrTimeout = errors.New("timed out")

// Options tunes Run.
type Options struct {
	// Timeout stops the program after this long; zero means no limit.
	Timeout time.Duration
	// Grace is how long the group has to exit after SIGTERM before it is
	// sent SIGKILL (default 5s).
	Grace time.Duration
	// Started, when not nil, is called with the group leader's identity
	// (its pid is the group id) once the program runs, so a caller can
	// record it for a later Reap. It is not called where the leader
	// cannot be identified beyond pid reuse (off Linux).
	Started func(leader Ident)
}

// Run starts c in a new process group and waits for it. When ctx is done
// or the timeout passes, the whole group is sent SIGTERM, then SIGKILL
// after the grace period; Run then returns an error wrapping ctx's error
// or ErrTimeout. Whatever the outcome, no process of the group is left
// running when Run returns.
func Run(ctx context.Context, c *exec.Cmd, opt Options) error {
	grace := opt.Grace
	if grace <= 0 {
		grace = 5 * time.Second
	}
	setGroup(c)
	if err := c.Start(); err != nil {
		return err
	}
	pgid := c.Process.Pid
	if opt.Started != nil {
		if id, err := Identify(pgid); err == nil {
			opt.Started(id)
		}
	}
	// On Linux exited is closed when the leader has exited but is not
	// reaped yet: until wait reaps it its pid, and so the group id, cannot
	// be reused, so every signal Run sends reaches only the group it
	// started (no pid file is consulted).
	exited, wait := watch(c)
	reap := func() error {
		<-exited
		killGroup(pgid, true) // helpers the program left behind
		return wait()
	}
	var timer <-chan time.Time
	if opt.Timeout > 0 {
		t := time.NewTimer(opt.Timeout)
		defer t.Stop()
		timer = t.C
	}
	var why error
	select {
	case <-exited:
		return reap()
	case <-ctx.Done():
		why = ctx.Err()
	case <-timer:
		why = fmt.Errorf("%w after %v", ErrTimeout, opt.Timeout)
	}
	killGroup(pgid, false)
	select {
	case <-exited:
	case <-time.After(grace):
		killGroup(pgid, true)
	}
	_ = reap()
	return fmt.Errorf("stopped: %w", why)
}
