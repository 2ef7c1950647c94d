package formats

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/cmdtools"
)

// Sniff, which guesses the format of a raw file.

// The text shapes Sniff looks for: a transcript section line, a
// /clusters line, dig output, fortio result lines, and an Envoy /stats
// line (with a numeric value).
var (
	sniffSection        = regexp.MustCompile(`(?m)^\[[^\]\s]+\]`)
	sniffClusters       = regexp.MustCompile(`(?m)^[^\s:]+::\S+::\S`)
	sniffDig            = regexp.MustCompile(`(?m)^;; (?:Query time:|ANSWER SECTION:)`)
	sniffPrometheus     = regexp.MustCompile(`(?m)^(?:# (?:TYPE|HELP) [a-zA-Z_:]|[a-zA-Z_:][a-zA-Z0-9_:]*\{[a-zA-Z_][a-zA-Z0-9_]*="[^\n]*\} \S+\r?$)`)
	sniffFortio         = regexp.MustCompile(`(?m)^(?:Code -?\d+ : \d+|All done \d+ calls)`)
	sniffEnvoyStat      = regexp.MustCompile(`^[A-Za-z_][^\s:]*\.[^\s:]*:(?:\s.*)?$`)
	sniffEnvoyStatValue = regexp.MustCompile(`^[A-Za-z_][^\s:]*\.[^\s:]*: (?:-?\d|P[0-9.]+\(|B[0-9.e+]+\(|No recorded values)`)
)

// Sniff returns the most likely format name (see Formats) for a raw file
// called name holding src. By extension: .md is "markdown-tables", .csv is
// "csv". JSON (a .json file, or content that is valid JSON): "fortio-json"
// when it holds "RetCodes", "envoy-clusters-json" when it holds
// "cluster_statuses" (or host_statuses/hostStatuses: the bare array
// istioctl prints), "envoy-stats-json" when it has a top-level "stats" or
// "histograms" member or is an array of {"name", "value"} objects (jq
// '.stats'), else "json". Text: "transcript" when it has "[ID] title"
// section lines, "envoy-clusters" for "cluster::host::stat::value" lines,
// "prometheus" for "# TYPE"/"# HELP" lines or name{label="v"} samples,
// "dig" for ";; Query time" or an answer section, "fortio-text" for
// "Code 200 :" or "All done" lines, "curl-writeout" when it mentions
// time_total or time_namelookup, "istioctl-table" for an upper-case column
// header followed by a row, "envoy-stats" when most lines are dotted
// "name: value" stats, and "transcript" otherwise. Sniff never fails; a
// reader still checks the file.
func Sniff(name string, src []byte) string {
	src = src[raw.TextStart(src):] // offsets do not matter here
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".md", ".markdown":
		return "markdown-tables"
	case ".csv":
		return "csv"
	}
	if ext == ".json" || json.Valid(src) {
		switch {
		case bytes.Contains(src, []byte(`"RetCodes"`)):
			return "fortio-json"
		case bytes.Contains(src, []byte(`"cluster_statuses"`)) || bytes.Contains(src, []byte(`"host_statuses"`)) || bytes.Contains(src, []byte(`"hostStatuses"`)):
			return "envoy-clusters-json"
		case topLevelKeys(src)["stats"], topLevelKeys(src)["histograms"], isStatsArray(src):
			return "envoy-stats-json"
		}
		if f := sniffToolJSON(src); f != "" {
			return f
		}
		return "json"
	}
	if f := sniffTool(src); f != "" && !hasTranscriptSection(src) {
		return f
	}
	switch {
	case sniffSection.Match(src):
		return "transcript"
	case sniffClusters.Match(src):
		return "envoy-clusters"
	case sniffPrometheus.Match(src):
		return "prometheus"
	case sniffDig.Match(src):
		return "dig"
	case sniffFortio.Match(src):
		return "fortio-text"
	case bytes.Contains(src, []byte("time_total")) || bytes.Contains(src, []byte("time_namelookup")):
		return "curl-writeout"
	}
	lines := raw.SplitLines(src)
	for i, ln := range lines {
		if cmdtools.IsIstioHeader(string(src[ln.Start:ln.End])) && i+1 < len(lines) && strings.TrimSpace(string(src[lines[i+1].Start:lines[i+1].End])) != "" {
			return "istioctl-table"
		}
	}
	stat, withValue, other := 0, 0, 0
	prevStat := false
	for _, ln := range lines {
		text := string(src[ln.Start:ln.End])
		switch {
		case strings.TrimSpace(text) == "":
			continue
		case sniffEnvoyStat.MatchString(text):
			stat++
			prevStat = true
			if sniffEnvoyStatValue.MatchString(text) {
				withValue++
			}
		case prevStat && (text[0] == ' ' || text[0] == '\t'):
			stat++
		default:
			other++
			prevStat = false
		}
	}
	if stat > 0 && stat >= other && (withValue > 0 || stat > 1) {
		return "envoy-stats"
	}
	return "transcript"
}

// topLevelKeys lists the member names of a top-level JSON object,
// tolerating syntax errors after them (Envoy's documentation publishes
// invalid JSON).
func topLevelKeys(src []byte) map[string]bool {
	keys := map[string]bool{}
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return keys
			}
			if depth == 1 {
				k := j + 1
				for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
					k++
				}
				if k < len(src) && src[k] == ':' {
					keys[string(src[i+1:j])] = true
				}
			}
			i = j
		}
	}
	return keys
}

// isStatsArray reports whether src is a JSON array whose first element is
// an object with "name" and "value" members, as jq '.stats' prints Envoy
// stats.
func isStatsArray(src []byte) bool {
	var list []map[string]json.RawMessage
	if json.Unmarshal(src, &list) != nil || len(list) == 0 {
		return false
	}
	_, name := list[0]["name"]
	_, value := list[0]["value"]
	return name && value
}
