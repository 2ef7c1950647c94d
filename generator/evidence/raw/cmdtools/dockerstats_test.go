package cmdtools_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/cmdtools"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"

	"fmt"
	"strings"
	"testing"
)

// TestDockerStatsUnits: each value is read in the unit docker prints in
// its column, and any other unit text is an error at the unit, never a
// number read in a guessed unit (KB for docker's kB, MB in the memory
// column, a percent without %); "--" gives no reading.
func TestDockerStatsUnits(t *testing.T) {
	const head = "CONTAINER ID   NAME   CPU %     MEM USAGE / LIMIT     MEM %     NET I/O          BLOCK I/O     PIDS\n"
	for _, tc := range []struct {
		name, row string
		want      []string // key = value unit
		err       string   // "token|message part": the error is at token's first byte in row; "" for none
	}{
		{"as docker prints", "3f1c2a9e8b7d   web    0.41%     1.5GiB / 7.7GiB       0.09%     1.23kB / 0B      0B / 4.1kB    5",
			[]string{"web.cpu = 0.41 %", "web.mem_usage = 1.5 GiB", "web.mem_limit = 7.7 GiB", "web.mem = 0.09 %", "web.net_rx = 1.23 KB", "web.net_tx = 0 B", "web.block_read = 0 B", "web.block_write = 4.1 KB", "web.pids = 5 "}, ""},
		{"three significant digits past 999.5", "3f1c2a9e8b7d   web    0.41%     1.5GiB / 7.7GiB       0.09%     1e+03kB / 0B     0B / 0B       5",
			[]string{"web.net_rx = 1000 KB"}, ""},
		{"stopped container", "3f1c2a9e8b7d   web    --        -- / --               --        --               --            --",
			nil, ""},
		{"KB is not docker's", "3f1c2a9e8b7d   web    0.41%     1.5GiB / 7.7GiB       0.09%     1.23KB / 0B      0B / 0B       5",
			nil, `KB / 0B|unit "KB" of NET I/O`},
		{"decimal size in the memory column", "3f1c2a9e8b7d   web    0.41%     1.5GB / 7.7GiB        0.09%     1.23kB / 0B      0B / 0B       5",
			nil, `GB / 7.7GiB|unit "GB" of MEM USAGE / LIMIT`},
		{"percent without %", "3f1c2a9e8b7d   web    0.41      1.5GiB / 7.7GiB       0.09%     1.23kB / 0B      0B / 0B       5",
			nil, `0.41^|unit "" of CPU %`},
		{"one size where docker prints two", "3f1c2a9e8b7d   web    0.41%     1.5GiB                0.09%     1.23kB / 0B      0B / 0B       5",
			nil, `1.5GiB|MEM USAGE / LIMIT "1.5GiB": expected two values`},
		{"a cell missing", "3f1c2a9e8b7d   web    0.41%     1.5GiB / 7.7GiB       0.09%     1.23kB / 0B      0B / 0B",
			nil, "3f1c|row has 7 cells but the header 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(head + tc.row + "\n")
			rs, errs := rawtest.AllOf(cmdtools.ReadDockerStats("s.txt", src, raw.ReadOptions{}))
			rawtest.CheckReadings(t, src, rs, errs, nil)
			got := map[string]bool{}
			for _, r := range rs {
				got[fmt.Sprintf("%s = %s %s", r.Key, r.Number.Value, r.Number.Unit)] = true
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("no reading %q in %v", w, got)
				}
			}
			if tc.err == "" {
				if len(errs) > 0 || tc.want == nil && len(rs) > 0 {
					t.Errorf("errs %v, readings %v", errs, got)
				}
				return
			}
			if len(rs) > 0 && strings.Contains(tc.name, "KB") {
				for _, r := range rs {
					if strings.HasSuffix(r.Key, "net_rx") {
						t.Errorf("KB read as %s %s", r.Number.Value, r.Number.Unit)
					}
				}
			}
			tok, msg, _ := strings.Cut(tc.err, "|")
			col := strings.Index(tc.row, tok) + 1
			if after, ok := strings.CutSuffix(tok, "^"); ok { // the error is just after the token: a number without its unit
				col = strings.Index(tc.row, after) + len(after) + 1
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Message, msg) || errs[0].Pos.Column != col || errs[0].Pos.Line != 2 {
				t.Errorf("errs = %v; want one at 2:%d containing %q", errs, col, msg)
			}
		})
	}
}

