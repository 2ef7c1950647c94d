package interrupt

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	// Finished work returns its result.
	v, err := Wait(context.Background(), func() int { return 7 })
	if v != 7 || err != nil {
		t.Errorf("Wait = %d, %v; want 7, nil", v, err)
	}
	// Cancelled while the work runs: Wait returns at once.
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start := time.Now()
	v, err = Wait(ctx, func() int { <-release; return 7 })
	if !errors.Is(err, context.Canceled) || v != 0 {
		t.Errorf("cancelled Wait = %d, %v; want 0, context.Canceled", v, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancelled Wait returned after %v", d)
	}
	// Already cancelled: the work does not start.
	ran := false
	if _, err := Wait(ctx, func() int { ran = true; return 1 }); err == nil || ran {
		t.Errorf("Wait on a done context: err %v, ran %v", err, ran)
	}
}
