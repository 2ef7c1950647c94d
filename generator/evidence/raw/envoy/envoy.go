package envoy

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// Readers of Envoy admin output. Four formats are read:
//
//	envoy-stats          /stats                   ReadEnvoyStats
//	envoy-stats-json     /stats?format=json       ReadEnvoyStatsJSON
//	envoy-clusters       /clusters                ReadEnvoyClusters
//	envoy-clusters-json  /clusters?format=json    ReadEnvoyClustersJSON
//
// Every reading's Raw is the exact bytes at its Pos (for a JSON string such
// as "12" that is the text between the quotes), its Number spans the whole
// of Raw (Start 0, End len(Raw)) and carries no unit except the
// milliseconds of a time histogram's quantiles (envoyUnit), and its value is the
// exact decimal written in the file: Envoy's own numbers are never passed
// through float64.
//
// Histograms. Envoy reports each histogram quantile (and each bucket) twice:
// over the last stats flush interval ("interval") and since the histogram
// was created ("cumulative"). The text form writes them as P50(a,b) with a
// the interval and b the cumulative value; JSON as {"interval": a,
// "cumulative": b}. Both readers name them the same way:
//
//	<histogram>.p<q>             the interval value of quantile q (p0 … p100)
//	<histogram>.p<q>.cumulative  the cumulative value of quantile q
//	<histogram>.b<u>             the interval count of the bucket with upper bound u
//	<histogram>.b<u>.cumulative  the cumulative count of that bucket
//	<histogram>.totals.<l>,<w>   histogram_buckets=detailed: the cumulative
//	<histogram>.intervals.<l>,<w>  / interval count of the bucket [l, l+w)
//
// q, u, l and w are the labels as Envoy wrote them, normalised as exact
// decimals ("P25.0" and 25 both give p25, "B3.6e+06" gives b3600000). An
// interval value is nan (text) or null (JSON) when no sample fell in the
// last interval, which is common in a snapshot; such a value gives no
// reading, so a lab that means the latency over the whole run should name
// the ".cumulative" key. Whether a ".b<u>" bucket counts the samples up to u
// (histogram_buckets=cumulative) or only those in (previous bound, u]
// (histogram_buckets=disjoint) depends on the query the lab ran; the file
// does not say.

// envoyRule is the diagnostic rule of every Envoy reader error.
const envoyRule = diag.EvidenceEnvoy

// envoyCapNote is the last diagnostic of a file with more than
// EnvoyMaxErrors errors.
const envoyCapNote = "more errors follow and are not shown; expected the file to be in the declared Envoy format"

// parseEnvoyNumber converts tok, which must be a machine number (IsMachineNumber: the syntax
// Envoy writes: integers, and doubles from fmt and its JSON streamer), into
// an exact decimal. Leading zeros of an exponent are ignored; compare
// ParseDecimal. The error says what was expected.
func parseEnvoyNumber(tok string) (decimal.Decimal, error) {
	if !raw.IsMachineNumber(tok) {
		return decimal.Decimal{}, fmt.Errorf("%q is not a number; expected digits with an optional sign, fraction and exponent", tok)
	}
	if i := strings.IndexAny(tok, "eE"); i >= 0 {
		e := strings.TrimLeft(strings.TrimLeft(tok[i+1:], "+-"), "0")
		if n, err := strconv.Atoi(e); e != "" && (err != nil || n > raw.MaxExponent) {
			return decimal.Decimal{}, fmt.Errorf("number %q has an exponent beyond ±%d; expected a value Envoy can write (uint64 or float64)", tok, raw.MaxExponent)
		}
	}
	v, err := decimal.NewFromString(tok)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("number %q: %v; expected a decimal number", tok, err)
	}
	return v, nil
}

// envoyNonFinite reports whether s is how fmt writes a NaN or an infinity.
func envoyNonFinite(s string) bool {
	switch s {
	case "nan", "-nan", "inf", "-inf", "+inf":
		return true
	}
	return false
}

