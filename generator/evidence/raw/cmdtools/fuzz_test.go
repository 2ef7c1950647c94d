package cmdtools_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzTime(f *testing.F) {
	rawtest.ToolFuzz(f, "time", "real 1.5\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.5\n\tMaximum resident set size (kbytes): x\n", "./a  0.01s user 0.00s system 81% cpu 0.012 total\n")
}

func FuzzKubectl(f *testing.F) {
	rawtest.ToolFuzz(f, "kubectl", "NAME  READY  RESTARTS  AGE  TARGETS\na  1/x  2 (3h ago)  2y34d  cpu: 1%/2%, memory: 3Mi/4Mi\nb\n", `{"items":[{"metadata":{"name":"n"},"usage":{"cpu":"1m","memory":"2Gi"},"window":"1m0s"}]}`)
}

func FuzzPing(f *testing.F) {
	rawtest.ToolFuzz(f, "ping", "Reply from 1.1.1.1: bytes=32 time=14ms TTL=117\n    Packets: Sent = 4, Received = 4, Lost = 0 (0% loss),\n    Minimum = 13ms, Maximum = 15ms, Average = 14ms\n", "round-trip min/avg/max = 1/2/3/4 ms\n")
}

func FuzzMtr(f *testing.F) {
	rawtest.ToolFuzz(f, "mtr", "HOST: a  Loss%  Snt  Last\n  1.|-- x  5%  1  2\n 22. y 1 2\n")
}
