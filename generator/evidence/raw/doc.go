// Package raw reads the raw files of lab test reports into Readings: a key
// in the format's own naming, an exact decimal number, the raw token text
// and its position.
//
// It holds the core every reader shares: Reading, ReadOptions and the
// Reader and ListReader types; Readings, the compact list of a file's
// readings (list.go); exact numbers and decimal marks (number.go) and the
// units formats define (units.go); the Recorder a reader adds readings
// and diagnostics to (readings.go); the JSON tree with positions
// (jsonparse.go); the helpers of tools' text output (tooltext.go); the
// sweep that turns every number a reader leaves unread into a warning
// (Account, unread.go); Sniff, which guesses a file's format from its
// name and content; and windowed reading of large files (windowed.go).
//
// It also holds the readers not yet in a reader package of their own:
// Markdown report tables, key=value transcripts, fortio JSON and text,
// CSV, generic JSON, istioctl tables, Prometheus text, Envoy/Istio access
// logs and the pattern format. The load testers' readers are in package
// loadtest, the Envoy admin dumps' in package envoy, those of
// command-line tools' output (curl -w, dig, ping, mtr, time, kubectl,
// docker stats) in package cmdtools, and go test -bench's and
// benchstat's in package gobench.
//
// Reader packages import raw; raw imports no reader package. Reading a
// file by format name (the table of every format, ReaderFor) is package
// formats' job, the one package that imports every reader package, so
// that raw needs no registry the reader packages fill. Readers never
// panic and report every problem as a positioned diagnostic; naming
// readings as evidence values (the manifest, the store and derived values)
// is package evidence's job.
package raw
