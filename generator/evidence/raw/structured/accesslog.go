package structured

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// The Envoy and Istio access log reader ("envoy-access-log",
// ReadAccessLog). The conventions of every lab-format reader are in
// raw's readings.go.

// accessLogLine is a text access log line: the start time, the request
// line and the rest.
var accessLogLine = regexp.MustCompile(`^\[([^\]]+)\] "([^"]*)" (.*)$`)

// The operators of Envoy's default format and Istio's, after the start
// time and the request line, in order; "" marks a quoted field.
var (
	envoyLogFields = []string{"response_code", "response_flags", "bytes_received", "bytes_sent", "duration", "upstream_service_time",
		"x_forwarded_for", "user_agent", "request_id", "authority", "upstream_host"}
	istioLogFields = []string{"response_code", "response_flags", "response_code_details", "connection_termination_details",
		"upstream_transport_failure_reason", "bytes_received", "bytes_sent", "duration", "upstream_service_time",
		"x_forwarded_for", "user_agent", "request_id", "authority", "upstream_host", "upstream_cluster",
		"upstream_local_address", "downstream_local_address", "downstream_remote_address", "requested_server_name", "route_name"}
	// accessLogNumbers are the fields read as numbers.
	accessLogNumbers = map[string]bool{"response_code": true, "bytes_received": true, "bytes_sent": true, "duration": true, "upstream_service_time": true}
)

