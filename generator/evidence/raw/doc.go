// Package raw reads the raw files of lab test reports into Readings: a key
// in the format's own naming, an exact decimal number, the raw token text
// and its position.
//
// It holds the core every reader shares: Reading, ReadOptions and the
// Reader and ListReader types; Readings, the compact list of a file's
// readings (list.go); exact numbers and decimal marks (number.go) and
// units (units.go); the Recorder a reader adds readings and diagnostics
// to (readings.go); the helpers of tools' text output (tooltext.go); the
// text checks and line splitting of every raw file (text.go); the sweep
// that turns every number a reader leaves unread into a warning (Account,
// unread.go); and windowed reading of large files (windowed.go).
//
// The readers are in packages of their own, each named for its job:
// structured (CSV, JSON, Prometheus text, access logs, the pattern
// format), labreport (Markdown report tables, transcripts), loadtest
// (vegeta, wrk, hey, oha, k6, ghz, fortio), envoy (Envoy admin dumps),
// cmdtools (curl -w, dig, ping, mtr, time, kubectl, docker stats,
// istioctl tables) and gobench (go test -bench, benchstat). The JSON
// parser with positions is package jsontree, which raw imports.
//
// Reader packages import raw; raw imports no reader package. Reading a
// file by format name (the table of every format, ReaderFor), each
// format's data lines for the sweep and sniffing a file's format are
// package formats' job, the one package that imports every reader
// package, so that raw needs no registry the reader packages fill.
// Readers never panic and report every problem as a positioned
// diagnostic; naming readings as evidence values (the manifest, the store
// and derived values) is package evidence's job.
package raw
