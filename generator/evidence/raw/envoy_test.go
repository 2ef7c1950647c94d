package raw

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// checkEnvoyOutput asserts the Reader contract on one result: every
// position lies inside src, every reading's Raw is the bytes at its Pos,
// its Number spans Raw and its value is the exact decimal Raw spells.
//
// It does what the inside helper does with one line index for the whole
// result, since a fuzzed input can yield thousands of readings.
func checkEnvoyOutput(t *testing.T, src []byte, out []Reading, errs diag.List) {
	t.Helper()
	ix := map[string]*diag.LineIndex{}
	inFile := func(p diag.Position) {
		t.Helper()
		if p.Offset < 0 || p.Offset > len(src) {
			t.Fatalf("position %v offset outside file of %d bytes", p, len(src))
		}
		if ix[p.File] == nil {
			ix[p.File] = diag.NewLineIndex(p.File, src)
		}
		if want := ix[p.File].Pos(p.Offset); want != p {
			t.Fatalf("position %v disagrees with its offset (%v)", p, want)
		}
	}
	for _, e := range errs {
		inFile(e.Pos)
		if !e.Pos.IsValid() {
			t.Fatalf("diagnostic without a line: %v", e)
		}
	}
	for _, r := range out {
		inFile(r.Pos)
		if r.Raw == "" || !bytes.HasPrefix(src[r.Pos.Offset:], []byte(r.Raw)) {
			t.Fatalf("reading %s: raw %q not at %v", r.Key, r.Raw, r.Pos)
		}
		if r.Number.Start != 0 || r.Number.End != len(r.Raw) || r.Number.Unit != "" {
			t.Fatalf("reading %s: number range [%d,%d) unit %q for raw %q", r.Key, r.Number.Start, r.Number.End, r.Number.Unit, r.Raw)
		}
		want, err := decimal.NewFromString(r.Raw)
		if err != nil || !want.Equal(r.Number.Value) {
			t.Fatalf("reading %s: value %s for raw %q (%v)", r.Key, r.Number.Value, r.Raw, err)
		}
	}
}

// envoyCase is one reader input with the readings (key → raw text, which
// is also the exact value) and the errors ("line:col: message part") it
// must produce; keys absent from want must not be read.
type envoyCase struct {
	name string
	src  string
	want map[string]string
	errs []string
}

func runEnvoyCases(t *testing.T, format string, cases []envoyCase) {
	t.Helper()
	read, err := ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			out, errs := read("f", src, ReadOptions{})
			checkEnvoyOutput(t, src, out, errs)
			got := map[string]string{}
			for _, r := range out {
				if _, dup := got[r.Key]; dup {
					t.Errorf("key %q read twice", r.Key)
				}
				got[r.Key] = r.Raw
			}
			for k, raw := range tc.want {
				if got[k] != raw {
					t.Errorf("%s = %q, want %q", k, got[k], raw)
				}
			}
			for k, raw := range got {
				if _, ok := tc.want[k]; !ok {
					t.Errorf("unexpected reading %s = %q", k, raw)
				}
			}
			if len(errs) != len(tc.errs) {
				t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(tc.errs), errs)
			}
			for i, e := range errs {
				at, msg, _ := strings.Cut(tc.errs[i], ": ")
				if pos := strings.TrimPrefix(e.Pos.String(), "f:"); pos != at || !strings.Contains(e.Message, msg) {
					t.Errorf("error %d = %v, want %s: …%s…", i, e, at, msg)
				}
			}
		})
	}
}

