package manifest

import (
	"fmt"
	"regexp"
	"strings"
)

// Short names of readings: `evdoc new evidence` writes a [[read]] entry's
// select with them, so that a page cites a Prometheus sample, a k6 tagged
// metric or a Kubernetes pod by a name a person can read and type.

var (
	// labelSet is a label set in a key: a Prometheus sample's
	// {name="value",…} or a k6 tag set {name:value}.
	labelSet = regexp.MustCompile(`\{[^{}]*\}`)
	// promLabel is one name="value" pair of a Prometheus label set.
	promLabel = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)
	// tagLabel is one name:value pair of a k6 tag set.
	tagLabel = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_-]*)\s*:\s*([^,{}]*)`)
	// istioCluster is an Istio cluster name whose host is a Kubernetes
	// service: outbound|9080|v1|reviews.default.svc.cluster.local.
	istioCluster = regexp.MustCompile(`(inbound|outbound)\|(\d*)\|([^|.]*)\|([a-z0-9-]+)\.([a-z0-9-]+)\.svc\.cluster\.local`)
	// podName is a Deployment's pod name: the Deployment, the pod
	// template hash and a five-character suffix, both in the alphabet
	// Kubernetes generates them from (checkout-5b7f9d8c6-x8w2p).
	underscores = regexp.MustCompile(`__+`)
	podName     = regexp.MustCompile(`^([a-z0-9][a-z0-9-]*?)-[bcdfghjklmnpqrstvwxz2456789]{6,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$`)
)

// ShortNames names the keys one reader produced (a file's readings, in
// file order) for a [[read]] select. Each key's short name is its slug
// (as a [[read]] without select names it: each dot-separated segment lower
// case, anything outside [a-z0-9_] as "_", a leading digit prefixed "_")
// after these shortenings:
//
//   - a Prometheus label set is its label values, le and quantile
//     prefixed with their name:
//     envoy_cluster_upstream_rq_time_bucket{envoy_cluster_name="echo-service",le="0.5"}
//     is envoy_cluster_upstream_rq_time_bucket.echo_service.le_0_5;
//   - a k6 tag set is its name_value pairs:
//     http_req_duration{expected_response:true}.p95 is
//     http_req_duration.expected_response_true.p95;
//   - an Istio cluster of a Kubernetes service is service_namespace_port
//     (with the subset, and inbound_ for an inbound cluster):
//     cluster.outbound|9080|v1|reviews.default.svc.cluster.local.upstream_rq_total
//     is cluster.reviews_default_9080_v1.upstream_rq_total;
//   - a Deployment's pod name loses its generated suffixes:
//     checkout-5b7f9d8c6-x8w2p.cpu_cores is checkout.cpu_cores.
//
// A key's short name depends on the key alone, so a re-run of the same
// tool names its values alike. Names are unique within the file: when two
// keys shorten alike, both keep their slug, and a slug that is still
// taken gets "_2", "_3", …. ShortNames returns nil when every short name
// equals the slug (no select is needed). A key with no letter or digit
// is named "unnamed".
func ShortNames(keys []string) map[string]string {
	short := map[string]string{}
	count := map[string]int{}
	var order []string
	for _, k := range keys {
		if _, dup := short[k]; dup {
			continue
		}
		s := shorten(k)
		if s == "" {
			s = "unnamed" // a key with no letter or digit ("", "..")
		}
		short[k] = s
		count[s]++
		order = append(order, k)
	}
	out := map[string]string{}
	used := map[string]bool{}
	differs := false
	for _, k := range order {
		name := short[k]
		if count[name] > 1 {
			name = slugName(k)
		}
		for i, base := 2, name; used[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		used[name] = true
		out[k] = name
		if name != SlugKey(k) {
			differs = true
		}
	}
	if !differs {
		return nil
	}
	return out
}

// shorten applies ShortNames' shortenings to key and slugs it.
func shorten(key string) string {
	s := istioCluster.ReplaceAllStringFunc(key, func(c string) string {
		m := istioCluster.FindStringSubmatch(c)
		name := m[4] + "_" + m[5]
		if m[2] != "" {
			name += "_" + m[2]
		}
		if m[3] != "" {
			name += "_" + m[3]
		}
		if m[1] == "inbound" {
			name = "inbound_" + name
		}
		return name
	})
	s = labelSet.ReplaceAllStringFunc(s, func(set string) string {
		var parts []string
		if ms := promLabel.FindAllStringSubmatch(set, -1); ms != nil {
			for _, m := range ms {
				v := strings.NewReplacer(".", "_", "+", "").Replace(m[2]) // le="0.5" is le_0_5, "+Inf" le_inf
				if m[1] == "le" || m[1] == "quantile" {
					v = m[1] + "_" + v
				}
				parts = append(parts, v)
			}
		} else {
			for _, m := range tagLabel.FindAllStringSubmatch(set, -1) {
				parts = append(parts, m[1]+"_"+strings.ReplaceAll(strings.TrimSpace(m[2]), ".", "_"))
			}
		}
		return "." + strings.Join(parts, ".") + "."
	})
	segs := strings.Split(s, ".")
	for i, seg := range segs {
		if m := podName.FindStringSubmatch(seg); m != nil {
			segs[i] = m[1]
		}
	}
	return slugName(strings.Join(segs, "."))
}

// slugName slugs each dot-separated segment of s (lower case, one "_"
// for each run of anything outside [a-z0-9_], none at either end, a
// leading digit prefixed "_"), dropping empty segments.
func slugName(s string) string {
	var segs []string
	for _, p := range strings.Split(s, ".") {
		if quantileLabel.MatchString(p) {
			p = strings.TrimSuffix(p, ")") // p(90) is p_90, as SlugKey names it
		}
		seg := strings.Trim(underscores.ReplaceAllString(underscored(p), "_"), "_")
		if seg == "" {
			continue
		}
		if seg[0] >= '0' && seg[0] <= '9' {
			seg = "_" + seg
		}
		segs = append(segs, seg)
	}
	return strings.Join(segs, ".")
}
