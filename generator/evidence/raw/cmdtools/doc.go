// Package cmdtools reads the text (and JSON) that command-line tools
// print: curl -w write-out ("curl-writeout"), dig ("dig"), ping and mtr
// ("ping", "mtr"), time and GNU time -v ("time"), kubectl top, get and
// describe ("kubectl"), docker stats ("docker-stats") and istioctl's
// tables ("istioctl-table"). Each reader is a raw.ListReader; package
// formats lists them under those format names.
//
// The readers build their readings with package raw's Recorder, units and
// tool-text helpers (the timestamped snapshots kubectl and docker stats
// repeat are snapClock, snapshots.go) and follow the conventions of raw's
// readings.go; they import raw and nothing else of evdoc but diag and
// unit. Their tests and fuzz targets read through package formats
// (package cmdtools_test, with raw/internal/rawtest's helpers); the
// golden samples are raw's testdata/tools, read by raw's TestToolSamples.
package cmdtools
