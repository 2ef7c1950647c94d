package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// costInput returns a file of format with n repeated entries (lines), in
// the shape the tools print: the inputs of the cost table's per-reader
// memory figures (RELIABILITY.md, "Cost bounds").
func costInput(format string, n int) []byte {
	var b strings.Builder
	switch format {
	case "envoy-access-log":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "[2024-03-01T08:15:02.%03dZ] \"GET /api/items%d HTTP/1.1\" %d - 0 %d %d %d \"-\" \"hey/0.0.1\" \"5f1c9a1e-2b0d-4e6a-9a4e-%012d\" \"items.lab:8080\" \"10.1.4.7:8080\"\n", i%1000, i%37, 200+303*(i%2), i%9999+1, i%999+1, i%998+1, i)
		}
	case "ping":
		b.WriteString("PING 192.168.0.4 (192.168.0.4) 56(84) bytes of data.\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "64 bytes from 192.168.0.4: icmp_seq=%d ttl=64 time=%d.%d ms\n", i+1, i%300+1, i%10)
		}
		fmt.Fprintf(&b, "\n--- 192.168.0.4 ping statistics ---\n%d packets transmitted, %d received, 0%% packet loss, time 2079ms\nrtt min/avg/max/mdev = 103.614/119.311/134.686/12.690 ms\n", n, n)
	case "kubectl":
		b.WriteString("NAME                       CPU(cores)   MEMORY(bytes)\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "cart-6f9c7d5b8-%07d       %dm          %dMi\n", i, i%999+1, i%4000+1)
		}
	case "go-bench":
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/lab/router\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "BenchmarkMatch/case%d-4         \t %d\t       %d.%d ns/op\t       %d B/op\t       %d allocs/op\n", i, 1000+i, i%9999+1, i%10, i%999, i%9)
		}
		b.WriteString("PASS\nok  \texample.com/lab/router\t7.412s\n")
	case "pattern":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "GET /api/p%d %d %dms\n", i%50, 200+303*(i%3/2), i%999+1)
		}
	case "hey":
		b.WriteString("\nSummary:\n  Total:\t1.5000 secs\n  Average:\t0.0400 secs\n\nResponse time histogram:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  %d.%04d [%d]\t|\u25a0\n", i/10000, i%10000, i%997+1)
		}
		b.WriteString("\nLatency distribution:\n  50% in 0.0300 secs\n")
	case "vegeta":
		b.WriteString("Bucket         #     %       Histogram\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "[%dms,  %dms]    %d   %d.%02d%%   #\n", i, i+1, i%997+1, i%100, i%97)
		}
	case "wrk":
		b.WriteString("  Detailed Percentile spectrum:\n       Value   Percentile   TotalCount 1/(1-Percentile)\n\n")
		for i := 0; i < n; i++ {
			p := float64(i) / float64(n)
			fmt.Fprintf(&b, "       %d.%03d     %.6f        %7d         %.2f\n", i/1000, i%1000, p, i+1, 1/(1-p))
		}
	case "k6":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "     http_req_duration_%d..............: avg=%d.%02dms min=1.93ms med=7.31ms max=65.33ms p(90)=8.91ms p(95)=9.54ms\n", i, i%97+1, i%100)
		}
	case "ghz":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "ghz_detail,call=\"a.B.C\",n=3,c=1,errors=0,has_errors=false latency=%d,status=\"OK\" %d\n", 1000000+i*37, 1707643812000000000+i)
		}
	case "envoy-clusters":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "outbound|80||svc%d.lab.svc.cluster.local::10.1.%d.%d:8080::rq_total::%d\n", i, i/250%250, i%250, i*3)
		}
	case "envoy-clusters-json":
		b.WriteString(`{"cluster_statuses":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"name":"outbound|80||svc%d","host_statuses":[{"address":{"socket_address":{"address":"10.1.0.%d","port_value":8080}},"stats":[{"name":"rq_total","value":"%d"}]}]}`+"\n", i, i%250, i*3)
		}
		b.WriteString("]}\n")
	case "fortio-json":
		b.WriteString(`{"RunType":"HTTP","ActualQPS":99.87,"DurationHistogram":{"Count":2996,"Data":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"Start":%d.%03d,"End":%d.%03d,"Percent":%d.%d,"Count":%d}`+"\n", i/1000, i%1000, (i+1)/1000, (i+1)%1000, i%100, i%10, i%97+1)
		}
		b.WriteString("]}}\n")
	case "fortio-text":
		b.WriteString("# range, mid point, percentile, count\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, ">= %d.%04d <= %d.%04d , %d.%05d , %d.%02d, %d\n", i/10000, i%10000, (i+1)/10000, (i+1)%10000, i/10000, i%10000*10+5, i*100/n, i%100, i%97+1)
		}
	case "curl-writeout":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "CURL_EXIT=0 SIZE=%d TIME=%d.%06d CODE=200\n", 4096+i, i%60, i%999999)
		}
	case "istioctl-table":
		b.WriteString("SERVICE FQDN                         PORT      SUBSET  DIRECTION  TYPE\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%-36s %-9d -       outbound   EDS\n", fmt.Sprintf("svc%d.lab.svc.cluster.local", i), 8000+i%1000)
		}
	case "dig":
		b.WriteString(";; ANSWER SECTION:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "svc%d.lab.\t\t%d\tIN\tA\t10.1.%d.%d\n", i, i%300+1, i/250%250, i%250)
		}
		b.WriteString("\n;; Query time: 3 msec\n;; MSG SIZE  rcvd: 108\n")
	case "oha":
		b.WriteString("Summary:\n  Success rate:\t100.00%\n  Total:\t5.9440 secs\n\nResponse time histogram:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  %d.%04d [%d]\t|\u25a0\n", i/10000, i%10000, i%997+1)
		}
		b.WriteString("\nResponse time distribution:\n  50.00% in 0.0015 secs\n")
	case "benchstat":
		b.WriteString("name                         old time/op        new time/op        delta\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%-28s %9s ±%2d%%   %13s ±%2d%%  -%d.%02d%%  (p=0.100 n=3+3)\n", fmt.Sprintf("Generation/%d-8", i), fmt.Sprintf("%d\u00b5s", i%900+100), i%20+1, fmt.Sprintf("%d\u00b5s", i%400+50), i%9+1, i%60+1, i%100)
		}
	case "time":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\nreal\t0m%d.%03ds\nuser\t0m0.%03ds\nsys\t0m0.%03ds\n", i%60, i%1000, i%1000, i%997)
		}
	case "docker-stats":
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `{"BlockIO":"0B / 4.1kB","CPUPerc":"%d.%02d%%","Container":"3f1c2a9e%04d","ID":"3f1c2a9e%04d","MemPerc":"0.09%%","MemUsage":"%d.%03dMiB / 7.667GiB","Name":"svc-%d","NetIO":"1.23kB / 0B","PIDs":"%d"}`+"\n", i%100, i%100, i, i, i%900+1, i%1000, i, i%40+1)
		}
	case "mtr":
		b.WriteString("Start: 2024-05-02T10:11:12+0000\nHOST: client-7d9f8                Loss%   Snt   Last   Avg  Best  Wrst StDev\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%3d.|-- 10.%d.%d.%d                 %d.%d%%    10   %d.%d   %d.%d   0.1   %d.%d   0.%d\n", i+1, i/65536%250, i/256%256, i%256, i%100, i%10, i%90+1, i%10, i%90+1, i%10, i%90+2, i%10, i%10)
		}
	case "markdown-tables", "transcript", "json", "envoy-stats-json", "csv", "envoy-stats", "prometheus":
		return benchInput(format, n*40)
	default:
		return nil // costFormats lists a format with no input here: the tests fail naming it
	}
	return []byte(b.String())
}

