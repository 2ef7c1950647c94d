package envoy

import (
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// envoyClusterTextFields are the /clusters host and cluster fields that hold
// text, never a number, even when the text looks like one (a zone "1").
var envoyClusterTextFields = map[string]bool{
	"hostname": true, "health_flags": true, "region": true, "zone": true, "sub_zone": true,
	"canary": true, "added_via_api": true, "observability_name": true, "eds_service_name": true,
}

// ReadEnvoyClusters reads the text output of Envoy's admin /clusters
// endpoint ("envoy-clusters"), one "::"-separated field per line:
//
//	backend::172.28.0.4:8080::cx_active::2            host stat
//	backend::[::1]:8080::rq_total::17                 IPv6 host
//	backend::default_priority::max_connections::1024  cluster setting
//	backend::outlier::success_rate_average::-1        cluster outlier info
//	backend::172.28.0.4:8080::health_flags::/failed_active_hc   (text: skipped)
//	backend::added_via_api::true                       (text: skipped)
//
// The line is split on "::" outside square brackets (so an IPv6 host
// "[::1]:80" stays whole); the last field is the value and the key is the
// line before the last "::", exactly as written
// ("backend::172.28.0.4:8080::cx_active"). A numeric value gives one
// reading; the text fields hostname, health_flags, region, zone, sub_zone,
// canary, added_via_api, observability_name and eds_service_name, empty
// values, nan and other non-numeric values give none. Blank lines are
// skipped. A line with fewer than three fields, an empty or indented
// cluster name, or a field name with white space is an error at its first
// byte.
func ReadEnvoyClusters(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := newEnvoyRead(file, src)
	if errs != nil {
		return nil, errs
	}
	for _, ln := range raw.SplitLines(src) {
		line := strings.TrimRight(string(src[ln.Start:ln.End]), " \t")
		if isBlankLine(line) {
			continue
		}
		seps := clusterSeparators(line)
		if len(seps) < 2 {
			r.Errorf(ln.Start, "line is not a /clusters entry; expected \"cluster::host:port::stat::value\" or \"cluster::field::value\"")
			continue
		}
		if seps[0] == 0 || line[0] == ' ' || line[0] == '\t' {
			r.Errorf(ln.Start, "missing or indented cluster name; expected \"cluster::host:port::stat::value\" at the start of the line")
			continue
		}
		last := seps[len(seps)-1]
		field := line[seps[len(seps)-2]+2 : last]
		if field == "" || strings.ContainsAny(field, " \t") {
			r.Errorf(ln.Start+seps[len(seps)-2]+2, "field name %q; expected a stat or field name without spaces before the last \"::\"", field)
			continue
		}
		val := line[last+2:]
		if envoyClusterTextFields[field] {
			continue
		}
		if !raw.IsMachineNumber(val) {
			if raw.HasDigitRune(val) {
				r.Warnf(ln.Start+last+2, "value %q of %s looks numeric but is not read; expected a number such as 42 or 0.5, as Envoy prints stats", val, line[:last])
			}
			continue
		}
		number(r, line[:last], val, ln.Start+last+2)
	}
	return r.Result()
}

// clusterSeparators returns the offsets of the "::" separators of a
// /clusters line that lie outside square brackets.
func clusterSeparators(line string) []int {
	var seps []int
	depth := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 && i+1 < len(line) && line[i+1] == ':' {
				seps = append(seps, i)
				i++
			}
		}
	}
	return seps
}
