package loadtest

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// The ghz reader ("ghz", ReadGhz): ghz's JSON output (-O json, -O
// pretty), its InfluxDB line protocol output (-O influx-summary, -O
// influx-details) and its summary text (the default -O summary). The
// conventions of every lab-format reader are in readings.go.

// ghzInflux is an InfluxDB line: the measurement, its tags, its fields
// and an optional timestamp.
var ghzInflux = regexp.MustCompile(`^(ghz_\w+),`)

// ReadGhz reads ghz's output; format "ghz".
//
// JSON: every number by its path, as the json format does, with the
// latency distribution named by percentile: latencyDistribution[i] is
// latency.p<percentage> (ns) and latency.p<percentage>.percentage (%);
// count, total, average, fastest, slowest (ns), rps (/s),
// statusCodeDistribution.<status> and errorDistribution.<message>
// counts (the message, a name, in lower case with each run of other
// characters than letters and digits written "_": "rpc error: code =
// Internal desc = Internal error." is
// errorDistribution.rpc_error_code_internal_desc_internal_error; two
// messages that give one name are numbered, #2), histogram[i].mark (s), .count, .frequency, details[i].latency
// (ns), options.* as written.
//
// InfluxDB line protocol:
//
//	ghz_run,proto="/p.proto",call="g.S.M",n=1000,c=50,…,errors=74 count=1000,total=50000556,average=1771308,…,p95=4354194,errors=74 128802790
//
// gives each field by its name (count, total, average, fastest, slowest,
// median, p95 in ns; rps per second; errors), each numeric tag as
// tag.<name> (tag.n, tag.c, tag.timeout) and the timestamp as timestamp;
// a ghz_detail line gives detail.<field> (detail.latency in ns), numbered
// per line (#2, …).
//
// Summary text: as hey's (see ReadHey), with Count: read as count, times
// as written (ms) and histogram marks in ms.
func ReadGhz(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceGhz)
	if errs != nil {
		return nil, errs
	}
	switch {
	case raw.LooksJSON(src):
		root, errs := r.ParseWholeJSON()
		if errs != nil {
			return nil, errs
		}
		readGhzJSON(r, root)
		r.AttachUnits(ghzUnit)
	case ghzInflux.Match(src[raw.TextStart(src):]):
		for _, ln := range raw.SplitLines(src) {
			ghzInfluxLine(r, ln.Start, string(src[ln.Start:ln.End]))
		}
		r.AttachUnits(ghzUnit)
	default:
		readSummaryText(r, src, "ghz", "ms")
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no ghz values; expected ghz -O json, -O influx-summary or summary output")
	}
	return r.Result()
}

// readGhzJSON reads ghz's JSON report (see ReadGhz).
func readGhzJSON(r *raw.Recorder, root *jsontree.Node) {
	dist := root.Get("latencyDistribution")
	r.ReadJSONTree(root, func(path string, n *jsontree.Node) string {
		if msg, ok := strings.CutPrefix(path, "errorDistribution."); ok {
			return "errorDistribution." + raw.KeySlug(msg)
		}
		if !strings.HasPrefix(path, "latencyDistribution[") || dist == nil {
			return path
		}
		for _, e := range dist.Elems {
			pct := e.Get("percentage")
			if pct == nil || pct.Kind != jsontree.Number {
				continue
			}
			key := "latency." + raw.PctKey(string(r.Src[pct.Start:pct.End]))
			switch n {
			case e.Get("latency"):
				return key
			case pct:
				return key + ".percentage"
			}
		}
		return path
	})
}

// ghzInfluxLine reads one InfluxDB line at byte offset base.
func ghzInfluxLine(r *raw.Recorder, base int, text string) {
	m := ghzInflux.FindStringSubmatch(text)
	if m == nil {
		return
	}
	prefix := ""
	if m[1] != "ghz_run" {
		prefix = strings.TrimPrefix(m[1], "ghz_") + "."
	}
	// The sections: measurement and tags, fields, timestamp, split at
	// spaces outside quotes.
	var parts [][2]int
	start, quoted := 0, false
	for i := 0; i <= len(text); i++ {
		switch {
		case i < len(text) && text[i] == '\\':
			i++
		case i < len(text) && text[i] == '"':
			quoted = !quoted
		case i == len(text) || text[i] == ' ' && !quoted:
			if i > start {
				parts = append(parts, [2]int{start, i})
			}
			start = i + 1
		}
	}
	pairs := func(p [2]int, keyPrefix string) {
		seg := text[p[0]:p[1]]
		s, quoted := 0, false
		for i := 0; i <= len(seg); i++ {
			switch {
			case i < len(seg) && seg[i] == '\\':
				i++
			case i < len(seg) && seg[i] == '"':
				quoted = !quoted
			case i == len(seg) || seg[i] == ',' && !quoted:
				k, v, ok := strings.Cut(seg[s:i], "=")
				if ok && v != "" && v[0] != '"' {
					v = strings.TrimSuffix(v, "i")
					r.AddNum(keyPrefix+k, base+p[0]+s+len(k)+1, v, "")
				}
				s = i + 1
			}
		}
	}
	if len(parts) > 0 {
		first := text[parts[0][0]:parts[0][1]]
		if i := strings.IndexByte(first, ','); i >= 0 {
			pairs([2]int{parts[0][0] + i + 1, parts[0][1]}, prefix+"tag.")
		}
	}
	if len(parts) > 1 {
		pairs(parts[1], prefix)
	}
	if len(parts) > 2 {
		r.AddNum(prefix+"timestamp", base+parts[2][0], text[parts[2][0]:parts[2][1]], "")
	}
}

// ghzDurations are the ghz values in nanoseconds.
var ghzDurations = regexp.MustCompile(`^(?:detail\.)?(?:total|average|fastest|slowest|median|p\d+(?:_\d+)?|latency(?:\.p\d+(?:_\d+)?)?|details\[\d+\]\.latency)$`)

// ghzUnit: ghz writes durations in ns, histogram marks in s, rps per
// second.
func ghzUnit(key string) string {
	switch {
	case ghzDurations.MatchString(key):
		return "ns"
	case strings.HasSuffix(key, ".percentage"):
		return "%"
	case key == "rps":
		return "/s"
	case strings.HasPrefix(key, "histogram[") && strings.HasSuffix(key, "].mark"):
		return "s"
	}
	return ""
}