func TestReadEnvoyStats(t *testing.T) {
	runEnvoyCases(t, "envoy-stats", []envoyCase{
		{name: "counters and gauges",
			src: "cluster.outbound|443||graph.facebook.com.upstream_rq_retry: 0\n" +
				"listener.[::]:15001.downstream_cx_total: 17\n" +
				"http.async-client.no_cluster: 18446744073709551615\n",
			want: map[string]string{
				"cluster.outbound|443||graph.facebook.com.upstream_rq_retry": "0",
				"listener.[::]:15001.downstream_cx_total":                    "17",
				"http.async-client.no_cluster":                               "18446744073709551615",
			}},
		{name: "split on the last colon-space",
			src:  "a: b: 3\n",
			errs: []string{"1:3: contains white space"}},
		{name: "histogram quantiles, nan intervals give no reading",
			src: "h.rq_time: P0(nan,2.0) P50(1.5,3.05) P99.5(nan,17.985) P100(nan,18)\n",
			want: map[string]string{
				"h.rq_time.p0.cumulative":    "2.0",
				"h.rq_time.p50":              "1.5",
				"h.rq_time.p50.cumulative":   "3.05",
				"h.rq_time.p99.5.cumulative": "17.985",
				"h.rq_time.p100.cumulative":  "18",
			}},
		{name: "quantile labels are normalised decimals",
			src:  "h: P25.0(1,2) P99.90(3,4)\n",
			want: map[string]string{"h.p25": "1", "h.p25.cumulative": "2", "h.p99.9": "3", "h.p99.9.cumulative": "4"}},
		{name: "bucket summary",
			src:  "h: B0.5(0,1) B3.6e+06(2,5)\n",
			want: map[string]string{"h.b0.5": "0", "h.b0.5.cumulative": "1", "h.b3600000": "2", "h.b3600000.cumulative": "5"}},
		{name: "no recorded values, text readout, blank lines, trailing space",
			src:  "h: No recorded values\n\n  \t\nserver.version_text: \"1.30: dev\"\nx: 4  \n",
			want: map[string]string{"x": "4"}},
		{name: "detailed record",
			src: "http.admin.downstream_rq_time:\n" +
				"  totals=1,0.25:25, 2,0.25:9\n" +
				"  intervals=1,0.25:2, 2,0.25:3\n" +
				"  summary=P0(1,1) P50(2.0166,1.068)\n" +
				"next: 1\n",
			want: map[string]string{
				"http.admin.downstream_rq_time.totals.1,0.25":    "25",
				"http.admin.downstream_rq_time.totals.2,0.25":    "9",
				"http.admin.downstream_rq_time.intervals.1,0.25": "2",
				"http.admin.downstream_rq_time.intervals.2,0.25": "3",
				"http.admin.downstream_rq_time.p0":               "1",
				"http.admin.downstream_rq_time.p0.cumulative":    "1",
				"http.admin.downstream_rq_time.p50":              "2.0166",
				"http.admin.downstream_rq_time.p50.cumulative":   "1.068",
				"next": "1",
			}},
		{name: "detailed record with empty bucket lists",
			src:  "h:\n  totals=\n  intervals=\n  summary=P0(nan,1)\n",
			want: map[string]string{"h.p0.cumulative": "1"}},
		{name: "exponents",
			src:  "a: 1e-05\nb: 2.5E+3\nc: 1e999\n",
			want: map[string]string{"a": "1e-05", "b": "2.5E+3"},
			errs: []string{"3:4: exponent beyond"}},
		{name: "errors are positioned",
			src: "Hello from backend!: 51, 51.0%\n" +
				"prose without a colon\n" +
				"  indented=1\n" +
				"x: abc\n" +
				"h: P50(1,x)\n" +
				"h2: P50(1,2)  P99(1,2)\n" +
				"h3: P50[1,2]\n" +
				"hdr:\n" +
				"ok: 2\n" +
				"d:\n  bogus=1\n  totals=1:2\n",
			want: map[string]string{"ok": "2", "h.p50": "1", "h2.p50": "1", "h2.p50.cumulative": "2"},
			errs: []string{
				"1:6: contains white space",
				"2:1: expected \"name: value\"",
				"3:3: outside a histogram_buckets=detailed record",
				"4:4: expected a number",
				"5:10: expected a number or nan",
				"6:14: empty item",
				"7:5: is not a number; expected a number, a histogram summary",
				"8:1: no indented",
				"11:3: expected totals=, intervals= or summary=",
				"12:10: expected lower_bound,width:count",
			}},
		{name: "CRLF rejected", src: "a: 1\r\n", errs: []string{"1:5: CRLF"}},
		{name: "BOM rejected", src: "\xef\xbb\xbfa: 1\n", errs: []string{"1:1: byte order mark"}},
		{name: "empty file", src: ""},
		{name: "no final newline", src: "a: 7", want: map[string]string{"a": "7"}},
	})
	// The error cap: ten errors and one note, nothing more.
	src := []byte(strings.Repeat("not a stat\n", 30))
	out, errs := ReadEnvoyStats("f", src, ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
	if len(errs) != envoyMaxErrors+1 || !strings.Contains(errs[envoyMaxErrors].Message, "more errors follow") {
		t.Errorf("error cap: got %d errors:\n%v", len(errs), errs)
	}
}

func TestReadEnvoyStatsJSON(t *testing.T) {
	runEnvoyCases(t, "envoy-stats-json", []envoyCase{
		{name: "counters, gauges, text readouts and numeric strings",
			src: `{"stats":[{"name":"cluster.outbound|80||a.b.upstream_rq_retry","value":5},` +
				`{"value":18446744073709551615,"name":"big"},` +
				`{"name":"server.version_text","value":"1.30.1"},` +
				`{"name":"benchmark.http_2xx","value":"53"},` +
				`{"name":"never_set"},{"name":"nul","value":null}]}`,
			want: map[string]string{
				"cluster.outbound|80||a.b.upstream_rq_retry": "5",
				"big":                "18446744073709551615",
				"benchmark.http_2xx": "53",
			}},
		{name: "computed quantiles",
			src: `{"stats":[{"name":"c","value":1},{"histograms":{"supported_quantiles":[0,25,99.9],` +
				`"computed_quantiles":[{"name":"h","values":[{"interval":null,"cumulative":1.0351851851851852},` +
				`{"interval":2,"cumulative":"3"},{"cumulative":4,"interval":1e-05}]}]}}]}`,
			want: map[string]string{
				"c":                  "1",
				"h.p0.cumulative":    "1.0351851851851852",
				"h.p25":              "2",
				"h.p25.cumulative":   "3",
				"h.p99.9":            "1e-05",
				"h.p99.9.cumulative": "4",
			}},
		{name: "bare array and bare histograms object",
			src:  `[{"value": 0, "name": "a"}, {"value": 3, "name": "b"}]`,
			want: map[string]string{"a": "0", "b": "3"}},
		{name: "detailed",
			src: `{"stats":[{"histograms":{"supported_percentiles":[0,50],"details":[{"name":"h",` +
				`"totals":[{"lower_bound":1,"width":0.25,"count":25}],"intervals":[{"lower_bound":2,"width":0.25,"count":3}],` +
				`"percentiles":[{"interval":null,"cumulative":1},{"interval":1.5,"cumulative":2}]}]}}]}`,
			want: map[string]string{
				"h.totals.1,0.25":    "25",
				"h.intervals.2,0.25": "3",
				"h.p0.cumulative":    "1",
				"h.p50":              "1.5",
				"h.p50.cumulative":   "2",
			}},
		{name: "cumulative buckets",
			src:  `{"histograms":[{"name":"h","buckets":[{"upper_bound":0.5,"interval":0,"cumulative":1},{"upper_bound":3600000,"interval":2,"cumulative":600}]}]}`,
			want: map[string]string{"h.b0.5": "0", "h.b0.5.cumulative": "1", "h.b3600000": "2", "h.b3600000.cumulative": "600"}},
		{name: "combined",
			src: `{"stats":[{"supported_percentiles":[0,50]},{"histograms":[{"name":"h",` +
				`"totals":[[1,0.25,25]],"intervals":[[1,0.25,2]],"percentiles":[1,2.5]}]}]}`,
			want: map[string]string{"h.totals.1,0.25": "25", "h.intervals.1,0.25": "2", "h.p0.cumulative": "1", "h.p50.cumulative": "2.5"}},
		{name: "missing comma",
			src:  "{\n  \"stats\": [\n    {\"interval\": null \"cumulative\": 1}\n  ]\n}\n",
			errs: []string{"3:23: invalid JSON: unexpected '\"' after object value; expected ',' or '}'"}},
		{name: "trailing comma",
			src:  "{\"stats\": [1,]}",
			errs: []string{"1:14: invalid JSON: unexpected ']' after ','; expected a value"}},
		{name: "trailing comma in object",
			src:  "{\"a\": 1,}",
			errs: []string{"1:9: invalid JSON: unexpected '}' after ','; expected a string key"}},
		{name: "unterminated string", src: "{\"stats\": [\"ab", errs: []string{"1:15: unterminated string"}},
		{name: "bad number", src: "[01]", errs: []string{"1:3: invalid JSON: unexpected '1' after array element"}},
		{name: "bad literal", src: "[nul]", errs: []string{"1:2: expected a JSON value"}},
		{name: "trailing garbage", src: "[] x", errs: []string{"1:4: expected end of file"}},
		{name: "duplicate key", src: `{"stats":[], "stats":[]}`, errs: []string{"1:14: duplicate key"}},
		{name: "too deep", src: strings.Repeat("[", 600), errs: []string{"1:513: nesting deeper"}},
		{name: "empty file", src: "", errs: []string{"1:1: unexpected end of file"}},
		{name: "shape errors",
			src: "{\"stats\":[\n7,\n{\"name\":\"b\",\"value\":true},\n{\"value\":1},\n" +
				"{\"histograms\":{\"supported_quantiles\":[0],\"computed_quantiles\":[{\"name\":\"h\",\"values\":[{\"cumulative\":1},{\"cumulative\":2}]}]}},\n" +
				"{\"name\":\"s\",\"value\":\"1e9999\"}\n]}",
			want: map[string]string{"h.p0.cumulative": "1"},
			errs: []string{
				"2:1: stats entry is a number",
				"3:21: value is a boolean",
				"4:1: has no \"name\"",
				"5:103: more values than the 1 supported quantiles",
				"6:22: exponent beyond",
			}},
		{name: "not Envoy", src: `{"a": 1}`, errs: []string{"1:1: without \"stats\""}},
	})
}

func TestReadEnvoyClusters(t *testing.T) {
	runEnvoyCases(t, "envoy-clusters", []envoyCase{
		{name: "cluster and host lines",
			src: "backend::outlier::success_rate_average::-1\n" +
				"backend::default_priority::max_connections::1024\n" +
				"backend::high_priority::max_retries::3\n" +
				"backend::added_via_api::true\n" +
				"backend::172.28.0.4:8080::cx_active::2\n" +
				"backend::172.28.0.4:8080::hostname::\n" +
				"backend::172.28.0.4:8080::health_flags::/failed_active_hc\n" +
				"backend::172.28.0.4:8080::zone::1\n" +
				"backend::172.28.0.4:8080::canary::false\n" +
				"backend::172.28.0.4:8080::success_rate::-1\n" +
				"\n" +
				"outbound|443||graph.facebook.com::[::1]:443::rq_total::17\n" +
				"outbound|443||graph.facebook.com::[2001:db8::1]:8080::cx_total::5\n" +
				"inbound_9092::/sock/mixer.socket::rq_success::300076\n",
			want: map[string]string{
				"backend::outlier::success_rate_average":                         "-1",
				"backend::default_priority::max_connections":                     "1024",
				"backend::high_priority::max_retries":                            "3",
				"backend::172.28.0.4:8080::cx_active":                            "2",
				"backend::172.28.0.4:8080::success_rate":                         "-1",
				"outbound|443||graph.facebook.com::[::1]:443::rq_total":          "17",
				"outbound|443||graph.facebook.com::[2001:db8::1]:8080::cx_total": "5",
				"inbound_9092::/sock/mixer.socket::rq_success":                   "300076",
			}},
		{name: "errors are positioned",
			src: "Locality weighted load balancing\n" +
				"    backend::1.2.3.4:80::cx_active::1\n" +
				".. sidebar:: Requirements\n" +
				"::a::1\n" +
				"backend::1.2.3.4:80::cx active::1\n" +
				"ok::x::5\n",
			want: map[string]string{"ok::x": "5"},
			errs: []string{
				"1:1: expected \"cluster::host:port::stat::value\"",
				"2:1: missing or indented cluster name",
				"3:1: expected \"cluster::host:port::stat::value\"",
				"4:1: missing or indented cluster name",
				"5:22: field name \"cx active\"",
			}},
		{name: "CRLF rejected", src: "a::b::1\r\n", errs: []string{"1:8: CRLF"}},
	})
}

func TestReadEnvoyClustersJSON(t *testing.T) {
	runEnvoyCases(t, "envoy-clusters-json", []envoyCase{
		{name: "proto field names",
			src: `{"cluster_statuses":[{"name":"outbound|9080||reviews","added_via_api":true,"host_statuses":[` +
				`{"address":{"socket_address":{"address":"172.17.0.24","port_value":9080}},` +
				`"stats":[{"name":"cx_active","type":"GAUGE","value":"2"},{"name":"rq_error"},{"name":"rq_total","value":"18446744073709551615"}],"weight":1},` +
				`{"address":{"socket_address":{"address":"::1"}},"stats":[{"name":"cx_total","value":7}]},` +
				`{"address":{"pipe":{"path":"/sock/mixer.socket"}},"stats":[{"value":"64","name":"cx_connect_fail"}]},` +
				`{"address":{"envoy_internal_address":{"server_listener_name":"l","endpoint_id":"e"}},"stats":[{"name":"rq_total","value":"1"}]}]},` +
				`{"name":"no_hosts"}]}`,
			want: map[string]string{
				"outbound|9080||reviews::172.17.0.24:9080::cx_active":         "2",
				"outbound|9080||reviews::172.17.0.24:9080::rq_total":          "18446744073709551615",
				"outbound|9080||reviews::[::1]:0::cx_total":                   "7",
				"outbound|9080||reviews::/sock/mixer.socket::cx_connect_fail": "64",
				"outbound|9080||reviews::envoy://l/e::rq_total":               "1",
			}},
		{name: "camelCase names and a bare array",
			src:  `[{"name":"c","hostStatuses":[{"address":{"socketAddress":{"address":"10.0.0.1","portValue":80}},"stats":[{"name":"rq_total","value":"3"}]}]}]`,
			want: map[string]string{"c::10.0.0.1:80::rq_total": "3"}},
		{name: "no clusters", src: "{}\n"},
		{name: "shape errors",
			src: "{\"cluster_statuses\":[\n" +
				"{\"name\":\"c\",\"host_statuses\":[\n" +
				"{\"stats\":[]},\n" +
				"{\"address\":{\"other\":{}},\"stats\":[]},\n" +
				"{\"address\":{\"socket_address\":{\"address\":\"1.2.3.4\",\"port_value\":\"x\"}}},\n" +
				"{\"address\":{\"socket_address\":{\"address\":\"1.2.3.4\",\"port_value\":1}},\"stats\":[{\"name\":\"a\",\"value\":\"abc\"},{\"name\":\"b\",\"value\":[1]},{\"value\":\"1\"}]}\n" +
				"]},\n" +
				"{\"host_statuses\":[]}\n" +
				"]}",
			errs: []string{
				"3:1: without an \"address\" object",
				"4:12: has no socket_address",
				"5:64: port_value is a string",
				"6:97: value \"abc\" is not a number",
				"6:124: value is an array",
				"6:129: has no \"name\"",
				"8:1: cluster status has no \"name\"",
			}},
		{name: "invalid JSON", src: "{\"cluster_statuses\": [}", errs: []string{"1:23: invalid JSON: unexpected '}'; expected a JSON value"}},
		{name: "not Envoy", src: `"x"`, errs: []string{"1:1: without \"cluster_statuses\""}},
	})
}

// envoyCorpus is the shared corpus of real third-party Envoy samples; CI
// checks it out beside the repository.
const envoyCorpus = "../../../../shared/corpus"

// envoyCorpusReadings reads one corpus file with its format's reader.
func envoyCorpusReadings(t *testing.T, format, rel string) ([]byte, []Reading, diag.List) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(envoyCorpus, rel))
	if err != nil {
		t.Skipf("corpus file missing: %v", err)
	}
	read, err := ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	out, errs := read(rel, src, ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
	return src, out, errs
}

