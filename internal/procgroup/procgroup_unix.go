//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

func setGroup(c *exec.Cmd) {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setpgid = true
	setDeathSignal(c.SysProcAttr)
}

// killGroup signals every process of group pgid: SIGKILL when hard, else
// SIGTERM. A group that is gone already is not an error.
func killGroup(pgid int, hard bool) {
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pgid, sig)
}
