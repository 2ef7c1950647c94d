//go:build !unix

package procgroup

import "os/exec"

func setGroup(c *exec.Cmd) {}

func killGroup(pgid int, hard bool) {}