func TestEnvoyCorpus(t *testing.T) {
	if _, err := os.Stat(envoyCorpus); err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	// Files that are well-formed but hold no number: Envoy omitted every
	// zero-valued host stat, or only health_flags lines were kept.
	noNumbers := map[string]bool{
		"envoy-clusters/envoy_examples_locality_health_flags.txt":                    true,
		"envoy-clusters/istio_2020_clusters_testdata__clustermultihostsfiltered.txt": true,
	}
	// Files that are not what their directory says, or are broken.
	rejected := map[string]bool{
		"envoy-stats-json/envoy_docs_admin_stats_format_json_detailed_AS_PUBLISHED_INVALID.json": true,
		"envoy-clusters/envoy_examples_locality-load-balancing_example.rst":                      true, // prose around the lines
		"envoy-clusters/istio_2020_clusters_testdata__clustersummary.txt":                        true, // istioctl table
	}
	seen := 0
	for dir, format := range map[string]string{
		"envoy-stats-text": "envoy-stats",
		"envoy-stats-json": "envoy-stats-json",
		"envoy-clusters":   "envoy-clusters",
	} {
		files, _ := filepath.Glob(filepath.Join(envoyCorpus, dir, "*"))
		for _, p := range files {
			rel := dir + "/" + filepath.Base(p)
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := format
			if t := strings.TrimSpace(string(src)); dir == "envoy-clusters" && t != "" && (t[0] == '{' || t[0] == '[') {
				f = "envoy-clusters-json"
			}
			seen++
			t.Run(rel, func(t *testing.T) {
				_, out, errs := envoyCorpusReadings(t, f, rel)
				switch {
				case rejected[rel]:
					if len(errs) == 0 {
						t.Fatalf("read as %s without error; want it rejected", f)
					}
				case len(errs) > 0:
					t.Fatalf("rejected as %s:\n%v", f, errs)
				case noNumbers[rel]:
					if len(out) != 0 {
						t.Fatalf("got %d readings from a file without numbers", len(out))
					}
				case len(out) == 0:
					t.Fatalf("no readings as %s", f)
				}
			})
		}
	}
	if seen < 14 {
		t.Errorf("saw %d corpus files, want at least 14", seen)
	}
}