// ReadAccessLog reads Envoy or Istio access logs; format
// "envoy-access-log". A line in Envoy's default text format
//
//	[2020-11-25T21:26:18.409Z] "GET /status/418 HTTP/1.1" 418 - 0 135 4 4 "-" "curl/7.73.0" "id" "httpbin:8000" "10.44.1.27:80"
//
// or in Istio's (which adds %RESPONSE_CODE_DETAILS%,
// %CONNECTION_TERMINATION_DETAILS% and %UPSTREAM_TRANSPORT_FAILURE_REASON%
// after the response flags and the upstream cluster and addresses at the
// end), or a JSON access log line ({"response_code": 200, …}), gives the
// readings r<N>.start_time (the time of day of %START_TIME%, unit tod:
// 21:26:18.409 is 77178.409 s after midnight, as the log writes it,
// usually UTC), r<N>.response_code, r<N>.bytes_received (B),
// r<N>.bytes_sent (B), r<N>.duration (ms) and r<N>.upstream_service_time
// (ms, when not "-"), N counting log lines from 1; a JSON line gives each of its
// numbers (and numeric strings) as r<N>.<field> and its start_time as
// r<N>.start_time (tod), fields named *duration*
// or *_time in ms and bytes_* in B. With key = "FIELD" in the manifest a
// line is named by that field's value (a request id) instead of r<N>.
//
// count_where = { NAME = "PREDICATE" } counts the log lines an expr-lang
// predicate holds for, over the line's fields by the names above (or the
// JSON line's members): numbers as numbers, "-" as nil, others as
// strings: { ok = "response_code == 200", slow = "duration > 100",
// upstream_reset = "response_flags == 'UR'", all = "true" }. The count's
// Raw is the predicate, its Pos the first log line and its Inputs every
// matching line. Predicates have the CSV reader's bounds (1,000 syntax
// nodes, 1,000 elements built a line, no let or reduce()). A [[read]]
// with select (opt.Keep) keeps only the selected readings as the log is
// read, the others' tokens still counting as read, so a large log costs
// memory for what is selected, not for every number in it. Lines that are not access log lines (kubectl's echoed
// command, a transcript's notes) are not read: a number in one is a
// warning (rule evidence-number).
func ReadAccessLog(file string, src []byte, opt raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceAccessLog)
	if errs != nil {
		return nil, errs
	}
	type counter struct {
		name, pred string
		prog       *vm.Program
		inputs     []diag.Position
	}
	var counters []*counter
	names := make([]string, 0, len(opt.CountWhere))
	for name := range opt.CountWhere {
		names = append(names, name)
	}
	sort.Strings(names)
	// Every field a line can have is declared, so a field named like an
	// expr-lang builtin (duration) is the field.
	env := types.Map{"start_time": types.Any, "method": types.Any, "path": types.Any, "protocol": types.Any}
	for _, f := range istioLogFields {
		env[f] = types.Any
	}
	for _, ln := range raw.SplitLines(src) {
		if text := strings.TrimSpace(string(src[ln.Start:ln.End])); strings.HasPrefix(text, "{") {
			if obj, err := jsontree.Parse([]byte(text), 0, len(text), jsontree.AllowDupKeys); err == nil && obj.Kind == jsontree.Object {
				for _, m := range obj.Members {
					env[m.Key] = types.Any
				}
			}
		}
	}
	for _, name := range names {
		prog, err := compilePredicate(opt.CountWhere[name], expr.Env(env), expr.AllowUndefinedVariables(), expr.AsBool())
		if err != nil {
			r.Errorf(raw.TextStart(src), "count_where %q: cannot compile %s: %s; expected an expr-lang predicate over the log fields (response_code, response_flags, duration, …)", name, quoteCut(opt.CountWhere[name], quoteLen), firstLine(err.Error()))
			continue
		}
		counters = append(counters, &counter{name: name, pred: opt.CountWhere[name], prog: prog})
	}
	n, first := 0, -1
	var machine vm.VM
	for _, ln := range raw.SplitLines(src) {
		text := string(src[ln.Start:ln.End])
		fieldsOf, ok := accessLogFields(r, ln.Start, text)
		if !ok {
			continue
		}
		n++
		if first < 0 {
			first = ln.Start
		}
		name := fmt.Sprintf("r%d", n)
		if v, ok := fieldsOf[opt.Key].(string); opt.Key != "" && ok && v != "" {
			name = v
		}
		if opt.Key == "" {
			// Keys r<N>.… of different lines never meet: the repeated
			// keys add numbers are those of one line (a JSON line's
			// repeated member), so the counts start again each line.
			r.ForgetKeys()
		}
		before := r.Out.Len()
		env := map[string]any{}
		for k, f := range fieldsOf {
			if !strings.HasPrefix(k, "@") {
				env[k] = f
			}
		}
		for _, num := range logNumbers(r, name, ln.Start, text, fieldsOf) {
			env[num.field] = num.value
		}
		r.DropUnkept(before, opt)
		for _, c := range counters {
			ok, err := runPredicate(&machine, c.prog, env)
			if err != nil {
				r.Errorf(ln.Start, "count_where %q: %s fails on this line: %s; expected a predicate every log line can answer", c.name, quoteCut(c.pred, quoteLen), firstLine(err.Error()))
				c.prog = nil
				continue
			}
			if ok && c.prog != nil {
				c.inputs = append(c.inputs, r.Index.Pos(ln.Start))
			}
		}
	}
	if n == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no access log lines; expected Envoy's or Istio's default format ([START_TIME] \"METHOD PATH PROTOCOL\" CODE FLAGS …) or one JSON object per line")
		return r.Result()
	}
	for _, c := range counters {
		if c.prog == nil {
			continue
		}
		r.Out.Add(raw.Reading{Key: c.name, Number: raw.Number{Value: decimal.NewFromInt(int64(len(c.inputs))), End: len(c.pred)}, Raw: c.pred, Pos: r.Index.Pos(first), Inputs: c.inputs})
	}
	return r.Result()
}

// accessLogNum is a numeric field of a log line, as a predicate sees it.
type accessLogNum struct {
	field string
	value float64
}

