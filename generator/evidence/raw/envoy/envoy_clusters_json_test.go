package envoy_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzEnvoyClustersJSON(f *testing.F) {
	rawtest.AddSamples(f, "envoy-clusters-json",
		`{"cluster_statuses":[{"name":"c","host_statuses":[{"address":{"socket_address":{"address":"::1","port_value":80}},"stats":[{"name":"rq_total","value":"12"},{"name":"rq_error"}]},{"address":{"pipe":{"path":"/s"}},"stats":[{"name":"cx_total","value":3}]}]}]}`,
		`[{"name":"c","hostStatuses":[{"address":{"socketAddress":{"address":"10.0.0.1","portValue":80}},"stats":[{"name":"cx_active","value":"1"}]}]}]`,
		`{}`)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzEnvoy(t, "envoy-clusters-json", src) })
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
				"outbound|9080||reviews::172.17.0.24:9080::rq_error":          `"rq_error"`, // value omitted: proto3 zero
				"outbound|9080||reviews::172.17.0.24:9080::rq_total":          "18446744073709551615",
				"outbound|9080||reviews::[::1]:0::cx_total":                   "7",
				"outbound|9080||reviews::172.17.0.24:9080::weight":            "1",
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
