// Package interrupt lets a command stop promptly, on SIGINT or SIGTERM,
// in the middle of long work that takes no context: loading and checking
// a site, which only read.
package interrupt

import (
	"context"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// Wait runs f in its own goroutine and returns its result, or ctx's
// error as soon as ctx is done, whichever comes first. When ctx wins, f
// goes on in the background and its result is discarded: use Wait only
// for work that writes nothing (reading and judging a project), so that
// abandoning it cannot leave anything half-written; the process exits
// soon after.
func Wait[T any](ctx context.Context, f func() T) (T, error) {
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	done := make(chan T, 1)
	go func() {
		defer crash.Guard()
		done <- f()
	}()
	select {
	case v := <-done:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
