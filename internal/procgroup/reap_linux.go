//go:build linux

package procgroup

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// procStat is what Reap and Identify need of /proc/PID/stat.
type procStat struct {
	pgrp  int
	start uint64
}

func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	// pid (comm) state ppid pgrp ... starttime(22); comm may hold spaces and parens.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, errors.New("malformed stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procStat{}, errors.New("malformed stat")
	}
	var s procStat
	if s.pgrp, err = strconv.Atoi(f[2]); err != nil {
		return procStat{}, err
	}
	if s.start, err = strconv.ParseUint(f[19], 10, 64); err != nil {
		return procStat{}, err
	}
	return s, nil
}

func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func pidNS(pid string) string {
	ns, err := os.Readlink("/proc/" + pid + "/ns/pid")
	if err != nil {
		return ""
	}
	return ns
}

// Identify returns the Ident of the running process pid.
func Identify(pid int) (Ident, error) {
	st, err := readStat(pid)
	if err != nil {
		return Ident{}, err
	}
	boot, ns := bootID(), pidNS(strconv.Itoa(pid))
	if boot == "" || ns == "" || strings.ContainsAny(boot+ns, " \n") {
		return Ident{}, errors.New("no boot id or pid namespace in /proc")
	}
	return Ident{Pid: pid, Start: st.start, Boot: boot, NS: ns}, nil
}

// Reap kills (SIGKILL) what is left of the process group a run that died
// before it could stop it started: leader is that group's leader as Run's
// Started saw it. Only processes that are beyond doubt that group's are
// touched: the record is of this boot and pid namespace, each process is
// of group leader.Pid, owned by this user, started no earlier than the
// leader (and is the leader itself only with its start time), and its
// command line contains marker (a path unique to that run, which the
// caller checks is its own). A record from a repository, another machine
// or a reused id matches nothing. It returns how many it killed.
func Reap(leader Ident, marker string) int {
	if leader.Pid <= 1 || len(marker) < 2 || leader.Boot != bootID() || leader.NS != pidNS("self") {
		return 0
	}
	uid := os.Getuid()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	n := 0
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || pid == os.Getpid() {
			continue
		}
		st, err := readStat(pid)
		if err != nil || st.pgrp != leader.Pid || st.start < leader.Start || (pid == leader.Pid && st.start != leader.Start) {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if sys, ok := fi.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != uid {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(marker)) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}