// BenchmarkReaderMemory measures, for each reader, the heap its readings
// of a file hold per byte of the file (live-B/input-B, counted by the
// runtime after a collection: memory, not time) and the bytes it
// allocates per input byte (B/op divided by the file's size). Every reading of a file is kept (a
// [[read]] without select, `evdoc values FILE`), so the figures grow with
// the readings a line holds; RELIABILITY.md's cost table records them.
func BenchmarkReaderMemory(b *testing.B) {
	for _, format := range costFormats() {
		b.Run(format, func(b *testing.B) {
			src := costInput(format, 20000)
			read, err := formats.ListReaderFor(format)
			if err != nil {
				b.Fatal(err)
			}
			opt := costOptions(format)
			_, _ = read("f", costInput(format, 10), opt) // what the process initialises once
			// live: the heap the readings hold once read (what a store
			// without select keeps), measured after a collection.
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			rs, errs := read("f", src, opt)
			runtime.GC()
			runtime.ReadMemStats(&after)
			if errs.HasErrors() || rs.Len() == 0 {
				b.Fatalf("%d readings, %v", rs.Len(), errs)
			}
			n := rs.Len()
			live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			alloc := after.TotalAlloc - before.TotalAlloc
			runtime.KeepAlive(rs)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, _ = read("f", src, opt)
			}
			b.ReportMetric(float64(live)/float64(len(src)), "live-B/input-B")
			b.ReportMetric(float64(alloc)/float64(len(src)), "alloc-B/input-B")
			b.ReportMetric(float64(n)/float64(len(src))*1000, "readings/kB")
		})
	}
}