// accessLogFields returns the fields of a log line at byte offset base:
// strings (nil for "-") keyed by field name, with each field's offset in
// an "@name" entry; false when text is not an access log line.
func accessLogFields(r *raw.Recorder, base int, text string) (map[string]any, bool) {
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "{") && strings.HasSuffix(trimmed, "}") {
		lead := strings.Index(text, trimmed)
		obj, errs := jsontree.ParseFile(r.Index, r.Src, base+lead, base+lead+len(trimmed), r.Rule)
		if errs != nil || obj.Kind != jsontree.Object {
			return nil, false
		}
		out := map[string]any{"@json": obj}
		for _, m := range obj.Members {
			if m.Val.Kind == jsontree.String {
				out[m.Key] = m.Val.Str
			}
		}
		return out, true
	}
	m := accessLogLine.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, false
	}
	out := map[string]any{"start_time": text[m[2]:m[3]], "@start_time": m[2]}
	req := strings.Fields(text[m[4]:m[5]])
	for i, k := range []string{"method", "path", "protocol"} {
		if i < len(req) {
			out[k] = dashNil(req[i])
		}
	}
	rest := text[m[6]:m[7]]
	var toks [][2]int // byte ranges in text, quotes excluded
	for i := 0; i < len(rest); {
		switch {
		case rest[i] == ' ':
			i++
		case rest[i] == '"':
			j := strings.IndexByte(rest[i+1:], '"')
			if j < 0 {
				return nil, false
			}
			toks = append(toks, [2]int{m[6] + i + 1, m[6] + i + 1 + j})
			i += j + 2
		default:
			j := strings.IndexByte(rest[i:], ' ')
			if j < 0 {
				j = len(rest) - i
			}
			toks = append(toks, [2]int{m[6] + i, m[6] + i + j})
			i += j
		}
	}
	layout := envoyLogFields
	if len(toks) > 2 {
		if _, ok := raw.ParseDecimal(text[toks[2][0]:toks[2][1]]); !ok {
			layout = istioLogFields
		}
	}
	for i, t := range toks {
		if i >= len(layout) {
			break
		}
		out[layout[i]] = dashNil(text[t[0]:t[1]])
		out["@"+layout[i]] = t[0]
	}
	return out, true
}

// logNumbers records the numeric fields of one log line under
// name and returns them for the predicates.
func logNumbers(r *raw.Recorder, name string, base int, text string, f map[string]any) []accessLogNum {
	var out []accessLogNum
	if obj, ok := f["@json"].(*jsontree.Node); ok {
		for _, m := range obj.Members {
			if m.Key == "start_time" && m.Val.Kind == jsontree.String {
				r.AddClock(name+".start_time", m.Val.Start+1, string(r.Src[m.Val.Start+1:m.Val.End-1]))
				continue
			}
			n := r.Out.Len()
			r.AddJSONNumber(name+"."+m.Key, m.Val)
			if a := r.Added(n); a != nil {
				a.Number.Unit = accessLogUnit(m.Key)
				v, _ := a.Number.Value.Float64()
				out = append(out, accessLogNum{m.Key, v})
			}
		}
		return out
	}
	if s, ok := f["start_time"].(string); ok {
		r.AddClock(name+".start_time", base+f["@start_time"].(int), s)
	}
	for _, k := range istioLogFields { // a superset of Envoy's fields
		s, ok := f[k].(string)
		off, at := f["@"+k].(int)
		if !ok || !at || !accessLogNumbers[k] {
			continue
		}
		n := r.Out.Len()
		r.AddNum(name+"."+k, base+off, s, "")
		if a := r.Added(n); a != nil {
			a.Number.Unit = accessLogUnit(k)
			v, _ := a.Number.Value.Float64()
			out = append(out, accessLogNum{k, v})
		}
	}
	return out
}

// accessLogUnit: durations in ms (%DURATION%, %RESPONSE_DURATION%,
// x-envoy-upstream-service-time), byte counts in B.
func accessLogUnit(field string) string {
	switch {
	case strings.Contains(field, "duration") || strings.HasSuffix(field, "_time"):
		return "ms"
	case strings.HasPrefix(field, "bytes_"):
		return "B"
	}
	return ""
}

// dashNil is nil for Envoy's "-" (no value), else s.
func dashNil(s string) any {
	if s == "-" {
		return nil
	}
	return s
}