// envoyValue finds key in out.
func envoyValue(t *testing.T, out []Reading, key string) (Reading, bool) {
	t.Helper()
	for _, r := range out {
		if r.Key == key {
			return r, true
		}
	}
	return Reading{}, false
}

func TestEnvoyCorpusKnownValues(t *testing.T) {
	type known struct {
		key, value, raw string
		at              string // line:col
	}
	for _, tc := range []struct {
		format, file string
		want         []known
		absent       []string
	}{
		{"envoy-stats", "envoy-stats-text/istio_io_circuit_breaking_2020_pilot_agent_stats.txt", []known{
			{"cluster.outbound|8000||httpbin.default.svc.cluster.local.upstream_rq_pending_overflow", "21", "21", "6:88"},
			{"cluster.outbound|8000||httpbin.default.svc.cluster.local.circuit_breakers.default.remaining_pending", "1", "1", "1:102"},
		}, nil},
		{"envoy-stats", "envoy-stats-text/istio_io_circuit_breaking_2018_pilot_agent_stats.txt", []known{
			{"cluster.outbound|80||httpbin.springistio.svc.cluster.local.upstream_rq_pending_overflow", "12", "12", "3:90"},
		}, nil},
		{"envoy-stats", "envoy-stats-text/envoy_docs_quickstart_admin_stats_filter_ingress_http.txt", []known{
			{"http.ingress_http.downstream_rq_2xx", "3", "3", "32:38"},
			{"http.ingress_http.downstream_rq_time.p99.cumulative", "16.97", "16.97", "70:132"},
			{"http.ingress_http.downstream_rq_time.p100.cumulative", "17", "17.0", "70:184"},
		}, []string{"http.ingress_http.downstream_rq_time.p99"}}, // interval is nan
		{"envoy-stats", "envoy-stats-text/envoy_docs_admin_histogram_buckets_detailed_text.txt", []known{
			{"http.admin.downstream_rq_time.totals.1,0.25", "25", "25", "2:17"},
			{"http.admin.downstream_rq_time.p50", "2.0166", "2.0166", "4:41"},
			{"http.admin.downstream_rq_time.p50.cumulative", "1.068", "1.068", "4:48"},
		}, nil},
		{"envoy-stats-json", "envoy-stats-json/envoy_docs_admin_stats_format_json_histograms.json", []known{
			{"cluster.external_auth_cluster.upstream_cx_length_ms.p99.9", "229.57333", "229.57333", "17:24"},
			{"http.admin.downstream_rq_time.p50.cumulative", "1.0435787", "1.0435787", "26:44"},
		}, []string{"http.admin.downstream_rq_time.p50"}}, // interval is null
		{"envoy-stats-json", "envoy-stats-json/envoy_docs_quickstart_stats_format_json_jq_stats.json", []known{
			{"http.ingress_http.rq_total", "3", "3", "15:14"},
		}, nil},
		{"envoy-clusters-json", "envoy-clusters/istio_2020_clusters_testdata__clusters.json", []known{
			{"inbound_9092::/sock/mixer.socket::rq_success", "300076", "300076", "375:25"},
			{"inbound_9092::/sock/mixer.socket::cx_active", "8", "8", "387:25"},
		}, []string{
			"inbound_9092::/sock/mixer.socket::rq_timeout",                                                   // value omitted: unknown, not 0
			"outbound|443||istio-sidecar-injector.istio-system.svc.cluster.local::172.17.0.4:443::cx_active", // likewise
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, out, errs := envoyCorpusReadings(t, tc.format, tc.file)
			if len(errs) > 0 {
				t.Fatalf("unexpected errors:\n%v", errs)
			}
			for _, w := range tc.want {
				r, ok := envoyValue(t, out, w.key)
				if !ok {
					t.Errorf("no reading %s", w.key)
					continue
				}
				if r.Number.Value.String() != w.value || r.Raw != w.raw || strings.TrimPrefix(r.Pos.String(), tc.file+":") != w.at {
					t.Errorf("%s = %s raw %q at %v; want %s raw %q at %s", w.key, r.Number.Value, r.Raw, r.Pos, w.value, w.raw, w.at)
				}
				if tc.format == "envoy-clusters-json" && src[r.Pos.Offset-1] != '"' {
					t.Errorf("%s: expected a JSON string value, found %q before it", w.key, src[r.Pos.Offset-1])
				}
			}
			for _, k := range tc.absent {
				if r, ok := envoyValue(t, out, k); ok {
					t.Errorf("unexpected reading %s = %s at %v", k, r.Raw, r.Pos)
				}
			}
		})
	}
}

func TestEnvoyCorpusHealthFlagsAndInvalid(t *testing.T) {
	_, out, errs := envoyCorpusReadings(t, "envoy-clusters", "envoy-clusters/envoy_examples_locality_health_flags.txt")
	if len(out) != 0 || len(errs) != 0 {
		t.Errorf("health_flags lines: got %d readings and errors %v; want both skipped silently", len(out), errs)
	}
	file := "envoy-stats-json/envoy_docs_admin_stats_format_json_detailed_AS_PUBLISHED_INVALID.json"
	_, out, errs = envoyCorpusReadings(t, "envoy-stats-json", file)
	if len(out) != 0 || len(errs) != 1 {
		t.Fatalf("invalid JSON: got %d readings and errors %v; want one error", len(out), errs)
	}
	// Line 12: `{ "interval": null "cumulative": …` lacks the comma after null.
	want := file + ":12:34: error: invalid JSON: unexpected '\"' after object value; expected ',' or '}' [evidence-envoy]"
	if errs[0].String() != want {
		t.Errorf("got  %s\nwant %s", errs[0], want)
	}
}
