//go:build linux

package procgroup

import (
	"errors"
	"os/exec"

	"golang.org/x/sys/unix"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// watch returns a channel closed once c's process has exited, left
// unreaped (waitid WNOWAIT): until wait reaps it, its pid — the group id
// — cannot be reused, so a signal sent to the group before wait reaches
// only the group Run started. wait, called after exited is closed,
// reaps it and returns c.Wait's result.
func watch(c *exec.Cmd) (exited <-chan struct{}, wait func() error) {
	ch := make(chan struct{})
	pid := c.Process.Pid
	go func() {
		defer crash.Guard()
		var info unix.Siginfo
		for {
			err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if !errors.Is(err, unix.EINTR) {
				break
			}
		}
		close(ch)
	}()
	return ch, c.Wait
}
