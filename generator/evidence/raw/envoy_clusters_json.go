package raw

import (
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/shopspring/decimal"
)

// ReadEnvoyClustersJSON reads the JSON output of Envoy's admin
// /clusters?format=json endpoint ("envoy-clusters-json"):
//
//	{"cluster_statuses": [{"name": "outbound|9080||reviews",
//	  "host_statuses": [{"address": {"socket_address": {"address": "172.17.0.24", "port_value": 9080}},
//	                     "stats": [{"name": "rq_total", "value": "12"}, {"name": "rq_error"}]}]}]}
//
// Field names are accepted in the proto form (host_statuses,
// socket_address, port_value) and the camelCase form older Envoys and
// istioctl print (hostStatuses, socketAddress, portValue); the root may
// also be the bare array of cluster statuses ("istioctl proxy-config
// endpoints -o json"). Each host stat gives a reading keyed
// "<cluster>::<host>::<stat>", where <host> is written as /clusters text
// writes it: "172.17.0.24:9080", "[::1]:80" for IPv6, the socket path for a
// pipe ("/sock/mixer.socket"), "envoy://<listener>/<endpoint id>" for an
// internal address. Envoy omits zero-valued fields (proto3 JSON), so a
// stat without "value" (envoy.admin.v3.SimpleMetric, a uint64) is 0: its
// reading has Raw the stat's quoted name, Pos at it, and Number.Implied
// set; likewise a port_value that is absent is 0. uint64 values are JSON strings ("value": "12") and are read
// from the bytes between the quotes. A host's "weight" and "priority"
// are read as "<cluster>::<host>::weight" and "::priority", as /clusters
// text names them; success rates and circuit-breaker thresholds are not
// read. Syntax errors are reported
// as by ReadEnvoyStatsJSON; a cluster, host or stat of the wrong shape is a
// positioned error.
func ReadEnvoyClustersJSON(file string, src []byte, _ ReadOptions) (*Readings, diag.List) {
	r, root, errs := parseEnvoyJSON(file, src)
	if errs != nil {
		return nil, errs
	}
	var clusters *jsonNode
	switch {
	case root.kind == jsonArray:
		clusters = root
	case root.get("cluster_statuses", "clusterStatuses") != nil:
		clusters = root.get("cluster_statuses", "clusterStatuses")
		if !r.jsonIs(clusters, jsonArray, "\"cluster_statuses\"") {
			return r.result()
		}
	case root.kind == jsonObject && len(root.members) == 0:
		return r.result() // no clusters: Envoy prints {}
	default:
		r.errorf(root.start, "document is %s without \"cluster_statuses\"; expected Envoy /clusters?format=json output", root.kind)
		return r.result()
	}
	for _, c := range clusters.elems {
		if !r.jsonIs(c, jsonObject, "cluster status") {
			continue
		}
		cname, ok := r.jsonName(c, "cluster status")
		if !ok {
			continue
		}
		hosts := c.get("host_statuses", "hostStatuses")
		if hosts == nil || !r.jsonIs(hosts, jsonArray, "cluster "+cname+" \"host_statuses\"") {
			continue
		}
		for _, h := range hosts.elems {
			if !r.jsonIs(h, jsonObject, "cluster "+cname+" host status") {
				continue
			}
			host, ok := r.hostAddress(cname, h)
			if !ok {
				continue
			}
			for _, f := range []string{"weight", "priority"} {
				if v := h.get(f); v != nil {
					if !r.addJSONNumber(cname+"::"+host+"::"+f, v) {
						r.errorf(v.start, "host %s %s is a %s; expected a number", host, f, v.kind.noun())
					}
				}
			}
			stats := h.get("stats")
			if stats == nil || !r.jsonIs(stats, jsonArray, "host "+host+" \"stats\"") {
				continue
			}
			for _, s := range stats.elems {
				if !r.jsonIs(s, jsonObject, "host "+host+" stat") {
					continue
				}
				sname, ok := r.jsonName(s, "host "+host+" stat")
				if !ok {
					continue
				}
				if v := s.get("value"); v != nil {
					r.jsonValue(cname+"::"+host+"::"+sname, v, false)
				} else if n := s.get("name"); n != nil {
					// proto3 JSON omits a zero uint64: SimpleMetric.value is 0.
					tok := string(r.src[n.start:n.end])
					r.out.add(Reading{Key: cname + "::" + host + "::" + sname, Raw: tok, Pos: r.ix.Pos(n.start),
						Number: Number{Value: decimal.Zero, Implied: true}})
				}
			}
		}
	}
	return r.result()
}

// hostAddress renders a host status's address as /clusters text does.
func (r *rawRead) hostAddress(cluster string, h *jsonNode) (string, bool) {
	addr := h.get("address")
	if addr == nil || addr.kind != jsonObject {
		at := h.start
		if addr != nil {
			at = addr.start
		}
		r.errorf(at, "cluster %s: host status without an \"address\" object; expected {\"address\": {\"socket_address\": …}}", cluster)
		return "", false
	}
	str := func(n *jsonNode, field string) (string, bool) {
		v := n.get(field)
		if v == nil || v.kind != jsonString || v.str == "" {
			r.errorf(n.start, "cluster %s: address without a %q string; expected Envoy address output", cluster, field)
			return "", false
		}
		return v.str, true
	}
	if sa := addr.get("socket_address", "socketAddress"); sa != nil {
		ip, ok := str(sa, "address")
		if !ok {
			return "", false
		}
		port := "0"
		if p := sa.get("port_value", "portValue"); p != nil {
			raw := ""
			switch p.kind {
			case jsonNumber:
				raw = string(r.src[p.start:p.end])
			case jsonString:
				raw = p.str
			}
			if _, err := strconv.ParseUint(raw, 10, 32); err != nil {
				r.errorf(p.start, "cluster %s: port_value is %s; expected a port number", cluster, p.kind)
				return "", false
			}
			port = raw
		}
		if strings.Contains(ip, ":") {
			ip = "[" + ip + "]"
		}
		return ip + ":" + port, true
	}
	if pipe := addr.get("pipe"); pipe != nil {
		return str(pipe, "path")
	}
	if ia := addr.get("envoy_internal_address", "envoyInternalAddress"); ia != nil {
		name, ok := str(ia, "server_listener_name")
		if !ok {
			return "", false
		}
		id := ""
		if v := ia.get("endpoint_id", "endpointId"); v != nil && v.kind == jsonString {
			id = v.str
		}
		return "envoy://" + name + "/" + id, true
	}
	r.errorf(addr.start, "cluster %s: address has no socket_address, pipe or envoy_internal_address; expected Envoy address output", cluster)
	return "", false
}
