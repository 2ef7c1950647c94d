// Package cmdtools reads the text (and JSON) that command-line tools
// print: curl -w write-out ("curl-writeout"), dig ("dig"), ping and mtr
// ("ping", "mtr"), time and GNU time -v ("time"), kubectl top, get and
// describe ("kubectl") and docker stats ("docker-stats"). Each reader is
// a raw.ListReader; package formats lists them under those format names.
//
// The readers build their readings with package raw's Recorder, units and
// tool-text helpers (the timestamped snapshots kubectl and docker stats
// repeat are snapClock, snapshots.go) and follow the conventions of raw's
// readings.go; they import raw and nothing else of evdoc but diag and
// unit. Their tests and fuzz targets read through package formats and
// live in raw's external tests (curlwriteout_test.go, dig_test.go,
// dockerstats_test.go, tools_test.go, tools_fuzz_test.go).
package cmdtools
