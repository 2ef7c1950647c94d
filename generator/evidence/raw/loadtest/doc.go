// Package loadtest reads the output of HTTP and gRPC load testers: vegeta
// (text and JSON reports), wrk and wrk2, hey, oha, k6 (end-of-test summary
// and JSON), ghz (summary, JSON and InfluxDB lines) and fortio (result
// JSON and console text). Each reader is a raw.ListReader; package formats
// lists them under their format names ("vegeta", "wrk", "hey", "oha",
// "k6", "ghz", "fortio-json", "fortio-text").
//
// The readers build their readings with package raw's Recorder and
// tool-text helpers and follow the conventions of raw's readings.go; they
// import raw, raw/jsontree, diag and unit and no other reader package. Their
// tests and fuzz targets read through package formats (package
// loadtest_test, with raw/internal/rawtest's helpers); the golden samples
// are raw's testdata/tools, read by raw's TestToolSamples.
package loadtest
