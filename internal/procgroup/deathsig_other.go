//go:build unix && !linux

package procgroup

import "syscall"

// setDeathSignal: no parent-death signal off Linux; Reap covers it.
func setDeathSignal(a *syscall.SysProcAttr) {}
