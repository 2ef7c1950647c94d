//go:build !linux

package procgroup

import (
	"os/exec"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// watch returns a channel closed once c's process has exited and been
// reaped (no unreaped wait here), and wait, which returns c.Wait's result.
func watch(c *exec.Cmd) (exited <-chan struct{}, wait func() error) {
	ch := make(chan struct{})
	var err error
	go func() {
		defer crash.Guard()
		err = c.Wait()
		close(ch)
	}()
	return ch, func() error { <-ch; return err }
}
