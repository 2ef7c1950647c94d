package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hugorun"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/evdoc-lab/evdoc/internal/lock"
	"github.com/spf13/cobra"
)

// lockFlags are the flags of the commands that write the project.
type lockFlags struct {
	wait time.Duration
}

func (f *lockFlags) register(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&f.wait, "lock-wait", 10*time.Minute,
		"how long (a `DURATION`) to wait for another build or fix of this project to finish (0: fail at once with exit 2)")
}

// lockProject takes the project lock for the command named what,
// telling stderr when it has to wait. A lock still busy after the wait
// is an exitError with status 2.
func lockProject(ctx context.Context, root, what string, f lockFlags, stderr io.Writer) (*lock.Lock, error) {
	l, err := hugorun.LockProject(ctx, root, lock.Options{
		Wait:  f.wait,
		Owner: "evdoc " + what,
		OnBusy: func(holder string) {
			if holder == "" {
				holder = "another run"
			}
			if f.wait > 0 {
				fmt.Fprintf(stderr, "evdoc: waiting up to %v for %s to finish (it holds %s)\n", f.wait, holder, hugorun.LockFile)
			}
		},
	})
	if err != nil {
		if errors.Is(err, lock.ErrTimeout) {
			return nil, &exitError{2, fmt.Errorf("another evdoc build or fix is running on this project: %v", err)}
		}
		return nil, &exitError{2, err}
	}
	return l, nil
}

// signalError is the cancellation cause when evdoc received a signal.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }

// exitCode is the conventional status of a process ended by the signal:
// 128 + its number (130 for SIGINT, 143 for SIGTERM).
func (e *signalError) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// signalContext returns a context cancelled, with a *signalError cause,
// on the first SIGINT or SIGTERM. A second signal gets the default
// behaviour (the process dies at once): a user pressing Ctrl-C twice
// means it. Whatever dies, the next build or fix repairs what was left.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		defer crash.Guard()
		select {
		case s := <-sigs:
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			cancel(&signalError{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
