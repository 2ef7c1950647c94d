//go:build unix

package procgroup

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid still runs (zombies count as gone), giving
// a killed process up to ten seconds to go (a loaded 2-core CI machine
// has been seen to need more than two): signal delivery is not
// synchronous with kill(2) returning.
func alive(pid int) bool {
	for i := 0; i < 500; i++ {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err == nil && strings.Contains(string(b), ") Z ") {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// grandchild starts a shell that starts a sleeping grandchild (as
// `go tool hugo` starts hugo) and writes the grandchild's pid to a file.
func grandchild(t *testing.T) (*exec.Cmd, string) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := exec.Command("sh", "-c", "sleep 60 & echo $! > "+pidFile+"; wait")
	return c, pidFile
}

func readPid(t *testing.T, f string) int {
	t.Helper()
	for i := 0; i < 200; i++ {
		b, err := os.ReadFile(f)
		if err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("child never wrote its pid")
	return 0
}

func TestCancelStopsTheWholeGroup(t *testing.T) {
	c, pidFile := grandchild(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, c, Options{Grace: time.Second}) }()
	gc := readPid(t, pidFile)
	cancel()
	err := <-errc
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want context.Canceled", err)
	}
	if alive(gc) {
		syscall.Kill(gc, syscall.SIGKILL)
		t.Fatal("grandchild survived cancellation")
	}
}

func TestTimeout(t *testing.T) {
	c, pidFile := grandchild(t)
	start := time.Now()
	err := Run(context.Background(), c, Options{Timeout: 300 * time.Millisecond, Grace: time.Second})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Run error = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Run took %v after a 300ms timeout", d)
	}
	if gc := readPid(t, pidFile); alive(gc) {
		syscall.Kill(gc, syscall.SIGKILL)
		t.Fatal("grandchild survived the timeout")
	}
}

func TestTermIgnoredThenKilled(t *testing.T) {
	c := exec.Command("sh", "-c", "trap '' TERM; sleep 60")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := Run(ctx, c, Options{Grace: 200 * time.Millisecond})
	if err == nil {
		t.Fatal("Run returned nil for a stopped program")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a program ignoring SIGTERM kept Run for %v", d)
	}
}

func TestSuccessAndExitStatus(t *testing.T) {
	if err := Run(context.Background(), exec.Command("true"), Options{}); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := Run(context.Background(), exec.Command("sh", "-c", "exit 3"), Options{}); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("error = %v, want exit status 3", err)
	}
}

// victim starts a sleeping shell in a group of its own, without the
// parent-death signal (as a Hugo left by a killed run), whose command line
// holds marker; it returns the process and its identity.
func victim(t *testing.T, marker string) (*exec.Cmd, Ident) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	c := exec.Command("sh", "-c", "sleep 60; : "+marker)
	setGroup(c)
	c.SysProcAttr.Pdeathsig = 0
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	id, err := Identify(c.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return c, id
}

// TestReapOnlyThatGroup: Reap kills a group only when the record names
// it beyond doubt: its marker on the command line, and the leader's start
// time, boot and pid namespace. A planted record (marker "/", another
// boot or namespace, a wrong start time: the group id reused) kills
// nothing.
func TestReapOnlyThatGroup(t *testing.T) {
	marker := t.TempDir()
	c, id := victim(t, marker)
	time.Sleep(50 * time.Millisecond)
	wrong := func(f func(*Ident)) Ident { w := id; f(&w); return w }
	for name, rec := range map[string]struct {
		id     Ident
		marker string
	}{
		"other marker":    {id, "/no/such/marker"},
		"marker /":        {id, "/"},
		"other boot":      {wrong(func(w *Ident) { w.Boot = "00000000-0000-0000-0000-000000000000" }), marker},
		"other namespace": {wrong(func(w *Ident) { w.NS = "pid:[1]" }), marker},
		"later start":     {wrong(func(w *Ident) { w.Start++ }), marker},
		"earlier start":   {wrong(func(w *Ident) { w.Start-- }), marker},
		"other group":     {wrong(func(w *Ident) { w.Pid = os.Getpid() }), marker},
	} {
		if n := Reap(rec.id, rec.marker); n != 0 {
			t.Fatalf("%s: Reap killed %d processes", name, n)
		}
	}
	if !id.Running() {
		t.Fatal("the group's leader does not run after refused reaps")
	}
	s, _, err := ParseIdent(id.String() + " " + marker)
	if err != nil || s != id {
		t.Fatalf("ParseIdent(String()) = %v, %v; want %v", s, err, id)
	}
	if n := Reap(s, marker); n == 0 {
		t.Fatal("Reap killed nothing of the recorded group")
	}
	c.Wait()
	if id.Running() {
		t.Fatal("the reaped leader still runs")
	}
}