// envoyLabel normalises a quantile or bucket label ("25", "25.0", "99.5",
// "3.6e+06") to its canonical decimal text.
func envoyLabel(raw string) (string, error) {
	v, err := parseEnvoyNumber(raw)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// newEnvoyRead checks src (see checkRawText) and prepares an Envoy reading.
func newEnvoyRead(file string, src []byte) (*raw.Recorder, diag.List) {
	return raw.NewRecorder(file, src, envoyRule, raw.EnvoyMaxErrors, envoyCapNote)
}

// number adds the reading key = raw, raw being the bytes of src at off. A
// raw that is not a number Envoy writes is an error; a repeated key is kept
// as it is.
func number(r *raw.Recorder, key, raw string, off int) {
	v, err := parseEnvoyNumber(raw)
	if err != nil {
		r.Errorf(off, "%s: %v", key, err)
		return
	}
	r.Push(key, off, raw, v, "")
}

// isBlankLine reports whether s holds only spaces and tabs.
func isBlankLine(s string) bool { return strings.Trim(s, " \t") == "" }

// JSON helpers of the two JSON readers (the parser is in jsonparse.go).

// parseEnvoyJSON checks and parses src, reporting a syntax error at the
// offending byte as "invalid JSON: …; expected …".
func parseEnvoyJSON(file string, src []byte) (*raw.Recorder, *jsontree.Node, diag.List) {
	r, errs := newEnvoyRead(file, src)
	if errs != nil {
		return nil, nil, errs
	}
	root, serr := jsontree.Parse(src, raw.TextStart(src), len(src), jsontree.RejectDupKeys)
	if serr != nil {
		return nil, nil, diag.List{diag.Errorf(r.Index.Pos(serr.Off), envoyRule, "invalid JSON: %s", serr.Msg)}
	}
	return r, root, nil
}

// jsonValue adds the reading key for a JSON value that Envoy writes as a
// number or, for uint64 and Nighthawk-style output, a numeric string. null
// and nan/inf strings give no reading; a non-numeric string gives none when
// text is true (a text readout) and is an error otherwise.
func jsonValue(r *raw.Recorder, key string, n *jsontree.Node, text bool) {
	switch n.Kind {
	case jsontree.Null:
	case jsontree.Number:
		number(r, key, string(r.Src[n.Start:n.End]), n.Start)
	case jsontree.String:
		inner := string(r.Src[n.Start+1 : n.End-1])
		switch {
		case raw.IsMachineNumber(inner):
			number(r, key, inner, n.Start+1)
		case envoyNonFinite(n.Str) || text:
		default:
			r.Errorf(n.Start, "%s: value %q is not a number; expected a number or a numeric string", key, n.Str)
		}
	default:
		r.Errorf(n.Start, "%s: value is %s; expected a number, a numeric string or null", key, n.Kind)
	}
}

// jsonName returns the "name" string of object n, reporting an error (and
// false) when it is missing or not a string. what names the object.
func jsonName(r *raw.Recorder, n *jsontree.Node, what string) (string, bool) {
	name := n.Get("name")
	switch {
	case name == nil:
		r.Errorf(n.Start, "%s has no \"name\"; expected {\"name\": \"…\", …}", what)
	case name.Kind != jsontree.String:
		r.Errorf(name.Start, "%s \"name\" is %s; expected a string", what, name.Kind)
	case name.Str == "":
		r.Errorf(name.Start, "%s \"name\" is empty; expected a stat name", what)
	default:
		return name.Str, true
	}
	return "", false
}

// jsonIs checks that n is of kind k, reporting an error otherwise.
func jsonIs(r *raw.Recorder, n *jsontree.Node, k jsontree.Kind, what string) bool {
	if n.Kind != k {
		r.Errorf(n.Start, "%s is %s; expected %s", what, n.Kind, k)
		return false
	}
	return true
}

// jsonLabels reads a supported_quantiles / supported_percentiles array.
func jsonLabels(r *raw.Recorder, n *jsontree.Node, what string) ([]string, bool) {
	if n == nil {
		return nil, false
	}
	if !jsonIs(r, n, jsontree.Array, what) {
		return nil, false
	}
	labels := make([]string, 0, len(n.Elems))
	for _, e := range n.Elems {
		var tok string
		switch e.Kind {
		case jsontree.Number:
			tok = string(r.Src[e.Start:e.End])
		case jsontree.String:
			tok = e.Str
		default:
			r.Errorf(e.Start, "%s entry is %s; expected a number", what, e.Kind)
			return nil, false
		}
		l, err := envoyLabel(tok)
		if err != nil {
			r.Errorf(e.Start, "%s entry: %v", what, err)
			return nil, false
		}
		labels = append(labels, l)
	}
	return labels, true
}

// envoyTimeHistogram matches the quantile readings of an Envoy histogram
// in milliseconds: a stat whose name ends in _ms (upstream_cx_length_ms)
// or is a request time (downstream_rq_time, upstream_rq_time, rq_time),
// which Envoy records in milliseconds; every quantile, p99.5 and p99.9
// (p99_5 in JSON) as well as p50. Bucket counts are counts.
var envoyTimeHistogram = regexp.MustCompile(`(?:_ms|(?:^|[._])rq_time)\.p[0-9]+(?:[._][0-9]+)*(?:\.cumulative)?$`)

// envoyUnit attaches milliseconds to the quantiles of Envoy's time
// histograms (see envoyTimeHistogram).
func envoyUnit(key string) string {
	if envoyTimeHistogram.MatchString(key) {
		return "ms"
	}
	return ""
}
