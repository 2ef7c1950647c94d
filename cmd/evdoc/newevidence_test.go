package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewEvidence(t *testing.T) {
	fortio, err := filepath.Abs("../../generator/figure/testdata/fortio/evidence/fortio-readme/result.json")
	if err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(junk, []byte("no numbers here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"fortio", []string{"cb-off", "--from", fortio, "--origin", "raw", "--environment", "kind; fortio"}, 0, "cb-off/cb_off.durationhistogram.p50 = 0.0004920823333333334 s", `no --date: evidence/cb-off/evidence.toml says date = "unknown"`},
		{"dated", []string{"cb-on", "--from", fortio, "--origin", "raw", "--environment", "kind; fortio", "--date", "2026-07-09"}, 0, "wrote evidence/cb-on/evidence.toml", ""},
		{"bad date", []string{"x", "--from", fortio, "--origin", "raw", "--environment", "kind", "--date", "9 July"}, 2, "", `--date="9 July": expected the run's date as YYYY-MM-DD`},
		{"exists", []string{"cb-off", "--from", fortio, "--origin", "raw", "--environment", "kind"}, 2, "", "evidence/cb-off exists"},
		{"bad name", []string{"CB Off", "--from", fortio, "--origin", "raw", "--environment", "kind"}, 2, "", "expected lower-case letters"},
		{"no origin", []string{"x", "--from", fortio, "--environment", "kind"}, 2, "", "expected raw (the lab's own output"},
		{"transcribed without source", []string{"x", "--from", fortio, "--origin", "transcribed", "--environment", "kind"}, 2, "", "expected --source"},
		{"no environment", []string{"x", "--from", fortio, "--origin", "raw"}, 2, "", "--environment: expected"},
		{"no values", []string{"junk", "--from", junk, "--origin", "raw", "--environment", "kind"}, 2, "", "no value to name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := evdoc(append([]string{"new", "evidence", "--root", dir}, tt.args...)...)
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) || tt.stderr == "" && stderr != "" {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant exit %d, %q, %q", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	// A dangling link in the set's place is named, not reported as the
	// rename's "not a directory"; nothing is created where it points.
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Symlink(gone, filepath.Join(dir, "evidence", "dangling")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := evdoc("new", "evidence", "--root", dir, "dangling", "--from", fortio, "--origin", "raw", "--environment", "kind"); code != 2 || !strings.Contains(stderr, "evidence/dangling is a symbolic link (to "+gone+")") {
		t.Errorf("dangling link: exit %d, stderr %s; want exit 2 naming the link", code, stderr)
	}
	if _, err := os.Lstat(gone); err == nil {
		t.Error("new evidence created the dangling link's target")
	}
	if err := os.Remove(filepath.Join(dir, "evidence", "dangling")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "evidence", "junk")); err == nil {
		t.Error("a failed new evidence left evidence/junk")
	}
	m, err := os.ReadFile(filepath.Join(dir, "evidence", "cb-off", "evidence.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`format = "fortio-json"`, `origin      = "raw"`, `date        = "unknown"   # the run's date was not given (--date YYYY-MM-DD): set it`, "#   cb-off/cb_off.durationhistogram.count = 4 -  (result.json:12:14)"} {
		if !strings.Contains(string(m), want) {
			t.Errorf("manifest lacks %q:\n%s", want, m)
		}
	}
	// The project still checks, and a claim can bind the new value.
	if code, stdout, _ := evdoc("check", "--root", dir); code != 0 {
		t.Errorf("check after new evidence: exit %d\n%s", code, stdout)
	}
}

// One run leaves several files: new evidence copies each into the set
// with a [[read]] entry named after the file, in the format guessed for
// it, and names Prometheus samples by their metric and label values,
// k6 tagged metrics by their tags and pods by their workload (select)
// rather than by the whole key; a number no reading took is a warning on
// standard error.
func TestNewEvidenceSeveralFiles(t *testing.T) {
	tools := "../../generator/evidence/raw/testdata/tools/"
	vegeta, _ := filepath.Abs(tools + "vegeta/case35-ambient-l4.txt")
	prom, _ := filepath.Abs(tools + "prometheus/case39-envoy-rq-time.txt")
	ping, _ := filepath.Abs(tools + "ping/case50-linux.txt")
	k6, _ := filepath.Abs(tools + "k6/case36-express.txt")
	top, _ := filepath.Abs(tools + "kubectl/case42-top-pod.txt")
	attack, _ := filepath.Abs(tools + "vegeta/attack-errors.txt")
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	code, stdout, stderr := evdoc("new", "evidence", "--root", dir, "run-1", "--from", vegeta, "--from", prom, ping, k6, top, attack, "--origin", "raw", "--environment", "kind; vegeta", "--date", "2026-07-09")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if want := `evidence/run-1/attack-errors.txt:11:1: warning: number "503" is not read by the vegeta format`; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	for _, want := range []string{
		"run-1/case35_ambient_l4.latencies.p99 = 3.836 ms",
		"run-1/case39_envoy_rq_time.envoy_cluster_upstream_rq_time_bucket.echo_service.le_5 = 906 \n",
		"run-1/case39_envoy_rq_time.envoy_cluster_upstream_rq_time_sum.echo_service = 1000.8500000000001364242052659392 ms",
		"run-1/case50_linux.rtt.avg = 119.311 ms",
		"run-1/case36_express.http_req_duration.expected_response_true.p95 = 19.54 ms",
		"run-1/case36_express.data_received.rate = 16 MB/s",
		"run-1/case42_top_pod.coredns.memory_bytes = 12 MiB",
		"run-1/case42_top_pod.calico_node_dqmh6.cpu_cores = 35 mcore",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	m, err := os.ReadFile(filepath.Join(dir, "evidence", "run-1", "evidence.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`format = "vegeta"`, `format = "prometheus"`, `format = "ping"`, `name   = "case39_envoy_rq_time"`,
		`'envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name="echo-service",le="+Inf"}' = "envoy_cluster_upstream_rq_time_bucket.echo_service.le_inf"`} {
		if !strings.Contains(string(m), want) {
			t.Errorf("manifest lacks %q:\n%s", want, m)
		}
	}
	for _, f := range []string{"case35-ambient-l4.txt", "case39-envoy-rq-time.txt", "case50-linux.txt"} {
		if _, err := os.Stat(filepath.Join(dir, "evidence", "run-1", f)); err != nil {
			t.Error(err)
		}
	}
}

// A raw file with more values than a manifest can list (72,000 values of
// a 12,000-line access log: the listing alone passes the 4 MiB manifest
// limit check applies) gets a manifest check accepts: the listing is left
// out with a note naming `evdoc values`, and check passes. Written with
// the listing, the manifest would be rejected by check (evidence-limit).
func TestNewEvidenceManifestUnderLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 12,000-line access log")
	}
	t.Parallel() // a project of its own; changes no working directory, environment or signal
	var b strings.Builder
	for i := range 12000 {
		fmt.Fprintf(&b, "[2026-01-01T00:00:%02d.%03dZ] \"GET /items/%d HTTP/1.1\" 200 - 0 %d %d %d \"-\" \"load/1\" \"req-%08d\" \"svc.lab:80\" \"10.0.0.1:80\"\n",
			i/1000%60, i%1000, i, 1000+i%977, 100+i%313, 90+i%211, i)
	}
	log := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	code, stdout, stderr := evdoc("new", "evidence", "--root", dir, "big", "--from", log, "--origin", "raw", "--environment", "e", "--date", "2026-01-01")
	if code != 0 || !strings.Contains(stdout, "with 72000 values") {
		t.Fatalf("new evidence: exit %d\n%.300s\n%s", code, stdout, stderr)
	}
	m, err := os.ReadFile(filepath.Join(dir, "evidence", "big", "evidence.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) > 4<<20 || !strings.Contains(string(m), "# 72000 values, not listed here") || !strings.Contains(string(m), "`evdoc values big` lists them") {
		t.Errorf("manifest of %d bytes:\n%.600s", len(m), m)
	}
	if code, stdout, _ := evdoc("check", "--root", dir); code != 0 {
		t.Errorf("check after new evidence: exit %d\n%s", code, stdout)
	}
}
