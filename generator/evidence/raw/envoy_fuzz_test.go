package raw

import (
	"os"
	"path/filepath"
	"testing"
)

// addEnvoySeeds seeds f with the shared corpus files of dirs (when present)
// and with small inputs of every line shape the Envoy readers know.
func addEnvoySeeds(f *testing.F, dirs []string, extra ...string) {
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(envoyCorpus, dir, "*"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// fuzzEnvoy runs one reader on src and checks the Reader contract: no
// panic, every position inside src, Raw at Pos and the exact value of Raw.
func fuzzEnvoy(t *testing.T, read Reader, src []byte) {
	out, errs := read("f", src, ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
}

func FuzzEnvoyStats(f *testing.F) {
	addEnvoySeeds(f, []string{"envoy-stats-text"},
		"cluster.outbound|443||graph.facebook.com.upstream_rq_retry: 0\nh: P0(nan,2.0) P50(1,3.05)\nb: B0.5(0,1) B3.6e+06(2,5)\nn: No recorded values\nt: \"x: y\"\n",
		"h:\n  totals=1,0.25:25, 2,0.25:9\n  intervals=\n  summary=P0(1,1)\n\nx: 1e-05\n",
		"a: b: 3\n  stray=1\nhdr:\nx: 1e999\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, ReadEnvoyStats, src) })
}

func FuzzEnvoyStatsJSON(f *testing.F) {
	addEnvoySeeds(f, []string{"envoy-stats-json"},
		`{"stats":[{"name":"a","value":1},{"name":"s","value":"53"},{"name":"t","value":"text"},{"histograms":{"supported_quantiles":[0,50],"computed_quantiles":[{"name":"h","values":[{"interval":null,"cumulative":1},{"interval":"2","cumulative":3}]}]}}]}`,
		`{"stats":[{"supported_percentiles":[0,50]},{"histograms":[{"name":"h","totals":[[1,0.25,25]],"intervals":[],"percentiles":[1,2.5]}]}]}`,
		`{"histograms":{"supported_percentiles":[0],"details":[{"name":"h","percentiles":[{"interval":1,"cumulative":2}],"totals":[{"lower_bound":1,"width":0.25,"count":25}]}]}}`,
		`[{"name":"x","value":1e-05},{"name":"y","value":"\u0031"}]`)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, ReadEnvoyStatsJSON, src) })
}

func FuzzEnvoyClusters(f *testing.F) {
	addEnvoySeeds(f, []string{"envoy-clusters"},
		"backend::default_priority::max_connections::1024\nbackend::added_via_api::true\nbackend::[::1]:80::cx_active::1\nbackend::[2001:db8::1]:80::health_flags::/failed_active_hc\nbackend::1.2.3.4:80::zone::1\n",
		"inbound::/sock/mixer.socket::rq_total::5\nc::outlier::success_rate_average::-1\n::a::1\n  x::y::2\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, ReadEnvoyClusters, src) })
}

func FuzzEnvoyClustersJSON(f *testing.F) {
	addEnvoySeeds(f, []string{"envoy-clusters"},
		`{"cluster_statuses":[{"name":"c","host_statuses":[{"address":{"socket_address":{"address":"::1","port_value":80}},"stats":[{"name":"rq_total","value":"12"},{"name":"rq_error"}]},{"address":{"pipe":{"path":"/s"}},"stats":[{"name":"cx_total","value":3}]}]}]}`,
		`[{"name":"c","hostStatuses":[{"address":{"socketAddress":{"address":"10.0.0.1","portValue":80}},"stats":[{"name":"cx_active","value":"1"}]}]}]`,
		`{}`)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, ReadEnvoyClustersJSON, src) })
}