// costFormats are the readers BenchmarkReaderMemory and
// TestReaderLiveMemory measure: every format (costInput has a file of
// each).
func costFormats() []string { return formats.Names() }

// costOptions are the read options of costInput's file of format.
func costOptions(format string) raw.ReadOptions {
	if format == "pattern" {
		return raw.ReadOptions{Patterns: []string{`^GET /api/(?P<path>\w+) %{INT:code} %{DURATION:lat}`}}
	}
	return raw.ReadOptions{}
}

// liveBound is the most heap a reader's readings of a file may hold per
// byte of the file (Readings: 40 bytes a reading and its key's bytes).
// The process's peak adds the file, the sweep's ranges (8 bytes a
// reading) and the collector's headroom (GOGC=100: up to the live heap
// again), which probes s4/31–32 bound at 20 bytes per input byte.
const liveBound = 5.0

// liveBoundOf is liveBound, or the bound of a reader whose readings are
// held whole rather than as ranges of the file: benchstat's (each value
// carries its spread, from the `± N%` beside it), and those of Markdown
// report tables and transcripts (a cell's number, unit and bold or
// struck-out marks are read from the cell's text, not at one file
// position), files written by people and measured in kilobytes.
func liveBoundOf(format string) float64 {
	switch format {
	case "benchstat":
		return 12
	case "markdown-tables", "transcript":
		return 20
	}
	return liveBound
}

// TestReaderLiveMemory: every measured reader's readings hold at most
// liveBound bytes of heap per input byte once read, counted by the
// runtime after a collection (not timed). Held as 192-byte Readings with
// a big.Int each, the same files took 6 (prometheus) to 33 (vegeta).
func TestReaderLiveMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("heap figures are those of a build without the race detector (.ci/run runs this test without it)")
	}
	for _, format := range costFormats() {
		t.Run(format, func(t *testing.T) {
			src := costInput(format, 20000)
			if src == nil {
				t.Fatalf("costInput has no file of format %s: every reader's cost is measured", format)
			}
			read, err := formats.ListReaderFor(format)
			if err != nil {
				t.Fatal(err)
			}
			// Every number of the file is read: a cost input a reader
			// mostly skips would measure nothing.
			if _, errs := read("f", costInput(format, 50), costOptions(format)); len(errs) > 0 {
				t.Fatalf("reading 50 entries: %d findings, the first %v", len(errs), errs[0])
			}
			// A first read initialises what the process keeps once
			// (package unit's tables), not per file.
			_, _ = read("f", costInput(format, 10), costOptions(format))
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			rs, errs := read("f", src, costOptions(format))
			runtime.GC()
			runtime.ReadMemStats(&after)
			if errs.HasErrors() || rs.Len() == 0 {
				t.Fatalf("%d readings, %v", rs.Len(), errs)
			}
			live := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(src))
			t.Logf("%d readings of %d bytes: %.1f bytes live per input byte", rs.Len(), len(src), live)
			if bound := liveBoundOf(format); live > bound {
				t.Errorf("the readings of a %d-byte %s file hold %.1f bytes per input byte; want at most %.0f", len(src), format, live, bound)
			}
			if r := rs.At(rs.Len() - 1); r.Raw == "" || !r.Pos.IsValid() {
				t.Errorf("last reading %+v has no raw text or position", r)
			}
			runtime.KeepAlive(rs)
		})
	}
}

