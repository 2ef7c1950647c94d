package manifest

import (
	"reflect"
	"testing"
)

func TestShortNames(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want map[string]string // nil: no select needed
	}{
		{"plain keys need no select", []string{"latencies.p99", "requests.rate", "status_codes.200"}, nil},
		{"prometheus labels", []string{`a_bucket{cluster="echo-service",le="0.5"}`, `a_bucket{cluster="echo-service",le="+Inf"}`, `a_sum{cluster="echo-service"}`},
			map[string]string{`a_bucket{cluster="echo-service",le="0.5"}`: "a_bucket.echo_service.le_0_5", `a_bucket{cluster="echo-service",le="+Inf"}`: "a_bucket.echo_service.le_inf", `a_sum{cluster="echo-service"}`: "a_sum.echo_service"}},
		{"k6 tags", []string{"http_req_duration.p95", "http_req_duration{expected_response:true}.p95", "http_req_duration{ group:::api }.avg"},
			map[string]string{"http_req_duration.p95": "http_req_duration.p95", "http_req_duration{expected_response:true}.p95": "http_req_duration.expected_response_true.p95", "http_req_duration{ group:::api }.avg": "http_req_duration.group_api.avg"}},
		{"istio clusters", []string{"cluster.outbound|9080|v1|reviews.default.svc.cluster.local.upstream_rq_total", "cluster.inbound|8080||details.bookinfo.svc.cluster.local.upstream_cx_active", "cluster.outbound|443||graph.facebook.com.upstream_rq_retry"},
			map[string]string{"cluster.outbound|9080|v1|reviews.default.svc.cluster.local.upstream_rq_total": "cluster.reviews_default_9080_v1.upstream_rq_total", "cluster.inbound|8080||details.bookinfo.svc.cluster.local.upstream_cx_active": "cluster.inbound_details_bookinfo_8080.upstream_cx_active", "cluster.outbound|443||graph.facebook.com.upstream_rq_retry": "cluster.outbound_443_graph.facebook.com.upstream_rq_retry"}},
		{"pods", []string{"checkout-5b7f9d8c6-x8w2p.cpu_cores", "redis-cache.cpu_cores"},
			map[string]string{"checkout-5b7f9d8c6-x8w2p.cpu_cores": "checkout.cpu_cores", "redis-cache.cpu_cores": "redis_cache.cpu_cores"}},
		{"two replicas keep their names", []string{"cart-6f9c7d5b8-9zk7m.restarts", "cart-6f9c7d5b8-b2x4q.restarts", "web-7d4b9c6f5-k2m9p.restarts"},
			map[string]string{"cart-6f9c7d5b8-9zk7m.restarts": "cart_6f9c7d5b8_9zk7m.restarts", "cart-6f9c7d5b8-b2x4q.restarts": "cart_6f9c7d5b8_b2x4q.restarts", "web-7d4b9c6f5-k2m9p.restarts": "web.restarts"}},
		{"slugs that collide are numbered", []string{"a-b{x=\"1\"}", "a_b.1", "a-b.1"},
			map[string]string{"a-b{x=\"1\"}": "a_b_x_1", "a_b.1": "a_b._1", "a-b.1": "a_b._1_2"}},
		{"a key without a segment", []string{"..", "x{}"}, map[string]string{"..": "unnamed", "x{}": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ShortNames(tt.keys)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ShortNames(%q) =\n%v\nwant\n%v", tt.keys, got, tt.want)
			}
			// each name is a valid select name, unique, and the same for a key alone when it is not shared
			seen := map[string]bool{}
			for k, n := range got {
				if !nameRe.MatchString(n) {
					t.Errorf("%q: name %q is not a select name", k, n)
				}
				if seen[n] {
					t.Errorf("name %q given twice", n)
				}
				seen[n] = true
			}
		})
	}
}
