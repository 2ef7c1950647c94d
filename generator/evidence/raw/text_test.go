package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"

	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"invalid utf8", "ok\n\xff", "f:2:1: error: invalid UTF-8 byte 0xff"},
		{"lone carriage return", "a\rb", "f:1:2: error: carriage return inside a line"},
	}
	for _, tt := range tests {
		_, errs := labreport.ReadTables("f", []byte(tt.src))
		if len(errs) != 1 || !strings.HasPrefix(errs[0].String(), tt.want) {
			t.Errorf("%s: got %v, want prefix %q", tt.name, errs, tt.want)
		}
		_, errs = labreport.ReadTranscript("f", []byte(tt.src), raw.ReadOptions{})
		if len(errs) != 1 || !strings.HasPrefix(errs[0].String(), tt.want) {
			t.Errorf("%s (transcript): got %v, want prefix %q", tt.name, errs, tt.want)
		}
	}
}

// TestBOMAndCRLFEveryReader: a file saved with a UTF-8 byte order mark and
// CRLF line endings reads as its LF twin, each position counting the
// file's own bytes (line 1 columns shifted by the three BOM bytes).
func TestBOMAndCRLFEveryReader(t *testing.T) {
	samples := map[string]string{
		"markdown-tables":  "# R\n\n| a | b |\n|---|---|\n| x | 1 |\n| y | 2.5% |\n",
		"transcript":       "A=7\n[S1] t\nA=1 B=2.5s\nx +3\ny: 4\n",
		"envoy-stats":      "cluster.a.upstream_rq: 5\nhttp.x.rq_time: P50(1,2) P99(3,4)\n",
		"envoy-stats-json": "{\n \"stats\": [\n  {\"name\": \"a.b\", \"value\": 3}\n ]\n}\n",
		"envoy-clusters":   "c::1.2.3.4:80::cx_active::2\nc::1.2.3.4:80::cx_total::9\n",
		"envoy-clusters-json": "{\"cluster_statuses\": [\n {\"name\": \"c\", \"host_statuses\": [\n  {\"address\": {\"socket_address\": {\"address\": \"1.2.3.4\", \"port_value\": 80}},\n" +
			"   \"stats\": [{\"name\": \"cx_active\", \"value\": \"2\"}]}]}]}\n",
		"fortio-json":      "{\n\"RunType\": \"HTTP\",\n\"ActualDuration\": 100,\n\"DurationHistogram\": {\"Count\": 3, \"Avg\": 0.5, \"Percentiles\": [{\"Percentile\": 99, \"Value\": 0.9}]},\n\"RetCodes\": {\"200\": 3}\n}\n",
		"fortio-text":      "Code 200 : 18 (90.0 %)\nCode 503 : 2 (10.0 %)\nAll done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n",
		"curl-writeout":    "time_total: 0.5\nSIZE=2 CODE=200\n",
		"csv":              "a,b\n1,2\n\"3\",4\n",
		"json":             "{\n\"a\": 1,\n\"b\": [2, 3]\n}\n",
		"istioctl-table":   "NAME   PORT   TYPE\na      1      EDS\nb      22     EDS\n",
		"dig":              ";; Query time: 250 usec\nexample.com. 300 IN A 1.2.3.4\n",
		"prometheus":       "# TYPE a counter\na{x=\"1\"} 5\nb 2.5 1700000000000\n",
		"vegeta":           "Requests      [total, rate, throughput]  10, 1.00, 1.00\nLatencies     [min, mean, 50, max]  1ms, 2ms, 3ms, 4ms\n",
		"wrk":              "Running 10s test @ http://x/\nRequests/sec:  5.50\nTransfer/sec:  1.00KB\n",
		"hey":              "\nSummary:\n  Total:\t1.0 secs\n  Requests/sec:\t5.0\n",
		"oha":              "Summary:\n  Success rate:\t100.00%\n  Total:\t1.0000 secs\n  Size/sec:\t6.44 MiB\n",
		"k6":               "http_reqs......: 5  1.0/s\nvus............: 1  min=1  max=1\n",
		"ghz":              "ghz_run,n=10,c=2 count=10,average=1771308 128802790\n",
		"go-bench":         "BenchmarkA-8   100   12 ns/op   0 B/op   0 allocs/op\nok  \tx\t1.5s\n",
		"benchstat":        "name  old time/op  new time/op  delta\nA-8   825µs ±11%   451µs ± 5%   -45.31%  (p=0.100 n=3+3)\n",
		"time":             "real\t0m1.234s\nuser\t0m0.567s\nsys\t0m0.089s\n",
		"kubectl":          "NAME   CPU(cores)   MEMORY(bytes)\np1     74m          343Mi\n",
		"docker-stats":     "2026-11-30T14:00:03+09:00\nCONTAINER ID   NAME   CPU %     MEM USAGE / LIMIT\n3f1c2a9e8b7d   web    0.41%     7.1MiB / 7.6GiB\n",
		"envoy-access-log": "[2024-03-01T08:15:02.113Z] \"GET / HTTP/1.1\" 200 - 0 17 12 11 \"-\" \"hey\" \"id\" \"a:80\" \"10.0.0.1:80\"\n",
		"ping":             "64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.5 ms\n1 packets transmitted, 1 received, 0% packet loss, time 0ms\n",
		"pattern":          "a: 1.5ms\nb: 2\n",
		"mtr":              "HOST: a   Loss%   Snt   Last   Avg  Best  Wrst StDev\n  1.|-- 10.0.0.1   0.0%   10   0.1   0.1   0.1   0.2   0.0\n",
	}
	opts := map[string]raw.ReadOptions{"pattern": {Patterns: []string{`^(?P<name>\w+): %{NUMBER:value}`}, Key: "{name}"}}
	if len(samples) != len(formats.Names()) {
		t.Fatalf("samples for %d formats, want every one of %v", len(samples), formats.Names())
	}
	for format, lf := range samples {
		read, err := formats.ReaderFor(format)
		if err != nil {
			t.Fatal(err)
		}
		want, werrs := read("f", []byte(lf), opts[format])
		crlf := []byte(raw.BOM + strings.ReplaceAll(lf, "\n", "\r\n"))
		got, gerrs := read("f", crlf, opts[format])
		if a, b := formats.Sniff("f", []byte(lf)), formats.Sniff("f", crlf); a != b {
			t.Errorf("%s: Sniff guesses %s with BOM+CRLF, %s with LF", format, b, a)
		}
		if werrs != nil || gerrs != nil || len(want) == 0 {
			t.Errorf("%s: diagnostics LF %v, BOM+CRLF %v (%d readings)", format, werrs, gerrs, len(want))
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d readings with BOM+CRLF, %d with LF", format, len(got), len(want))
			continue
		}
		for i, w := range want {
			g := got[i]
			wantCol := w.Pos.Column // the byte order mark takes no column
			if g.Key != w.Key || !g.Number.Value.Equal(w.Number.Value) || g.Raw != w.Raw || g.Pos.Line != w.Pos.Line || g.Pos.Column != wantCol {
				t.Errorf("%s: BOM+CRLF reading %s=%s %q at %v, LF %s=%s %q at %v", format, g.Key, g.Number.Value, g.Raw, g.Pos, w.Key, w.Number.Value, w.Raw, w.Pos)
			}
			if g.Inputs == nil && (g.Pos.Offset+len(g.Raw) > len(crlf) || string(crlf[g.Pos.Offset:g.Pos.Offset+len(g.Raw)]) != g.Raw) {
				t.Errorf("%s: raw %q not at offset %d", format, g.Raw, g.Pos.Offset)
			}
		}
	}
}
