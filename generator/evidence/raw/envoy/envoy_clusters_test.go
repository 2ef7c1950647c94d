package envoy_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzEnvoyClusters(f *testing.F) {
	rawtest.AddSamples(f, "envoy-clusters",
		"backend::default_priority::max_connections::1024\nbackend::added_via_api::true\nbackend::[::1]:80::cx_active::1\nbackend::[2001:db8::1]:80::health_flags::/failed_active_hc\nbackend::1.2.3.4:80::zone::1\n",
		"inbound::/sock/mixer.socket::rq_total::5\nc::outlier::success_rate_average::-1\n::a::1\n  x::y::2\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, "envoy-clusters", src) })
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
		{name: "CRLF read", src: "a::b::1\r\n", want: map[string]string{"a::b": "1"}},
	})
}
