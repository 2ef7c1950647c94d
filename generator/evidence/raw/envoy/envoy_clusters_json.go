package envoy

import (
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
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
func ReadEnvoyClustersJSON(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, root, errs := parseEnvoyJSON(file, src)
	if errs != nil {
		return nil, errs
	}
	var clusters *jsontree.Node
	switch {
	case root.Kind == jsontree.Array:
		clusters = root
	case root.Get("cluster_statuses", "clusterStatuses") != nil:
		clusters = root.Get("cluster_statuses", "clusterStatuses")
		if !jsonIs(r, clusters, jsontree.Array, "\"cluster_statuses\"") {
			return r.Result()
		}
	case root.Kind == jsontree.Object && len(root.Members) == 0:
		return r.Result() // no clusters: Envoy prints {}
	default:
		r.Errorf(root.Start, "document is %s without \"cluster_statuses\"; expected Envoy /clusters?format=json output", root.Kind)
		return r.Result()
	}
	for _, c := range clusters.Elems {
		if !jsonIs(r, c, jsontree.Object, "cluster status") {
			continue
		}
		cname, ok := jsonName(r, c, "cluster status")
		if !ok {
			continue
		}
		hosts := c.Get("host_statuses", "hostStatuses")
		if hosts == nil || !jsonIs(r, hosts, jsontree.Array, "cluster "+cname+" \"host_statuses\"") {
			continue
		}
		for _, h := range hosts.Elems {
			if !jsonIs(r, h, jsontree.Object, "cluster "+cname+" host status") {
				continue
			}
			host, ok := hostAddress(r, cname, h)
			if !ok {
				continue
			}
			for _, f := range []string{"weight", "priority"} {
				if v := h.Get(f); v != nil {
					if !r.AddJSONNumber(cname+"::"+host+"::"+f, v) {
						r.Errorf(v.Start, "host %s %s is a %s; expected a number", host, f, v.Kind.Noun())
					}
				}
			}
			stats := h.Get("stats")
			if stats == nil || !jsonIs(r, stats, jsontree.Array, "host "+host+" \"stats\"") {
				continue
			}
			for _, s := range stats.Elems {
				if !jsonIs(r, s, jsontree.Object, "host "+host+" stat") {
					continue
				}
				sname, ok := jsonName(r, s, "host "+host+" stat")
				if !ok {
					continue
				}
				if v := s.Get("value"); v != nil {
					jsonValue(r, cname+"::"+host+"::"+sname, v, false)
				} else if n := s.Get("name"); n != nil {
					// proto3 JSON omits a zero uint64: SimpleMetric.value is 0.
					tok := string(r.Src[n.Start:n.End])
					r.Out.Add(raw.Reading{Key: cname + "::" + host + "::" + sname, Raw: tok, Pos: r.Index.Pos(n.Start),
						Number: raw.Number{Value: decimal.Zero, Implied: true}})
				}
			}
		}
	}
	return r.Result()
}

// hostAddress renders a host status's address as /clusters text does.
func hostAddress(r *raw.Recorder, cluster string, h *jsontree.Node) (string, bool) {
	addr := h.Get("address")
	if addr == nil || addr.Kind != jsontree.Object {
		at := h.Start
		if addr != nil {
			at = addr.Start
		}
		r.Errorf(at, "cluster %s: host status without an \"address\" object; expected {\"address\": {\"socket_address\": …}}", cluster)
		return "", false
	}
	str := func(n *jsontree.Node, field string) (string, bool) {
		v := n.Get(field)
		if v == nil || v.Kind != jsontree.String || v.Str == "" {
			r.Errorf(n.Start, "cluster %s: address without a %q string; expected Envoy address output", cluster, field)
			return "", false
		}
		return v.Str, true
	}
	if sa := addr.Get("socket_address", "socketAddress"); sa != nil {
		ip, ok := str(sa, "address")
		if !ok {
			return "", false
		}
		port := "0"
		if p := sa.Get("port_value", "portValue"); p != nil {
			tok := ""
			switch p.Kind {
			case jsontree.Number:
				tok = string(r.Src[p.Start:p.End])
			case jsontree.String:
				tok = p.Str
			}
			if _, err := strconv.ParseUint(tok, 10, 32); err != nil {
				r.Errorf(p.Start, "cluster %s: port_value is %s; expected a port number", cluster, p.Kind)
				return "", false
			}
			port = tok
		}
		if strings.Contains(ip, ":") {
			ip = "[" + ip + "]"
		}
		return ip + ":" + port, true
	}
	if pipe := addr.Get("pipe"); pipe != nil {
		return str(pipe, "path")
	}
	if ia := addr.Get("envoy_internal_address", "envoyInternalAddress"); ia != nil {
		name, ok := str(ia, "server_listener_name")
		if !ok {
			return "", false
		}
		id := ""
		if v := ia.Get("endpoint_id", "endpointId"); v != nil && v.Kind == jsontree.String {
			id = v.Str
		}
		return "envoy://" + name + "/" + id, true
	}
	r.Errorf(addr.Start, "cluster %s: address has no socket_address, pipe or envoy_internal_address; expected Envoy address output", cluster)
	return "", false
}
