// Package raw reads the raw files of lab test reports — Markdown report
// tables, key=value transcripts, Envoy admin dumps (/stats, /clusters, text
// and JSON), fortio JSON and text, curl -w write-out, CSV, generic JSON,
// istioctl tables, dig output, Prometheus text, and the output of load
// testers and system tools (vegeta, wrk/wrk2, hey, k6, ghz, go test
// -bench, benchstat, time, kubectl, Envoy/Istio access logs, ping, mtr;
// tooltext.go) — into Readings: a key in the format's own
// naming, an exact decimal number, the raw token text and its position.
//
// Each format is a Reader listed by Formats and returned by ReaderFor;
// Sniff guesses a file's format from its name and content. Readers never
// panic and report every problem as a positioned diagnostic; naming
// readings as evidence values (the manifest, the store and derived values)
// is package evidence's job.
package raw