// TestReadKeptHoldsOnlySelected: a [[read]] with select keeps only its
// selected readings once the file is read. Of a 20,000-line access log
// (about 3.3 MB, 120,000 readings, which hold about 11 bytes per input
// byte), two selected readings leave under 256 KiB live, counted by the
// runtime after a collection; every reading kept is the 120,000.
func TestReadKeptHoldsOnlySelected(t *testing.T) {
	src := costInput("envoy-access-log", 20000)
	keep := func(r raw.Reading) bool { return r.Key == "r1.duration" || r.Key == "r20000.duration" }
	live := func(keep func(raw.Reading) bool) (int64, []raw.Reading) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rs, errs := formats.ReadKept("envoy-access-log", "a.log", src, raw.ReadOptions{}, raw.DefaultWindow, keep)
		if errs.HasErrors() {
			t.Fatal(errs)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc), rs
	}
	n, rs := live(keep)
	if len(rs) != 2 || rs[0].Raw != "1" || rs[1].Key != "r20000.duration" {
		t.Fatalf("selected %+v, want r1.duration = 1 and r20000.duration", rs)
	}
	if n > 256<<10 {
		t.Errorf("two selected readings hold %d bytes after the read; want under 256 KiB", n)
	}
	all, rs := live(nil)
	if len(rs) != 120000 {
		t.Errorf("%d readings without select, want 120000", len(rs))
	}
	if all < int64(len(src)) {
		t.Errorf("every reading holds %d bytes, less than the %d-byte file: the measure counts nothing", all, len(src))
	}
	runtime.KeepAlive(rs)
}

// TestAccessLogSelectSameFindings: an access log read with select keeps
// only the selected readings while it reads, and the unread-number
// sweep still counts every other reading's token as read and every
// other key's numbers as names: the findings and the kept readings are
// those of the whole read filtered. Line 3's request id "3" names r3
// (not a warning); line 4's "77" and the prose line's 5 are warnings.
func TestAccessLogSelectSameFindings(t *testing.T) {
	src := []byte(`[2024-03-01T08:15:02.000Z] "GET /a HTTP/1.1" 200 - 0 10 4 3 "-" "curl" "id-1" "h:80" "10.0.0.1:80"
[2024-03-01T08:15:02.001Z] "GET /b HTTP/1.1" 503 UF 0 91 7 - "-" "curl" "id-2" "h:80" "10.0.0.1:80"
[2024-03-01T08:15:02.002Z] "GET /c HTTP/1.1" 200 - 0 12 5 5 "-" "curl" "3" "h:80" "10.0.0.1:80"
[2024-03-01T08:15:02.003Z] "GET /d HTTP/1.1" 200 - 0 13 6 6 "-" "curl" "77" "h:80" "10.0.0.1:80"
note: 5 retries
{"start_time": "2024-03-01T08:15:02.004Z", "response_code": 200, "duration": 9, "duration": 11, "id": "6"}
`)
	sel := map[string]bool{"r2.duration": true, "r5.duration#2": true}
	keep := func(r raw.Reading) bool { return sel[r.Key] }
	all, allErrs := formats.ReadKept("envoy-access-log", "a.log", src, raw.ReadOptions{}, raw.DefaultWindow, nil)
	got, errs := formats.ReadKept("envoy-access-log", "a.log", src, raw.ReadOptions{Keep: func(k string) bool { return sel[k] }}, raw.DefaultWindow, keep)
	if errs.HasErrors() || len(all) != 28 {
		t.Fatalf("%d readings, %v", len(all), errs)
	}
	var want []raw.Reading
	for _, r := range all {
		if keep(r) {
			want = append(want, r)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != 2 {
		t.Errorf("kept %v, want %v", got, want)
	}
	if fmt.Sprint(errs) != fmt.Sprint(allErrs) {
		t.Errorf("findings with select:\n%v\nwant those of the whole read:\n%v", errs, allErrs)
	}
	var warned []string
	for _, d := range errs {
		warned = append(warned, fmt.Sprintf("%d:%d", d.Pos.Line, d.Pos.Column))
	}
	if w := strings.Join(warned, " "); w != "4:73 5:7" {
		t.Errorf("warnings at %s, want 4:73 (the request id 77) and 5:7 (the prose's 5)", w)
	}
}

// TestAccessLogSelectAllocates: with select, the reader does not build
// the list of every reading: its own list (not a copy of the kept ones)
// holds the one selected reading in one chunk, while the whole read's
// holds the 12,000 readings of the 2,000 lines in 12 chunks. (The chunks
// are counted, not bytes: a log of 2,000 lines shows it as well as one of
// 20,000, which took about ten times as long under -race.)
func TestAccessLogSelectAllocates(t *testing.T) {
	const lines = 2000
	const readings = 6 * lines
	src := costInput("envoy-access-log", lines)
	read, err := formats.ListReaderFor("envoy-access-log")
	if err != nil {
		t.Fatal(err)
	}
	sel, errs := read("a.log", src, raw.ReadOptions{Keep: func(k string) bool { return k == "r1.duration" }})
	all, allErrs := read("a.log", src, raw.ReadOptions{})
	if errs.HasErrors() || allErrs.HasErrors() {
		t.Fatal(errs, allErrs)
	}
	if sel.Len() != 1 || raw.Chunks(sel) != 1 || sel.At(0).Key != "r1.duration" {
		t.Errorf("with select the reader's list holds %d readings in %d chunks; want r1.duration alone in one", sel.Len(), raw.Chunks(sel))
	}
	if want := (readings + raw.ChunkLen - 1) / raw.ChunkLen; all.Len() != readings || raw.Chunks(all) != want || want < 2 {
		t.Errorf("the whole read's list holds %d readings in %d chunks; want %d in %d (more than one)", all.Len(), raw.Chunks(all), readings, want)
	}
}

// allocPerByte is the bytes read allocates per byte of a file of format
// with n entries, counted by the runtime (the same on any machine).
func allocPerByte(t testing.TB, format string, n int) float64 {
	src := costInput(format, n)
	read, err := formats.ListReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = read("f", costInput(format, 10), costOptions(format))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rs, _ := read("f", src, costOptions(format))
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(rs)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src))
}

