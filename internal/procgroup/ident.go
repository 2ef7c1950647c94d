package procgroup

import (
	"fmt"
	"strconv"
	"strings"
)

// Ident names one process beyond the reuse of its id: the pid, its start
// time (clock ticks after boot, /proc/PID/stat field 22), the boot it
// started in (/proc/sys/kernel/random/boot_id) and its pid namespace. A
// record of another boot, machine or namespace — a file committed to a
// repository, copied from elsewhere or planted — never matches a process
// here, and neither does a later process that got the same pid.
type Ident struct {
	Pid   int
	Start uint64
	Boot  string
	NS    string
}

// String is the form Parse reads: "PID START BOOT NS".
func (id Ident) String() string {
	return fmt.Sprintf("%d %d %s %s", id.Pid, id.Start, id.Boot, id.NS)
}

// ParseIdent reads what Ident.String wrote (the first four fields of s);
// rest is what follows them.
func ParseIdent(s string) (id Ident, rest string, err error) {
	f := strings.Fields(s)
	if len(f) < 4 {
		return id, "", fmt.Errorf("process record %q: want PID START BOOT NS", s)
	}
	id.Pid, err = strconv.Atoi(f[0])
	if err != nil || id.Pid <= 1 {
		return Ident{}, "", fmt.Errorf("process record %q: bad pid", s)
	}
	id.Start, err = strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return Ident{}, "", fmt.Errorf("process record %q: bad start time", s)
	}
	id.Boot, id.NS = f[2], f[3]
	return id, strings.Join(f[4:], " "), nil
}

// Running reports whether the process id names runs now: its pid is
// alive with the same start time, in this boot and pid namespace.
func (id Ident) Running() bool {
	now, err := Identify(id.Pid)
	return err == nil && now == id
}
