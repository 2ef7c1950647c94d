package lock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBusyFailsAtOnceNamingTheHolder(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".evdoc", "lock")
	l, err := Acquire(context.Background(), p, Options{Owner: "evdoc build"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	var told string
	_, err = Acquire(context.Background(), p, Options{Owner: "evdoc fix", OnBusy: func(h string) { told = h }})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("second Acquire error = %v, want ErrTimeout", err)
	}
	want := fmt.Sprintf("pid %d: evdoc build", os.Getpid())
	if told != want || !strings.Contains(err.Error(), want) {
		t.Errorf("holder told %q, error %q; want both to name %q", told, err, want)
	}
}

func TestWaitsForRelease(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	l, err := Acquire(context.Background(), p, Options{Owner: "first"})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(150 * time.Millisecond)
		l.Unlock()
	}()
	waited := false
	l2, err := Acquire(context.Background(), p, Options{Wait: 10 * time.Second, Poll: 10 * time.Millisecond, OnBusy: func(string) { waited = true }})
	if err != nil {
		t.Fatalf("Acquire after release: %v", err)
	}
	defer l2.Unlock()
	if !waited {
		t.Error("OnBusy was not called while the lock was held")
	}
}

func TestWaitEndsWithContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	l, err := Acquire(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = Acquire(ctx, p, Options{Wait: time.Hour, Poll: 10 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want the context's", err)
	}
}

func TestUnlockTwiceAndNil(t *testing.T) {
	var l *Lock
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(context.Background(), filepath.Join(t.TempDir(), "lock"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
}
