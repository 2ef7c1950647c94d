//go:build linux

package procgroup

import "syscall"

// setDeathSignal makes the kernel SIGKILL the child when evdoc dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
