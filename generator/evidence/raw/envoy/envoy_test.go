package envoy_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/envoy"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"

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
func checkEnvoyOutput(t *testing.T, src []byte, out []raw.Reading, errs diag.List) {
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
		if r.Number.Implied {
			if r.Number.Start != 0 || r.Number.End != 0 || !r.Number.Value.IsZero() || r.Raw[0] != '"' {
				t.Fatalf("reading %s: implied value %s range [%d,%d) for raw %q; want 0 at the stat's quoted name", r.Key, r.Number.Value, r.Number.Start, r.Number.End, r.Raw)
			}
			continue
		}
		if r.Number.Start != 0 || r.Number.End != len(r.Raw) || r.Number.Unit != envoy.EnvoyUnit(raw.BaseKey(r.Key)) {
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
	read, err := formats.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			out, errs := read("f", src, raw.ReadOptions{})
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

// envoyCorpus is the shared corpus of real third-party Envoy samples; CI
// checks it out beside the repository.
var envoyCorpus = rawtest.CorpusDir

// envoyCorpusReadings reads one corpus file with its format's reader.
func envoyCorpusReadings(t *testing.T, format, rel string) ([]byte, []raw.Reading, diag.List) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(envoyCorpus, rel))
	if err != nil {
		t.Skipf("corpus file missing: %v", err)
	}
	read, err := formats.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	out, errs := read(rel, src, raw.ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
	return src, out, errs
}

func TestEnvoyCorpus(t *testing.T) {
	if _, err := os.Stat(envoyCorpus); err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	// Files that are well-formed but hold no number: only health_flags
	// lines were kept.
	noNumbers := map[string]bool{
		"envoy-clusters/envoy_examples_locality_health_flags.txt": true,
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
func envoyValue(t *testing.T, out []raw.Reading, key string) (raw.Reading, bool) {
	t.Helper()
	for _, r := range out {
		if r.Key == key {
			return r, true
		}
	}
	return raw.Reading{}, false
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
			// value omitted: a proto3 zero, read at the stat's name
			{"inbound_9092::/sock/mixer.socket::rq_timeout", "0", `"rq_timeout"`, "379:23"},
			{"outbound|443||istio-sidecar-injector.istio-system.svc.cluster.local::172.17.0.4:443::cx_active", "0", `"cx_active"`, "17:21"},
		}, nil},
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
				if tc.format == "envoy-clusters-json" && !r.Number.Implied && src[r.Pos.Offset-1] != '"' {
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

// fuzzEnvoy runs one Envoy reader on src and checks the Reader contract:
// no panic, every position inside src, Raw at Pos, the exact value of Raw,
// and no numeric field vanishing (rawtest.CheckNoVanish).
func fuzzEnvoy(t *testing.T, format string, src []byte) {
	out, errs := rawtest.CheckNoVanish(t, format, src, raw.ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
}
