// Package loadtest reads the output of HTTP and gRPC load testers: vegeta
// (text and JSON reports), wrk and wrk2, hey, oha, k6 (end-of-test summary
// and JSON) and ghz (summary, JSON and InfluxDB lines). Each reader is a
// raw.ListReader; package formats lists them under their format names
// ("vegeta", "wrk", "hey", "oha", "k6", "ghz").
//
// The readers build their readings with package raw's Recorder and
// tool-text helpers and follow the conventions of raw's readings.go; they
// import raw and nothing else of evdoc but diag. Their tests and fuzz
// targets read through package formats and live in raw's external tests
// (tools_test.go, tools_fuzz_test.go).
package loadtest