// TestReaderScalingAllocates: every reader's work grows linearly with its
// input, as far as the bytes it allocates show it: 16 times the entries
// allocate at most 1.5 times as much per input byte (plus 4 bytes of
// slack for what a small file's fixed cost spreads thin). A reader that
// copied its list or rescanned its input per entry would allocate with
// the square of the entries. Time per byte at both sizes is
// BenchmarkReaderScaling's (RELIABILITY.md, Cost bounds).
func TestReaderScalingAllocates(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation figures are those of a build without the race detector (.ci/run runs this test without it)")
	}
	for _, format := range costFormats() {
		t.Run(format, func(t *testing.T) {
			if costInput(format, 1) == nil {
				t.Fatalf("costInput has no file of format %s", format)
			}
			small, big := allocPerByte(t, format, 1000), allocPerByte(t, format, 16000)
			t.Logf("%.1f bytes allocated per input byte at 1,000 entries, %.1f at 16,000", small, big)
			if big > 1.5*small+4 {
				t.Errorf("16 times the entries allocate %.1f bytes per input byte against %.1f: not linear", big, small)
			}
		})
	}
}

// BenchmarkReaderScaling reports, for every reader, the time per input
// byte at 2,000 and at 32,000 entries (the fastest of b.N reads of each)
// and their ratio (time-16x/1x is 16 for linear work: the cost table's
// "time" column).
func BenchmarkReaderScaling(b *testing.B) {
	for _, format := range costFormats() {
		b.Run(format, func(b *testing.B) {
			read, err := formats.ListReaderFor(format)
			if err != nil {
				b.Fatal(err)
			}
			small, big := costInput(format, 2000), costInput(format, 32000)
			opt := costOptions(format)
			// The fastest of the b.N reads of each size: the reads
			// alternate, so a collection of one size's garbage can fall
			// in the other's time.
			tSmall, tBig := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
			for i := 0; i < b.N; i++ {
				start := time.Now()
				_, _ = read("f", small, opt)
				tSmall = min(tSmall, time.Since(start))
				start = time.Now()
				_, _ = read("f", big, opt)
				tBig = min(tBig, time.Since(start))
			}
			b.ReportMetric(float64(tSmall.Nanoseconds())/float64(len(small)), "ns/B-1x")
			b.ReportMetric(float64(tBig.Nanoseconds())/float64(len(big)), "ns/B-16x")
			b.ReportMetric(float64(tBig)/float64(tSmall), "time-16x/1x")
		})
	}
}