// TestDockerStatsJSONAndColumns: a --format '{{json .}}' line gives the
// table's keys; an unknown column or member is an error, not skipped.
func TestDockerStatsJSONAndColumns(t *testing.T) {
	src := []byte(`{"BlockIO":"0B / 0B","CPUPerc":"1.50%","MemUsage":"2MiB / 1GiB","Name":"db","PIDs":"3"}` + "\n")
	rs, errs := rawtest.AllOf(cmdtools.ReadDockerStats("s.txt", src, raw.ReadOptions{}))
	rawtest.CheckReadings(t, src, rs, errs, nil)
	if len(errs) > 0 || len(rs) != 6 || rs[2].Key != "db.cpu" || rs[2].Raw != "1.50%" || rs[2].Pos.Column != 33 {
		t.Errorf("readings %v, errs %v", rs, errs)
	}
	// the streaming docker stats clears the terminal before each frame
	src = []byte("\x1b[2J\x1b[HCONTAINER ID   NAME   CPU %\nab12   web    1.00%\n\x1b[2J\x1b[HCONTAINER ID   NAME   CPU %\nab12   web    2.00%\n")
	rs, errs = rawtest.AllOf(cmdtools.ReadDockerStats("s.txt", src, raw.ReadOptions{}))
	rawtest.CheckReadings(t, src, rs, errs, nil)
	if len(errs) > 0 || len(rs) != 2 || rs[1].Key != "web.cpu#2" || rs[1].Raw != "2.00%" {
		t.Errorf("streaming frames: readings %v, errs %v", rs, errs)
	}
	for _, tc := range []struct{ src, want string }{
		{"CONTAINER ID   NAME   CPU %     NET IO\nx   web   1%   1B / 2B\n", `1:33: column "NET IO" is not one docker stats prints`},
		{`{"Name":"db","CPU":"1%"}` + "\n", `1:20: member "CPU" is not one docker stats prints`},
		{`{"CPUPerc":"1%"}` + "\n", "1:1: a docker stats line without a Name"},
		{"Error response from daemon: no such container: web\n", `1:1: "Error" is not a docker stats line`},
	} {
		rs, errs := rawtest.AllOf(cmdtools.ReadDockerStats("s.txt", []byte(tc.src), raw.ReadOptions{}))
		if len(errs) == 0 || !strings.Contains(fmt.Sprintf("%d:%d: %s", errs[0].Pos.Line, errs[0].Pos.Column, errs[0].Message), tc.want) {
			t.Errorf("%q: errs %v (readings %v); want %s", tc.src, errs, rs, tc.want)
		}
	}
}

// TestSnapshotTimes: a timestamp line starts a snapshot whose time is
// the instant it names (seconds since the Unix epoch), in any of the
// forms date prints with a zone; a time without a zone (whose distance
// to the next would depend on an unstated zone) and a table before the
// first timestamp are errors, in docker stats and kubectl alike.
func TestSnapshotTimes(t *testing.T) {
	for _, tc := range []struct{ stamp, want string }{
		{"2026-11-30T14:00:03+09:00", "1796014803"},
		{"2026-11-30T05:00:03Z", "1796014803"},
		{"2026-11-30T05:00:03,25+00:00", "1796014803.25"},
		{"2026-11-30 14:00:03+09:00", "1796014803"},
		{"Mon Nov 30 05:00:03 UTC 2026", "1796014803"},
		{"Mon Nov 30 14:00:03 +0900 2026", "1796014803"},
		{"2026-11-29T23:30:03-05:30", "1796014803"},
		{"2026-11-30T14:00:03", "error: has no time zone"},
		{"Mon Nov 30 14:00:03 KST 2026", "error: time zone KST names no offset"},
		{"2026-02-30T14:00:03Z", "error: is not a valid date"},
	} {
		for _, f := range []struct {
			format string
			read   raw.ListReader
			table  string
		}{
			{"docker-stats", cmdtools.ReadDockerStats, "CONTAINER ID   NAME   CPU %\nab12   web    1.00%\n"},
			{"kubectl", cmdtools.ReadKubectl, "NAME   CPU(cores)   MEMORY(bytes)\nweb    74m          343Mi\n"},
		} {
			src := []byte(tc.stamp + "\n" + f.table)
			rs, errs := rawtest.AllOf(f.read("s.txt", src, raw.ReadOptions{}))
			got := "no time"
			for _, r := range rs {
				if r.Key == "s1.time" {
					got = r.Number.Value.String()
					if r.Number.Unit != "s" || r.Raw != tc.stamp {
						t.Errorf("%s %q: unit %q raw %q", f.format, tc.stamp, r.Number.Unit, r.Raw)
					}
				}
			}
			if len(errs) > 0 {
				got = "error: " + errs[0].Message
				if errs[0].Pos.Line != 1 || errs[0].Pos.Column != 1 {
					t.Errorf("%s %q: error at %s", f.format, tc.stamp, errs[0].Pos)
				}
			}
			if w, ok := strings.CutPrefix(tc.want, "error: "); ok && !strings.Contains(got, w) || !ok && got != tc.want {
				t.Errorf("%s %q: got %s, want %s", f.format, tc.stamp, got, tc.want)
			}
			if len(errs) == 0 && !strings.HasPrefix(rs[len(rs)-1].Key, "s1.web.") {
				t.Errorf("%s: row key %q, want s1.web.…", f.format, rs[len(rs)-1].Key)
			}
		}
	}
	for _, src := range []string{
		"CONTAINER ID   NAME   CPU %\nab12   web    1.00%\n2026-11-30T05:00:03Z\nCONTAINER ID   NAME   CPU %\nab12   web    1.00%\n",
		"NAME   CPU(cores)\nweb    74m\n2026-11-30T05:00:03Z\nNAME   CPU(cores)\nweb    74m\n",
	} {
		read := cmdtools.ReadKubectl
		if strings.HasPrefix(src, "CONTAINER") {
			read = cmdtools.ReadDockerStats
		}
		_, errs := read("s.txt", []byte(src), raw.ReadOptions{})
		if len(errs) != 1 || errs[0].Pos.Line != 1 || !strings.Contains(errs[0].Message, "table before the first timestamp line") {
			t.Errorf("%q: errs %v; want the first table refused", src, errs)
		}
	}
}

func FuzzDockerStats(f *testing.F) {
	rawtest.ToolFuzz(f, "docker-stats", "2026-11-30T14:00:03+09:00\nCONTAINER ID   NAME   CPU %     MEM USAGE / LIMIT   NET I/O\nab   w   1e3%   1.5GiB / 7.7PiB   -- / --\n\nMon Nov 30 05:00:03 GMT 2026\nCONTAINER  PIDS\nx  --\n",
		`{"CPUPerc":"1%","Name":"a\"b","NetIO":"1kB / 2KB"}`+"\n2026-11-30T14:00:03\n")
}
